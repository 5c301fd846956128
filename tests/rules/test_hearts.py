"""Hearts rules and match flow: dealing, passing, plays, scoring, the match end, undo, JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.cards import FULL_DECK, SUIT_MASKS, card_text, cards_in, mask_of, parse_card
from app.rules.deal_codes import DealCode, DealCodeError, secret_shuffled, shuffled
from app.rules.hearts import (
    HUMAN,
    HeartsError,
    HeartsMatch,
    IllegalPass,
    IllegalPlay,
    NothingToUndo,
    PlayedCard,
    WrongPhase,
    deal_hands,
    parse_match_code,
    pass_direction,
    pass_target,
)
from app.rules.hearts_core import (
    highest_card,
    legal_mask,
    lowest_card,
    match_winner,
    moon_scores,
    nth_card,
    pass_source,
    points_of,
    trick_winner,
)
from app.rules.hearts_position import parse_position

CODE = "HT1-N-AAAAAAM"


def cards(text: str) -> int:
    return mask_of(parse_card(t) for t in text.split())


def texts(mask: int) -> str:
    return " ".join(card_text(c) for c in cards_in(mask))


# -- codes and dealing ----------------------------------------------------------------------


def test_match_codes_parse_with_the_bot_level():
    assert parse_match_code(" ht1-h-aaaaaam ") == DealCode("HT1", "H", 12)
    for letter, level in (("E", "easy"), ("N", "normal"), ("H", "hard"), ("X", "expert")):
        match = HeartsMatch.new(f"HT1-{letter}-AAAAAAM")
        assert match.bot_level == level
        assert match.deal == f"HT1-{letter}-AAAAAAM"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("HT1-Q-AAAAAAM", "variant"),
        ("HH1-N-AAAAAAM", "game"),
        ("HT1-N-AAA", "number"),
        ("", "empty"),
    ],
)
def test_bad_match_codes_are_refused_with_a_reason(text, reason):
    with pytest.raises(DealCodeError) as err:
        HeartsMatch.new(text)
    assert err.value.reason == reason


def test_a_deal_code_of_another_game_is_refused():
    with pytest.raises(DealCodeError):
        HeartsMatch.new(DealCode("HH1", "N", 12))


def test_hand_k_deals_thirteen_cards_a_seat_from_the_shared_shuffle():
    for hand_number in (1, 2, 7):
        deck = shuffled(range(52), "HT1", 12, hand_number)
        hands = deal_hands(12, hand_number)
        for seat in range(4):
            assert hands[seat] == mask_of(deck[13 * seat : 13 * seat + 13])
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
    assert deal_hands(12, 1) != deal_hands(12, 2)


def test_deal_golden_layout_is_stable():
    # Pinned: a shared code must deal these cards forever.
    hands = HeartsMatch.new(CODE).state.hands
    assert texts(hands[0]) == "7D 9D 10D JD 8H 9H JH QH AH 4S 5S 6S JS"
    assert texts(hands[1]) == "7C 10C JC 2D 8D 2H 4H 7H 2S 9S 10S QS AS"


LONG_CODE = "HT1-N-CARDROOMDEALSTAYSSECRETTOEND"  # a secret match's code, 28 letters


def test_a_long_codes_hands_are_pinned_and_come_from_the_secret_shuffle():
    # Pinned too: a secret match's code, shown once it is over, replays it forever.
    code = parse_match_code(LONG_CODE)
    assert code.long and str(code) == LONG_CODE
    hands = deal_hands(code, 1)
    assert texts(hands[0]) == "6C 7C 10C QC 2D 4D AD 2H 5H 7H 9H AH 8S"
    assert texts(hands[1]) == "8C 9C KC AC 7D 8D 3H 4H 6H 8H 2S 5S 6S"
    assert texts(deal_hands(code, 2)[0]) == "3C 6C 7C JC QC AC 7D 7H QH 4S 7S 8S JS"
    for hand_number in (1, 2, 9):
        deck = secret_shuffled(range(52), "HT1", code.number, hand_number)
        assert deal_hands(code, hand_number) == tuple(
            mask_of(deck[13 * seat : 13 * seat + 13]) for seat in range(4)
        )
    # Its number is not a seven-letter code's: that would deal other cards.
    with pytest.raises(ValueError):
        deal_hands(code.number, 1)


def test_a_match_from_a_long_code_deals_every_hand_from_it_and_saves_it():
    match = HeartsMatch.new(LONG_CODE.lower())
    assert match.deal == LONG_CODE and match.state.hands == deal_hands(match.code, 1)
    rng = random.Random(3)
    while match.phase != "match_over" and match.hand_number < 3:
        if match.phase == "hand_over":
            match.next_hand()
            assert match.state.hands == deal_hands(match.code, match.hand_number)
        elif match.phase == "passing":
            for seat in range(4):
                match.choose_pass(seat, mask_of(list(cards_in(match.state.hands[seat]))[:3]))
        else:
            legal = list(cards_in(match.legal_plays()))
            match.play(rng.choice(legal), seat=match.turn)
    assert match.hand_number == 3
    assert HeartsMatch.from_json(json.loads(json.dumps(match.to_json()))) == match


def test_the_level_letter_does_not_change_the_cards():
    easy, hard = HeartsMatch.new("HT1-E-BCDEFGH"), HeartsMatch.new("HT1-H-BCDEFGH")
    assert easy.state.hands == hard.state.hands


# -- passing --------------------------------------------------------------------------------


def test_pass_rotation_and_targets():
    assert [pass_direction(k) for k in range(1, 10)] == [
        "left", "right", "across", "none", "left", "right", "across", "none", "left",
    ]  # fmt: skip
    assert [pass_target(0, d) for d in ("left", "right", "across", "none")] == [1, 3, 2, 0]
    assert [pass_target(3, d) for d in ("left", "right", "across")] == [0, 2, 1]
    for direction in ("left", "right", "across", "none"):
        for seat in range(4):
            assert pass_source(pass_target(seat, direction), direction) == seat


def first_three(hand: int) -> int:
    return mask_of(cards_in(hand)[:3])


@pytest.mark.parametrize(("hand_number", "offset"), [(1, 1), (2, 3), (3, 2), (5, 1)])
def test_the_exchange_happens_at_once_after_all_four_have_chosen(hand_number, offset):
    match = HeartsMatch.new(CODE)
    while match.hand_number < hand_number:
        finish_hand_randomly(match, seed=hand_number)
        match.next_hand()
    dealt = match.state.hands
    chosen = [first_three(h) for h in dealt]
    for seat in (2, 0, 3):
        match.choose_pass(seat, chosen[seat])
        assert match.phase == "passing"
        assert match.state.hands == dealt  # nothing moves before the last choice
        view = match.view(seat)
        assert view.pass_chosen and view.pass_choice == chosen[seat] and view.legal == 0
        assert view.passed is None and view.received is None
    assert match.view(1).legal == dealt[1] and not match.view(1).pass_chosen
    match.choose_pass(1, chosen[1])
    assert match.phase == "playing"
    for seat in range(4):
        source = (seat - offset) % 4
        assert match.state.hands[seat] == (dealt[seat] & ~chosen[seat]) | chosen[source]
        view = match.view(seat)
        assert view.passed == chosen[seat] and view.received == chosen[source]
        assert view.pass_choice == 0 and not view.pass_chosen
    holder = next(s for s in range(4) if match.state.hands[s] & 1)
    assert match.turn == holder
    assert match.legal_plays() == 1  # the 2♣ leads


def test_a_fourth_hand_has_no_pass():
    match = HeartsMatch.new(CODE)
    for _ in range(3):
        finish_hand_randomly(match, seed=4)
        match.next_hand()
    assert match.pass_direction == "none"
    assert match.phase == "playing"
    assert match.view(0).passed is None
    with pytest.raises(IllegalPass) as err:
        match.choose_pass(0, first_three(match.state.hands[0]))
    assert err.value.reason == "no_pass"


@pytest.mark.parametrize(
    ("pick", "reason"),
    [
        (lambda hand, other: mask_of(cards_in(hand)[:2]), "count"),
        (lambda hand, other: mask_of(cards_in(hand)[:4]), "count"),
        (lambda hand, other: mask_of(cards_in(hand)[:2] + cards_in(other)[:1]), "not_in_hand"),
        (lambda hand, other: 1 << 60 | mask_of(cards_in(hand)[:2]), "not_in_hand"),
        (lambda hand, other: -7, "not_in_hand"),
    ],
)
def test_bad_passes_are_refused_and_change_nothing(pick, reason):
    match = HeartsMatch.new(CODE)
    before = match.copy()
    with pytest.raises(IllegalPass) as err:
        match.choose_pass(0, pick(match.state.hands[0], match.state.hands[1]))
    assert err.value.reason == reason
    assert match == before


def test_a_pass_is_chosen_once_and_is_final():
    match = HeartsMatch.new(CODE)
    match.choose_pass(0, first_three(match.state.hands[0]))
    with pytest.raises(IllegalPass) as err:
        match.choose_pass(0, mask_of(cards_in(match.state.hands[0])[3:6]))
    assert err.value.reason == "already_chosen"
    assert not match.undo_available
    for seat in (1, 2, 3):
        match.choose_pass(seat, first_three(match.state.hands[seat]))
    with pytest.raises(WrongPhase):
        match.choose_pass(0, first_three(match.state.hands[0]))
    assert not match.undo_available


# -- plays ----------------------------------------------------------------------------------


def test_void_in_clubs_on_the_first_trick_holding_only_hearts_and_the_queen():
    hand = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH QS"
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876543.../..KQJT98765432.Q/.AKQJT98765432../..A.AKJT98765432"
        " 0:2C 1"
    )
    assert match.legal_plays() == cards(hand)
    assert match.view(1).legal == cards(hand)
    match.play(parse_card("QS"))
    assert match.state.trick[-1] == PlayedCard(1, parse_card("QS"))
    assert not match.state.hearts_broken  # the queen does not break hearts


def test_void_in_clubs_on_the_first_trick_must_shed_a_card_without_points():
    # West holds the 3♦, the Q♠ and hearts from 2 to Q.
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876543.../.3.QJT98765432.Q/.AKQJT9876542.K./..A.AKJT98765432"
        " 0:2C 1"
    )
    assert match.legal_plays() == cards("3D")
    for bad in ("QS", "5H"):
        with pytest.raises(IllegalPlay) as err:
            match.play(parse_card(bad))
        assert err.value.reason == "first_trick"


def test_the_first_lead_is_the_two_of_clubs():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT98765432.../.AKQJT98765432../..AKQJT98765432./...AKQJT98765432"
        " - 0"
    )
    assert match.legal_plays() == cards("2C")
    with pytest.raises(IllegalPlay) as err:
        match.play(parse_card("AC"))
    assert err.value.reason == "two_of_clubs"


def test_leading_with_only_hearts_before_they_are_broken():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.432../.AKQJT98765.A.2/..KQJT98765432./...AKQJT9876543"
        " - 2 - 0:2C3C4C5C"
    )
    assert not match.state.hearts_broken
    assert match.legal_plays() == cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    match.play(parse_card("KH"))
    assert match.state.hearts_broken


def test_only_the_queen_and_hearts_unbroken_must_lead_the_queen():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.432../.AKQJT98765.AK./...AKJT98765432/..QJT98765432.Q"
        " - 3 - 0:2C3C4C5C"
    )
    assert match.legal_plays() == cards("QS")
    with pytest.raises(IllegalPlay) as err:
        match.play(parse_card("2H"))
    assert err.value.reason == "hearts_not_broken"
    match.play(parse_card("QS"))
    assert not match.state.hearts_broken


def test_hearts_may_be_led_once_broken():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.432../.AKQJT98765.AK./...AKJT98765432/..QJT98765432.Q"
        " - 3 broken 0:2C3C4C5C"
    )
    assert match.legal_plays() == cards("QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH")


def test_follow_suit_and_what_an_illegal_play_says():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.42../.93.T98765432.A/.AQJT8765.AKQJ./...KQJT98765432"
        " 0:KD 1 - 0:2C3C4C5C"
    )
    assert match.legal_plays() == cards("3D 9D")
    before = match.copy()
    cases = [("AS", IllegalPlay, "follow_suit"), ("AC", IllegalPlay, "not_in_hand")]
    for card, error, reason in cases:
        with pytest.raises(error) as err:
            match.play(parse_card(card))
        assert err.value.reason == reason
    with pytest.raises(IllegalPlay) as err:
        match.play(52)
    assert err.value.reason == "not_a_card"
    with pytest.raises(IllegalPlay) as err:
        match.play(parse_card("3D"), seat=HUMAN)
    assert err.value.reason == "not_your_turn"
    assert match == before
    match.play(parse_card("3D"), seat=1)
    assert match.turn == 2


def test_void_off_the_first_trick_may_play_anything():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.32../..JT98765432.AQ/.AQJT987654.KQ./..A.KJT98765432"
        " 0:KD 1 - 0:2C3C4C5C"
    )
    assert match.legal_plays() == cards("AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QS")


def test_the_highest_card_of_the_suit_led_wins_and_takes_the_points():
    # Two cards each: 5♦ 3♣, A♠ 4♣, Q♠ 6♣, 2♦ 5♣.
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " 3.5../4...A/6...Q/5.2.."
        " - 0 broken"
        " 0:2C7C8C9C,0:TCJCQCKC,0:AC3D4D6D,0:7D8D9DTD,0:JDQDKDAD,0:2H3H4H5H,0:6H7H8H9H,"
        "0:THJHQHKH,0:AH2S3S4S,0:5S6S7S8S,0:9STSJSKS"
    )
    # The earlier trick's cards are filler; only this trick's points are checked.
    start = match.state.hand_points
    for card in ("5D", "AS", "QS", "2D"):
        match.play(parse_card(card))
    trick = match.state.tricks[-1]
    assert trick.winner == 0 and trick.points == 13 and trick.leader == 0
    assert match.state.hand_points[0] == start[0] + 13
    assert match.turn == 0  # the winner leads
    for card in ("3C", "4C", "6C", "5C"):
        match.play(parse_card(card))
    assert match.state.tricks[-1].winner == 2
    assert match.phase == "hand_over" and sum(match.state.hand_points) == 26


def test_primitives():
    assert trick_winner(2, [parse_card(c) for c in ("5D", "AS", "9D", "2D")]) == 0
    assert trick_winner(1, [parse_card(c) for c in ("10H", "JH", "AH", "2C")]) == 3
    assert points_of(cards("QS 2H AH KS")) == 15
    assert points_of(cards("QD KS")) == 0
    assert lowest_card(cards("9D 3S 4C")) == parse_card("4C")
    assert highest_card(cards("9D 3S 4C")) == parse_card("3S")
    assert [nth_card(cards("9D 3S 4C"), n) for n in range(3)] == cards_in(cards("9D 3S 4C"))
    assert moon_scores((26, 0, 0, 0)) == ((0, 26, 26, 26), 0)
    assert moon_scores((13, 5, 8, 0)) == ((13, 5, 8, 0), None)
    assert match_winner((99, 0, 0, 0)) is None
    assert match_winner((100, 40, 30, 50)) == 2
    assert match_winner((100, 30, 30, 50)) is None
    # legal_mask is what the engine uses; spot checks of each branch.
    spades = SUIT_MASKS[3]
    assert legal_mask(cards("2H QS 3S"), 3, False, False) == cards("QS 3S")
    assert legal_mask(cards("2H QS 3D"), 0, True, False) == cards("3D")
    assert legal_mask(cards("2H QS"), 0, True, False) == cards("2H QS")
    assert legal_mask(cards("2H QS"), -1, False, False) == cards("QS")
    assert legal_mask(cards("2H QS"), -1, False, True) == cards("2H QS")
    assert legal_mask(cards("2C QS"), -1, True, False) == cards("2C")
    assert legal_mask(spades, 1, False, False) == spades


# -- scoring and the match ------------------------------------------------------------------

# Seat 0 holds the top cards of every suit it has and wins every trick: a moon by force.
SHOOTER = "10C JC QC KC AC JD QD KD AD KS AS KH AH"


def play_out(match: HeartsMatch) -> None:
    """Seat 0 plays its highest legal card, the others their lowest, to the hand's end."""
    while match.phase == "playing":
        legal = match.legal_plays()
        match.play(highest_card(legal) if match.turn == 0 else lowest_card(legal))


