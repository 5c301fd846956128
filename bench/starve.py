"""Starve: can Hard bots starve the room? (issue 18, finding 3; figures in bench/README.md,
"Bots cannot starve the room").

One uvicorn worker on loopback with the SQLite store. First, untroubled, a prober times
``/healthz`` and a static file (``/static/css/app.css``) for a while: the baseline. Then 48
clients spam Hard plays for 20 s, each as fast as the server answers: a match against Hard bots
through the JSON API (pass, play, next hand, a new match after each), while the prober keeps
timing the same two requests. After a 503 a client waits as ``Retry-After`` says, as the page
does; with ``--ignore-retry-after`` it asks again at once (a flood of cheap requests, which is
a rate limiter's business rather than the bots').

The prober runs in a process of its own (sync httpx, one request every 20 ms, alternating). The
spammers stand for players on other machines: their own process runs at a lower priority than
the server and the prober, so that their CPU on this machine does not pass for the server's
slowness. Reported: p50/p95/max of both, before and under the load; the answers the spammers
got (200/201, 409, 503) and the plays per second; the server's CPU time (all its processes,
the bots' too) per second of the window.

    nice .venv/bin/python -m bench.starve [--clients 48] [--seconds 20] [--baseline 5]
        [--ignore-retry-after]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import time
from collections import Counter
from multiprocessing.connection import Connection

import httpx

from app.rules.deal_codes import CODE_SPACE, DealCode
from bench.load import percentile
from bench.web import Served, browser, serve

PROBED = ("/healthz", "/static/css/app.css")
PROBE_EVERY = 0.02
SPAMMERS_NICENESS = 5
API = "/api/hearts/games"


def probe(base_url: str, seconds: float, out: Connection) -> None:
    """Time the probed paths in turn for ``seconds``; send back {path: [seconds, ...]}."""
    timings: dict[str, list[float]] = {path: [] for path in PROBED}
    with httpx.Client(base_url=base_url, timeout=30) as client:
        end = time.monotonic() + seconds
        turn = 0
        while time.monotonic() < end:
            path = PROBED[turn % len(PROBED)]
            started = time.perf_counter()
            response = client.get(path)
            timings[path].append(time.perf_counter() - started)
            response.raise_for_status()
            turn += 1
            time.sleep(PROBE_EVERY)
    out.send(timings)
    out.close()


def probed(base_url: str, seconds: float) -> tuple[multiprocessing.Process, Connection]:
    receiving, sending = multiprocessing.get_context("spawn").Pipe(duplex=False)
    process = multiprocessing.get_context("spawn").Process(
        target=probe, args=(base_url, seconds, sending))
    process.start()
    return process, receiving


async def spam(base_url: str, until: float, rng: random.Random, answers: Counter,
               patient: bool) -> None:
    """One client: Hard matches, each action sent as soon as the last one was answered."""
    async with browser(base_url) as client:
        state = None
        while time.monotonic() < until:
            if state is None or state["phase"] == "match_over":
                deal = str(DealCode("HT1", "H", rng.randrange(CODE_SPACE)))
                response = await client.post(API, json={"deal": deal})
            else:
                url = f"{API}/{state['game_id']}"
                if state["phase"] == "passing":
                    response = await client.post(f"{url}/pass", json={
                        "cards": state["hand"][:3], "version": state["version"]})
                elif state["phase"] == "playing":
                    response = await client.post(f"{url}/play", json={
                        "card": rng.choice(state["legal"]), "version": state["version"]})
                else:
                    response = await client.post(f"{url}/next-hand",
                                                 json={"version": state["version"]})
            answers[response.status_code] += 1
            if response.status_code in (200, 201):
                state = response.json()
            elif response.status_code == 409:
                state = response.json()["state"]
            elif response.status_code == 503 and patient:
                await asyncio.sleep(float(response.headers["retry-after"]))


async def load(server: Served, clients: int, seconds: float, seed: int,
               patient: bool) -> Counter:
    answers: Counter = Counter()
    until = time.monotonic() + seconds
    await asyncio.gather(*(spam(server.base_url, until, random.Random(seed + n), answers,
                                patient)
                           for n in range(clients)))
    return answers


def figures(timings: dict[str, list[float]]) -> str:
    return " | ".join(
        f"{percentile(values, 0.5) * 1e3:.1f} / {percentile(values, 0.95) * 1e3:.1f} / "
        f"{max(values) * 1e3:.0f}"
        for values in (timings[path] for path in PROBED)
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=48)
    parser.add_argument("--seconds", type=float, default=20.0, help="spamming time")
    parser.add_argument("--baseline", type=float, default=5.0, help="untroubled probing first")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--ignore-retry-after", action="store_true",
                        help="after a 503, ask again at once")
    arguments = parser.parse_args(argv)
    with serve() as server:
        process, results = probed(server.base_url, arguments.baseline)
        before = results.recv()
        process.join()

        process, results = probed(server.base_url, arguments.seconds)
        os.nice(SPAMMERS_NICENESS)  # this process only: the server and the prober run already
        cpu = server.cpu_seconds()
        answers = asyncio.run(load(server, arguments.clients, arguments.seconds, arguments.seed,
                                   not arguments.ignore_retry_after))
        cpu = server.cpu_seconds() - cpu
        under = results.recv()
        process.join()
    waiting = "asking again at once" if arguments.ignore_retry_after else "waiting Retry-After"
    print(f"{arguments.clients} clients spamming Hard plays for {arguments.seconds:.0f} s "
          f"({waiting} after a 503); p50 / p95 / max ms of {PROBED[0]} and {PROBED[1]}")
    print()
    print(f"| | {PROBED[0]} | {PROBED[1]} | answers to the spammers | server CPU s/s |")
    print("|---|---|---|---|---:|")
    print(f"| alone | {figures(before)} | | |")
    spam_answers = ", ".join(f"{count} × {status}" for status, count in sorted(answers.items()))
    plays = (answers[200] + answers[201]) / arguments.seconds
    print(f"| under load | {figures(under)} | {spam_answers} ({plays:.0f}/s) | "
          f"{cpu / arguments.seconds:.2f} |")


if __name__ == "__main__":
    main()
