"""Heart to Heart solver and engine figures (issue 2; results in bench/README.md).

For ``--count`` consecutive ``N`` codes from ``--start``: the share of winnable deals with a
95% Wilson interval; the solver's time per deal, deciding only and deciding plus the full line
of taps: wall-clock time of the first run, the process's CPU time (which a busy machine does
not inflate by descheduling the process) and the best wall time of ``--repeats`` runs. Then
the time to deal ``W`` codes and the length of their lines, engine taps per second under
random play. Then what a page pays per tap for a game with a full undo history: ``to_json``,
``from_json`` with the full check and with ``trusted=True``, and ``placement_help``, per CPU
second (``--json-only`` runs just these).

    nice .venv/bin/python -m bench.hh_solver --count 10000
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import statistics
import time

from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import HeartToHeartGame, new_game
from app.rules.heart_to_heart_solver import layout_is_winnable, solve, solve_moves


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    share = successes / trials
    centre = (share + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    return centre - half / (1 + z * z / trials), centre + half / (1 + z * z / trials)


def spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
    return (
        f"median {statistics.median(ordered) * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms, "
        f"max {ordered[-1] * 1e3:.3f} ms"
    )


def solver_figures(start: int, count: int, repeats: int) -> None:
    decide, full, full_cpu, full_best = [], [], [], []
    winnable = 0
    worst = (0.0, start)
    for number in range(start, start + count):
        game = new_game(DealCode("HH1", "N", number))
        piles = game.stock_ranks + game.waste_ranks
        began = time.perf_counter()
        layout_is_winnable(game.heart_ranks, 0, piles)
        decide.append(time.perf_counter() - began)
        runs = []
        for _ in range(repeats):
            began, began_cpu = time.perf_counter(), time.process_time()
            line = solve(game)
            runs.append((time.perf_counter() - began, time.process_time() - began_cpu))
        full.append(runs[0][0])
        full_cpu.append(runs[0][1])
        full_best.append(min(wall for wall, _ in runs))
        worst = max(worst, (full_best[-1], number))
        winnable += line is not None
    low, high = wilson(winnable, count)
    print(f"N deals {start}..{start + count - 1}: {winnable} winnable of {count} = "
          f"{100 * winnable / count:.2f}% (95% interval {100 * low:.2f}–{100 * high:.2f}%)")
    print(f"solver, decide only, wall:          {spread(decide)}")
    print(f"solver, decide + line, wall:        {spread(full)}")
    print(f"solver, decide + line, CPU time:    {spread(full_cpu)}")
    print(f"solver, decide + line, best of {repeats}:  {spread(full_best)} "
          f"(slowest: {DealCode('HH1', 'N', worst[1])})")


def w_code_figures(start: int, count: int) -> None:
    seconds, lengths = [], []
    for number in range(start, start + count):
        began = time.perf_counter()
        game = new_game(DealCode("HH1", "W", number))
        seconds.append(time.perf_counter() - began)
        lengths.append(len(solve_moves(game)))
    print(f"dealing {count} W codes:  {spread(seconds)}")
    print(f"their winning lines: median {statistics.median(lengths):.0f} moves, "
          f"shortest {min(lengths)}, longest {max(lengths)}")


def engine_figures(seconds_wanted: float) -> None:
    rng = random.Random(2)
    taps = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds_wanted:
        game = new_game(DealCode("HH1", "N", rng.randrange(10**6)))
        for _ in range(200):
            if game.status != "playing":
                break
            free = [p for p in range(25) if game.position_state(p) == "free"]
            roll = rng.random()
            if roll < 0.05 and game.undo_depth:
                game.undo()
            else:
                game.tap("stock" if roll < 0.4 else rng.choice([*free, "waste"]))
            taps += 1
    elapsed = time.perf_counter() - began
    print(f"engine: {taps / elapsed:,.0f} actions per second (random taps and undos, "
          "status read after each)")



def per_cpu_second(work, seconds_wanted: float) -> float:
    """Calls of ``work`` per CPU second of this process, run for about ``seconds_wanted``."""
    calls = 0
    began, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds_wanted:
        for _ in range(100):
            work()
        calls += 100
    return calls / (time.process_time() - cpu)


def json_figures(seconds_wanted: float) -> None:
    """What a page pays per tap to load, save and show a game with a full undo history."""
    rng = random.Random(5)
    number = 0
    game = new_game(DealCode("HH1", "N", number))
    while game.undo_depth < 100:
        moves = list(game.legal_moves())
        if game.status != "playing":
            number += 1
            game = new_game(DealCode("HH1", "N", number))
            continue
        # Pairs whenever there are some, so the history holds pairs as well as draws.
        game.play(moves[0] if len(moves) > 1 and rng.random() < 0.8 else moves[-1])
    free = game.free_mask
    game.tap((free & -free).bit_length() - 1)
    pairs = sum("+" in move for move in game.to_json()["history"])
    data = game.to_json()
    figures = {
        "to_json": lambda: game.to_json(),
        "from_json (full check, history replayed)": lambda: HeartToHeartGame.from_json(data),
        "from_json(trusted=True)": lambda: HeartToHeartGame.from_json(data, trusted=True),
        "placement_help (a card selected)": game.placement_help,
    }
    print(f"JSON: a game with a 100-move undo history ({pairs} pairs), a card selected")
    for name, work in figures.items():
        rate = per_cpu_second(work, seconds_wanted / len(figures))
        print(f"| {name} | {rate:,.0f} / CPU s | {1e6 / rate:.1f} µs |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3, help="solves per deal, for best-of")
    parser.add_argument("--w-count", type=int, default=1_000)
    parser.add_argument("--engine-seconds", type=float, default=5.0)
    parser.add_argument("--json-only", action="store_true", help="only the load/save figures")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    if not args.json_only:
        solver_figures(args.start, args.count, args.repeats)
        w_code_figures(args.start, args.w_count)
        engine_figures(args.engine_seconds)
    json_figures(args.engine_seconds)


if __name__ == "__main__":
    main()
