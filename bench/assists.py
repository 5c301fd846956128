"""Assists: how long a hint takes in each game, and whether following the Hearts hint for a
whole hand beats playing Normal's choice in the same seat.

Hint time is CPU time per call (the thread's own clock, so the neighbours' load does not count):
Heart to Heart's ``hint_of`` at every position of W deals played by following the hint, and
at lost positions reached by random play (those look back through the undo history); Hearts'
``hint_cards`` at every decision of the player in hands played by following it (Normal bots).

Where it was lost: Heart to Heart games played at random to their stalemate (every tenth with
150 stock taps after the loss, so that going back lies beyond the undo history): the CPU time of
``where_lost`` and of going back there (``go_back``: undo, or the replay of the deal), and what
the log of pairs the game keeps for it costs a stored state (its size, and ``to_json`` plus the
store's trusted ``from_json``, which every tap runs, with and without it).

Duplicate deals: each hand is the first hand of a match with Normal bots, played twice from the
same cards; seat 0 passes and plays as the hint says once, as Normal would once. The other
seats play Normal both times, so only seat 0's choices differ. Compared: seat 0's points for the
hand after the moon rule (fewer is better).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots, play_bots
from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import HeartToHeartGame, new_game
from app.rules.heart_to_heart_solver import is_winnable
from app.rules.hearts import HUMAN, HeartsMatch, HeartsView
from app.web.heart_to_heart.assists import go_back, hint_of, where_lost
from app.web.hearts.assists import hint_cards


def cpu_ms(call: Callable[[], object]) -> float:
    start = time.thread_time_ns()
    call()
    return (time.thread_time_ns() - start) / 1e6


def summary(times: list[float], what: str = "hints") -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{len(times)} {what}: median {statistics.median(times):.3f} ms, p99 {p99:.3f} ms, "
        f"max {ordered[-1]:.3f} ms (CPU)"
    )


def heart_to_heart_times(deals: int) -> tuple[list[float], list[float]]:
    winning, lost = [], []
    for n in range(deals):
        game = new_game(str(DealCode("HH1", "W", n)))
        while not game.is_won:
            winning.append(cpu_ms(lambda g=game: hint_of(g)))
            for target in hint_of(game).targets:
                game.tap(target)
    rng = random.Random(1)
    n = 0
    while len(lost) < deals:
        n += 1
        game = new_game(str(DealCode("HH1", "W", n)))
        while game.status == "playing":
            game.play(rng.choice(list(game.legal_moves())))
            if not is_winnable(game):
                lost.append(cpu_ms(lambda g=game: hint_of(g)))
                break
    return winning, lost


def lost_games(count: int) -> list[HeartToHeartGame]:
    """Games played at random (a pair seven times in ten when there is one) to their
    stalemate, lost on the way."""
    rng = random.Random(2)
    games: list[HeartToHeartGame] = []
    n = 0
    while len(games) < count:
        n += 1
        game = new_game(str(DealCode("HH1", "W", n)))
        long_after = len(games) % 10 == 0
        while game.status == "playing":
            moves = list(game.legal_moves())
            pairs = [m for m in moves if m.kind == "pair"]
            game.play(rng.choice(pairs) if pairs and rng.random() < 0.7 else moves[-1])
            if long_after and not is_winnable(game):
                long_after = False
                for _ in range(150):
                    game.tap("stock")
        if not game.is_won:
            games.append(game)
    return games


def where_lost_figures(count: int) -> None:
    games = lost_games(count)
    found = [cpu_ms(lambda g=game: where_lost(g)) for game in games]
    back, replayed = [], []
    for game in games:
        beyond = where_lost(game).undos is None
        scratch = game.copy()
        (replayed if beyond else back).append(cpu_ms(lambda g=scratch: go_back(g)))
    print(f"Where it was lost: {summary(found, 'lost games')}")
    print(f"Going back by undo: {summary(back, 'games')}")
    print(f"Going back by replaying the deal: {summary(replayed, 'games')}")
    sizes = [len(json.dumps(game.to_json(), separators=(",", ":"))) for game in games]
    bare = [{k: v for k, v in game.to_json().items() if k != "pairs"} for game in games]
    logs = [len(json.dumps(game.to_json()["pairs"], separators=(",", ":"))) for game in games]
    print(
        f"Stored state: median {statistics.median(sizes)} bytes, of which the log of pairs "
        f"{statistics.median(logs)} (max {max(logs)})"
    )
    for name, states in (("with the log", [g.to_json() for g in games]), ("without", bare)):
        rounds = [
            cpu_ms(lambda d=data: HeartToHeartGame.from_json(d, trusted=True).to_json())
            for _ in range(20) for data in states
        ]
        print(f"to_json + trusted from_json, {name}: {summary(rounds, 'round trips')}")


Policy = Callable[[HeartsView], int]


def hint_policy(view: HeartsView) -> int:
    return hint_cards(view)


def normal_policy(view: HeartsView) -> int:
    if view.phase == "passing":
        return choose_pass("normal", view, decision_seed(view, "pass"))
    return 1 << choose_play("normal", view, decision_seed(view))


def play_hand(number: int, policy: Policy, times: list[float] | None = None) -> int:
    """Seat 0's points in the first hand of deal ``number``, choosing by ``policy``."""
    match = HeartsMatch.new(DealCode("HT1", "N", number), last_hand=1)
    play_bots(match)
    while match.phase in ("passing", "playing"):
        view = match.view(HUMAN)
        if times is not None:
            start = time.thread_time_ns()
        choice = policy(view)
        if times is not None:
            times.append((time.thread_time_ns() - start) / 1e6)
        if match.phase == "passing":
            match.choose_pass(HUMAN, choice)
            pass_for_bots(match)
        else:
            match.play(choice.bit_length() - 1, seat=HUMAN)
        play_bots(match)
    return match.view(HUMAN).hand_scores[0][HUMAN]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--h2h-deals", type=int, default=100, help="W deals (and lost positions)")
    parser.add_argument("--hands", type=int, default=100, help="Hearts duplicate deals")
    args = parser.parse_args()

    winning, lost = heart_to_heart_times(args.h2h_deals)
    print(f"Heart to Heart, winnable positions: {summary(winning)}")
    print(f"Heart to Heart, lost positions: {summary(lost)}")
    where_lost_figures(args.h2h_deals)

    times: list[float] = []
    better = same = worse = 0
    hinted_points = normal_points = 0
    for number in range(args.hands):
        hinted = play_hand(number, hint_policy, times)
        normal = play_hand(number, normal_policy)
        hinted_points += hinted
        normal_points += normal
        better += hinted < normal
        same += hinted == normal
        worse += hinted > normal
    print(f"Hearts: {summary(times)}")
    print(
        f"Hearts, {args.hands} duplicate hands, seat 0 following the hint vs Normal's choice: "
        f"fewer points {better}, the same {same}, more {worse}; mean points "
        f"{hinted_points / args.hands:.2f} vs {normal_points / args.hands:.2f}"
    )


if __name__ == "__main__":
    main()
