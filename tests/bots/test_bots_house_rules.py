"""The bots under house rules: legal under every rule set, the C core still Normal's and the
rules' twin (legal plays, broken hearts, the J♦, the no-tricks bonus, the moon rules, the target
and Perfect 100), and a bot that shoots the moon under the shooter's choice chooses."""

from __future__ import annotations

import itertools

import pytest

from app.bots import _search, choose_pass, choose_play, decision_seed, hard, normal
from app.bots.driver import pass_for_bots, play_bots
from app.bots.model import Pos, from_view, step
from app.rules.cards import JACK_OF_DIAMONDS, suit_of
from app.rules.hearts import HUMAN, HeartsMatch
from app.rules.hearts_core import (
    hand_scores,
    legal_mask,
    match_winner,
    moon_by_rule,
    moon_shooter,
    settle_totals,
)
from app.rules.hearts_rules import MOON_RULES, PRESETS, HeartsRules
from tests.bots.test_bots_search_core import sampled_worlds
from tests.rules.test_hearts_house_rules import moon_position

# Every preset, and rule sets that touch what the core must follow: hearts led at any time,
# points on the first trick, the queen breaking hearts, each moon rule near the end.
RULE_SETS = [
    *PRESETS.values(),
    HeartsRules(hearts_must_be_broken=False, first_trick_points=True, no_tricks_bonus=-5),
    HeartsRules(
        queen_breaks_hearts=True, jack_of_diamonds=-10, moon="subtract_from_shooter", target=60
    ),
    *(HeartsRules(moon=moon, jack_of_diamonds=-10, perfect_100=True) for moon in MOON_RULES),
]
TOTALS = [(0, 0, 0, 0), (70, 60, 95, 80), (90, 99, 85, 100), (-20, 40, 55, 50), (90, 40, 80, 50)]


def rules_id(rules: HeartsRules) -> str:
    return rules.short or "seed"


def legal(pos: Pos, seat: int) -> int:
    rules = pos.rules
    led = suit_of(pos.trick[0]) if pos.trick else -1
    return legal_mask(
        pos.hands[seat],
        led,
        pos.tricks_done == 0,
        pos.hearts_broken or not rules.hearts_must_be_broken,
        rules.first_trick_points,
    )


def decisions(code: str, rules: HeartsRules):
    """Every view with a choice in one hand of Normal bots, after the exchange."""
    match = HeartsMatch.new(code, rules=rules)
    if match.phase == "passing":
        pass_for_bots(match)
        view = match.view(HUMAN)
        match.choose_pass(HUMAN, choose_pass("normal", view, decision_seed(view, "pass")))
    while match.phase == "playing":
        view = match.view(match.turn)
        assert view.legal == legal(from_view(view), view.seat) or view.trick == ()
        if view.legal.bit_count() > 1:
            yield view
        match.play(choose_play("normal", view, decision_seed(view)))


@pytest.mark.parametrize("rules", RULE_SETS, ids=rules_id)
def test_c_normal_policy_plays_the_python_card_under_house_rules(rules):
    compared = 0
    for code in ("HT1-N-RULESAA", "HT1-N-RULESAB"):
        for view in decisions(code, rules):
            for world in sampled_worlds(view, 2):
                while world.tricks_done < 13:
                    seat = world.turn
                    options = legal(world, seat)
                    card = normal.choose_play(world, seat, options)
                    assert _search.normal_play(world, seat, options) == card
                    step(world, card)
                    compared += 1
    assert compared > 500


def python_tally(world: Pos, me: int, totals) -> tuple[int, int]:
    """The play-out scored in Python: hearts_core's rules, normal.moon_choice_for's choice."""
    rules = world.rules
    while world.tricks_done < 13:
        step(world, normal.choose_play(world, world.turn, legal(world, world.turn)))
    jack = None if world.jack < 0 else world.jack
    shooter = moon_shooter(world.points)
    moon = "add_to_others"
    if shooter is not None:
        moon = moon_by_rule(shooter, world.points, jack, world.won, totals, rules) or (
            normal.moon_choice_for(shooter, world.points, world.jack, world.won, totals, rules)
        )
    scores = hand_scores(world.points, jack, world.won, rules, moon)
    final = settle_totals(totals, scores, rules)
    winner = match_winner(final, rules.target)
    lost = max(final) >= rules.target and final[me] > min(final)
    return scores[me], 1 if winner == me else -1 if lost else 0


