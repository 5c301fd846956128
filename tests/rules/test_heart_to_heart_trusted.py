"""Loading saved Heart to Heart states with ``from_json(data, trusted=True)``.

A trusted load skips only the backward replay of the undo history: it must rebuild exactly
the game a full load rebuilds, and still refuse data of the wrong shape or an impossible
position.
"""

import json
import random

import pytest
from test_heart_to_heart_rules import BROKEN, STOCK, saved_state

from app.rules.heart_to_heart import HeartToHeartGame, StateError, new_game

# Only the backward replay of the undo history tells these apart from real states, so a
# trusted load accepts them: a draw remembered without a card drawn, and a pair whose card is
# still in place.
REPLAY_ONLY = [
    {"moves": 1, "history": ["d"], "clock": 0.0, "waste": "", "stock": STOCK + "3"},
    {"moves": 1, "history": ["24+w"], "clock": 0.0},
]


def played_games():
    """Games after random taps (pairs, draws, redeals, selections, undos) on several deals."""
    rng = random.Random(7)
    for number in range(12):
        game = new_game(f"HH1-{'NW'[number % 2]}-AAAAA{'ABCDEF'[number % 6]}{'AB'[number % 2]}")
        for _ in range(rng.randrange(0, 600)):
            roll = rng.random()
            if roll < 0.05 and game.undo_depth and not game.is_won:
                game.undo()
            elif roll < 0.4:
                game.tap("stock")
            else:
                game.tap(rng.choice([*range(25), "waste"]))
            game.add_play_time(0.5)
        yield game


def test_a_trusted_load_rebuilds_exactly_the_game_a_full_load_does():
    games = list(played_games())
    assert any(g.undo_depth == 100 for g in games) and any(g.selected is not None for g in games)
    for game in games:
        data = json.loads(json.dumps(game.to_json()))
        trusted = HeartToHeartGame.from_json(data, trusted=True)
        assert trusted == HeartToHeartGame.from_json(data) == game
        assert trusted.to_json() == game.to_json()
        if not game.is_won:
            # The loaded game plays on like the original, undo all the way back included.
            assert [trusted.undo() for _ in range(trusted.undo_depth)] == [
                game.undo() for _ in range(game.undo_depth)
            ]
            assert trusted == game


def test_only_the_history_replay_is_skipped():
    # The tip (24) is still in place, so this remembered pair could never have been made.
    data = saved_state(moves=1, history=["24+w"], clock=0.0)
    with pytest.raises(StateError):
        HeartToHeartGame.from_json(data)
    assert HeartToHeartGame.from_json(data, trusted=True).undo_depth == 1


@pytest.mark.parametrize("change", [c for c in BROKEN if c not in REPLAY_ONLY])
def test_a_trusted_load_still_refuses_bad_shapes_and_impossible_positions(change):
    with pytest.raises(StateError):
        HeartToHeartGame.from_json(saved_state(**change), trusted=True)


def test_a_trusted_load_refuses_what_is_not_a_state():
    for data in (None, [], "x", {"v": 1}):
        with pytest.raises(StateError):
            HeartToHeartGame.from_json(data, trusted=True)
