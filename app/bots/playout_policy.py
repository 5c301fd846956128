"""The play-out policy Expert's search plays by: Normal's play, corrected where Hard's search
disagrees with it, learned from Hard's own decisions (bench/README.md, "Issue 32").

Hard and Expert judge a candidate card by hands played out to the end, and how the seats play in
those play-outs biases every judgement: Normal, the play-outs' policy, loses about as much to one
step of search as Hard gains over it at the table. This policy scores each candidate of a play
decision (one card per group of equivalent plays, Normal's card standing for its group, as
:func:`hard.play_choices`) with a small network: the 24 features of the position
(:func:`state_features`) and the 20 of the card (:func:`card_features`) feed one hidden layer of
ReLU units whose weighted sum is the card's score; the highest score is played. Every feature
is what the seat sees: its hand, the cards played, the open trick, the points taken, the voids
shown. Normal's choice is one of them, so the network learns where to depart from Normal.

bench/train_policy.py fits the weights on positions from hands of four Hard seats, each
candidate valued by Hard's search (bench/playout_regret.py ``--dump``): it minimises the points
the policy's choice expects to lose to the best candidate. The weights ship as float32s in
``playout_policy.f32`` (W1, 44 x HIDDEN, row by row; then the hidden biases; then the output
weights). The search core plays the same policy in C (``_search.policy_play``);
tests/bots/test_bots_playout_policy.py requires the two to agree.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from pathlib import Path

from app.bots import hard
from app.bots.model import ACE_OF_SPADES_BIT, KING_OF_SPADES_BIT, Pos, above, below
from app.bots.normal import MOON_WATCH
from app.rules.cards import FULL_DECK, HEARTS, QUEEN_OF_SPADES, SUIT_MASKS, rank_of, suit_of
from app.rules.hearts_core import POINT_CARDS, points_of

STATE_FEATURES = 24
CARD_FEATURES = 20
FEATURES = STATE_FEATURES + CARD_FEATURES
# The search core's bound on the hidden layer (POLICY_HIDDEN_LIMIT in _search.c).
HIDDEN_LIMIT = 128

WEIGHTS_PATH = Path(__file__).with_name("playout_policy.f32")
WEIGHTS: bytes = WEIGHTS_PATH.read_bytes()

_ACE_KING_OF_SPADES = ACE_OF_SPADES_BIT | KING_OF_SPADES_BIT


def hidden_units(weights: bytes) -> int:
    """The hidden layer's size of a weights file, which must be whole."""
    floats, rest = divmod(len(weights), 4)
    hidden, extra = divmod(floats, FEATURES + 2)
    if rest or extra or not 1 <= hidden <= HIDDEN_LIMIT:
        raise ValueError(f"policy weights: (44 + 2) x hidden float32s, hidden 1 to {HIDDEN_LIMIT}")
    return hidden


@dataclass(frozen=True)
class Seen:
    """What every feature of one decision reads."""

    me: int
    hand: int
    out: int  # the cards the seat has not seen
    action: int  # 0 it leads, 1 it follows suit, 2 it discards
    win: int  # the card winning the open trick, -1 if it is empty
    others_void: int  # bit s: another seat has shown a void in suit s


def seen_by(pos: Pos, me: int) -> Seen:
    hand = pos.hands[me]
    action, win = 0, -1
    if pos.trick:
        action = 1 if hand & SUIT_MASKS[suit_of(pos.trick[0])] else 2
        win = pos.winning()[1]
    others_void = 0
    for seat, voids in enumerate(pos.voids):
        if seat != me:
            others_void |= voids
    return Seen(me, hand, FULL_DECK & ~(pos.played | hand), action, win, others_void)


