"""Hard's pieces: consistent sampling of the unseen cards, candidate grouping, match-aware value."""

from __future__ import annotations

from bot_positions import position

from app.bots import _search, choose_pass, choose_play, decision_seed, hard
from app.bots.driver import pass_for_bots
from app.bots.model import from_view
from app.rules.cards import FULL_DECK, SUIT_MASKS, card_text
from app.rules.hearts import HeartsMatch, pass_target


def test_sampled_deals_respect_voids_counts_and_passed_cards():
    match = HeartsMatch.new("HT1-N-SAMPLES")
    pass_for_bots(match)
    view = match.view(0)
    match.choose_pass(0, choose_pass("normal", view, decision_seed(view, "pass")))
    voids_seen = 0
    while match.phase == "playing":
        seat = match.turn
        view = match.view(seat)
        pos = from_view(view)
        target = pass_target(seat, view.pass_direction)
        known, need, unseen = hard.knowledge(pos, view)
        state = len(view.tricks)
        for _ in range(10):
            hands, state = _search.sample_hands(known, seat, need, unseen, state)
            assert hands[seat] == view.hand
            everything = pos.played
            for s in range(4):
                assert hands[s].bit_count() == view.cards_left[s]
                for suit in range(4):
                    if pos.voids[s] >> suit & 1:
                        assert not hands[s] & SUIT_MASKS[suit]
                assert not everything & hands[s]
                everything |= hands[s]
            assert everything == FULL_DECK
            # The cards this seat passed and that are not played yet are where it sent them.
            assert view.passed & ~pos.played & ~hands[target] == 0
        voids_seen += sum(v.bit_count() for v in pos.voids)
        match.play(choose_play("normal", view, decision_seed(view)))
    assert voids_seen  # the hand did show voids for the sampler to respect


def test_equivalent_cards_are_searched_once():
    match = position({1: "5D 6D 8D 9D 2S 3S 5S QS KS 10C JC QC"}, [(0, "2C AC 3C 4C")])
    view = match.view(1)
    # 5♦6♦ and 8♦9♦ touch (7♦ is unseen between them), 2♠3♠ touch (4♠ unseen after),
    # Q♠ stands alone, 10♣ J♣ Q♣ touch.
    groups = [card_text(c) for c in hard.candidates(from_view(view), 1, view.legal)]
    assert groups == ["10C", "5D", "8D", "2S", "5S", "QS", "KS"]


def test_match_result_near_100():
    me = 1
    # Far from 100 the match goes on whatever the hand.
    assert _search.match_result([0, 8, 5, 13], me, (10, 20, 30, 40)) == 0
    # Seat 2 reaches 100 while we are lowest: the hand wins the match.
    assert _search.match_result([0, 8, 5, 13], me, (70, 60, 95, 80)) == 1
    # A quiet hand leaves everyone under 100.
    assert _search.match_result([13, 0, 0, 13], me, (70, 60, 95, 80)) == 0
    # Ending it while someone else is lowest loses; a shared lowest total lets it go on.
    assert _search.match_result([0, 8, 5, 13], me, (50, 60, 95, 80)) == -1
    assert _search.match_result([0, 8, 5, 13], me, (68, 60, 95, 80)) == 0


def test_a_match_to_win_outweighs_points_this_hand():
    ev = hard._Evaluation([1, 2], default=1, values=hard._values([50, 70], [0, 1]), points=[50, 70],
                          deals=10)
    # Card 2 takes two more points a deal but wins the match in one deal in ten.
    assert ev.best() == 2
    ev = hard._Evaluation([1, 2], default=1, values=hard._values([50, 70], [0, 0]), points=[50, 70],
                          deals=10)
    assert ev.best() == 1
