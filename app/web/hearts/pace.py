"""The bots' pace: how long the Hearts table takes to show the cards of one answer, written once
for the page and the server.

The page shows the cards an answer played one by one (static/js/hearts-table.js reads these
figures from the table's data attributes, templates/hearts/_board.html, and scales them by the
player's animation speed). At a table with friends, the bot that plays for a player who is away
plays on the server at the same pace (tables/service.py), one card per change, so that its
player can take the seat back between any two of its cards.
"""

from __future__ import annotations

from collections.abc import Iterable

CARD_SECONDS = 0.45  # between two cards: fast enough not to bore, slow enough to follow
TRICK_PAUSE_SECONDS = 1.1  # a finished trick stays in view before it goes to its winner
TRAVEL_SECONDS = 0.24  # a card's flight from a seat to the table, or a trick's to its winner


def shown_seconds(trick_ends: Iterable[bool]) -> float:
    """How long the page takes to show a run of cards (each True when it ends a trick) until
    it is ready for the next card; a run of none takes one card's time (the bot's beat)."""
    ends = list(trick_ends)
    if not ends:
        return CARD_SECONDS
    return sum(TRICK_PAUSE_SECONDS + TRAVEL_SECONDS if end else CARD_SECONDS for end in ends)


def page_attributes() -> dict[str, str]:
    """The pace as the table's data attributes, in milliseconds, for hearts-table.js."""
    return {
        "data-card-ms": str(round(CARD_SECONDS * 1000)),
        "data-trick-pause-ms": str(round(TRICK_PAUSE_SECONDS * 1000)),
        "data-travel-ms": str(round(TRAVEL_SECONDS * 1000)),
    }