def test_a_moon_scores_zero_for_the_shooter_and_26_for_the_others():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT.AKQJ.AK.AK/98765432.65432../.T987.T98765432./..QJ.QJT98765432"
        " - 1 - - 5,6,7,8"
    )
    assert match.state.hands[1] & 1  # seat 1 holds the 2♣ and leads
    play_out(match)
    assert match.phase == "hand_over"
    assert match.state.hand_points == (26, 0, 0, 0)
    view = match.view(2)
    assert view.moon == 0
    assert view.hand_scores == ((0, 26, 26, 26),)
    assert view.totals == (5, 32, 33, 34)


def test_a_moon_that_ends_the_match():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT.AKQJ.AK.AK/98765432.65432../.T987.T98765432./..QJ.QJT98765432"
        " - 1 - - 10,80,75,90"
    )
    play_out(match)
    assert match.phase == "match_over"
    view = match.view(0)
    assert view.totals == (10, 106, 101, 116)
    assert view.winner == 0 and view.moon == 0
    with pytest.raises(WrongPhase):
        match.next_hand()
    with pytest.raises(WrongPhase):
        match.play(0)


def test_a_three_way_tie_at_the_lowest_total_past_100_plays_on():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT.AKQJ.AK.AK/98765432.65432../.T987.T98765432./..QJ.QJT98765432"
        " - 1 - - 104,64,64,64"
    )
    play_out(match)
    assert match.state.totals == (104, 90, 90, 90)
    assert match.phase == "hand_over" and match.view(0).winner is None
    match.next_hand()
    assert match.hand_number == 5 and match.state.totals == (104, 90, 90, 90)
    rounds = 0
    while match.phase != "match_over":
        finish_hand_randomly(match, seed=rounds)
        rounds += 1
        totals = match.state.totals
        if match.phase == "hand_over":
            assert totals.count(min(totals)) > 1
            match.next_hand()
    totals = match.state.totals
    assert totals.count(min(totals)) == 1
    assert match.view(3).winner == totals.index(min(totals))


