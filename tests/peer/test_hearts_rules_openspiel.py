"""Peer check of the house rules: every combination of the six rules OpenSpiel's ``hearts`` also
has (with the seed's moon), random hands through both engines, legal plays compared at every
step and every hand's points at its end.

The mappings of cards, seats and pass directions are test_hearts_openspiel.py's. Our
``hand_points`` count the hearts and the Q♠ only (the J♦ is scored with the hand), so while a
hand is played OpenSpiel's running points are ours plus the J♦ of whoever has taken it.
"""

from __future__ import annotations

import itertools
import json
import random
import zlib

import pyspiel
import pytest

from app.rules.cards import JACK_OF_DIAMONDS, cards_in, mask_of
from app.rules.hearts import HeartsMatch
from app.rules.hearts_rules import HeartsRules
from tests.peer.test_hearts_openspiel import (
    BY_NAME,
    OS_CARD,
    OS_PASS_DIR,
    os_mask,
    os_player,
    our_seat,
)

FAST_HANDS = 3
SLOW_HANDS = 200

COMBINATIONS = [
    HeartsRules(
        passing=passing,
        queen_breaks_hearts=queen,
        hearts_must_be_broken=must_break,
        first_trick_points=first_trick,
        jack_of_diamonds=jack,
        no_tricks_bonus=bonus,
    )
    for passing, queen, must_break, first_trick, jack, bonus in itertools.product(
        ("cycle", "none"), (False, True), (True, False), (False, True), (0, -10), (0, -5)
    )
]


def peer_game(rules: HeartsRules):
    return pyspiel.load_game("hearts", {
        "pass_cards": rules.passing == "cycle",
        "qs_breaks_hearts": rules.queen_breaks_hearts,
        "must_break_hearts": rules.hearts_must_be_broken,
        "no_pts_on_first_trick": not rules.first_trick_points,
        "jd_bonus": rules.jack_of_diamonds == -10,
        "avoid_all_tricks_bonus": rules.no_tricks_bonus == -5,
    })  # fmt: skip


def jack_so_far(match: HeartsMatch) -> list[int]:
    """The J♦'s value to each seat from the tricks finished so far."""
    jack = [0, 0, 0, 0]
    for trick in match.state.tricks:
        if any(p.card == JACK_OF_DIAMONDS for p in trick.cards):
            jack[trick.winner] = match.rules.jack_of_diamonds
    return jack


def play_hand_on_both(match: HeartsMatch, game, rng: random.Random) -> None:
    rules = match.rules
    direction = match.pass_direction
    peer = game.new_initial_state()
    peer.apply_action(OS_PASS_DIR[direction])
    dealt = {seat: cards_in(match.state.hands[seat]) for seat in range(4)}
    for k in range(52):
        peer.apply_action(OS_CARD[dealt[our_seat(k % 4)][k // 4]])

    if direction != "none":
        for player in range(4):
            seat = our_seat(player)
            offered = match.view(seat).legal
            chosen = 0
            for _ in range(3):
                assert os_mask(peer.legal_actions()) == offered & ~chosen
                card = rng.choice(cards_in(offered & ~chosen))
                chosen |= 1 << card
                peer.apply_action(OS_CARD[card])
            match.choose_pass(seat, chosen)
        peer_hands = json.loads(peer.to_json())["hands"]
        for seat in range(4):
            assert match.view(seat).hand == mask_of(
                BY_NAME[name] for name in peer_hands[os_player(seat)]
            )

    assert match.phase == "playing"
    while match.phase == "playing":
        turn = match.turn
        assert peer.current_player() == os_player(turn)
        legal = match.legal_plays()
        assert os_mask(peer.legal_actions()) == legal
        broken = match.state.hearts_broken or not rules.hearts_must_be_broken
        assert peer.hearts_broken() == broken
        jack = jack_so_far(match)
        running = tuple(p + j for p, j in zip(match.state.hand_points, jack, strict=True))
        assert tuple(peer.points(os_player(s)) for s in range(4)) == running
        card = rng.choice(cards_in(legal))
        peer.apply_action(OS_CARD[card])
        match.play(card)

    assert peer.is_terminal()
    assert list(match.view(0).hand_scores[-1]) == [peer.points(os_player(s)) for s in range(4)]


def play_hands(rules: HeartsRules, hands: int, seed: int) -> dict[str, int]:
    game = peer_game(rules)
    rng = random.Random(seed)
    seen = {"hands": 0, "moons": 0, "jack": 0, "no_tricks": 0}
    while seen["hands"] < hands:
        code = f"HT1-N-{''.join(rng.choices('ABCDEFGHIJKLMNOPQRSTUVWXYZ', k=7))}"
        match = HeartsMatch.new(code, rules=rules)
        while seen["hands"] < hands:
            play_hand_on_both(match, game, rng)
            seen["hands"] += 1
            seen["moons"] += match.view(0).moon is not None
            seen["jack"] += any(jack_so_far(match))
            won = {t.winner for t in match.state.tricks}
            seen["no_tricks"] += len(won) < 4
            if match.phase == "match_over":
                break
            match.next_hand()
    return seen


def rules_id(rules: HeartsRules) -> str:
    return rules.short or "seed"


@pytest.mark.parametrize("rules", COMBINATIONS, ids=rules_id)
def test_house_rules_agree_with_openspiel_on_a_few_hands(rules):
    assert play_hands(rules, FAST_HANDS, zlib.crc32(rules.short.encode()))["hands"] == FAST_HANDS


@pytest.mark.slow
@pytest.mark.parametrize("rules", COMBINATIONS, ids=rules_id)
def test_house_rules_agree_with_openspiel_on_200_hands(rules):
    seen = play_hands(rules, SLOW_HANDS, 20261201)
    # The runs must reach what the rules score: a J♦ taken (jack_so_far counts its value, so
    # only where it has one), a seat without a trick.
    assert (seen["jack"] > 0) == (rules.jack_of_diamonds != 0)
    assert seen["no_tricks"] > 0


def test_the_combinations_are_the_64_distinct_rule_sets():
    assert len({r.short for r in COMBINATIONS}) == 64
