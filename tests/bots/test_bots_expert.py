"""Expert reads the other seats' plays: the C core's weights are the Python model's, and
without plays to read its search is Hard's."""

from __future__ import annotations

import math

import pytest
from test_bots_search_core import CODES, decisions, sampled_worlds

from app.bots import _search, expert, hard, normal, playout_policy
from app.bots.model import Pos, from_view, step
from app.rules.cards import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, suit_of
from app.rules.hearts_core import legal_mask
from app.rules.hearts_rules import PRESETS

NOISE = expert.READING.noise


def same_effect(a: int, b: int, hand: int, played: int, jack_scores: bool) -> bool:
    lo, hi = sorted((a, b))
    if a == b:
        return True
    if suit_of(lo) != suit_of(hi) or QUEEN_OF_SPADES in (lo, hi):
        return False
    if jack_scores and JACK_OF_DIAMONDS in (lo, hi):
        return False
    between = ((1 << hi) - 1) & ~((2 << lo) - 1)
    return between & ~(played | hand) == 0


def python_log_likelihood(
    world: Pos, me: int, plays: list[tuple[int, int]], model=normal.choose_play
) -> float:
    """The hand replayed from its start with the world's hands, each other seat's play
    scored against the card ``model`` (Normal's policy unless given) plays, as the C core
    scores it."""
    start = Pos(world.rules)
    start.hands = world.hands[:]
    for seat, card in plays:
        start.hands[seat] |= 1 << card
    start.leader = start.turn = plays[0][0]
    total = 0.0
    for seat, card in plays:
        assert start.turn == seat
        led = suit_of(start.trick[0]) if start.trick else -1
        rules = world.rules
        broken = start.hearts_broken or not rules.hearts_must_be_broken
        options = legal_mask(
            start.hands[seat], led, start.tricks_done == 0, broken, rules.first_trick_points
        )
        if seat != me and options.bit_count() > 1:
            choice = model(start, seat, options)
            spread = NOISE / options.bit_count()
            alike = same_effect(
                card, choice, start.hands[seat], start.played, world.rules.jack_of_diamonds
            )
            total += math.log(1 - NOISE + spread if alike else spread)
        step(start, card)
    return total


@pytest.mark.parametrize("code", CODES[:2])
def test_c_weights_are_the_python_models(code):
    compared = 0
    differ = 0
    for view in decisions(code):
        plays = hard.history(view)
        if not plays:
            continue
        values = []
        for world in sampled_worlds(view, 3):
            c_value = _search.plays_likelihood(world.rules, view.seat, world.hands, plays, NOISE)
            assert c_value == pytest.approx(python_log_likelihood(world, view.seat, plays))
            values.append(c_value)
            compared += 1
        differ += len(set(values)) > 1
    assert compared > 50
    assert differ  # the plays do tell worlds apart


def test_c_weights_with_the_learned_model_are_the_python_models():
    # Read as the play-outs' policy plays, not as Normal: the same replay, the policy's card.
    compared = 0
    apart = 0
    for view in decisions(CODES[2]):
        plays = hard.history(view)
        if not any(s != view.seat for s, _ in plays):
            continue
        for world in sampled_worlds(view, 2):
            got = _search.plays_likelihood(
                world.rules, view.seat, world.hands, plays, NOISE, playout_policy.WEIGHTS
            )
            expected = python_log_likelihood(world, view.seat, plays, playout_policy.choose_play)
            assert got == pytest.approx(expected)
            compared += 1
            apart += got != pytest.approx(python_log_likelihood(world, view.seat, plays))
    assert compared > 30
    assert apart  # the policy does not read every play as Normal would


@pytest.mark.parametrize("rules", [PRESETS["seed"], PRESETS["omnibus"]], ids=["seed", "omnibus"])
def test_c_weights_under_house_rules(rules):
    from app.bots.driver import pass_for_bots
    from app.rules.hearts import HeartsMatch

    match = HeartsMatch.new("HT1-N-READAAA", rules=rules)
    pass_for_bots(match, range(4))
    compared = 0
    while match.phase == "playing":
        view = match.view(match.turn)
        plays = hard.history(view)
        if plays and view.legal.bit_count() > 1:
            for world in sampled_worlds(view, 2):
                expected = python_log_likelihood(world, view.seat, plays)
                got = _search.plays_likelihood(rules, view.seat, world.hands, plays, NOISE)
                assert got == pytest.approx(expected)
                compared += 1
        match.play(normal.choose_play(from_view(view), view.seat, view.legal))
    assert compared > 10


def test_with_no_other_play_to_read_the_search_is_hards():
    # The seat's own plays tell nothing: every deal weighs the same, and drawing as many
    # deals as are played out plays out exactly Hard's deals.
    for view in decisions(CODES[2]):
        own = [(s, c) for s, c in hard.history(view) if s == view.seat]
        pos = from_view(view)
        known, need, unseen = hard.knowledge(pos, view)
        cands = hard.candidates(pos, view.seat, view.legal)
        plain = _search.play_rollouts(known, view.seat, need, unseen, cands, view.totals, 7, 30)
        read = _search.weighted_rollouts(
            known, view.seat, need, unseen, cands, view.totals, 7, 30, 30, own, NOISE, False, 0.5
        )
        assert read[0] == plain[0] and read[1] is None


def test_keeping_every_drawn_deal_tempers_the_reading_away():
    # The others' plays weigh the deals apart, but when every drawn deal must count in full
    # the weights are raised to the power 0: each deal is played out once, as Hard does.
    read_apart = 0
    for view in decisions(CODES[1]):
        plays = hard.history(view)
        if not any(s != view.seat for s, _ in plays):
            continue
        pos = from_view(view)
        known, need, unseen = hard.knowledge(pos, view)
        cands = hard.candidates(pos, view.seat, view.legal)
        args = (known, view.seat, need, unseen, cands, view.totals, 7, 30, 30, plays, NOISE, False)
        plain = _search.play_rollouts(known, view.seat, need, unseen, cands, view.totals, 7, 30)
        assert _search.weighted_rollouts(*args, 1.0)[0] == plain[0]
        read_apart += _search.weighted_rollouts(*args, 0.0)[0] != plain[0]
    assert read_apart  # untempered, the same plays do change the deals played out


def test_bad_history_is_refused():
    view = next(decisions(CODES[0]))
    pos = from_view(view)
    known, need, unseen = hard.knowledge(pos, view)
    cands = hard.candidates(pos, view.seat, view.legal)
    args = (known, view.seat, need, unseen, cands, view.totals, 7, 10, 20)
    with pytest.raises(ValueError):
        _search.weighted_rollouts(*args, [(4, 0)], NOISE, False, 0.5)
    with pytest.raises(ValueError):
        _search.weighted_rollouts(*args, [], 0.0, False, 0.5)
    with pytest.raises(ValueError):
        _search.weighted_rollouts(*args, [], NOISE, False, 1.5)
    with pytest.raises(ValueError):
        _search.plays_likelihood(view.rules, view.seat, [0, 0, 0, 0], [], NOISE)
    with pytest.raises(ValueError):  # a model that is not the policy's weights
        _search.weighted_rollouts(*args, [], NOISE, False, 0.5, None, b"\0" * 12)
