"""Nicknames: the name a browser shows on results boards and at tables, kept in its profile.

A name is read the way people will see it (issue 28, F9). It is put in NFKC form (full-width
and "mathematical" letters become plain ones, odd spaces a plain space) with its spaces
collapsed, and then it must:

- hold no control or format character, and nothing that draws as blank (the Hangul fillers,
  the braille blank, variation selectors), so that no name looks empty or like another one
  with something invisible added;
- hold at least one letter or digit;
- put at most two combining marks on a character, and none on a space or on nothing (marks
  stacked high draw over the names around them);
- take its letters from one script: Latin (Vietnamese with all its diacritics is Latin),
  Cyrillic, Greek, Han, …, with Han beside Hiragana and Katakana (Japanese) or Hangul
  (Korean) or Bopomofo, as Unicode's UTS 39 allows. Digits, spaces, punctuation and symbols
  go with any script (only letters decide it). "Аlice" with a Cyrillic А is refused. The
  standard library has no script property, so a letter's script is the first word of its
  Unicode name ("LATIN SMALL LETTER D WITH STROKE", "CYRILLIC CAPITAL LETTER A", "CJK UNIFIED
  IDEOGRAPH"; "IDEOGRAPHIC ITERATION MARK", the 々 of 佐々木, is Han too).

Two names are the same name (:func:`nickname_key`) when they are equal after NFKC and case
folding: a table seats no two people under one name.
"""

from __future__ import annotations

import unicodedata

NICKNAME_MAX = 20


class NicknameInvalid(ValueError):
    """A nickname that cannot be used; ``reason`` is the English text, to translate."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# The reasons, as msgids (marked for the catalogs where they are translated).
EMPTY = "A nickname needs at least one character."
TOO_LONG = "A nickname has at most 20 characters."
CONTROL = "A nickname cannot hold control characters."
INVISIBLE = "A nickname cannot hold characters that show as blank."
NO_LETTER = "A nickname needs at least one letter or digit."
MIXED = "A nickname takes its letters from one alphabet: no look-alike letters of another."
MARKS = "A nickname puts at most two accents on a letter, and none on their own."
MARKS_PER_CHARACTER = 2

# Letters and symbols that draw as nothing (NFKC leaves them as they are).
_BLANK = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (letters, for Unicode)
    "\u2800"  # braille pattern blank
    "\u17b4\u17b5\u034f"  # Khmer inherent vowels, combining grapheme joiner
) | frozenset(map(chr, range(0xFE00, 0xFE10))) | frozenset(map(chr, range(0xE0100, 0xE01F0)))
_NOT_ALLOWED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
# Scripts that one name may mix (UTS 39: Japanese, Korean, Chinese with Bopomofo).
_MIXES = (
    frozenset(("CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA")),
    frozenset(("CJK", "HANGUL")),
    frozenset(("CJK", "BOPOMOFO")),
)


def clean_nickname(raw: str) -> str:
    """``raw`` as it is kept and shown (NFKC, spaces collapsed): 1 to NICKNAME_MAX characters
    that pass the checks of the module's docstring; raises NicknameInvalid."""
    name = unicodedata.normalize("NFKC", raw).strip()
    if any(unicodedata.category(c) in _NOT_ALLOWED for c in name):
        raise NicknameInvalid(CONTROL)
    name = " ".join(part for part in name.split(" ") if part)
    if not name:
        raise NicknameInvalid(EMPTY)
    if len(name) > NICKNAME_MAX:
        raise NicknameInvalid(TOO_LONG)
    if any(c in _BLANK or (c.isspace() and c != " ") for c in name):
        raise NicknameInvalid(INVISIBLE)
    marks, previous = 0, " "
    for char in name:
        marks = marks + 1 if unicodedata.category(char)[0] == "M" else 0
        if marks and (previous == " " or marks > MARKS_PER_CHARACTER):
            raise NicknameInvalid(MARKS)
        previous = char
    scripts = {_script(c) for c in name if c.isalpha()}
    if not scripts and not any(c.isdigit() for c in name):
        raise NicknameInvalid(NO_LETTER)
    if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXES):
        raise NicknameInvalid(MIXED)
    return name


def nickname_key(name: str) -> str:
    """What two names that are the same name share: NFKC, case folded, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def _script(letter: str) -> str:
    """The script of a letter: the first word of its Unicode name."""
    word = unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]
    return "CJK" if word == "IDEOGRAPHIC" else word