@pytest.mark.parametrize(("rules", "totals"), list(itertools.product(RULE_SETS, TOTALS)),
                         ids=lambda v: rules_id(v) if isinstance(v, HeartsRules) else str(v))
def test_c_rollouts_score_as_the_python_rules(rules, totals):
    for view in list(decisions("HT1-N-RULESAC", rules))[::5]:
        pos = from_view(view)
        cands = hard.candidates(pos, view.seat, view.legal)
        known, need, unseen = hard.knowledge(pos, view)
        (points, results), _ = _search.play_rollouts(
            known, view.seat, need, unseen, cands, totals, decision_seed(view), 4
        )
        expected_points = [0] * len(cands)
        expected_results = [0] * len(cands)
        for world in sampled_worlds(view, 4):
            for i, c in enumerate(cands):
                trial = world.copy()
                step(trial, c)
                p, r = python_tally(trial, view.seat, totals)
                expected_points[i] += p
                expected_results[i] += r
        assert (points, results) == (expected_points, expected_results)


def test_c_scores_every_moon_rule_as_the_python_rules():
    # Moons are rare in play-outs: the last card of a hand where seat 0 shoots it, J♦ and all.
    seen = set()
    for rules, totals in itertools.product(RULE_SETS, TOTALS):
        match = moon_position(rules)
        view = match.view(3)
        pos = from_view(view)
        known, need, unseen = hard.knowledge(pos, view)
        assert unseen == 0
        (points, results), _ = _search.play_rollouts(known, 3, need, unseen, [0], totals, 1, 1)
        trial = pos.copy()
        step(trial, 0)
        assert (points[0], results[0]) == python_tally(trial, 3, totals)
        seen.add((rules.moon, points[0]))
    # (90, 40, 80, 50): adding would give seat 1 the match, so the safe moon subtracts.
    assert {("safe", 0), ("safe", 26), ("shooters_choice", 0), ("shooters_choice", 26)} <= seen


def test_a_bot_that_shoots_under_the_shooters_choice_chooses_and_a_player_is_asked():
    rules = HeartsRules(moon="shooters_choice")
    # Seat 3 shoots at 40 of 10, 20, 30, 40: adding leaves it behind seat 0, so it subtracts.
    bot = moon_position(rules, shooter=3)
    play_bots(bot)
    assert bot.phase == "hand_over"
    assert bot.view(0).hand_scores[-1] == (0, 0, 0, -26)
    # Seat 2 at 30 would lead after adding (36, 46, 30, 66): it adds.
    leader = moon_position(rules, shooter=2)
    play_bots(leader)
    assert leader.view(0).hand_scores[-1] == (26, 26, 0, 26)
    # Seat 0, the player, shoots: the bots wait for its answer.
    player = moon_position(rules, shooter=0)
    play_bots(player)
    assert player.phase == "moon" and player.view(0).moon == 0


@pytest.mark.parametrize("rules", RULE_SETS, ids=rules_id)
@pytest.mark.parametrize("level", ["E", "N"])
def test_easy_and_normal_play_whole_matches_legally(rules, level):
    match = HeartsMatch.new(f"HT1-{level}-LEGALAA", rules=rules)
    hands = 0
    while match.phase != "match_over" and hands < 4:
        pass_for_bots(match, range(4))
        play_bots(match, range(4))  # play() refuses an illegal card
        assert match.phase in ("hand_over", "match_over")
        hands += 1
        if match.phase == "hand_over":
            match.next_hand()
    assert hands == 4 or match.phase == "match_over"


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=rules_id)
@pytest.mark.parametrize("level", ["H", "X"])
def test_searching_levels_play_a_hand_legally_under_each_preset(rules, level):
    match = HeartsMatch.new(f"HT1-{level}-LEGALAB", rules=rules)
    pass_for_bots(match, range(4))
    play_bots(match, range(4))
    assert match.phase in ("hand_over", "match_over")


def test_normal_keeps_the_jack_of_diamonds_in_omnibus():
    # 2♣ 3♣, the J♦ alone, 2♠ to J♠: the seed's Normal voids diamonds.
    hand = sum(1 << c for c in (0, 1, JACK_OF_DIAMONDS, *range(39, 49)))
    assert normal.choose_pass(hand) & (1 << JACK_OF_DIAMONDS)
    assert not normal.choose_pass(hand, PRESETS["omnibus"]) & (1 << JACK_OF_DIAMONDS)
