"""The review of a finished hand: each of the player's decisions (the pass, then every play)
with what the Hard bot's search thinks of it, from the player's view at that moment.

The views are rebuilt from the hand-over view alone: the player's own cards (what they played,
what they passed and received) and the cards everyone played in the open. No other hand is
read, so the review knows no more than the player did.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

from app.bots import decision_seed, hard
from app.rules.cards import suit_of
from app.rules.hearts import HUMAN, HeartsView
from app.rules.hearts_core import HAND_SIZE, NUM_SEATS, breaks_hearts, legal_mask

# A play that the search expects to cost at least this many points more than its best card.
COSTLY_POINTS = 0.5
REVIEWS_KEPT = 512  # about 15 kB each


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: ``chosen`` and ``best`` are masks (three cards for the pass, one for a
    play); ``chosen_points`` is None for a pass the search did not keep among its finalists."""

    trick: int | None  # 1..13 for a play, None for the pass
    chosen: int
    best: int
    chosen_points: float | None
    best_points: float

    @property
    def costly(self) -> bool:
        return self.chosen_points is not None and (
            self.chosen_points - self.best_points >= COSTLY_POINTS
        )


def four(values: list[int]) -> tuple[int, int, int, int]:
    """One number per seat."""
    a, b, c, d = values
    return a, b, c, d


def decision_views(end: HeartsView) -> list[tuple[HeartsView, int]]:
    """The player's view at each decision of the hand ``end`` closes (the hand-over view), with
    the choice made then (a mask): the pass first when there was one. Each view holds the
    match's house rules, so the search plays and scores by them. (Under Perfect 100 the totals
    before the hand are taken as the totals less its scores.)"""
    if len(end.tricks) != HAND_SIZE:
        raise ValueError("a review needs a finished hand")
    last_scores = end.hand_scores[-1]
    totals = four([t - s for t, s in zip(end.totals, last_scores, strict=True)])
    before = replace(
        end, turn=HUMAN, totals=totals, hand_scores=end.hand_scores[:-1], moon=None,
        winner=None, pass_choice=0, pass_chosen=bool(end.passed),
    )
    mine = [next(pc.card for pc in t.cards if pc.seat == HUMAN) for t in end.tricks]
    decisions: list[tuple[HeartsView, int]] = []
    if end.passed is not None and end.received is not None:
        dealt = sum(1 << c for c in mine) & ~end.received | end.passed
        decisions.append((replace(
            before, phase="passing", hand=dealt, legal=dealt, pass_chosen=False, passed=None,
            received=None, trick=(), tricks=(), turn=None, hearts_broken=False,
            hand_points=(0, 0, 0, 0), cards_left=four([HAND_SIZE] * NUM_SEATS),
        ), end.passed))
    for i, trick in enumerate(end.tricks):
        done = end.tricks[:i]
        ahead = trick.cards[: [pc.seat for pc in trick.cards].index(HUMAN)]
        hand = sum(1 << c for c in mine[i:])
        seen = [pc.card for t in done for pc in t.cards] + [pc.card for pc in ahead]
        rules = end.rules
        broken = any(breaks_hearts(c, rules) for c in seen)
        points = [0] * NUM_SEATS
        for t in done:
            points[t.winner] += t.points
        played_now = {pc.seat for pc in ahead}
        led = suit_of(ahead[0].card) if ahead else -1
        view = replace(
            before, phase="playing", hand=hand, trick=ahead, tricks=done, hearts_broken=broken,
            hand_points=four(points),
            cards_left=four([HAND_SIZE - i - (s in played_now) for s in range(NUM_SEATS)]),
            legal=legal_mask(
                hand, led, i == 0, broken or not rules.hearts_must_be_broken,
                rules.first_trick_points,
            ),
        )
        decisions.append((view, 1 << mine[i]))
    return decisions


def review(end: HeartsView) -> list[Decision]:
    """Each decision of the finished hand with the search's expected points (CPU-heavy: the
    page runs it in the search processes, app/web/hearts/thinking.py, and keeps it)."""
    judged = []
    for view, chosen in decision_views(end):
        if view.phase == "passing":
            advice = hard.pass_advice(view, decision_seed(view, "pass"))
            best, trick, figure = advice.best, None, advice.points.get(chosen)
            judged.append(Decision(trick, chosen, best, figure, advice.points[best]))
        else:
            advice = hard.play_advice(view, decision_seed(view))
            card = chosen.bit_length() - 1
            judged.append(Decision(
                len(view.tricks) + 1, chosen, 1 << advice.best, advice.points[card],
                advice.points[advice.best],
            ))
    return judged


ReviewKey = tuple[str, int, int]  # game id, hand number, the game's version


class Reviews:
    """The hands reviewed lately: a hand's review is computed once (about 33 ms of search) and
    kept, however many times its dialog is opened or reloaded. One object, owned by the app
    (``app.state.reviews``); the least recently asked for goes first."""

    def __init__(self, size: int = REVIEWS_KEPT) -> None:
        self._size = size
        self._kept: OrderedDict[ReviewKey, list[Decision]] = OrderedDict()

    def get(self, key: ReviewKey) -> list[Decision] | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def keep(self, key: ReviewKey, decisions: list[Decision]) -> None:
        self._kept[key] = decisions
        self._kept.move_to_end(key)
        if len(self._kept) > self._size:
            self._kept.popitem(last=False)
