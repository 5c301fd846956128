"""Bots see only their seat: redealing the cards a seat cannot see (consistently with what it
knows) must leave its view, and so its decision, unchanged."""

from __future__ import annotations

import random

import pytest
from bot_positions import at_hand

from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots
from app.rules.cards import SUIT_MASKS, cards_in
from app.rules.hearts import HUMAN, HeartsMatch, pass_direction


def redeal(match: HeartsMatch, seat: int, rng: random.Random) -> HeartsMatch:
    """The same match with the unseen cards of the other seats moved around.

    Within each suit the others' cards are shuffled among the same places, so every seat keeps
    its number of cards per suit (voids shown stay true). Cards ``seat`` passed stay with the
    seat that received them.
    """
    st = match.state
    hands = list(st.hands)
    fixed = st.passed[seat] if pass_direction(st.hand_number) != "none" else 0
    others = [s for s in range(4) if s != seat]
    for suit_mask in SUIT_MASKS:
        slots = [(s, c) for s in others for c in cards_in(hands[s] & suit_mask & ~fixed)]
        cards = [c for _, c in slots]
        rng.shuffle(cards)
        for s in others:
            hands[s] &= ~(suit_mask & ~fixed)
        for (s, _), c in zip(slots, cards, strict=True):
            hands[s] |= 1 << c
    return HeartsMatch(match.code, st._replace(hands=tuple(hands)), [])


def positions(code: str, rng: random.Random, stops: int) -> list[HeartsMatch]:
    """Positions of one hand after the exchange where the seat to move has a choice, reached
    by Normal bots playing every seat."""
    match = HeartsMatch.new(code)
    if match.phase == "passing":
        pass_for_bots(match)
        view = match.view(HUMAN)
        match.choose_pass(HUMAN, choose_pass("normal", view, decision_seed(view, "pass")))
    found = []
    while match.phase == "playing":
        view = match.view(match.turn)
        if view.legal.bit_count() > 1:
            found.append(match.copy())
        match.play(choose_play("normal", view, decision_seed(view)))
    return rng.sample(found, stops)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("code", ["HT1-N-AAAAAAB", "HT1-N-QWERTYU", "HT1-N-ZZZABCD"])
def test_play_does_not_depend_on_hidden_cards(level, code):
    rng = random.Random(code + level)
    stops = 2 if level == "hard" else 8
    changed = 0
    for match in positions(code, rng, stops):
        seat = match.turn
        view = match.view(seat)
        card = choose_play(level, view, decision_seed(view))
        for _ in range(2 if level == "hard" else 4):
            other = redeal(match, seat, rng)
            changed += other.state.hands != match.state.hands
            assert other.view(seat) == view
            other_view = other.view(seat)
            assert choose_play(level, other_view, decision_seed(other_view)) == card
    assert changed  # the redeals did move hidden cards


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
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
