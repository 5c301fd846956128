"""Heart to Heart solver: winning lines replay to a win, and "not winnable" answers agree with
independent exhaustive searches (one over ranks, one over the engine's real moves)."""

import random
from functools import cache

import pytest

from app.rules.deal_codes import DealCode, shuffled
from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import (
    is_winnable,
    replay,
    solve,
    solve_moves,
)

ROWS = [[1, 3, 7, 9], [0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7], [4, 6], [5]]
PLACES = [(row, column) for row, columns in enumerate(ROWS) for column in columns]
COVERERS = [
    [i for i, (below, at) in enumerate(PLACES) if below == row + 1 and abs(at - column) == 1]
    for row, column in PLACES
]


def exhaustive(heart, gone, piles):
    """Every pair in every order, no shortcuts: heart cards gone plus the piles as a multiset
    (unlimited redeals bring any pile card to the waste top)."""

    @cache
    def wins(gone, piles):
        if len(gone) == 25:
            return True
        free = [p for p in range(25) if p not in gone and all(q in gone for q in COVERERS[p])]
        for i, p in enumerate(free):
            for q in free[i + 1 :]:
                if heart[p] == heart[q] and wins(gone | {p, q}, piles):
                    return True
            if heart[p] in piles:
                rest = list(piles)
                rest.remove(heart[p])
                if wins(gone | {p}, tuple(rest)):
                    return True
        return False

    return wins(frozenset(gone), tuple(sorted(piles)))


def exhaustive_of(game):
    gone = [p for p in range(25) if game.position_state(p) == "removed"]
    return exhaustive(game.heart_ranks, gone, game.stock_ranks + game.waste_ranks)


def wins_by_tapping(game, taps):
    for target in taps:
        assert game.tap(target).changed
    return game.status == "won"


def test_solver_lines_win_and_agree_with_exhaustive_search_on_fresh_deals():
    winnable = 0
    for number in range(300):
        game = new_game(DealCode("HH1", "N", number))
        taps = solve(game)
        assert (taps is not None) == exhaustive_of(game), number
        if taps is not None:
            winnable += 1
            assert wins_by_tapping(game, taps)
            assert game.score == 250
    assert 50 < winnable < 120


def random_positions(count, seed):
    """Positions reached by random pairs and draws from random deals, selections included."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = new_game(DealCode("HH1", "N", rng.randrange(10**6)))
        for _ in range(rng.randrange(1, 60)):
            moves = list(game.legal_moves())
            if not moves:
                break
            pairs = [move for move in moves if move.kind == "pair"]
            game.play(rng.choice(pairs) if pairs and rng.random() < 0.7 else moves[-1])
        if not game.is_won:
            targets = [p for p in range(25) if game.position_state(p) == "free"] + ["waste"]
            if rng.random() < 0.5:
                game.tap(rng.choice(targets))
            positions.append(game)
    return positions


def test_solver_decides_positions_in_the_middle_of_a_game():
    positions = random_positions(250, seed=11)
    winnable = 0
    for game in positions:
        taps = solve(game)
        assert (taps is not None) == exhaustive_of(game)
        assert is_winnable(game) == (taps is not None)
        if taps is not None:
            winnable += 1
            if game.selected is not None:
                assert taps[0] == game.selected  # a deselecting tap first
            assert wins_by_tapping(game, taps)
    assert 20 < winnable < 230


def concrete_search(game, budget):
    """Search the engine's own moves (real stock order, draws and redeals) with no help from
    the solver's reasoning. Returns True/False, or None when over ``budget`` positions."""
    seen = set()
    stack = [game]
    while stack:
        position = stack.pop()
        if position.is_won:
            return True
        for move in position.legal_moves():
            after = position.copy()
            after.play(move)
            key = (after.removed_mask, after.stock_ranks, after.waste_ranks)
            if key not in seen:
                if len(seen) >= budget:
                    return None
                seen.add(key)
                stack.append(after)
    return False


def test_the_order_of_stock_and_waste_does_not_decide_a_game():
    decided = {True: 0, False: 0}
    for game in random_positions(120, seed=5):
        answer = concrete_search(game, budget=4000)
        if answer is not None:
            assert is_winnable(game) == answer
            decided[answer] += 1
    assert decided[True] >= 10 and decided[False] >= 10


@pytest.mark.parametrize("number", [0, 12, 77, 4096, 334123303])
def test_w_codes_deal_the_first_winnable_sub_seed(number):
    deck = list(range(1, 14)) * 4
    sub = 0
    while True:
        cards = shuffled(deck, "HH1", number, sub)
        if exhaustive(cards[:25], (), cards[25:]):
            break
        sub += 1
    game = new_game(DealCode("HH1", "W", number))
    assert game.heart_ranks + game.stock_ranks + game.waste_ranks == tuple(cards)


def test_every_w_code_tested_is_winnable_by_its_line():
    for number in range(60):
        game = new_game(DealCode("HH1", "W", number))
        assert wins_by_tapping(game, solve(game))


def test_won_and_stalemate_positions():
    game = new_game("HH1-N-AAAAEPO")
    game.tap(24)
    game.tap("waste")
    assert game.status == "stalemate"
    assert solve(game) is None and solve_moves(game) is None and not is_winnable(game)
    won = new_game("HH1-W-AAAAAAM")
    wins_by_tapping(won, solve(won))
    assert solve(won) == [] and is_winnable(won)


def test_replay_steps_through_a_won_game_without_touching_the_start():
    game = new_game("HH1-W-AAAAAAM")
    start = game.to_json()
    moves = solve_moves(game)
    positions = replay(game, moves)
    assert game.to_json() == start
    assert len(positions) == len(moves)
    assert [p.moves for p in positions] == list(range(1, len(moves) + 1))
    assert positions[-1].status == "won"
    assert all(p.status == "playing" for p in positions[:-1])
    scores = [p.score for p in positions]
    assert scores == sorted(scores)

