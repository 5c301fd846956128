"""One scenario per tip of the seed page, each against a contrast where the tip does not apply
(so the test shows the tip changing the decision, not a coincidence of the position)."""

from __future__ import annotations

from bot_positions import mask, passing, position

from app.bots import choose_pass, choose_play, decision_seed
from app.rules.cards import card_text


def pass_of(seat: int, hand: str) -> set[str]:
    view = passing(seat, hand).view(seat)
    chosen = choose_pass("normal", view, decision_seed(view, "pass"))
    return {card_text(c) for c in range(52) if chosen >> c & 1}


def play_of(match, level: str = "normal") -> str:
    view = match.view(match.turn)
    return card_text(choose_play(level, view, decision_seed(view)))


def test_tip1_pass_voids_a_minor_suit_and_sheds_danger():
    # Q♠ with one low spade is dangerous, the lone 8♦ makes a void, A♥ is the top heart.
    assert pass_of(1, "QS 3S 8D AH KH 2C 4C 6C 8C 10C JC 5C 7C") == {"QS", "8D", "AH"}
    # Without the queen, both diamonds go (a void) and then the highest heart.
    assert pass_of(2, "9S 3S 8D 2D AH KH 2C 4C 6C 8C 10C JC 5C") == {"8D", "2D", "AH"}


def test_tip2_queen_with_four_low_spades_is_kept():
    passed = pass_of(1, "QS 2S 3S 5S 7S AH KH QH 9D 4D 3C 6C 8C")
    assert passed == {"9D", "4D", "AH"}
    # With only three low spades the queen goes.
    assert "QS" in pass_of(1, "QS 2S 3S 5S 7C AH KH QH 9D 4D 3C 6C 8C")


def test_tip2_queen_waits_under_the_lead_and_drops_on_a_king():
    hands = {1: "QS 10S 5S 3S 2S 5D 6D 7D 8D 9D 10D JD"}
    first = [(0, "2C 3C AC 4C")]  # seat 2 wins and leads
    # The 9♠ leads: keep the queen, play the highest spade that stays under it.
    assert play_of(position(hands, first, trick=(0, "9S"))) == "5S"
    # A king already wins the trick: give it the queen.
    assert play_of(position(hands, first, trick=(0, "KS"))) == "QS"


def test_tip3_hunt_the_queen_with_low_spades():
    first = [(0, "2C AC 3C 4C")]  # seat 1 wins and leads the second trick
    hunt = {1: "4S 7S 9S 5D 6D 7D 8D 9D 10D 5C 6C 7C"}
    assert play_of(position(hunt, first)) == "4S"
    # Holding the king of spades, spades are not led (the queen could fall on it).
    no_hunt = {1: "4S 7S KS 5D 6D 7D 8D 9D 10D 5C 6C 7C"}
    assert play_of(position(no_hunt, first)) != "4S"
    assert mask(play_of(position(no_hunt, first))) & mask("4S 7S KS") == 0


def test_tip4_shed_high_cards_in_the_first_round_of_a_suit():
    hands = {3: "AD 9D 3D 5S 6S 7S 8S 9S 10S JS 5C 6C"}
    first = [(0, "2C 3C AC 4C")]  # seat 2 wins
    # First round of diamonds, nobody void: the ace wins a trick without points.
    assert play_of(position(hands, first, trick=(2, "5D"))) == "AD"
    # Second round of diamonds (a void may show any moment): duck under the jack instead.
    second = [*first, (2, "6D 7D 8D 10D")]  # seat 1 wins with 10♦
    hands2 = {3: "AD 9D 3D 5S 6S 7S 8S 9S 10S JS 5C"}
    assert play_of(position(hands2, second, trick=(1, "JD 2D"))) == "9D"


def test_tip5_block_a_moon_in_progress():
    bot = {3: "AH 2H 3H 4H 5S 6S 7S 8C 9C 10C"}
    # Seat 2 has taken every point so far (Q♠ and a heart): take the heart trick from it.
    moon = [(0, "2C 3C AC 4C"), (2, "KS QS 3S 4S"), (2, "AD 5H 6D 7D")]
    assert play_of(position(bot, moon, trick=(2, "9H"))) == "AH"
    # The points are split (seat 0 took the queen): no moon to fear, so duck under 9♥.
    split = [(0, "2C 3C AC 4C"), (2, "4S QS AS 3S"), (0, "2D 6D AD 5H")]
    assert play_of(position(bot, split, trick=(2, "9H"))) == "4H"


def test_tip5_shoot_the_moon_with_a_hand_that_clearly_can():
    bot = {1: "AH KH 2H AS KS QS QC AD KD QD"}
    start = [(0, "2C AC 3C 4C"), (1, "KC 3H 5C 6C")]
    # Seat 1 has every point so far and only one card that can lose: take the hearts too.
    shoot = [*start, (1, "2D 5D 6D 9D")]
    assert play_of(position(bot, shoot, trick=(0, "5H"))) == "AH"
    # Once seat 0 holds a heart the moon is gone: duck.
    gone = [*start, (1, "2D 5D 4H 9D")]
    assert play_of(position(bot, gone, trick=(0, "5H"))) == "2H"
