"""The catalogs are complete, and the check that says so fails when they are not."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from catalog_check import LOCALES, catalog_problems, unknown_messages

CHECK = Path(__file__).with_name("catalog_check.py")
ASKED = "A card is its rank and suit, like 10H, QS or 2C."  # the Hearts API asks for it


def test_no_untranslated_fuzzy_or_unknown_message():
    assert list(catalog_problems()) == []
    assert list(unknown_messages()) == []


def run_check(locales: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CHECK), str(locales)], capture_output=True, text=True, check=False
    )


def copy_of_the_catalogs(tmp_path: Path) -> Path:
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES, locales)
    assert run_check(locales).returncode == 0
    return locales


def add(locales: Path, lang: str, entry: str) -> None:
    with (locales / lang / "LC_MESSAGES" / "core.po").open("a", encoding="utf-8") as po:
        po.write("\n" + entry + "\n")


def test_an_untranslated_message_fails_the_check(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    add(locales, "en", 'msgid "Shuffle again"\nmsgstr ""')
    add(locales, "vi", 'msgid "Shuffle again"\nmsgstr ""')
    result = run_check(locales)
    assert result.returncode == 1
    assert "vi/core.po: untranslated: 'Shuffle again'" in result.stdout


def test_a_fuzzy_message_fails_the_check(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    add(locales, "en", 'msgid "Shuffle again"\nmsgstr ""')
    add(locales, "vi", '#, fuzzy\nmsgid "Shuffle again"\nmsgstr "Xáo lại"')
    result = run_check(locales)
    assert result.returncode == 1
    assert "vi/core.po: fuzzy: 'Shuffle again'" in result.stdout


def test_a_message_in_one_language_only_fails_the_check(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    add(locales, "vi", 'msgid "Shuffle again"\nmsgstr "Xáo lại"')
    result = run_check(locales)
    assert result.returncode == 1
    assert "en/core.po: missing 'Shuffle again' (it is in vi)" in result.stdout


def test_a_lost_placeholder_fails_the_check(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    add(locales, "en", 'msgid "Turned over %(card)s again"\nmsgstr ""')
    add(locales, "vi", 'msgid "Turned over %(card)s again"\nmsgstr "Lại lật %(cards)s"')
    result = run_check(locales)
    assert result.returncode == 1
    assert "placeholders ['%(cards)s']" in result.stdout


def test_a_message_the_code_asks_for_must_be_in_a_catalog(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    for lang in ("en", "vi"):
        po = locales / lang / "LC_MESSAGES" / "api.po"
        text = po.read_text(encoding="utf-8")
        po.write_text(text.replace(f'msgid "{ASKED}"', 'msgid "Gone."'))
    result = run_check(locales)
    assert result.returncode == 1
    assert f"no catalog holds the message {ASKED!r}" in result.stdout
