"""Nicknames: the name a browser shows on results boards and at tables, kept in its profile."""

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


def clean_nickname(raw: str) -> str:
    """``raw`` without surrounding spaces: 1 to NICKNAME_MAX characters, no control
    characters (newlines, tabs, direction overrides and the like); raises NicknameInvalid."""
    name = raw.strip()
    if not name:
        raise NicknameInvalid(EMPTY)
    if len(name) > NICKNAME_MAX:
        raise NicknameInvalid(TOO_LONG)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise NicknameInvalid(CONTROL)
    return name
