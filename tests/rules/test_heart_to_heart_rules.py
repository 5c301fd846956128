"""Heart to Heart rules: geometry, deals, taps, undo, help, clock and JSON."""

import json

import pytest

from app.rules.deal_codes import DealCode, DealCodeError, shuffled
from app.rules.heart_to_heart import (
    ALL_REMOVED,
    COVERED_BY,
    DRAW,
    RANK_NAMES,
    REDEAL,
    UNDO_LIMIT,
    HeartToHeartGame,
    IllegalMoveError,
    Move,
    StateError,
    TargetError,
    UndoError,
    deal_ranks,
    new_game,
    pair_move,
    parse_target,
    rank_name,
    target_text,
)

# A hand-made deal. Heart rows: KKKK / QQQQJJ / JJTTT / T999 / 988 / 23 / A (the tip).
# The stock turns 7, A, 2, 8, ...; the waste holds a 3.
HEART = "KKKKQQQQJJJJTTTT99998823A"
STOCK = "7A28A2A2334444555566667778"
WASTE = "3"


def saved_state(heart=HEART, stock=STOCK, waste=WASTE, removed=0, **fields):
    """The JSON of a hand-made position (tests/rules/test_heart_to_heart_trusted.py uses it)."""
    data = {
        "v": 1,
        "deal": "HH1-N-AAAAAAA",
        "heart": heart,
        "removed": removed,
        "stock": stock,
        "waste": waste,
        "selected": None,
        "moves": 0,
        "history": [],
        "clock": None,
    }
    data.update(fields)
    return data


def position(**fields):
    return HeartToHeartGame.from_json(saved_state(**fields))


# The tip (A), 22 (a 2) and 23 (a 3) gone, each with a pile card of its rank.
TIP_AND_BELOW = 1 << 22 | 1 << 23 | 1 << 24
STOCK_AFTER_TIP_AND_BELOW = "78A2A234444555566667778"


def letters(ranks):
    return "".join("A23456789TJQK"[rank - 1] for rank in ranks)


# --- geometry -----------------------------------------------------------------------------


def test_covering_follows_the_spec_table():
    assert COVERED_BY[0] == (4, 5)  # a lobe card: two covering cards
    assert COVERED_BY[1] == (5, 6)
    assert COVERED_BY[2] == (7, 8)
    assert COVERED_BY[3] == (8, 9)
    assert COVERED_BY[4] == (10,)  # row ends free up sooner
    assert COVERED_BY[9] == (14,)
    assert COVERED_BY[12] == (16, 17)
    assert COVERED_BY[22] == (24,) and COVERED_BY[23] == (24,)
    assert COVERED_BY[24] == ()
    ends = [p for p in range(25) if len(COVERED_BY[p]) == 1]
    assert ends == [4, 9, 10, 14, 15, 18, 19, 21, 22, 23]


def test_heart_has_623_reachable_patterns():
    seen = {0}
    frontier = [0]
    while frontier:
        removed = frontier.pop()
        for p in range(25):
            if not removed >> p & 1 and all(removed >> q & 1 for q in COVERED_BY[p]):
                after = removed | 1 << p
                if after not in seen:
                    seen.add(after)
                    frontier.append(after)
    assert len(seen) == 623


def test_only_the_tip_is_free_at_the_start():
    game = new_game("HH1-N-AAAAAAM")
    assert [game.position_state(p) for p in range(25)] == ["covered"] * 24 + ["free"]


# --- deals --------------------------------------------------------------------------------

GOLDEN = [
    # code, heart c[0..24], stock in turning order c[25..50], waste c[51]
    ("HH1-N-AAAAAAA", "36287287JAQ8J73A4K36569A5", "48Q2T3K9TAJ5QJK96QK72T445T", "9"),
    ("HH1-N-AAAAAAM", "KQA9833276743J582K4JJ9Q6K", "6TK4Q72T9A89T5364Q7T528JAA", "5"),
    ("HH1-N-BCDEFGH", "TJ367A744J552AT9Q79TA26KK", "A6332JK38955Q8248TQK47QJ98", "6"),
    ("HH1-N-ZZZZZZZ", "KK3TT2JK85T97AQJ96643587Q", "24A2Q594J3534Q276JATA69K87", "8"),
    ("HH1-W-AAAAAAA", "79988633A753KAJ4526TJ8JQT", "TQ2Q45KQ9K45T47A6269J8A273", "K"),
    ("HH1-W-AAAAAAM", "JQK5J4AT6878365KQJA9223T8", "7444TQ82A36K7Q9J7KT956A253", "9"),
    ("HH1-W-BCDEFGH", "TJ367A744J552AT9Q79TA26KK", "A6332JK38955Q8248TQK47QJ98", "6"),
]


