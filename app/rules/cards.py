"""Playing cards of a standard 52-card deck as small integers and bitmasks.

A card is ``suit * 13 + rank``: suits 0..3 are clubs, diamonds, hearts, spades (``C D H S``)
and ranks 0..12 run from the two up to the ace, so a higher rank number is a higher card in
trick-taking. A set of cards is an int with bit ``card`` set; each suit is 13 adjacent bits.
Card text is rank + suit as in the JSON API: ``"10H"``, ``"QS"``, ``"2C"``.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))

_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


class CardError(ValueError):
    """Text that does not name a card."""


def card(suit: int, rank: int) -> int:
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


TWO_OF_CLUBS = card(CLUBS, 0)
QUEEN_OF_SPADES = card(SPADES, RANKS.index("Q"))
JACK_OF_DIAMONDS = card(DIAMONDS, RANKS.index("J"))


def card_text(c: int) -> str:
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def parse_card(text: str) -> int:
    """``"10H"`` → card; any letter case. Raises :class:`CardError` with a clear message."""
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        raise CardError(f"{text!r} is not a card; write rank and suit, like 10H or QS.")
    rank, suit = text[:-1].upper(), text[-1].upper()
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise CardError(f"{text!r} is not a card; ranks are A 2-10 J Q K and suits C D H S.")
    return card(_SUIT_INDEX[suit], _RANK_INDEX[rank])


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_in(mask: int) -> list[int]:
    """The cards of ``mask`` in ascending order (clubs first, low to high in each suit)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