def test_a_tie_for_the_lowest_below_100_is_not_the_end():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT.AKQJ.AK.AK/98765432.65432../.T987.T98765432./..QJ.QJT98765432"
        " - 1 - - 26,0,0,0"
    )
    play_out(match)
    assert match.state.totals == (26, 26, 26, 26)
    assert match.phase == "hand_over"


def test_next_hand_only_after_a_hand():
    match = HeartsMatch.new(CODE)
    with pytest.raises(WrongPhase) as err:
        match.next_hand()
    assert err.value.reason == "not_hand_over"


def test_hand_over_keeps_the_tricks_for_a_last_look():
    match = HeartsMatch.new(CODE)
    finish_hand_randomly(match, seed=1)
    view = match.view(0)
    assert len(view.tricks) == 13 and view.turn is None and view.legal == 0
    assert sum(view.hand_points) == 26
    match.next_hand()
    assert match.view(0).tricks == () and match.view(0).hand_points == (0, 0, 0, 0)


# -- undo -----------------------------------------------------------------------------------


def random_card(match: HeartsMatch, rng) -> int:
    legal = match.legal_plays()
    return nth_card(legal, rng.randrange(legal.bit_count()))


def finish_hand_randomly(match: HeartsMatch, seed: int) -> None:
    rng = random.Random(seed)
    if match.phase == "passing":
        for seat in range(4):
            match.choose_pass(seat, mask_of(rng.sample(cards_in(match.state.hands[seat]), 3)))
    while match.phase == "playing":
        match.play(random_card(match, rng))