@pytest.mark.parametrize(("code", "heart", "stock", "waste"), GOLDEN)
def test_golden_deals(code, heart, stock, waste):
    game = new_game(code)
    assert letters(game.heart_ranks) == heart
    assert letters(game.stock_ranks) == stock
    assert letters(game.waste_ranks) == waste
    assert letters(deal_ranks(code)) == heart + stock + waste
    assert game.deal == code


def test_n_codes_deal_sub_seed_zero_of_the_rank_deck():
    deck = list(range(1, 14)) * 4
    assert deal_ranks("HH1-N-AAAAAAM") == tuple(shuffled(deck, "HH1", 12, 0))
    # HH1-W-AAAAAAM skipped sub-seed 0 (not winnable) and took sub-seed 1.
    assert deal_ranks("HH1-W-AAAAAAM") == tuple(shuffled(deck, "HH1", 12, 1))


def test_codes_are_read_in_any_case_with_spaces():
    assert new_game("  hh1-w-aaaaaam ").deal == "HH1-W-AAAAAAM"
    assert new_game(DealCode("HH1", "N", 12)) == new_game("HH1-N-AAAAAAM")


@pytest.mark.parametrize("code", ["HH1-X-AAAAAAM", "HT1-N-AAAAAAM", "HH1-N-AAAAAA", "", "HH1N"])
def test_bad_codes_are_refused(code):
    with pytest.raises(DealCodeError):
        new_game(code)


@pytest.mark.parametrize("code", [DealCode("HT1", "N", 3), DealCode("HH1", "N", 26**7)])
def test_a_code_of_another_game_or_range_is_refused(code):
    with pytest.raises(DealCodeError):
        new_game(code)


# --- targets ------------------------------------------------------------------------------


def test_targets_round_trip_through_text():
    for target in [*range(25), "stock", "waste"]:
        assert parse_target(target_text(target)) == target
    assert parse_target("heart:7") == 7


@pytest.mark.parametrize("text", ["heart:25", "heart:07", "heart:-1", "Heart:3", "stok", "", 7])
def test_bad_target_text_is_refused(text):
    with pytest.raises(TargetError):
        parse_target(text)


@pytest.mark.parametrize("target", [25, -1, "heart:3", None, True, 2.0])
def test_bad_targets_are_refused_by_tap(target):
    with pytest.raises(TargetError):
        new_game("HH1-N-AAAAAAM").tap(target)


def test_rank_names():
    assert len(RANK_NAMES) == 13
    assert (rank_name(1), rank_name(10), rank_name(13)) == ("A", "10", "K")


# --- taps ---------------------------------------------------------------------------------


def test_select_deselect_and_taps_that_do_nothing():
    game = position()
    before = game.to_json()
    assert game.tap(0).kind == "nothing"  # covered
    assert game.to_json() == before
    result = game.tap(24)
    assert (result.kind, result.hearts, game.selected) == ("select", {24}, 24)
    assert game.tap(3).kind == "nothing"  # covered: the selection stays
    assert game.selected == 24
    result = game.tap(24)
    assert (result.kind, result.hearts, game.selected) == ("deselect", {24}, None)
    assert game.moves == 0


def test_another_rank_moves_the_selection_and_reports_the_error():
    game = position()
    game.tap(24)  # the tip A
    result = game.tap("waste")  # a 3
    assert result.kind == "reselect" and result.same_rank_error
    assert result.hearts == {24} and result.waste_changed
    assert game.selected == "waste"
    assert game.score == 0 and game.moves == 0


def test_a_draw_deselects_the_waste_but_keeps_a_heart_selection():
    game = position()
    game.tap("waste")
    result = game.tap("stock")
    assert result.kind == "draw" and result.stock_changed and result.waste_changed
    assert game.selected is None and rank_name(game.waste_top) == "7"
    game.tap(24)
    game.tap("stock")
    assert game.selected == 24 and rank_name(game.waste_top) == "A"


def test_pair_with_the_waste_scores_ten_and_frees_the_cards_below():
    game = position()
    game.tap(24)
    game.tap("stock")
    game.tap("stock")  # waste top is now an A, the tip still selected
    result = game.tap("waste")
    assert result.kind == "pair" and result.is_move
    assert result.hearts == {22, 23, 24}
    assert result.waste_changed and not result.stock_changed
    assert game.selected is None
    assert game.score == 10 and game.moves == 3
    assert game.position_state(24) == "removed"
    assert game.position_state(22) == game.position_state(23) == "free"
    assert rank_name(game.waste_top) == "7"


