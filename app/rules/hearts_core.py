"""Fast, stateless Hearts primitives on card bitmasks.

These are the rules themselves, written for hot loops: the engine in :mod:`app.rules.hearts`
uses them for every play, and the bots reuse them in their rollouts so that a simulated hand
follows exactly the rules the real one does. Everything here takes and returns plain ints and
tuples (a set of cards is an int with bit ``card`` set, cards as in :mod:`app.rules.cards`).

Seats are 0..3 and play goes ``s → (s + 1) & 3``.

A rollout loop needs only these: for the seat to move, ``legal_mask(hand, led_suit,
first_trick, hearts_broken)`` (``led_suit`` -1 when leading; ``first_trick`` while no trick
is finished; ``hearts_broken`` once any heart has been played), a card picked from it
(``nth_card``, ``lowest_card``, ``highest_card``), ``hand ^= 1 << card``; after four cards
``trick_winner(leader, cards)`` leads next and takes ``points_of(mask of the four)``; after
13 tricks ``moon_scores(points)`` and, on match totals, ``match_winner(totals)``.
``bench/hearts_engine.py`` (``core_hands``) is a complete example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from app.rules.cards import (
    HEARTS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TWO_OF_CLUBS,
)

NUM_SEATS = 4
HAND_SIZE = 13
PASS_SIZE = 3
TOTAL_POINTS = 26
MATCH_TARGET = 100

HEARTS_MASK = SUIT_MASKS[HEARTS]
QUEEN_OF_SPADES_BIT = 1 << QUEEN_OF_SPADES
TWO_OF_CLUBS_BIT = 1 << TWO_OF_CLUBS
POINT_CARDS = HEARTS_MASK | QUEEN_OF_SPADES_BIT
# Every card but the point cards: what the first trick allows when one cannot follow suit.
NO_POINT_CARDS = ~POINT_CARDS

PassDirection = Literal["left", "right", "across", "none"]
PASS_ORDER: tuple[PassDirection, ...] = ("left", "right", "across", "none")
# How many seats onward each direction passes: left s+1, right s-1, across s+2.
PASS_OFFSETS = {"left": 1, "right": 3, "across": 2, "none": 0}


def pass_direction(hand_number: int) -> PassDirection:
    """The pass of hand ``hand_number`` (1-based): left, right, across, none, then again."""
    return PASS_ORDER[(hand_number - 1) % 4]


def pass_target(seat: int, direction: str) -> int:
    """The seat that ``seat`` passes to (itself when ``direction`` is ``"none"``)."""
    return (seat + PASS_OFFSETS[direction]) & 3


def pass_source(seat: int, direction: str) -> int:
    """The seat whose passed cards ``seat`` receives."""
    return (seat - PASS_OFFSETS[direction]) & 3


def legal_mask(hand: int, led_suit: int, first_trick: bool, hearts_broken: bool) -> int:
    """The cards of ``hand`` that may be played now.

    ``led_suit`` is the suit (0..3) of the trick's first card, or ``-1`` when this seat
    leads. ``first_trick`` is true during the hand's first trick (the opening lead must be
    the 2♣, so ``hand`` holds it then). ``hearts_broken``: a heart has been played this hand.
    The result is never empty for a non-empty hand.
    """
    if led_suit >= 0:
        follow = hand & SUIT_MASKS[led_suit]
        if follow:
            return follow
        if first_trick:
            # No heart or Q♠ on the first trick, unless the hand holds nothing else.
            return (hand & NO_POINT_CARDS) or hand
        return hand
    if first_trick:
        return hand & TWO_OF_CLUBS_BIT
    if hearts_broken:
        return hand
    # Hearts may not be led before they are broken, unless the hand holds only hearts.
    return (hand & ~HEARTS_MASK) or hand


def trick_winner(leader: int, cards: tuple[int, ...] | list[int]) -> int:
    """The seat that wins a trick of ``cards`` in play order, led by ``leader``.

    The highest card of the suit led wins; within a suit a higher card is a higher int.
    """
    led = cards[0]
    suit_end = (led // 13 + 1) * 13
    best = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if cards[best] < card < suit_end:
            best = i
    return (leader + best) & 3


def points_of(cards: int) -> int:
    """Points in a set of cards: 1 per heart, 13 for the Q♠."""
    points = (cards & HEARTS_MASK).bit_count()
    if cards & QUEEN_OF_SPADES_BIT:
        points += 13
    return points


def moon_scores(points: Sequence[int]) -> tuple[tuple[int, int, int, int], int | None]:
    """A hand's scores after the moon rule, and the shooter (or ``None``).

    ``points`` are the points each seat took (26 in all). A seat that took all 26 scores 0
    and every other seat scores 26.
    """
    for seat in range(NUM_SEATS):
        if points[seat] == TOTAL_POINTS:
            scores = [TOTAL_POINTS] * NUM_SEATS
            scores[seat] = 0
            return (scores[0], scores[1], scores[2], scores[3]), seat
    return (points[0], points[1], points[2], points[3]), None


def match_winner(totals: tuple[int, ...]) -> int | None:
    """The match winner after a hand: once some total reaches 100, the one lowest total.

    ``None`` while the match goes on: nobody has reached 100, or the lowest total is shared.
    """
    if max(totals) < MATCH_TARGET:
        return None
    lowest = min(totals)
    if totals.count(lowest) > 1:
        return None
    return totals.index(lowest)


def lowest_card(cards: int) -> int:
    """The lowest card of a non-empty set (clubs first, two first)."""
    return (cards & -cards).bit_length() - 1


def highest_card(cards: int) -> int:
    """The highest card of a non-empty set (spades last, ace last)."""
    return cards.bit_length() - 1


def nth_card(cards: int, n: int) -> int:
    """The ``n``-th lowest card of ``cards`` (0-based; ``n < cards.bit_count()``).

    With ``n = rng.randrange(cards.bit_count())`` this picks a uniformly random card without
    building a list, which is what random rollouts want.
    """
    for _ in range(n):
        cards &= cards - 1
    return (cards & -cards).bit_length() - 1
