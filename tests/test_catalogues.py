"""The Urdu and Sindhi catalogues are complete: no screen is half in English.

For each of locale/ur and locale/sd:

* every message is translated and none is fuzzy (plural forms included);
* the compiled .mo (committed, so a fresh clone runs without gettext) says
  exactly what its .po says;
* a fresh ``makemessages`` over the sources (run in a copy of the project)
  finds no message the .po lacks: a text added or changed in a template, a
  script's banner (templates/partials/js_texts.html) or the Python code
  without updating the catalogues fails here.

Needs gettext's tools (xgettext, msgmerge) for the last one: ``apt-get
install gettext`` (bin/test installs it under CI=true)."""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("ur", "sd")
SOURCES = ("config", "scorekeeper", "templates", "manage.py")  # what makemessages reads
IGNORED = ("--ignore=.venv", "--ignore=tests", "--ignore=bench", "--ignore=staticfiles")


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    obsolete: bool = False

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}\x04{self.msgid}"

    @property
    def translated(self) -> bool:
        forms = 2 if self.msgid_plural is not None else 1
        return not self.fuzzy and all(self.msgstr.get(i) for i in range(forms))


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header left out)."""
    entries, entry, target = [], Entry(), None

    def close():
        nonlocal entry
        if entry.msgid or entry.msgstr or entry.msgctxt:
            entries.append(entry)
        entry = Entry()

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if line.startswith("#~"):
            entry.obsolete = True
            continue
        if not line:
            close()
            target = None
            continue
        if line.startswith("#,"):
            entry.fuzzy = entry.fuzzy or "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            text = ast.literal_eval(line)
        else:
            if keyword in ("msgid", "msgctxt") and (entry.msgstr or (keyword == "msgctxt" and entry.msgid)):
                close()  # entries not separated by a blank line
            target, text = keyword, ast.literal_eval(rest)
            if target.startswith("msgstr"):
                entry.msgstr.setdefault(int(target[7:-1]) if "[" in target else 0, "")
        if target == "msgid":
            entry.msgid += text
        elif target == "msgctxt":
            entry.msgctxt = (entry.msgctxt or "") + text
        elif target == "msgid_plural":
            entry.msgid_plural = (entry.msgid_plural or "") + text
        elif target and target.startswith("msgstr"):
            index = int(target[7:-1]) if "[" in target else 0
            entry.msgstr[index] += text
    return [e for e in entries if e.msgid and not e.obsolete]


def po_path(lang: str, root: Path = ROOT) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / "django.po"


def listed(entries: list[Entry], limit: int = 25) -> str:
    shown = "\n".join(f"  {e.msgctxt + ' | ' if e.msgctxt else ''}{e.msgid[:100]!r}" for e in entries[:limit])
    more = f"\n  ... and {len(entries) - limit} more" if len(entries) > limit else ""
    return shown + more


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    entries = read_po(po_path(lang))
    assert len(entries) > 300  # the catalogue holds the app's messages, not a stub
    fuzzy = [e for e in entries if e.fuzzy]
    untranslated = [e for e in entries if not e.fuzzy and not e.translated]
    assert not fuzzy and not untranslated, (
        f"locale/{lang}: {len(untranslated)} of {len(entries)} messages untranslated, {len(fuzzy)} fuzzy.\n"
        f"Untranslated:\n{listed(untranslated)}\nFuzzy:\n{listed(fuzzy)}"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_says_what_its_po_says(lang):
    mo = po_path(lang).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run manage.py compilemessages and commit it"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog
    expected = {}
    for e in read_po(po_path(lang)):
        if not e.translated:
            continue  # msgfmt leaves out what is untranslated or fuzzy
        if e.msgid_plural is None:
            expected[e.key] = e.msgstr[0]
        else:
            for i, text in e.msgstr.items():
                expected[(e.key, i)] = text
    compiled = {k: v for k, v in compiled.items() if k != ""}  # the header
    differ = {k for k in expected if compiled.get(k) != expected[k]}
    stale = sorted(str(k) for k in (set(expected) ^ set(compiled)) | differ)
    assert not stale, f"locale/{lang}: django.mo is older than django.po (compilemessages): {stale[:10]}"


@pytest.fixture(scope="module")
def fresh_catalogues(tmp_path_factory) -> Path:
    """The project's sources and catalogues copied, and makemessages run over them."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("gettext is not installed (apt-get install gettext): makemessages cannot run")
    copy = tmp_path_factory.mktemp("makemessages")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / name)
    shutil.copytree(ROOT / "locale", copy / "locale")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "LANGUAGES": "en,ur,sd"}
    run = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *(f"-l{lang}" for lang in LANGUAGES), *IGNORED],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    return copy


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_holds_every_message_of_the_sources(fresh_catalogues, lang):
    committed = {e.key for e in read_po(po_path(lang))}
    fresh = read_po(po_path(lang, fresh_catalogues))
    missing = [e for e in fresh if e.key not in committed]
    gone = sorted(committed - {e.key for e in fresh})
    assert not missing, (
        f"locale/{lang}/LC_MESSAGES/django.po is older than the sources: a fresh makemessages adds "
        f"{len(missing)} message(s):\n{listed(missing)}"
    )
    assert not gone, f"locale/{lang}: {len(gone)} message(s) no longer in the sources (makemessages): {gone[:10]}"
