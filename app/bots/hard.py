"""Hard: determinized sampling search over the seat's view, for card play and for the pass.

The play-outs score each hand under the match's house rules (the seat's view carries them): the
J♦ and the no-tricks bonus, the moon rule (a shooter's choice made as :func:`normal.choose_moon`
makes it), and the match's end at its target, with Perfect 100.

For a play it deals the cards it cannot see many times, each deal consistent with what the seat
knows (cards played, suits a seat has shown void in, the cards it passed and to whom), plays
every candidate card out to the end of the hand with the Normal policy at all four seats, and
picks the candidate with the best mean value. For the pass it deals the other 39 cards, lets the
other seats pass as Normal would, and plays the whole hand out for each candidate set of three.
The same sampled deals serve every candidate, so the comparison between candidates is much less
noisy than the values themselves.

The deals and the play-outs run in the C core :mod:`app.bots._search`. The amount of search is a
count of simulated card plays and deals, not a clock: the same view and seed always give the
same decision. The counts were calibrated to a time budget (bench/README.md, "Hearts bots").
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from app.bots import _search, normal
from app.bots.model import Pos, from_view
from app.rules.cards import FULL_DECK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, cards_in, suit_of
from app.rules.hearts_core import HAND_SIZE, PASS_OFFSETS, PASS_SIZE, POINT_CARDS, pass_target


@dataclass(frozen=True)
class PlaySearch:
    """How much a play decision searches: ``plays`` simulated card plays (sampled deals x
    candidates x cards left to play), with at least and at most so many deals."""

    plays: int
    min_deals: int
    max_deals: int

    def deals(self, candidates: int, cards_left: int) -> int:
        return max(self.min_deals, min(self.max_deals, self.plays // (candidates * cards_left)))


PLAY_SEARCH = PlaySearch(plays=80_000, min_deals=40, max_deals=1_000)


@dataclass(frozen=True)
class PassSearch:
    """How much a pass searches: every set of three is screened on ``screen_deals`` deals, the
    ``finalists`` best go on to ``final_deals`` fresh deals. A hand with at most
    ``moon_losers`` cards that can lose a trick (None: never) is also played out shooting
    the moon, each set counting by the better of the two plans."""

    screen_deals: int
    final_deals: int
    finalists: int
    moon_losers: int | None = None


PASS_SEARCH = PassSearch(screen_deals=8, final_deals=64, finalists=12)
# When this hand can end the match, winning it (+1) or losing it (−1) weighs this many points.
MATCH_POINT_WEIGHT = 40.0
# A candidate must beat the Normal choice by this many points per sampled deal to overrule it.
NORMAL_PREFERENCE = 0.05
# Playing for the moon must beat playing on by this many points per deal: its play-outs meet
# only Normal's defence, which a real table's is better than.
MOON_PLAN_MARGIN = 2.0

_SEED_MASK = (1 << 64) - 1

SamplingError = _search.SamplingError


@dataclass(frozen=True)
class Advice:
    """What the search thinks of a decision: for each choice (a card, or a mask of three cards
    when passing) the points the seat should expect to take this hand (after the moon rule),
    and the choice Hard makes (near the end of a match it may accept more points to win it)."""

    points: dict[int, float]
    best: int


@dataclass(frozen=True)
class _Evaluation:
    choices: list[int]
    default: int  # Normal's choice, one of ``choices``
    values: list[float]  # per choice: sum over the deals of the value (see _values)
    points: list[int]  # per choice: sum over the deals of the seat's points
    deals: int

    def best(self) -> int:
        """The best choice; Normal's unless another is better by NORMAL_PREFERENCE a deal."""
        top = max(range(len(self.choices)), key=lambda i: (self.values[i], -i))
        normal_value = self.values[self.choices.index(self.default)]
        if self.values[top] > normal_value + NORMAL_PREFERENCE * self.deals:
            return self.choices[top]
        return self.default


def _values(points: list[int], results: list[int]) -> list[float]:
    # Minus our points; when the hand can end the match, the match result weighs in.
    return [MATCH_POINT_WEIGHT * r - p for p, r in zip(points, results, strict=True)]


def candidates(pos: Pos, me: int, legal_mask: int) -> list[int]:
    """One card per group of equivalent legal cards: same suit, no unseen card between them
    and no scoring difference (the queen stays on its own)."""
    reps: list[int] = []
    for c in cards_in(legal_mask):
        if not reps or not _same_group(reps[-1], c, pos, me):
            reps.append(c)
    return reps


