"""Reading the pages as htmx would: the ids, versions and cards a player's next request needs.
The reliability tests and the players of bench/web.py and bench/load.py share it.

``HeartsHand`` mirrors the Hearts hand in the page the way htmx swaps it: a full ``ht-hand``
piece replaces it, single ``ht-c-…`` cards replace or delete their button.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Every server of a test signs cookies with it, as instances behind one load balancer must.
SECRET_KEY = "reliability-test-key-long-enough-for-the-check"
HX = {"hx-request": "true"}
H2H_GAME = re.compile(r'/heart-to-heart/games/([\w-]+)/tap')
H2H_VERSION = re.compile(r'id="h2h-version" name="version" value="(\d+)"')
H2H_STALE = "The game had changed"
HEARTS_GAME = re.compile(r'data-game="([\w-]+)"')
HEARTS_VERSION = re.compile(r'id="ht-version" name="version" value="(\d+)"')
HEARTS_STALE = "The table had changed"
HAND = re.compile(r'<form id="ht-hand"[^>]*data-phase="(\w+)".*?</form>', re.S)
CARD = re.compile(r'<button id="ht-c-(\w+)"([^>]*)>')


def h2h_board(html: str) -> tuple[str, int]:
    """The game id and version of a Heart to Heart page."""
    return H2H_GAME.search(html).group(1), int(H2H_VERSION.search(html).group(1))


def h2h_version(fragment: str) -> int | None:
    found = H2H_VERSION.search(fragment)
    return int(found.group(1)) if found else None


@dataclass
class HeartsHand:
    game_id: str
    version: int
    phase: str
    cards: dict[str, bool] = field(default_factory=dict)  # card -> playable now

    @classmethod
    def from_page(cls, html: str) -> HeartsHand:
        hand = cls(HEARTS_GAME.search(html).group(1), 0, "")
        hand.apply(html)
        return hand

    def apply(self, fragment: str) -> None:
        version = HEARTS_VERSION.search(fragment)
        if version:
            self.version = int(version.group(1))
        whole = HAND.search(fragment)
        if whole:
            self.phase = whole.group(1)
            self.cards = {}
        for card in CARD.finditer(fragment):
            code, attributes = card.groups()
            if 'hx-swap-oob="delete"' in attributes:
                self.cards.pop(code, None)
            else:
                self.cards[code] = 'aria-disabled="true"' not in attributes

    @property
    def playable(self) -> list[str]:
        return [code for code, ok in self.cards.items() if ok]
