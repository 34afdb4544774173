"""The rules engine is pure Python: nothing in scorekeeper/scoring may import Django.

The test process itself has Django loaded (pytest-django), so the import is
checked in a fresh interpreter.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper" / "scoring"

PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
import scorekeeper.scoring as package
names = [package.__name__]
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
    names.append(info.name)
print(json.dumps({{
    "imported": names,
    "django": sorted(m for m in sys.modules if m == "django" or m.startswith("django")),
}}))
"""


def test_importing_the_engine_does_not_import_django():
    # -I: isolated mode, no PYTHONPATH / user site / cwd on sys.path, no
    # DJANGO_SETTINGS_MODULE from the environment can matter.
    completed = subprocess.run(
        [sys.executable, "-I", "-c", PROBE.format(root=str(ROOT))],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    # every module of the package was really imported, the CLI included
    expected = {"scorekeeper.scoring." + p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    assert expected <= set(report["imported"])
    assert "scorekeeper.scoring.__main__" in report["imported"]
    assert report["django"] == []


DJANGO_IMPORT = re.compile(
    r"^\s*(import\s+django\b|from\s+django\b|import\s+.*\bdjango\b)|__import__\(\s*['\"]django|import_module\(\s*['\"]django",
    re.MULTILINE,
)


def test_no_django_import_in_the_source():
    sources = sorted(PACKAGE.rglob("*.py"))
    assert len(sources) >= 7
    offenders = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0).strip()}"
        for path in sources
        for text in [path.read_text(encoding="utf-8")]
        for match in DJANGO_IMPORT.finditer(text)
    ]
    assert offenders == []


def test_the_scan_would_catch_an_import():
    for line in ["import django", "from django.db import models", "  from django import forms", "import os, django"]:
        assert DJANGO_IMPORT.search(line), line
    for line in ["# no Django here", "djangoish = 1", "'''Pure Python: no Django import.'''"]:
        assert not DJANGO_IMPORT.search(line), line