def play_choices(pos: Pos, me: int, legal_mask: int) -> tuple[list[int], int]:
    """The candidates a play search compares, Normal's choice standing for its group of
    equivalent cards, and that choice."""
    default = normal.choose_play(pos, me, legal_mask)
    cands = [default if _same_group(c, default, pos, me) else c
             for c in candidates(pos, me, legal_mask)]
    return cands, default


def knowledge(pos: Pos, view) -> tuple[Pos, list[int], int]:
    """What a sampled deal must respect: ``pos`` with the cards this seat passed (and that are
    not played yet) in their receiver's hand, how many more cards each seat holds, and the
    cards left to deal among them."""
    me = view.seat
    known = pos.copy()
    need = list(view.cards_left)
    need[me] = 0
    unseen = FULL_DECK & ~(pos.played | pos.hands[me])
    if view.passed:
        target = pass_target(me, view.pass_direction)
        still_there = view.passed & unseen
        known.hands[target] |= still_there
        need[target] -= still_there.bit_count()
        unseen &= ~still_there
    return known, need, unseen


@dataclass(frozen=True)
class Reading:
    """How a search reads the other seats' plays (Expert): it samples ``drawn`` deals for each
    one it plays out, weighs each by how likely the plays seen are in it if the others play
    as Normal with probability 1 - ``noise`` (any legal card otherwise), and plays out deals
    drawn again by those weights, raised to the largest power (at most 1) that leaves them
    ``ess`` times as many effective deals as it plays out (0: the weights as they are). While
    no other seat has taken a point and at most ``moon_losers`` of the seat's cards can lose a
    trick, each candidate is also played out with the seat playing for the moon, and counts
    by the better of the two plans. With ``learned``, the others are read as playing by the
    play-outs' learned policy where the search plays out by it, not as Normal."""

    drawn: int
    noise: float
    moon_losers: int
    ess: float
    learned: bool


def history(view) -> list[tuple[int, int]]:
    """The hand's plays so far as (seat, card), in order."""
    plays = [(pc.seat, pc.card) for trick in view.tricks for pc in trick.cards]
    return plays + [(pc.seat, pc.card) for pc in view.trick]


def _evaluate_play(
    view,
    pos: Pos,
    seed: int,
    search: PlaySearch,
    reading: Reading | None = None,
    policy: bytes | None = None,
) -> _Evaluation:
    """Every candidate of a play decision valued by play-outs, played by Normal at every seat
    (by ``policy``, playout_policy.py's weights, if given)."""
    me = view.seat
    cands, default = play_choices(pos, me, view.legal)
    deals = search.deals(len(cands), sum(view.cards_left))
    known, need, unseen = knowledge(pos, view)
    if reading is None:
        (points, results), _ = _search.play_rollouts(
            known, me, need, unseen, cands, view.totals, seed & _SEED_MASK, deals, policy
        )
    else:
        (points, results), moon, _ = _search.weighted_rollouts(
            known, me, need, unseen, cands, view.totals, seed & _SEED_MASK, deals,
            deals * reading.drawn, history(view), reading.noise, _may_shoot(pos, me, reading),
            reading.ess, policy, policy if reading.learned else None,
        )  # fmt: skip
        if moon is not None:
            points, results = _better_plan((points, results), moon, deals)
    return _Evaluation(cands, default, _values(points, results), points, deals)


def _better_plan(
    plain: tuple[list[int], list[int]], moon: tuple[list[int], list[int]], deals: int
) -> tuple[list[int], list[int]]:
    """Per choice, the sums (points, match results) over ``deals`` deals of the plan that
    values it more: playing on as Normal, or playing for the moon, which must be better by
    MOON_PLAN_MARGIN a deal."""
    plain_values, moon_values = _values(*plain), _values(*moon)
    margin = MOON_PLAN_MARGIN * deals
    better = [m > p + margin for p, m in zip(plain_values, moon_values, strict=True)]
    return (
        [m if b else p for p, m, b in zip(plain[0], moon[0], better, strict=True)],
        [m if b else p for p, m, b in zip(plain[1], moon[1], better, strict=True)],
    )


def _may_shoot(pos: Pos, me: int, reading: Reading) -> bool:
    """No other seat has taken a point, some are still out, and few of the seat's cards can
    lose a trick: worth searching a play for the moon."""
    if sum(pos.points) != pos.points[me] or not POINT_CARDS & ~pos.played:
        return False
    out = FULL_DECK & ~(pos.played | pos.hands[me])
    return normal.moon_losers(pos.hands[me], out).bit_count() <= reading.moon_losers


