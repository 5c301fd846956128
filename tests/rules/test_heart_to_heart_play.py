"""Heart to Heart under random play: invariants checked after every tap and undo.

The checks use their own reading of the spec (geometry from the column table, free cards,
stalemate, card accounting) rather than the engine's tables.
"""

import json
import random
from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.rules.deal_codes import CODE_SPACE, DealCode
from app.rules.heart_to_heart import HeartToHeartGame, new_game

ROWS = [[1, 3, 7, 9], [0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [2, 4, 6, 8], [3, 5, 7], [4, 6], [5]]
PLACES = [(row, column) for row, columns in enumerate(ROWS) for column in columns]
COVERERS = [
    {i for i, (below, at) in enumerate(PLACES) if below == row + 1 and abs(at - column) == 1}
    for row, column in PLACES
]
TARGETS = [*range(25), "stock", "waste"]


def look(game):
    """What a player sees: heart states as (removed, free) masks, piles, selection."""
    return {
        "states": (game.removed_mask, game.free_mask),
        "stock": game.stock_ranks,
        "waste": game.waste_ranks,
        "selected": game.selected,
    }


class Referee:
    """Follows one game through taps and undos and checks it after each step."""

    def __init__(self, game):
        self.game = game
        self.pairs = []  # per remembered move: the rank of a pair, or None
        self.before_moves = []  # to_json() before each remembered move
        self.moved = False
        self.clock = 0.0
        self.remembered = 0  # moves undo can still take back

    def tap(self, target):
        game = self.game
        before, seen = game.to_json(), look(game)
        rank = None if target == "stock" else self.rank_of(target)
        partner = None if game.selected is None else self.rank_of(game.selected)
        playing = game.status == "playing"
        result = game.tap(target)
        self.check_result(result, seen)
        if not result.changed:
            assert game.to_json() == before
        elif result.is_move:
            assert game.moves == before["moves"] + 1
            self.moved = True
            self.before_moves.append(before)
            self.pairs.append(rank if result.kind == "pair" else None)
            self.remembered = min(self.remembered + 1, 100)
        else:
            assert game.moves == before["moves"] and game.removed_mask == before["removed"]
            assert result.same_rank_error == (result.kind == "reselect")
        if result.kind == "pair":
            assert partner == rank
        if not playing:
            assert result.kind != "pair"
        self.check()

    def undo(self):
        game = self.game
        seen = look(game)
        result = game.undo()
        self.check_result(result, seen)
        earlier = self.before_moves.pop()
        self.pairs.pop()
        self.remembered -= 1
        kept = game.undo_depth
        expected = {
            **earlier,
            "selected": None,
            "clock": game.to_json()["clock"],
            "history": earlier["history"][len(earlier["history"]) - kept :] if kept else [],
            "assisted": True,  # an undo is help: the game says so from then on
        }
        assert game.to_json() == expected
        self.check()

    def pass_time(self, seconds):
        if self.moved and self.game.status == "playing":
            self.clock += seconds
        self.game.add_play_time(seconds)
        assert self.game.play_time == self.clock

    def rank_of(self, target):
        if target == "waste":
            return self.game.waste_top
        return self.game.rank_at(target)

    def check_result(self, result, seen):
        now = look(self.game)
        flips = (seen["states"][0] ^ now["states"][0]) | (seen["states"][1] ^ now["states"][1])
        changed = {
            p
            for p in range(25)
            if flips >> p & 1 or (seen["selected"] == p) != (now["selected"] == p)
        }
        assert result.hearts == changed
        assert result.stock_changed == (seen["stock"] != now["stock"])
        waste_look = (seen["waste"], seen["selected"] == "waste")
        assert result.waste_changed == (waste_look != (now["waste"], now["selected"] == "waste"))

    def check(self):
        game = self.game
        states = [game.position_state(p) for p in range(25)]
        present = [p for p in range(25) if states[p] != "removed"]
        cards = Counter(game.rank_at(p) for p in present)
        cards.update(game.stock_ranks + game.waste_ranks)
        for rank in self.pairs:
            if rank is not None:
                cards[rank] += 2
        assert cards == Counter({rank: 4 for rank in range(1, 14)})
        assert game.score == 10 * (25 - len(present))
        in_place = set(present)
        free = [p for p in present if not COVERERS[p] & in_place]
        assert [p for p in present if states[p] == "free"] == free
        if not present:
            assert game.status == "won"
        else:
            reachable = Counter(game.rank_at(p) for p in free)
            reachable.update(set(game.stock_ranks + game.waste_ranks))
            stuck = all(reachable[game.rank_at(p)] < 2 for p in free)
            assert game.status == ("stalemate" if stuck else "playing")
        assert game.stock_count + game.waste_count >= 2
        assert game.undo_depth == self.remembered
        data = json.loads(json.dumps(game.to_json()))
        again = HeartToHeartGame.from_json(data)
        assert again == game and again.to_json() == game.to_json()
        assert game.copy() == game


def playable_targets(game):
    targets = [p for p in range(25) if game.position_state(p) == "free"]
    if game.waste_count:
        targets.append("waste")
    return targets


def test_random_play_keeps_every_invariant():
    rng = random.Random(20240605)
    stalemates = undos = 0
    for _ in range(800):
        referee = Referee(new_game(DealCode("HH1", "N", rng.randrange(CODE_SPACE))))
        game = referee.game
        for _ in range(30):
            roll = rng.random()
            if roll < 0.08 and game.undo_depth:
                referee.undo()
                undos += 1
            elif roll < 0.12:
                referee.pass_time(rng.choice([0, 0.5, 1, 2.25]))
            elif roll < 0.4:
                referee.tap("stock")
            elif roll < 0.45:
                referee.tap(rng.choice(TARGETS))
            else:
                referee.tap(rng.choice(playable_targets(game)))
        stalemates += game.status == "stalemate"
    # The play must have reached the interesting places.
    assert stalemates > 50 and undos > 1000


def test_the_status_kept_follows_every_step_and_rewind():
    # A game keeps its status once worked out, so every step must clear it; a game loaded
    # afresh from the same state works it out from scratch. Games are played into a stalemate
    # (pairs taken only now and then, so some go past the undo history), then taken back: by
    # undo, or by replaying the deal (rewind).
    rng = random.Random(11)
    rewound = Counter()
    for number in rng.sample(range(CODE_SPACE), 60):
        game = new_game(DealCode("HH1", "N", number))
        while game.status == "playing":
            if rng.random() < 0.05 and game.undo_depth:
                game.undo()
            else:
                moves = list(game.legal_moves())
                pairs = [move for move in moves if move.kind == "pair"]
                game.play(rng.choice(pairs if pairs and rng.random() < 0.2 else moves))
            assert game.status == HeartToHeartGame.from_json(game.to_json()).status
        if game.status == "stalemate" and game.moves:  # (some deals are stuck from the start)
            by_replay = game.moves > game.undo_depth
            game.rewind(0 if by_replay else rng.randrange(game.moves))
            assert game.status == HeartToHeartGame.from_json(game.to_json()).status == "playing"
            rewound[by_replay] += 1
    assert rewound[True] and rewound[False]


def test_greedy_play_wins_some_and_undoes_all_the_way_back():
    rng = random.Random(7)
    won = 0
    for number in range(80):
        referee = Referee(new_game(DealCode("HH1", "N", number)))
        game = referee.game
        for _ in range(400):
            if game.status != "playing":
                break
            moves = list(game.legal_moves())
            pairs = [move for move in moves if move.kind == "pair"]
            move = rng.choice(pairs) if pairs else moves[0]
            for target in move.taps:
                referee.tap(target)
        won += game.status == "won"
        if game.status != "won":
            while game.undo_depth:
                referee.undo()
    assert won > 5


class HeartToHeartMachine(RuleBasedStateMachine):
    """Hypothesis drives taps and undos in any order."""

    @initialize(number=st.integers(0, CODE_SPACE - 1))
    def deal(self, number):
        self.referee = Referee(new_game(DealCode("HH1", "N", number)))

    @rule(index=st.integers(0, 26))
    def tap_playable(self, index):
        targets = [*playable_targets(self.referee.game), "stock"]
        self.referee.tap(targets[index % len(targets)])

    @rule(place=st.sampled_from(TARGETS))
    def tap_anything(self, place):
        self.referee.tap(place)

    @precondition(lambda self: self.referee.game.undo_depth and not self.referee.game.is_won)
    @rule()
    def undo(self):
        self.referee.undo()

    @rule(seconds=st.floats(0, 5))
    def pass_time(self, seconds):
        self.referee.pass_time(seconds)

    @invariant()
    def the_status_kept_is_the_status_of_the_position(self):
        # A game keeps its status once worked out: every step must clear it. A game loaded
        # afresh from the same state works it out from scratch.
        game = self.referee.game
        assert game.status == HeartToHeartGame.from_json(game.to_json()).status

    @invariant()
    def a_won_game_scores_250(self):
        game = self.referee.game
        if game.is_won:
            assert game.score == 250


HeartToHeartMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None, derandomize=True, database=None
)
TestHeartToHeartMachine = HeartToHeartMachine.TestCase
