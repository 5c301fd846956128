"""The Hearts position text (app/rules/hearts_position.py): printed and read back exactly, on
every position of real matches, and refused with a clear reason when it is not a position."""

from __future__ import annotations

import random

import pytest

from app.bots.driver import pass_for_bots
from app.rules.cards import DIAMONDS, SUIT_MASKS, cards_in, mask_of, parse_card
from app.rules.hearts import PHASES, HeartsMatch, HeartsStateError, PlayedCard
from app.rules.hearts_position import parse_position, position_text

NEW_MATCH = (
    "HT1-N-AAAAAAM 1 passing"
    " .JT97.AQJ98.J654/JT7.82.742.AQT92/A632.AQ64.K65.83/KQ9854.K53.T3.K7"
    " - - - - 0,0,0,0 - - - - -"
)

HANDS = NEW_MATCH.split()[3]


def random_positions(code: str, seed: int, limit: int = 5000):
    """Every position of a match played at random, through passes, hands and the match end."""
    rng = random.Random(seed)
    match = HeartsMatch.new(code)
    for _ in range(limit):
        yield match
        if match.phase == "passing":
            if not match.view(0).pass_chosen:
                match.choose_pass(0, mask_of(rng.sample(cards_in(match.state.hands[0]), 3)))
            pass_for_bots(match)
        elif match.phase == "playing":
            match.play(rng.choice(cards_in(match.legal_plays())))
        elif match.phase == "hand_over":
            match.next_hand()
        else:
            return


def test_a_new_match_prints_its_deal():
    match = HeartsMatch.new("HT1-N-AAAAAAM")
    assert position_text(match) == NEW_MATCH
    assert parse_position(NEW_MATCH).state == match.state


@pytest.mark.parametrize("seed", range(6))
def test_every_position_of_a_match_reads_back_exactly(seed):
    phases = set()
    for match in random_positions(f"HT1-E-AAAAAA{'BCDEFG'[seed]}", seed):
        text = position_text(match)
        back = parse_position(text)
        assert back.state == match.state, text
        assert back.deal == match.deal
        assert position_text(back) == text
        phases.add(match.phase)
    assert phases == set(PHASES)  # played to the end of the match


def test_left_out_fields_take_their_defaults():
    text = (
        "HT1-H-AAAAAAB 3 playing"
        " AKQJT98765432.../.AKQJT98765432../..AKQJT98765432./...AKQJT98765432 - 0"
    )
    match = parse_position(text)
    assert match.bot_level == "hard" and match.state.hand_number == 3
    assert match.turn == 0 and not match.state.hearts_broken
    assert match.state.tricks == () and match.state.totals == (0, 0, 0, 0)
    assert match.legal_plays() == 1 << parse_card("2C")
    assert position_text(match) == text + " - - 0,0,0,0 - - - - -"


def test_a_trick_in_progress_and_the_points_taken():
    match = parse_position(
        "HT1-N-AAAAAAM 2 playing"
        " AKQJT9876.2../.AT9876543.32./..AKT987654.32/...AKJT987654"
        " 3:QDKD 1 - 0:2C3C4C5C,1:QSQHJDJH 10,20,30,40"
    )
    assert match.state.trick == (PlayedCard(3, parse_card("QD")), PlayedCard(0, parse_card("KD")))
    # West follows the diamond led: A, 10 down to 3 of diamonds.
    assert match.turn == 1 and match.legal_plays() == match.state.hands[1] & SUIT_MASKS[DIAMONDS]
    assert match.state.hand_points == (0, 15, 0, 0)  # the Q♠ and two hearts went to West
    assert match.state.totals == (10, 20, 30, 40)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "fields"),
        ("HT1-Q-AAAAAAM 1 passing " + HANDS, "deal kind"),
        ("HT1-N-AAAAAAM 0 passing " + HANDS, "hand number"),
        ("HT1-N-AAAAAAM 1 dealing " + HANDS, "phase"),
        ("HT1-N-AAAAAAM 1 passing .JT97.AQJ98.J654/JT7.82.742.AQT92", "four hands"),
        ("HT1-N-AAAAAAM 1 passing .JT97.AQJ98/JT7.82.742.AQT92/x/y", "four suits"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS.replace("JT97", "JJ97"), "new rank"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS.replace("KQ9854", "KQ985"), "52"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS.replace("/JT7.", "/JT97."), "two places"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS + " - 0", "turn"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS + " 4:2C", "trick"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS + " - - yes", "broken"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS + " - - - - 1,2,3", "four whole"),
        ("HT1-N-AAAAAAM 1 passing " + HANDS + " - - - 0:2C3C", "four cards"),
    ],
)
def test_what_is_not_a_position_is_refused_with_a_reason(text, words):
    with pytest.raises(HeartsStateError) as err:
        parse_position(text)
    assert err.value.reason == "bad_position"
    assert words in err.value.message