def test_waste_first_then_heart_also_pairs():
    game = position(waste="A", stock="7328A2A2334444555566667778")
    game.tap("waste")
    assert game.tap(24).kind == "pair"
    assert game.waste_count == 0 and game.score == 10


def test_heart_pair_scores_twenty():
    # 22, 23 and the tip gone: 19 (a 9), 20 and 21 (two 8s) are free.
    game = position(removed=TIP_AND_BELOW, stock=STOCK_AFTER_TIP_AND_BELOW)
    assert {p for p in range(25) if game.position_state(p) == "free"} == {19, 20, 21}
    game.tap(21)
    result = game.tap(20)
    assert result.kind == "pair" and result.hearts == {20, 21, 17, 18}
    assert game.score == 50


def test_redeal_brings_the_cards_back_in_their_first_order():
    game = new_game("HH1-N-AAAAAAM")
    first_order = game.waste_ranks + game.stock_ranks
    for _ in range(26):
        assert game.tap("stock").kind == "draw"
    assert game.stock_count == 0 and game.waste_count == 27
    result = game.tap("stock")
    assert result.kind == "redeal" and game.waste_count == 0
    assert game.stock_ranks == first_order  # the original waste card comes up first
    assert game.tap("waste").kind == "nothing"
    assert game.moves == 27


def test_winning_leaves_a_final_game_on_250():
    # Only position 0 (an A) is left; the A on the waste partners it.
    game = position(
        heart="AKKKKQQQQJJJJTTTT99998823",
        removed=ALL_REMOVED ^ 1,
        stock="8823A3A27777666655554444",
        waste="A",
        moves=40,
        clock=100.0,
    )
    game.tap(0)
    game.tap("waste")
    assert game.status == "won" and game.score == 250 and game.stock_count == 24
    assert game.tap("stock").kind == "nothing"
    assert list(game.legal_moves()) == []
    with pytest.raises(UndoError) as refused:
        game.undo()
    assert refused.value.reason == "game_won"
    with pytest.raises(IllegalMoveError):
        game.play(DRAW)
    assert game.placement_help() == (frozenset(), frozenset())


# --- stalemate ------------------------------------------------------------------------------


def test_a_known_stalemate_two_taps_from_the_start_and_undo_out_of_it():
    game = new_game("HH1-N-AAAAEPO")
    assert game.status == "playing"
    game.tap(24)
    game.tap("waste")  # both 2s: the freed Q and 7 have no partner left anywhere
    assert game.status == "stalemate"
    # Draws and selections still work in a stalemate.
    assert game.tap(22).kind == "select"
    assert game.tap("stock").kind == "draw"
    game.undo()
    game.undo()
    assert game.status == "playing" and game.moves == 0


def test_some_deals_are_stalemates_from_the_start():
    game = new_game("HH1-N-AAAAAAO")
    tip = game.rank_at(24)
    assert tip not in game.stock_ranks + game.waste_ranks
    assert game.status == "stalemate"


# --- undo ---------------------------------------------------------------------------------


def test_undo_restores_and_clears_the_selection():
    game = position()
    start = game.to_json()
    game.tap(24)
    game.tap("stock")
    game.tap("stock")
    game.tap("waste")
    game.tap(22)
    result = game.undo()
    assert result.kind == "undo" and result.hearts == {22, 23, 24}
    assert game.selected is None
    assert game.score == 0 and game.moves == 2
    game.undo()
    game.undo()
    assert {**game.to_json(), "clock": None} == {**start, "assisted": True}
    with pytest.raises(UndoError) as refused:
        game.undo()
    assert refused.value.reason == "nothing_to_undo"


def test_undo_reaches_back_one_hundred_moves():
    game = new_game("HH1-N-AAAAAAM")
    for _ in range(UNDO_LIMIT + 30):
        game.tap("stock")
    assert game.undo_depth == UNDO_LIMIT
    for _ in range(UNDO_LIMIT):
        game.undo()
    assert game.moves == 30
    with pytest.raises(UndoError):
        game.undo()


# --- placement help -----------------------------------------------------------------------


def test_help_outlines_free_cards_with_a_partner_and_that_waste_top():
    game = position(removed=1 << 24, stock="2A8A22334444555566667778", waste="37")
    # Free: 22 (a 2) and 23 (a 3); the waste top is a 7.
    assert game.placement_help() == (frozenset(), frozenset())
    game.tap("stock")  # a 2 on top
    outlined, dimmed = game.placement_help()
    assert outlined == {22, "waste"} and dimmed == frozenset()


