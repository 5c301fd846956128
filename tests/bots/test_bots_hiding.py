"""Bots see only their seat: redealing the cards a seat cannot see (consistently with what it
knows) must leave its view, and so its decision, unchanged."""

from __future__ import annotations

import random

import pytest
from bot_positions import at_hand, positions, redeal

from app.bots import choose_pass, choose_play, decision_seed


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
@pytest.mark.parametrize("code", ["HT1-N-AAAAAAB", "HT1-N-QWERTYU", "HT1-N-ZZZABCD"])
def test_play_does_not_depend_on_hidden_cards(level, code):
    rng = random.Random(code + level)
    stops = 2 if level in ("hard", "expert") else 8
    changed = 0
    for match in positions(code, rng, stops):
        seat = match.turn
        view = match.view(seat)
        card = choose_play(level, view, decision_seed(view))
        for _ in range(2 if level in ("hard", "expert") else 4):
            other = redeal(match, seat, rng)
            changed += other.state.hands != match.state.hands
            assert other.view(seat) == view
            other_view = other.view(seat)
            assert choose_play(level, other_view, decision_seed(other_view)) == card
    assert changed  # the redeals did move hidden cards


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
@pytest.mark.parametrize("hand_number", [1, 2, 3])
def test_pass_does_not_depend_on_hidden_cards(level, hand_number):
    rng = random.Random(hand_number)
    match = at_hand("HT1-N-PASSING", hand_number)
    for seat in range(4):
        view = match.view(seat)
        chosen = choose_pass(level, view, decision_seed(view, "pass"))
        assert chosen.bit_count() == 3 and chosen & ~view.hand == 0
        other = redeal(match, seat, rng)
        assert other.state.hands != match.state.hands
        assert other.view(seat) == view
        assert choose_pass(level, other.view(seat), decision_seed(view, "pass")) == chosen