def state_features(pos: Pos, seen: Seen) -> list[float]:
    """What the seat sees of the position: who holds the points taken so far (no one, itself,
    one other seat, several) and how many, its place in the trick and what it does there, the
    tricks played, the queen and the high spades, broken hearts, the open trick's points and
    winner, the points still out."""
    hand, me = seen.hand, seen.me
    points = pos.points
    total, mine = sum(points), points[me]
    if total == 0:
        holder = 0
    elif mine == total:
        holder = 1
    elif max(points) == total:
        holder = 2
    else:
        holder = 3
    f = [0.0] * STATE_FEATURES
    f[holder] = 1.0
    f[4] = float(holder == 2 and total >= MOON_WATCH)
    f[5] = mine / 26
    f[6] = total / 26
    f[7 + len(pos.trick)] = 1.0
    f[11 + seen.action] = 1.0
    f[14] = pos.tricks_done / 12
    f[15] = float(not pos.played >> QUEEN_OF_SPADES & 1)
    f[16] = float(hand >> QUEEN_OF_SPADES & 1)
    f[17] = float(bool(hand & _ACE_KING_OF_SPADES))
    f[18] = float(pos.hearts_broken)
    if pos.trick:
        trick_points = sum(points_of(1 << c) for c in pos.trick)
        win_seat = pos.winning()[0]
        f[19] = min(trick_points, 13) / 13
        f[20] = float(holder == 2 and points[win_seat] == total)
        f[21] = rank_of(seen.win) / 12
        f[22] = points[win_seat] / 26
    f[23] = (seen.out & POINT_CARDS).bit_count() / 26
    return f


def card_features(seen: Seen, card: int, normal_card: int) -> list[float]:
    """What playing ``card`` does: its suit, rank and points, whether it is Normal's card,
    whether it wins the trick now or surely, the unseen cards above and below it, the seat's
    and the unseen cards of its suit, whether another seat has shown a void in it, whether it
    is the seat's highest or lowest there."""
    hand, out, action, win = seen.hand, seen.out, seen.action, seen.win
    suit = suit_of(card)
    over = action == 1 and card > win
    f = [0.0] * CARD_FEATURES
    f[suit] = 1.0
    f[4] = rank_of(card) / 12
    f[5] = float(card == QUEEN_OF_SPADES)
    f[6] = float(suit == HEARTS)
    f[7] = float(bool(1 << card & _ACE_KING_OF_SPADES))
    f[8] = float(card == normal_card)
    f[9] = float(over)
    f[10] = (out & above(card)).bit_count() / 13
    f[11] = (out & below(card)).bit_count() / 13
    f[12] = (hand & SUIT_MASKS[suit]).bit_count() / 13
    f[13] = (out & SUIT_MASKS[suit]).bit_count() / 13
    f[14] = float(seen.others_void >> suit & 1)
    f[15] = float(not hand & above(card))
    f[16] = float(not hand & below(card))
    f[17] = float(not out & above(card) and (action == 0 or over))
    f[18] = float(action == 1 and card < win)
    f[19] = points_of(1 << card) / 13
    return f


def features(pos: Pos, me: int, legal: int) -> tuple[list[int], list[list[float]]]:
    """The candidates of a decision (as :func:`hard.play_choices`) and each one's features."""
    cands, normal_card = hard.play_choices(pos, me, legal)
    seen = seen_by(pos, me)
    state = state_features(pos, seen)
    return cands, [state + card_features(seen, c, normal_card) for c in cands]


def scores(rows: list[list[float]], weights: bytes = WEIGHTS) -> list[float]:
    """Each candidate's score under ``weights``, in double precision (the C core's is single)."""
    hidden = hidden_units(weights)
    w = array("f", weights).tolist()
    w1, b1, w2 = w[: FEATURES * hidden], w[FEATURES * hidden : -hidden], w[-hidden:]
    result = []
    for row in rows:
        units = b1[:]
        for i, x in enumerate(row):
            if x:
                line = w1[i * hidden : (i + 1) * hidden]
                units = [u + x * v for u, v in zip(units, line, strict=True)]
        result.append(sum(max(u, 0.0) * v for u, v in zip(units, w2, strict=True)))
    return result


def choose_play(pos: Pos, me: int, legal: int, weights: bytes = WEIGHTS) -> int:
    """The candidate the policy scores highest (the first on a tie)."""
    cands, rows = features(pos, me, legal)
    if len(cands) == 1:
        return cands[0]
    values = scores(rows, weights)
    return cands[max(range(len(cands)), key=lambda i: (values[i], -i))]