def test_help_dims_what_cannot_pair_with_the_selection():
    game = position(removed=1 << 24, stock="A8A22334444555566667778", waste="372")
    game.tap(22)
    outlined, dimmed = game.placement_help()
    assert outlined == {22, "waste"}
    assert dimmed == set(range(22)) | {23}  # covered cards too; the waste 2 stays lit
    game.tap(23)  # now a 3 is selected: the waste 2 is dimmed
    assert game.placement_help()[1] == set(range(23)) | {"waste"}
    game.tap("waste")  # the waste 2 selected
    assert game.placement_help()[1] == set(range(22)) | {23}


# --- clock --------------------------------------------------------------------------------


def test_clock_runs_from_the_first_move_while_playing():
    game = new_game("HH1-N-AAAAEPO")
    game.add_play_time(5)
    game.tap(24)
    game.add_play_time(5)  # a selection is not a move
    assert game.play_time == 0 and not game.clock_running
    game.tap("stock")
    game.add_play_time(2.5)
    game.undo()
    game.add_play_time(1)  # undoing to zero moves does not stop it
    assert game.play_time == 3.5 and game.elapsed_seconds == 3
    game.tap(24)
    game.tap("waste")  # stalemate
    assert not game.clock_running
    game.add_play_time(10)
    assert game.play_time == 3.5
    game.undo()
    game.add_play_time(1)
    assert game.play_time == 4.5


@pytest.mark.parametrize("seconds", [-1, float("nan"), float("inf"), "3"])
def test_clock_refuses_nonsense(seconds):
    with pytest.raises(ValueError):
        new_game("HH1-N-AAAAAAM").add_play_time(seconds)


# --- moves API ----------------------------------------------------------------------------


def test_legal_moves_and_play():
    game = position(removed=TIP_AND_BELOW, stock=STOCK_AFTER_TIP_AND_BELOW)
    assert set(game.legal_moves()) == {pair_move(20, 21), DRAW}
    game.play(pair_move(21, 20))
    assert game.to_json()["history"] == ["20+21"]
    with pytest.raises(IllegalMoveError):
        game.play(pair_move(16, 19))  # a 9 and a 9, but 16 is covered
    with pytest.raises(IllegalMoveError):
        game.play(REDEAL)
    with pytest.raises(IllegalMoveError):
        game.play(Move("pair", 19, "stock"))
    with pytest.raises(IllegalMoveError):
        game.play(Move("shuffle"))


# --- JSON ---------------------------------------------------------------------------------


def test_json_round_trips_exactly_and_stays_small():
    game = new_game("HH1-N-AAAAAAM")
    game.tap(24)
    for _ in range(150):
        game.tap("stock")
    game.add_play_time(12.25)
    data = json.loads(json.dumps(game.to_json()))
    again = HeartToHeartGame.from_json(data)
    assert again == game and again.to_json() == game.to_json()
    assert again.selected == 24 and again.play_time == 12.25
    assert len(json.dumps(game.to_json())) < 1024
    assert game.copy() == game


BROKEN = [
    {"v": 2},
    {"heart": HEART[:-1]},
    {"heart": HEART[:-1] + "X"},
    {"removed": 1},  # position 0 gone while still covered
    {"removed": -1},
    {"stock": STOCK + "A"},  # a fifth ace
    {"waste": ""},  # a 3 vanished without a pair
    {"selected": "heart:0"},  # covered
    {"selected": "heart:99"},
    {"moves": 1, "history": ["d"]},  # moves made but no clock
    {"moves": 1, "history": ["d"], "clock": 0.0, "waste": "", "stock": STOCK + "3"},
    {"moves": 1, "history": ["24+w"], "clock": 0.0},  # the tip is still there
    {"moves": 1, "history": ["x"], "clock": 0.0},
    {"moves": 1, "history": [7], "clock": 0.0},
    {"moves": 1, "history": [["d"]], "clock": 0.0},
    {"moves": 1, "history": "d", "clock": 0.0},
    {"moves": 2, "history": ["d"] * 3, "clock": 0.0},
    {"deal": "HT1-N-AAAAAAA"},
    {"clock": -3.0},
    {"moves": "1"},
    {"extra": 1},
]


@pytest.mark.parametrize("change", BROKEN)
def test_from_json_refuses_inconsistent_states(change):
    with pytest.raises(StateError):
        position(**change)


def test_from_json_refuses_non_objects_and_missing_keys():
    for data in (None, [], "x", {"v": 1}):
        with pytest.raises(StateError):
            HeartToHeartGame.from_json(data)
