"""The driver runs the bot seats of a real match; every level plays legally and replays exactly."""

from __future__ import annotations

import pytest

from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots, play_bots
from app.rules.hearts import HUMAN, HeartsMatch


def human_pass(match: HeartsMatch) -> None:
    view = match.view(HUMAN)
    match.choose_pass(HUMAN, choose_pass("easy", view, decision_seed(view, "pass")))


def play_match(code: str, hands: int) -> tuple[list, HeartsMatch]:
    """Bots at seats 1–3 through the driver; seat 0 plays its lowest legal card."""
    match = HeartsMatch.new(code)
    log = []
    for _ in range(hands):
        if match.phase == "passing":
            pass_for_bots(match)
            assert match.phase == "passing"  # the bots wait for the player's pass
            human_pass(match)
        while match.phase == "playing":
            plays = play_bots(match)
            assert all(p.seat != HUMAN for p in plays)
            log.extend(plays)
            if match.phase == "playing":
                assert match.turn == HUMAN
                legal = match.legal_plays()
                match.play((legal & -legal).bit_length() - 1)
        if match.phase != "hand_over":
            break
        match.next_hand()
    return log, match


@pytest.mark.parametrize(
    "code", ["HT1-E-AAAAAAC", "HT1-N-AAAAAAC", "HT1-H-AAAAAAD", "HT1-X-AAAAAAD"]
)
def test_driver_plays_whole_hands_and_replays_exactly(code):
    hands = 1 if code[4] in "HX" else 4
    log, match = play_match(code, hands)
    assert match.hand_number == hands + 1 or match.phase != "playing"
    assert len(log) == 39 * hands  # seat 0 played the other 13 cards of each hand
    again, match2 = play_match(code, hands)
    assert again == log
    assert match2 == match


def test_levels_differ_on_the_same_deal():
    easy, _ = play_match("HT1-E-AAAAAAC", 2)
    normal, _ = play_match("HT1-N-AAAAAAC", 2)
    assert easy != normal


def test_decisions_are_functions_of_view_and_seed():
    match = HeartsMatch.new("HT1-N-AAAAAAE")
    pass_for_bots(match)
    human_pass(match)
    play_bots(match)
    legal = match.legal_plays()
    match.play((legal & -legal).bit_length() - 1)
    seat = match.turn
    view = match.view(seat)
    for level in ("easy", "normal", "hard", "expert"):
        first = choose_play(level, view, decision_seed(view))
        assert first in [c for c in range(52) if view.legal >> c & 1]
        assert choose_play(level, view, decision_seed(view)) == first
    with pytest.raises(ValueError):
        choose_play("master", view, 1)
