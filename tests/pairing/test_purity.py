"""The tournament logic is pure Python: nothing in scorekeeper/pairing may
import Django. The test process has Django loaded (pytest-django), so every
module is imported in a fresh interpreter."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper" / "pairing"
MODULES = sorted("scorekeeper.pairing." + p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")

PROBE = """
import importlib, json, sys
sys.path.insert(0, {root!r})
importlib.import_module({name!r})
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def test_every_module_is_there():
    assert {"round_robin", "swiss", "seating", "standings"} <= {m.rsplit(".", 1)[1] for m in MODULES}


def test_importing_each_module_does_not_import_django():
    for name in ["scorekeeper.pairing", *MODULES]:
        completed = subprocess.run(
            [sys.executable, "-I", "-c", PROBE.format(root=str(ROOT), name=name)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout) == [], name


DJANGO_IMPORT = re.compile(
    r"^\s*(import|from)\s+django\b|import_module\(\s*['\"]django|__import__\(\s*['\"]django", re.M
)


def test_no_django_import_in_the_source():
    sources = sorted(PACKAGE.rglob("*.py"))
    assert len(sources) >= 5
    for path in sources:
        assert not DJANGO_IMPORT.search(path.read_text()), path
