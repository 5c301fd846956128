"""House rules (app/rules/hearts_rules.py): the data, its short form in deal codes, and the moon
rules, the target and Perfect 100 against hand-worked cases. (The rules OpenSpiel also has are
checked against it in tests/peer/test_hearts_rules_openspiel.py.)"""

from __future__ import annotations

import itertools

import pytest

from app.rules.cards import card_text
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import (
    SEED_RULES,
    HeartsMatch,
    IllegalMoonChoice,
    IllegalPass,
    WrongPhase,
    parse_match_code,
)
from app.rules.hearts_core import (
    hand_scores,
    match_winner,
    moon_by_rule,
    settle_totals,
)
from app.rules.hearts_position import parse_position, position_text
from app.rules.hearts_rules import PRESETS, HeartsRules, RulesError, preset_of

OMNIBUS = HeartsRules(jack_of_diamonds=-10)
NO_TRICKS = (13, 0, 0, 0)


def every_rule_set():
    for values in itertools.product(
        ("cycle", "none"), (False, True), (True, False), (False, True), (0, -10), (0, -5),
        ("add_to_others", "subtract_from_shooter", "shooters_choice", "safe"),
        (50, 75, 100, 500), (False, True),
    ):  # fmt: skip
        passing, queen, must, first, jack, bonus, moon, target, perfect = values
        yield HeartsRules(passing, queen, must, first, jack, bonus, moon, target, perfect)


def test_the_seed_rules_are_the_defaults_and_write_no_short_form():
    assert SEED_RULES == HeartsRules() == PRESETS["seed"]
    assert SEED_RULES.short == ""
    assert HeartsRules.from_json({}) == SEED_RULES
    assert HeartsRules.from_json(None) == SEED_RULES


def test_every_rule_set_reads_back_from_its_short_form_and_its_json():
    shorts = set()
    for rules in every_rule_set():
        if rules != SEED_RULES:
            assert HeartsRules.from_short(rules.short) == rules
        assert HeartsRules.from_json(rules.to_json()) == rules
        shorts.add(rules.short)
    assert len(shorts) == 2**6 * 4 * 4 * 2


