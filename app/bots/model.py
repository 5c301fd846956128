"""A compact, mutable model of one Hearts hand for the bots.

The bots decide from a seat's :class:`HeartsView` only. :func:`from_view` turns that view into a
:class:`Pos` that holds the public facts (cards played, the trick, points, voids shown) plus the
seat's own cards, which is all the Normal policy reads. The Hard bot hands a :class:`Pos` to its
C core (``_search.c``), which fills the other hands with sampled deals and plays them out with
its own copy of :func:`step` (tests/bots/test_bots_search_core.py keeps the two equal).
"""

from __future__ import annotations

from app.rules.cards import HEARTS, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, SPADES, SUIT_MASKS, suit_of
from app.rules.hearts_core import breaks_hearts, points_of
from app.rules.hearts_rules import SEED_RULES, HeartsRules

SPADES_MASK = SUIT_MASKS[SPADES]
KING_OF_SPADES_BIT = 1 << (QUEEN_OF_SPADES + 1)
ACE_OF_SPADES_BIT = 1 << (QUEEN_OF_SPADES + 2)
# The queen and the spades she falls on.
HIGH_SPADES = (1 << QUEEN_OF_SPADES) | KING_OF_SPADES_BIT | ACE_OF_SPADES_BIT
ALL_SUITS_VOID = 0b1111


def below(card: int) -> int:
    """The cards of ``card``'s suit that rank lower than it."""
    return ((1 << card) - 1) & SUIT_MASKS[suit_of(card)]


def above(card: int) -> int:
    """The cards of ``card``'s suit that rank higher than it."""
    return ~((2 << card) - 1) & SUIT_MASKS[suit_of(card)]


class Pos:
    """One hand in progress. ``hands`` of seats other than the deciding one are only known in
    a sampled world; a policy reads ``hands[seat]`` of its own seat and the public fields."""

    __slots__ = (
        "hands",
        "hearts_broken",
        "jack",
        "leader",
        "played",
        "points",
        "rules",
        "trick",
        "tricks_done",
        "turn",
        "voids",
        "won",
    )

    def __init__(self, rules: HeartsRules = SEED_RULES) -> None:
        self.rules = rules
        self.hands = [0, 0, 0, 0]
        self.played = 0  # every card played this hand, the open trick included
        self.trick: list[int] = []  # cards of the open trick in play order
        self.leader = 0
        self.turn = 0
        self.points = [0, 0, 0, 0]  # points taken this hand, before the moon rule
        self.voids = [0, 0, 0, 0]  # per seat, bit s set: shown void in suit s
        self.hearts_broken = False
        self.tricks_done = 0
        self.jack = -1  # the seat that took the J♦ this hand, or -1
        self.won = [0, 0, 0, 0]  # tricks taken this hand, per seat

    def copy(self) -> Pos:
        other = Pos.__new__(Pos)
        other.rules = self.rules
        other.hands = self.hands[:]
        other.played = self.played
        other.trick = self.trick[:]
        other.leader = self.leader
        other.turn = self.turn
        other.points = self.points[:]
        other.voids = self.voids[:]
        other.hearts_broken = self.hearts_broken
        other.tricks_done = self.tricks_done
        other.jack = self.jack
        other.won = self.won[:]
        return other

    def winning(self) -> tuple[int, int]:
        """(seat, card) currently winning the open trick (which must not be empty)."""
        trick = self.trick
        suit_mask = SUIT_MASKS[suit_of(trick[0])]
        best = 0
        for i in range(1, len(trick)):
            c = trick[i]
            if (1 << c) & suit_mask and c > trick[best]:
                best = i
        return (self.leader + best) & 3, trick[best]


def step(pos: Pos, card: int) -> None:
    """Play ``card`` for the seat to move, updating the public facts and closing tricks."""
    seat = pos.turn
    bit = 1 << card
    pos.hands[seat] &= ~bit
    pos.played |= bit
    trick = pos.trick
    rules = pos.rules
    if trick and suit_of(card) != suit_of(trick[0]):
        pos.voids[seat] |= 1 << suit_of(trick[0])
    elif (
        not trick
        and suit_of(card) == HEARTS
        and not pos.hearts_broken
        and rules.hearts_must_be_broken
    ):
        # Leading an unbroken heart is only legal with nothing but hearts left.
        pos.voids[seat] |= ALL_SUITS_VOID & ~(1 << HEARTS)
    if breaks_hearts(card, rules):
        pos.hearts_broken = True
    trick.append(card)
    if len(trick) < 4:
        pos.turn = (seat + 1) & 3
        return
    winner, _ = pos.winning()
    taken = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | bit
    pos.points[winner] += points_of(taken)
    pos.won[winner] += 1
    if taken >> JACK_OF_DIAMONDS & 1:
        pos.jack = winner
    pos.trick = []
    pos.leader = winner
    pos.turn = winner
    pos.tricks_done += 1


def from_view(view) -> Pos:
    """The seat's knowledge as a :class:`Pos`: its own hand filled in, the others empty."""
    pos = Pos(view.rules)
    me = view.seat
    pos.hands[me] = view.hand
    for trick in view.tricks:
        _replay(pos, trick.leader, [pc.card for pc in trick.cards])
    if view.trick:
        _replay(pos, view.trick[0].seat, [pc.card for pc in view.trick])
    if view.turn is not None:
        pos.turn = view.turn
    elif not view.trick and not view.tricks:
        pos.turn = me
    return pos


def _replay(pos: Pos, leader: int, cards: list[int]) -> None:
    # Rebuilds the public facts (voids, broken hearts, winners) trick by trick; the hands of
    # the other seats stay empty, so their bits are cleared from nothing.
    pos.leader = leader
    pos.turn = leader
    for card in cards:
        step(pos, card)
