"""The C search core (app/bots/_search.c) plays exactly as the Python model and Normal policy.

The core is Normal's play policy and the rules written again in C for speed; these tests play
thousands of positions through both sides and require the same card, the same scores and the
same match results, so a change made on one side only fails here.
"""

from __future__ import annotations

import pytest

from app.bots import _search, choose_pass, choose_play, decision_seed, hard, normal
from app.bots.driver import pass_for_bots
from app.bots.model import Pos, from_view, step
from app.rules.cards import suit_of
from app.rules.hearts import HUMAN, HeartsMatch
from app.rules.hearts_core import legal_mask, match_winner, moon_scores

CODES = ["HT1-N-CORECAA", "HT1-N-CORECAB", "HT1-N-CORECAC", "HT1-N-CORECAD"]


def legal(pos: Pos, seat: int) -> int:
    led = suit_of(pos.trick[0]) if pos.trick else -1
    return legal_mask(pos.hands[seat], led, pos.tricks_done == 0, pos.hearts_broken)


def decisions(code: str):
    """Every view with a choice in one hand of Normal bots, after the exchange."""
    match = HeartsMatch.new(code)
    if match.phase == "passing":
        pass_for_bots(match)
        view = match.view(HUMAN)
        match.choose_pass(HUMAN, choose_pass("normal", view, decision_seed(view, "pass")))
    while match.phase == "playing":
        view = match.view(match.turn)
        if view.legal.bit_count() > 1:
            yield view
        match.play(choose_play("normal", view, decision_seed(view)))


def sampled_worlds(view, count: int):
    """``count`` worlds of the core's sampler: the view's position with every hand filled."""
    pos = from_view(view)
    known, need, unseen = hard.knowledge(pos, view)
    state = decision_seed(view)
    for _ in range(count):
        hands, state = _search.sample_hands(known, view.seat, need, unseen, state)
        world = pos.copy()
        world.hands = list(hands)
        yield world


@pytest.mark.parametrize("code", CODES)
def test_c_normal_policy_plays_the_python_card(code):
    compared = 0
    for view in decisions(code):
        for world in sampled_worlds(view, 3):
            while world.tricks_done < 13:
                seat = world.turn
                options = legal(world, seat)
                card = normal.choose_play(world, seat, options)
                assert _search.normal_play(world, seat, options) == card
                step(world, card)
                compared += 1
    assert compared > 1000


def python_tally(world, me: int, totals) -> tuple[int, int]:
    while world.tricks_done < 13:
        step(world, normal.choose_play(world, world.turn, legal(world, world.turn)))
    scores, _ = moon_scores(tuple(world.points))
    final = tuple(t + s for t, s in zip(totals, scores, strict=True))
    winner = match_winner(final)
    lost = max(final) >= 100 and final[me] > min(final)
    return scores[me], 1 if winner == me else -1 if lost else 0


@pytest.mark.parametrize("totals", [(0, 0, 0, 0), (70, 60, 95, 80), (90, 99, 85, 97)])
def test_c_rollouts_score_as_the_python_model(totals):
    match_results = 0
    for view in list(decisions(CODES[0]))[::4]:
        pos = from_view(view)
        cands = hard.candidates(pos, view.seat, view.legal)
        known, need, unseen = hard.knowledge(pos, view)
        # The core samples its deals from the same seed as sampled_worlds.
        (points, results), _ = _search.play_rollouts(
            known, view.seat, need, unseen, cands, totals, decision_seed(view), 5
        )
        expected_points = [0] * len(cands)
        expected_results = [0] * len(cands)
        for world in sampled_worlds(view, 5):
            for i, c in enumerate(cands):
                trial = world.copy()
                step(trial, c)
                p, r = python_tally(trial, view.seat, totals)
                expected_points[i] += p
                expected_results[i] += r
        assert (points, results) == (expected_points, expected_results)
        match_results += sum(map(abs, results))
    assert (match_results > 0) == (max(totals) > 0)


def test_bad_input_is_refused_with_a_message():
    view = next(decisions(CODES[0]))
    pos = from_view(view)
    known, need, unseen = hard.knowledge(pos, view)
    illegal = next(c for c in range(52) if not view.legal >> c & 1)
    with pytest.raises(ValueError, match="legal"):
        _search.play_rollouts(known, view.seat, need, unseen, [illegal], (0, 0, 0, 0), 1, 1)
    with pytest.raises(ValueError, match="unseen"):
        _search.play_rollouts(known, view.seat, [0, 0, 0, 0], unseen, [illegal], (0,) * 4, 1, 1)
    # The counts add up to the unseen cards, but one seat would hold a card too many.
    short = list(need)
    others = [s for s in range(4) if s != view.seat and short[s]]
    short[others[0]] += 1
    short[others[1]] -= 1
    legal_card = view.legal & -view.legal
    with pytest.raises(ValueError, match="would not hold"):
        _search.play_rollouts(
            known, view.seat, short, unseen, [legal_card.bit_length() - 1], (0,) * 4, 1, 1
        )
    with pytest.raises(ValueError, match="seat"):
        _search.match_result([0, 0, 0, 26], 4, (0, 0, 0, 0))
    deal = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39)
    three = 0b111
    with pytest.raises(ValueError, match="hands of 13"):
        _search.pass_rollouts([deal], [(0, 0, 0, 0)], 0, 1, [three], (0,) * 4)
    with pytest.raises(ValueError, match="three cards of the seat's hand"):
        _search.pass_rollouts([deal], [(0, three << 13, three << 26, three << 39)], 0, 1,
                              [three << 13], (0,) * 4)
    # A view nobody can fill: every unseen card must go to a seat void in its suit.
    known.voids = [15, 15, 15, 15]
    with pytest.raises(hard.SamplingError):
        _search.sample_hands(known, view.seat, need, unseen, 1)