def choose_play(view, seed: int, search: PlaySearch = PLAY_SEARCH) -> int:
    legal_mask = view.legal
    if legal_mask & (legal_mask - 1) == 0:
        return legal_mask.bit_length() - 1
    pos = from_view(view)
    if len(candidates(pos, view.seat, legal_mask)) == 1:
        return normal.choose_play(pos, view.seat, legal_mask)
    return _evaluate_play(view, pos, seed, search).best()


def play_advice(view, seed: int) -> Advice:
    """Expected points of every legal card (equivalent cards share their group's figure) and
    the card Hard plays, from this seat's view only."""
    pos = from_view(view)
    ev = _evaluate_play(view, pos, seed, PLAY_SEARCH)
    points = {}
    for c in cards_in(view.legal):
        i = next(i for i, rep in enumerate(ev.choices) if _same_group(rep, c, pos, view.seat))
        points[c] = ev.points[i] / ev.deals
    return Advice(points, ev.best())


def _evaluate_pass(view, seed: int, search: PassSearch = PASS_SEARCH) -> _Evaluation:
    me = view.seat
    offset = PASS_OFFSETS[view.pass_direction]
    if offset == 0 or view.hand.bit_count() != HAND_SIZE:
        raise ValueError(f"seat {me} has no cards to pass now")
    rules = view.rules
    default = normal.choose_pass(view.hand, rules)
    choices = [sum(1 << c for c in three) for three in combinations(cards_in(view.hand), PASS_SIZE)]
    pos = from_view(view)
    need = [0 if s == me else HAND_SIZE for s in range(4)]
    unseen = FULL_DECK & ~view.hand
    state = seed & _SEED_MASK
    deals: list[tuple[int, int, int, int]] = []
    passes: list[tuple[int, ...]] = []
    for _ in range(search.screen_deals + search.final_deals):
        hands, state = _search.sample_hands(pos, me, need, unseen, state)
        deals.append(hands)
        # The other seats pass as Normal does; our own entry is replaced by each candidate.
        passes.append(
            tuple(0 if s == me else normal.choose_pass(hands[s], rules) for s in range(4))
        )
    screen = search.screen_deals
    shooter = me if _moon_hand(view.hand, search) else None

    def rollouts(first: int, last: int, candidates: list[int]) -> tuple[list[int], list[int]]:
        args = (deals[first:last], passes[first:last], me, offset, candidates, view.totals, rules)
        plain = _search.pass_rollouts(*args)
        if shooter is None:
            return plain
        return _better_plan(plain, _search.pass_rollouts(*args, shooter), last - first)

    points, results = rollouts(0, screen, choices)
    values = _values(points, results)
    ranked = sorted(range(len(choices)), key=lambda i: (-values[i], i))
    finalists = [choices[i] for i in ranked[: search.finalists]]
    if default not in finalists:
        finalists.append(default)
    # Fresh deals for the finalists, so that the luck that put them ahead does not count twice.
    points, results = rollouts(screen, len(deals), finalists)
    return _Evaluation(
        finalists, default, _values(points, results), points, search.final_deals
    )


def _moon_hand(hand: int, search: PassSearch) -> bool:
    if search.moon_losers is None:
        return False
    return normal.moon_losers(hand, FULL_DECK & ~hand).bit_count() <= search.moon_losers


def choose_pass(view, seed: int) -> int:
    """A mask of the three cards Hard passes."""
    return _evaluate_pass(view, seed).best()


def pass_advice(view, seed: int) -> Advice:
    """Expected points of the best sets of three to pass (and of Normal's), and Hard's set."""
    ev = _evaluate_pass(view, seed)
    points = {m: p / ev.deals for m, p in zip(ev.choices, ev.points, strict=True)}
    return Advice(points, ev.best())


def _same_group(a: int, b: int, pos: Pos, me: int) -> bool:
    lo, hi = min(a, b), max(a, b)
    if suit_of(lo) != suit_of(hi) or (QUEEN_OF_SPADES in (lo, hi) and lo != hi):
        return False
    if pos.rules.jack_of_diamonds and JACK_OF_DIAMONDS in (lo, hi) and lo != hi:
        return False
    between = ((1 << hi) - 1) & ~((2 << lo) - 1)
    return between & ~(pos.played | pos.hands[me]) == 0

