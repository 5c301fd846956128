"""Issue 28, F9: nicknames that look blank, mix look-alike letters of two scripts, or are a
friend's name at the same table were accepted."""

from __future__ import annotations

import pytest

from app.web import nickname
from app.web.nickname import NicknameInvalid, clean_nickname, nickname_key


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Lan Anh", "Lan Anh"),
        ("Đức", "Đức"),
        ("Nguyễn", "Nguyễn"),
        ("Nguye\u0302\u0303n", "Nguyễn"),  # typed with combining accents: kept composed
        ("  Bé   Na ", "Bé Na"),
        ("Lan\u00a0Anh", "Lan Anh"),  # a no-break space is a space
        ("Ｌａｎ", "Lan"),  # full-width letters are letters
        ("佐々木", "佐々木"),  # Japanese: Han and its iteration mark
        ("山田たろう", "山田たろう"),  # Han with Hiragana
        ("김민준", "김민준"),
        ("Иван", "Иван"),
        ("007", "007"),
        ("Lan ♥", "Lan ♥"),
        ("<b>Bé</b>&x", "<b>Bé</b>&x"),
    ],
)
def test_names_people_use_are_kept(raw, kept):
    assert clean_nickname(raw) == kept


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("\u2800", nickname.INVISIBLE),  # braille pattern blank
        ("\u3164", nickname.INVISIBLE),  # Hangul filler, a "letter" for Unicode
        ("\u115f\u1160", nickname.INVISIBLE),
        ("Lan\u3164", nickname.INVISIBLE),  # looks like "Lan"
        ("Lan\ufe0f", nickname.INVISIBLE),  # a variation selector
        ("An\u2028h", nickname.CONTROL),  # a line separator
        ("A\u200bn", nickname.CONTROL),  # a zero-width space
        ("!!!", nickname.NO_LETTER),
        ("♥ ★", nickname.NO_LETTER),
        ("\u0410lice", nickname.MIXED),  # a Cyrillic А
        ("Ρaul", nickname.MIXED),  # a Greek Ρ
        ("Lan 山", nickname.MIXED),
        ("\u0301Lan", nickname.MARKS),
        ("La\u0301\u0301\u0301\u0301n", nickname.MARKS),
        ("   ", nickname.EMPTY),
        ("x" * 21, nickname.TOO_LONG),
    ],
)
def test_blank_looking_and_mixed_script_names_are_refused(raw, reason):
    with pytest.raises(NicknameInvalid) as refused:
        clean_nickname(raw)
    assert refused.value.reason == reason


def test_the_same_name_whatever_its_case_and_form():
    assert nickname_key("LAN  anh") == nickname_key("lan Anh") == nickname_key("Ｌａｎ Anh")
    assert nickname_key("STRASSE") == nickname_key("straße")
    assert nickname_key("Lan") != nickname_key("Lân")
