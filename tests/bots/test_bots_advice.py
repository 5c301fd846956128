"""Hard's advice (for hints and hand reviews): legal, Hard's own choice, and from the view only."""

from __future__ import annotations

import random

import pytest
from bot_positions import at_hand, positions, redeal

from app.bots import choose_pass, choose_play, decision_seed, hard
from app.rules.cards import cards_in


@pytest.mark.parametrize("code", ["HT1-N-ADVICEA", "HT1-N-ADVICEB"])
def test_play_advice_covers_every_legal_card_and_is_hards_play(code):
    rng = random.Random(code)
    for match in positions(code, rng, 4):
        seat = match.turn
        view = match.view(seat)
        advice = hard.play_advice(view, decision_seed(view))
        assert sorted(advice.points) == cards_in(view.legal)
        assert advice.best == choose_play("hard", view, decision_seed(view))
        assert all(0 <= p <= 26 for p in advice.points.values())
        # Nothing read from the hidden hands: the same view after a redeal, the same advice.
        other = redeal(match, seat, rng)
        assert other.state.hands != match.state.hands
        assert hard.play_advice(other.view(seat), decision_seed(view)) == advice


def test_play_advice_with_one_legal_card():
    rng = random.Random(3)
    match = positions("HT1-N-ADVICEC", rng, 1)[0]
    while match.legal_plays().bit_count() > 1:
        view = match.view(match.turn)
        match.play(choose_play("normal", view, decision_seed(view)))
    view = match.view(match.turn)
    advice = hard.play_advice(view, decision_seed(view))
    assert list(advice.points) == [advice.best] == cards_in(view.legal)


@pytest.mark.parametrize("hand_number", [1, 2, 3])
def test_pass_advice_is_three_of_the_hand_and_hards_pass(hand_number):
    rng = random.Random(hand_number)
    match = at_hand("HT1-H-ADVICED", hand_number)
    for seat in range(4):
        view = match.view(seat)
        seed = decision_seed(view, "pass")
        advice = hard.pass_advice(view, seed)
        assert advice.best == choose_pass("hard", view, seed)
        assert advice.best.bit_count() == 3 and advice.best & ~view.hand == 0
        assert advice.best in advice.points
        assert all(m.bit_count() == 3 and m & ~view.hand == 0 for m in advice.points)
        other = redeal(match, seat, rng)
        assert hard.pass_advice(other.view(seat), seed) == advice


def test_no_pass_advice_when_nobody_passes():
    match = at_hand("HT1-H-ADVICEE", 4)
    view = match.view(0)
    with pytest.raises(ValueError, match="no cards to pass"):
        hard.pass_advice(view, 1)