def bots_play_until_human(match: HeartsMatch, rng) -> None:
    while match.phase == "playing" and match.turn != HUMAN:
        match.play(random_card(match, rng))


def test_undo_takes_back_the_players_card_and_the_bots_cards_after_it():
    rng = random.Random(3)
    match = HeartsMatch.new(CODE)
    for seat in range(4):
        match.choose_pass(seat, first_three(match.state.hands[seat]))
    assert not match.undo_available
    bots_play_until_human(match, rng)
    checkpoints = []
    for _ in range(3):
        checkpoints.append(match.copy())
        match.play(random_card(match, rng))
        bots_play_until_human(match, rng)
    assert match.undo_available
    for expected in reversed(checkpoints):
        match.undo()
        assert match.state == expected.state
        assert match.turn == HUMAN
    assert not match.undo_available
    with pytest.raises(NothingToUndo):
        match.undo()


def test_undo_survives_a_json_round_trip():
    rng = random.Random(8)
    match = HeartsMatch.new(CODE)
    finish_hand_randomly(match, seed=2)
    match.next_hand()
    for seat in range(4):
        match.choose_pass(seat, first_three(match.state.hands[seat]))
    bots_play_until_human(match, rng)
    before = match.copy()
    match.play(random_card(match, rng))
    bots_play_until_human(match, rng)
    match.play(random_card(match, rng))
    bots_play_until_human(match, rng)
    restored = HeartsMatch.from_json(match.to_json())
    assert restored == match
    restored.undo()
    restored.undo()
    assert restored == before


