"""The catalogs are complete, and the check that says so fails when they are not."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
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


SHUFFLE = 'msgid "Shuffle again"\nmsgstr ""'
TURNED = 'msgid "Turned over %(card)s again"\nmsgstr ""'


@pytest.mark.parametrize(
    ("english", "vietnamese", "said"),
    [
        (SHUFFLE, SHUFFLE, "vi/core.po: untranslated: 'Shuffle again'"),
        (SHUFFLE, '#, fuzzy\nmsgid "Shuffle again"\nmsgstr "Xáo lại"', "vi/core.po: fuzzy"),
        (None, 'msgid "Shuffle again"\nmsgstr "Xáo lại"', "en/core.po: missing 'Shuffle again'"),
        (TURNED, TURNED.replace('""', '"Lại lật %(cards)s"'), "placeholders ['%(cards)s']"),
    ],
    ids=["untranslated", "fuzzy", "one language only", "lost placeholder"],
)
def test_a_bad_entry_fails_the_check(tmp_path, english, vietnamese, said):
    locales = copy_of_the_catalogs(tmp_path)
    if english:
        add(locales, "en", english)
    add(locales, "vi", vietnamese)
    result = run_check(locales)
    assert result.returncode == 1
    assert said in result.stdout


def test_a_message_the_code_asks_for_must_be_in_a_catalog(tmp_path):
    locales = copy_of_the_catalogs(tmp_path)
    for lang in ("en", "vi"):
        po = locales / lang / "LC_MESSAGES" / "api.po"
        text = po.read_text(encoding="utf-8")
        po.write_text(text.replace(f'msgid "{ASKED}"', 'msgid "Gone."'))
    result = run_check(locales)
    assert result.returncode == 1
    assert f"no catalog holds the message {ASKED!r}" in result.stdout
