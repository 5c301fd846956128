"""Hard: determinized sampling search over the seat's view.

For a decision it deals the cards it cannot see many times, each deal consistent with what the
seat knows (cards played, suits a seat has shown void in, the cards it passed and to whom), plays
every candidate card out to the end of the hand with the Normal policy at all four seats, and
picks the candidate with the best mean value. The same sampled deals serve every candidate, so
the comparison between candidates is much less noisy than the values themselves.

The amount of search is a count of simulated card plays, not a clock: the same view and seed
always give the same decision. The count was calibrated to the time budget (bench/README.md).
"""

from __future__ import annotations

from app.bots import normal
from app.bots.model import Pos, from_view, hand_scores, legal, step
from app.rules.cards import FULL_DECK, QUEEN_OF_SPADES, cards_in
from app.rules.deal_codes import SplitMix64
from app.rules.hearts_core import pass_target

# Simulated card plays per decision (sampled deals x candidates x cards left to play).
PLAY_BUDGET = 12000
MIN_WORLDS = 6
MAX_WORLDS = 120
# When this hand can end the match, winning it (+1) or losing it (−1) weighs this many points.
MATCH_POINT_WEIGHT = 40.0
# A candidate must beat the Normal choice by this many points per sampled deal to overrule it.
NORMAL_PREFERENCE = 0.05


class SamplingError(RuntimeError):
    """No deal of the unseen cards fits what the seat knows (the view is inconsistent)."""


def candidates(pos: Pos, me: int, legal_mask: int) -> list[int]:
    """One card per group of equivalent legal cards: same suit, no unseen card between them
    and no scoring difference (the queen stays on its own)."""
    reps: list[int] = []
    for c in cards_in(legal_mask):
        if not reps or not _same_group(reps[-1], c, pos, me):
            reps.append(c)
    return reps


def sample_world(pos: Pos, view, rng: SplitMix64) -> Pos:
    """A copy of ``pos`` with the other seats' hands dealt consistently with the view."""
    me = view.seat
    world = pos.copy()
    need = list(view.cards_left)
    need[me] = 0
    unseen = FULL_DECK & ~(pos.played | pos.hands[me])
    if view.passed:
        target = pass_target(me, view.pass_direction)
        still_there = view.passed & unseen
        world.hands[target] |= still_there
        need[target] -= still_there.bit_count()
        unseen &= ~still_there
    cards = cards_in(unseen)
    for _attempt in range(20):
        hands = _deal(cards, need, pos.voids, me, rng)
        if hands is not None:
            for s in range(4):
                world.hands[s] |= hands[s]
            return world
    raise SamplingError("no deal of the unseen cards fits the view")


def _deal(cards: list[int], need: list[int], voids: list[int], me: int, rng: SplitMix64):
    # Shuffle, then place the most constrained suits first; each card goes to a seat with room
    # drawn in proportion to that room, which keeps the deal close to uniform. A dead end is
    # repaired by moving one already placed card to another seat that may hold it.
    order = cards[:]
    for i in range(len(order) - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    seats = [s for s in range(4) if s != me]
    allowed = {suit: [s for s in seats if not voids[s] >> suit & 1] for suit in range(4)}
    order.sort(key=lambda c: len(allowed[c // 13]))
    room = need[:]
    hands = [0, 0, 0, 0]
    for c in order:
        options = [s for s in allowed[c // 13] if room[s] > 0]
        if options:
            pick = rng.below(sum(room[s] for s in options))
            for s in options:
                pick -= room[s]
                if pick < 0:
                    break
        else:
            s = _make_room(c, hands, room, allowed)
            if s < 0:
                return None
        hands[s] |= 1 << c
        room[s] -= 1
    return hands


def _make_room(card: int, hands: list[int], room: list[int], allowed) -> int:
    for s in allowed[card // 13]:
        for other in cards_in(hands[s]):
            for s2 in allowed[other // 13]:
                if s2 != s and room[s2] > 0:
                    hands[s] &= ~(1 << other)
                    hands[s2] |= 1 << other
                    room[s2] -= 1
                    room[s] += 1
                    return s
    return -1


def play_out(world: Pos) -> list[int]:
    """Finish the hand with the Normal policy at every seat; the points after the moon rule."""
    while world.tricks_done < 13:
        seat = world.turn
        step(world, normal.choose_play(world, seat, legal(world, seat)))
    return hand_scores(world.points)


def value(scores: list[int], me: int, totals: tuple[int, int, int, int]) -> float:
    """Minus our points; when this hand can end the match, the match result weighs in."""
    if max(totals) + 26 < 100:
        return -scores[me]
    final = [totals[s] + scores[s] for s in range(4)]
    result = 0.0
    if max(final) >= 100:
        low = min(final)
        if final[me] > low:
            result = -1.0
        elif final.count(low) == 1:
            result = 1.0
    return result * MATCH_POINT_WEIGHT - scores[me]


def choose_play(view, seed: int) -> int:
    legal_mask = view.legal
    if legal_mask & (legal_mask - 1) == 0:
        return legal_mask.bit_length() - 1
    me = view.seat
    pos = from_view(view)
    default = normal.choose_play(pos, me, legal_mask)
    cands = candidates(pos, me, legal_mask)
    if len(cands) == 1:
        return default
    # The Normal choice stands for its group of equivalent cards.
    for i, c in enumerate(cands):
        if _same_group(c, default, pos, me):
            cands[i] = default
    left = sum(view.cards_left)
    worlds = max(MIN_WORLDS, min(MAX_WORLDS, PLAY_BUDGET // (len(cands) * left)))
    rng = SplitMix64(seed)
    totals = [0.0] * len(cands)
    for _ in range(worlds):
        world = sample_world(pos, view, rng)
        for i, c in enumerate(cands):
            trial = world.copy()
            step(trial, c)
            totals[i] += value(play_out(trial), me, view.totals)
    top = max(range(len(cands)), key=lambda i: (totals[i], -i))
    if totals[top] > totals[cands.index(default)] + NORMAL_PREFERENCE * worlds:
        return cands[top]
    return default


def _same_group(a: int, b: int, pos: Pos, me: int) -> bool:
    lo, hi = min(a, b), max(a, b)
    if lo // 13 != hi // 13 or (QUEEN_OF_SPADES in (lo, hi) and lo != hi):
        return False
    between = ((1 << hi) - 1) & ~((2 << lo) - 1)
    return between & ~(pos.played | pos.hands[me]) == 0