def test_a_scored_hand_cannot_be_undone():
    match = HeartsMatch.new(CODE)
    finish_hand_randomly(match, seed=5)
    assert match.phase == "hand_over"
    assert not match.undo_available
    with pytest.raises(NothingToUndo):
        match.undo()


def test_an_illegal_play_leaves_no_snapshot():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " .93.T98765432.A/AKQJT9876.542../.AQJT876.AKQJ.2/...KQJT9876543"
        " 3:KD 0 - 0:2C3C4C5C"
    )
    with pytest.raises(IllegalPlay):
        match.play(parse_card("AS"))
    assert not match.undo_available
    match.play(parse_card("9D"))
    assert match.undo_available


def test_the_bots_plays_leave_no_snapshot():
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " AKQJT9876.432../.AKQJT98765.32./..AKQJT987654.2/...AKQJT9876543"
        " - 1 - 0:2C3C4C5C"
    )
    match.play(match.legal_plays().bit_length() - 1)
    assert not match.undo_available


# -- JSON -----------------------------------------------------------------------------------


def test_json_is_plain_and_round_trips_exactly():
    match = HeartsMatch.new(CODE)
    finish_hand_randomly(match, seed=9)
    data = match.to_json()
    assert json.loads(json.dumps(data)) == data
    assert HeartsMatch.from_json(json.loads(json.dumps(data))) == match
    assert HeartsMatch.from_json(data).to_json() == data


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.pop("state"),
        lambda d: d.update(v=2),
        lambda d: d.update(deal="HH1-N-AAAAAAM"),
        lambda d: d["state"].update(phase="dancing"),
        lambda d: d["state"].update(turn=7),
        lambda d: d["state"].update(turn=-1),
        lambda d: d["state"].update(hands=[1, 2, 3]),
        lambda d: d["state"].update(hands=["1", 2, 3, 4]),
        lambda d: d["state"].update(hearts_broken=1),
        lambda d: d["state"].update(trick=[0, 99]),
        lambda d: d["state"].update(trick=[4, 1]),
        lambda d: d["state"].update(trick=[0, 1, 2, 3, 4]),
        lambda d: d["state"].update(tricks=[[0, 1, 2, 3]]),
        lambda d: d["state"].update(tricks=[]),
        lambda d: d["state"].update(hand_scores=[[27, 0, 0, 0]]),
        lambda d: d.update(undo=[{}]),
        lambda d: d["undo"][0].update(done=5),
        lambda d: d["undo"][0].update(hand_points=[0, 0, 0]),
        lambda d: d["state"].update(phase="hand_over", turn=-1),
    ],
)
def test_from_json_refuses_a_spoiled_state(spoil):
    match = parse_position(
        "HT1-N-AAAAAAM 4 playing"
        " .93.T98765432.A/AKQJT9876.542../.AKQJT876.AKQJ./...KQJT98765432"
        " - 0 - 0:2C3C4C5C"
    )
    match.play(parse_card("AS"))
    data = match.to_json()
    assert HeartsMatch.from_json(data) == match
    spoil(data)
    with pytest.raises(HeartsError) as err:
        HeartsMatch.from_json(data)
    assert err.value.reason == "bad_state"