@pytest.mark.parametrize("text", ["JN", "100", "50P0", "T", "J50X", "QQ", "099", "501", "49"])
def test_a_short_form_that_is_not_canonical_is_refused(text):
    with pytest.raises(RulesError):
        HeartsRules.from_short(text)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"passing": "left"}, "passing"),
        ({"jack_of_diamonds": -5}, "jack_of_diamonds"),
        ({"jack_of_diamonds": True}, "jack_of_diamonds"),
        ({"no_tricks_bonus": 5}, "no_tricks_bonus"),
        ({"queen_breaks_hearts": 1}, "queen_breaks_hearts"),
        ({"moon": "never"}, "moon"),
        ({"target": 49}, "target"),
        ({"target": 501}, "target"),
        ({"target": 100.0}, "target"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_a_rule_out_of_range_is_refused_by_name(data, field):
    with pytest.raises(RulesError) as caught:
        HeartsRules.from_json(data)
    assert caught.value.field == field


def test_deal_codes_carry_the_rules_and_old_codes_read_as_the_seed():
    assert parse_match_code("HT1-N-ABCDEFG").rules == ""
    code = parse_match_code("ht1-h-abcdefg-jb50p")
    assert str(code) == "HT1-H-ABCDEFG-JB50P"
    match = HeartsMatch.new(code)
    assert match.rules == HeartsRules(jack_of_diamonds=-10, no_tricks_bonus=-5, target=50,
                                      perfect_100=True)  # fmt: skip
    # The rules do not change the cards.
    assert match.state.hands == HeartsMatch.new("HT1-H-ABCDEFG").state.hands
    assert HeartsMatch.new("HT1-N-ABCDEFG", rules=OMNIBUS).deal == "HT1-N-ABCDEFG-J"
    for bad in ("HT1-N-ABCDEFG-", "HT1-N-ABCDEFG-X", "HT1-N-ABCDEFG-BJ"):
        with pytest.raises(DealCodeError):
            parse_match_code(bad)


def test_a_stored_match_without_rules_loads_as_the_seed_and_rules_are_stored():
    old = HeartsMatch.new("HT1-N-ABCDEFG").to_json()
    assert "rules" not in old and old["deal"] == "HT1-N-ABCDEFG"
    assert HeartsMatch.from_json(old).rules == SEED_RULES
    saved = HeartsMatch.new("HT1-N-ABCDEFG", rules=PRESETS["new_moon"]).to_json()
    assert HeartsMatch.from_json(saved).rules == PRESETS["new_moon"]


def test_presets_are_named_and_distinct():
    assert len(set(PRESETS.values())) == len(PRESETS)
    for name, rules in PRESETS.items():
        assert preset_of(rules) == name
    assert preset_of(HeartsRules(target=75)) is None


def test_without_passing_every_hand_is_played_as_dealt():
    match = HeartsMatch.new("HT1-N-ABCDEFG", rules=HeartsRules(passing="none"))
    assert match.phase == "playing" and match.pass_direction == "none"
    with pytest.raises(IllegalPass):
        match.choose_pass(0, 0b111)


# -- scoring, worked by hand -------------------------------------------------------------------


def test_the_moon_added_to_the_others_keeps_the_jack_where_it_fell():
    assert hand_scores((26, 0, 0, 0), None, NO_TRICKS, SEED_RULES) == (0, 26, 26, 26)
    assert hand_scores((26, 0, 0, 0), 0, NO_TRICKS, OMNIBUS) == (-10, 26, 26, 26)
    assert hand_scores((26, 0, 0, 0), 2, (12, 0, 1, 0), OMNIBUS) == (0, 26, 16, 26)


def test_the_moon_subtracted_from_the_shooter():
    rules = HeartsRules(moon="subtract_from_shooter", jack_of_diamonds=-10)
    assert hand_scores((0, 26, 0, 0), 1, (0, 13, 0, 0), rules, "subtract_from_shooter") == (
        0, -36, 0, 0
    )  # fmt: skip
    assert moon_by_rule(1, (0, 26, 0, 0), 1, (0, 13, 0, 0), (0, 0, 0, 0), rules) == (
        "subtract_from_shooter"
    )


def test_the_no_tricks_bonus_goes_to_seats_without_a_trick_but_not_in_a_moon():
    rules = HeartsRules(no_tricks_bonus=-5)
    assert hand_scores((10, 16, 0, 0), None, (5, 6, 2, 0), rules) == (10, 16, 0, -5)
    assert hand_scores((26, 0, 0, 0), None, (12, 1, 0, 0), rules) == (0, 26, 26, 26)


def test_the_safe_moon_subtracts_only_when_adding_would_lose_the_match():
    rules = HeartsRules(moon="safe")
    totals = (70, 80, 95, 60)
    # Adding ends the match with the shooter lowest: it adds.
    assert moon_by_rule(0, (26, 0, 0, 0), None, NO_TRICKS, totals, rules) == "add_to_others"
    assert moon_by_rule(1, (0, 26, 0, 0), None, NO_TRICKS, totals, rules) == "add_to_others"
    # Seat 2 shooting at 95: adding makes 96, 106, 95, 86, and seat 3 would win.
    assert moon_by_rule(2, (0, 0, 26, 0), None, NO_TRICKS, totals, rules) == (
        "subtract_from_shooter"
    )
    # Far from the end it adds.
    assert moon_by_rule(2, (0, 0, 26, 0), None, NO_TRICKS, (0, 0, 0, 0), rules) == (
        "add_to_others"
    )
    # The shooter's choice is the shooter's: the rule says nothing.
    choice = HeartsRules(moon="shooters_choice")
    assert moon_by_rule(2, (0, 0, 26, 0), None, NO_TRICKS, totals, choice) is None


def test_the_target_and_perfect_100():
    fifty = HeartsRules(target=50)
    assert match_winner(settle_totals((40, 20, 30, 10), (12, 4, 6, 4), fifty), 50) == 3
    assert match_winner(settle_totals((40, 20, 30, 10), (9, 4, 6, 4), fifty), 50) is None
    perfect = HeartsRules(perfect_100=True)
    assert settle_totals((90, 80, 70, 60), (10, 5, 6, 5), perfect) == (50, 85, 76, 65)
    assert settle_totals((90, 80, 70, 60), (10, 5, 6, 5), SEED_RULES) == (100, 85, 76, 65)
    assert settle_totals((40, 0, 0, 0), (10, 0, 0, 0), HeartsRules(target=50,
                                                                   perfect_100=True)) == (
        25, 0, 0, 0
    )  # fmt: skip


# -- the engine: a hand ending in a moon -------------------------------------------------------


def moon_position(rules: HeartsRules, shooter: int = 0) -> HeartsMatch:
    """The shooter holds the spades, the next seats the hearts, the diamonds and the clubs;
    the shooter leads every trick and wins it; the last trick waits for the 2♣ of the seat
    before the shooter. The shooter takes every point and the J♦."""
    def letters(card: int) -> str:
        return card_text(card).replace("10", "T")

    tricks = [
        f"{shooter}:" + "".join(letters(s * 13 + r) for s in (3, 2, 1, 0))
        for r in range(12, 0, -1)
    ]
    last = f"{shooter}:" + "".join(letters(s * 13) for s in (3, 2, 1))
    waiting = (shooter + 3) % 4
    hands = "/".join("2..." if seat == waiting else "..." for seat in range(4))
    code = HeartsMatch.new("HT1-N-ABCDEFG", rules=rules).deal
    text = (
        f"{code} 2 playing {hands} {last} {waiting} broken {','.join(tricks)} 10,20,30,40"
    )
    return parse_position(text)


def test_a_moon_under_the_shooters_choice_waits_for_the_shooter():
    rules = HeartsRules(moon="shooters_choice", jack_of_diamonds=-10)
    match = moon_position(rules)
    match.play(0)
    assert match.phase == "moon" and match.view(1).moon == 0
    assert match.view(0).totals == (10, 20, 30, 40) and len(match.view(0).hand_scores) == 0
    again = HeartsMatch.from_json(match.to_json())
    assert again == match
    assert parse_position(position_text(match)).state == match.state
    with pytest.raises(WrongPhase):
        match.next_hand()
    with pytest.raises(IllegalMoonChoice):
        match.choose_moon(1, "add_to_others")
    with pytest.raises(IllegalMoonChoice):
        match.choose_moon(0, "safe")
    match.choose_moon(0, "subtract_from_shooter")
    assert match.phase == "hand_over"
    assert match.view(0).hand_scores[-1] == (-36, 0, 0, 0)
    assert match.view(0).totals == (-26, 20, 30, 40)
    with pytest.raises(WrongPhase):
        match.choose_moon(0, "add_to_others")


def test_a_moon_added_ends_the_match_by_the_target():
    match = moon_position(HeartsRules(target=50))
    match.play(0)
    assert match.phase == "match_over" and match.view(0).winner == 0
    assert match.view(0).totals == (10, 46, 56, 66)
