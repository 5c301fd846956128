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

House rules (:class:`~app.rules.hearts_rules.HeartsRules`) change a few arguments: hearts that
need not be broken are ``hearts_broken=True`` throughout, ``points_on_first_trick`` lifts the
first trick's discard rule, the Q♠ may break hearts (``breaks_hearts``), and a hand is scored
by ``hand_scores`` and ``settle_totals`` (the J♦, the no-tricks bonus, the moon rule, Perfect
100) and ends the match by ``match_winner(totals, rules.target)``.
``bench/hearts_engine.py`` (``core_hands``) is a complete example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from app.rules.cards import (
    HEARTS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    TWO_OF_CLUBS,
)
from app.rules.hearts_rules import SEED_RULES, HeartsRules, MoonChoice

NUM_SEATS = 4
HAND_SIZE = 13
PASS_SIZE = 3
TOTAL_POINTS = 26
MATCH_TARGET = 100

HEARTS_MASK = SUIT_MASKS[HEARTS]
QUEEN_OF_SPADES_BIT = 1 << QUEEN_OF_SPADES
TWO_OF_CLUBS_BIT = 1 << TWO_OF_CLUBS
JACK_OF_DIAMONDS_BIT = 1 << JACK_OF_DIAMONDS
POINT_CARDS = HEARTS_MASK | QUEEN_OF_SPADES_BIT
# Every card but the point cards: what the first trick allows when one cannot follow suit.
NO_POINT_CARDS = ~POINT_CARDS

PassDirection = Literal["left", "right", "across", "none"]
PASS_ORDER: tuple[PassDirection, ...] = ("left", "right", "across", "none")
# How many seats onward each direction passes: left s+1, right s-1, across s+2.
PASS_OFFSETS = {"left": 1, "right": 3, "across": 2, "none": 0}


def pass_direction(hand_number: int, rules: HeartsRules = SEED_RULES) -> PassDirection:
    """The pass of hand ``hand_number`` (1-based): left, right, across, none, then again
    (under ``passing="none"``, none every hand)."""
    if rules.passing == "none":
        return "none"
    return PASS_ORDER[(hand_number - 1) % 4]


def pass_target(seat: int, direction: str) -> int:
    """The seat that ``seat`` passes to (itself when ``direction`` is ``"none"``)."""
    return (seat + PASS_OFFSETS[direction]) & 3


def pass_source(seat: int, direction: str) -> int:
    """The seat whose passed cards ``seat`` receives."""
    return (seat - PASS_OFFSETS[direction]) & 3


def legal_mask(
    hand: int,
    led_suit: int,
    first_trick: bool,
    hearts_broken: bool,
    points_on_first_trick: bool = False,
) -> int:
    """The cards of ``hand`` that may be played now.

    ``led_suit`` is the suit (0..3) of the trick's first card, or ``-1`` when this seat
    leads. ``first_trick`` is true during the hand's first trick (the opening lead must be
    the 2♣, so ``hand`` holds it then). ``hearts_broken``: a heart has been played this hand
    (or the rules let hearts be led anyway). ``points_on_first_trick``: the house rule that
    lets a seat that cannot follow discard points on the first trick.
    The result is never empty for a non-empty hand.
    """
    if led_suit >= 0:
        follow = hand & SUIT_MASKS[led_suit]
        if follow:
            return follow
        if first_trick and not points_on_first_trick:
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


def breaks_hearts(card: int, rules: HeartsRules) -> bool:
    """Whether playing ``card`` breaks hearts: a heart, or the Q♠ when the rules say so."""
    return bool((1 << card) & HEARTS_MASK) or (
        card == QUEEN_OF_SPADES and rules.queen_breaks_hearts
    )


def moon_shooter(points: Sequence[int]) -> int | None:
    """The seat that took all 26 points of the hearts and the Q♠, or None."""
    for seat in range(NUM_SEATS):
        if points[seat] == TOTAL_POINTS:
            return seat
    return None


def hand_scores(
    points: Sequence[int],
    jack_taker: int | None,
    tricks_won: Sequence[int],
    rules: HeartsRules,
    moon: MoonChoice = "add_to_others",
) -> tuple[int, int, int, int]:
    """A hand's scores under ``rules``.

    ``points``: the hearts and Q♠ points each seat took; ``jack_taker``: who took the J♦;
    ``tricks_won``: tricks per seat. When a seat shot the moon, ``moon`` says what it does
    (the caller resolves ``shooters_choice`` and ``safe``, see :func:`moon_by_rule`): 26 to
    each other seat and 0 to the shooter, or −26 to the shooter. The J♦ counts either way;
    the no-tricks bonus only when nobody shot the moon (as OpenSpiel scores it).
    """
    shooter = moon_shooter(points)
    scores = [0, 0, 0, 0]
    for seat in range(NUM_SEATS):
        if shooter is None:
            scores[seat] = points[seat]
            if not tricks_won[seat]:
                scores[seat] += rules.no_tricks_bonus
        elif moon == "add_to_others":
            scores[seat] = 0 if seat == shooter else TOTAL_POINTS
        else:
            scores[seat] = -TOTAL_POINTS if seat == shooter else 0
        if seat == jack_taker:
            scores[seat] += rules.jack_of_diamonds
    return scores[0], scores[1], scores[2], scores[3]


def settle_totals(
    totals: Sequence[int], scores: Sequence[int], rules: HeartsRules
) -> tuple[int, int, int, int]:
    """The match totals after a hand's ``scores``; under Perfect 100 a total of exactly the
    target drops to half of it (rounded down)."""
    new = [t + s for t, s in zip(totals, scores, strict=True)]
    if rules.perfect_100:
        new = [rules.target // 2 if t == rules.target else t for t in new]
    return new[0], new[1], new[2], new[3]


def moon_by_rule(
    shooter: int,
    points: Sequence[int],
    jack_taker: int | None,
    tricks_won: Sequence[int],
    totals: Sequence[int],
    rules: HeartsRules,
) -> MoonChoice | None:
    """What the moon does under ``rules.moon`` (None: the shooter chooses).

    ``safe`` adds to the others unless that would end the match with the shooter not winning
    it; then it subtracts from the shooter.
    """
    if rules.moon == "shooters_choice":
        return None
    if rules.moon != "safe":
        return rules.moon
    added = hand_scores(points, jack_taker, tricks_won, rules, "add_to_others")
    after = settle_totals(totals, added, rules)
    winner = match_winner(after, rules.target)
    # A shared lowest total does not end the match (match_winner is None): adding stands.
    if winner is not None and winner != shooter:
        return "subtract_from_shooter"
    return "add_to_others"


def match_winner(totals: tuple[int, ...], target: int = MATCH_TARGET) -> int | None:
    """The match winner after a hand: once some total reaches ``target``, the one lowest
    total.

    ``None`` while the match goes on: nobody has reached the target, or the lowest total is
    shared.
    """
    if max(totals) < target:
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