def test_only_earlier_moments_of_the_hand_are_saved_as_snapshots():
    match = HeartsMatch.new(CODE)
    stranger = HeartsMatch(match.code, match.state._replace(hand_number=2), [match.state])
    with pytest.raises(ValueError):
        stranger.to_json()


# -- views ----------------------------------------------------------------------------------


def test_a_view_does_not_change_when_other_hidden_cards_move():
    rng = random.Random(11)
    match = HeartsMatch.new(CODE)
    for seat in range(4):
        match.choose_pass(seat, first_three(match.state.hands[seat]))
    for _ in range(9):
        match.play(random_card(match, rng))
    state = match.state
    for seat in range(4):
        direction = match.pass_direction
        known = state.passed[seat] | state.passed[pass_source(seat, direction)]
        a, b = [s for s in range(4) if s != seat][:2]
        card_a = lowest_card(state.hands[a] & ~known)
        card_b = lowest_card(state.hands[b] & ~known)
        hands = list(state.hands)
        hands[a] ^= (1 << card_a) | (1 << card_b)
        hands[b] ^= (1 << card_a) | (1 << card_b)
        swapped = HeartsMatch(match.code, state._replace(hands=tuple(hands)), [])
        assert swapped.view(seat) == match.view(seat)
        assert swapped.view(a) != match.view(a)


@given(
    hand=st.integers(1, FULL_DECK),
    led_suit=st.integers(-1, 3),
    first_trick=st.booleans(),
    hearts_broken=st.booleans(),
)
def test_legal_mask_follows_the_rules_as_written(hand, led_suit, first_trick, hearts_broken):
    legal = legal_mask(hand, led_suit, first_trick, hearts_broken)
    points = SUIT_MASKS[2] | (1 << parse_card("QS"))
    if led_suit < 0 and first_trick:
        # The opening lead: only the 2♣, which the leader then holds.
        assert legal == hand & 1
        return
    assert legal and not legal & ~hand
    if led_suit >= 0 and hand & SUIT_MASKS[led_suit]:
        assert legal == hand & SUIT_MASKS[led_suit]
    elif led_suit >= 0 and first_trick:
        assert legal == (hand & ~points if hand & ~points else hand)
    elif led_suit >= 0 or hearts_broken:
        assert legal == hand
    else:
        assert legal == (hand & ~SUIT_MASKS[2] if hand & ~SUIT_MASKS[2] else hand)
