"""Load: hundreds of simulated players against uvicorn on loopback (issue 8; figures in
bench/README.md, "Load").

Half the players play Heart to Heart (the solver's line of W deals, tap by tap, a new deal after
each win), half play Hearts matches (pass, play, next hand, a new match after each) against
Normal bots, or the bots a configuration names (``sqlite:2:H``: Hard).
Each waits a human's think time between actions and now and then reloads its page.
Players start spread over a ramp; only requests started once the start-up burst has settled
are counted. Every configuration (store × uvicorn workers) runs for a fixed time and stops by
itself; a run is also bounded by a total request count.

Errors: a transport failure or timeout, or any answer other than the one a browser expects
(any 4xx/5xx, a stale-version answer, a missing piece). A refusal (503, the bots' queue) is
sent again after its Retry-After, as the page does, up to BUSY_RETRIES times, the wait counted
in the request's time; refusals are counted apart, with the time into the run of the first
one, counted or not. Also
reported: the server's CPU time per request, and how long the server's event loops and the
players' process were ready to run but waited for a CPU (on a machine shared with other work,
that explains latency the CPU cost does not).

    nice .venv/bin/python -m bench.load [--players 300] [--seconds 12] [--configs sqlite:2:H]

``--everything`` (issue 30) runs instead the room with everything on (metrics, JSON access
log): solo players of both games (Hard bots for half the Hearts players, the others Normal),
with a hint at the start of each Heart to Heart game and the review of each Hearts hand; and
tables of two people and two Hard bots, each person with the table's event stream open; on two
uvicorn workers (SQLite) and on two instances sharing Redis (each table's people on different
instances, so its events cross between them). Then the players and tables double until the
room breaks (an error, a refusal, or an action's p99 past BREAKS_AT_P99), or, when it broke at
once, halve until it holds. Reported besides: p99 of an
action and of an event's delivery, server CPU per request, and memory per open event stream
(STREAMS_PROBED more streams opened on the tables, the servers' resident memory before and
after). Table spectators do not exist yet: none are simulated.

    nice .venv/bin/python -m bench.load --everything --redis redis://127.0.0.1:PORT/11
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis

from bench.web import (
    ONE_CONNECTION,
    SHARED_TLS,
    HeartsPlayer,
    HeartToHeartPlayer,
    Served,
    UnexpectedAnswer,
    browser,
    expect,
    serve,
)
from tests.reliability.cardroom_pages import HX, h2h_version

REDIS_URL = "redis://127.0.0.1:6379/13"  # flushed before and after each Redis run
# store:workers[:bots], the bots of the Hearts players: E, N (the default) or H.
CONFIGS = "sqlite:1,sqlite:2,redis:1,redis:2,sqlite:2:H"
BOT_NAMES = {"E": "Easy", "N": "Normal", "H": "Hard"}
RELOAD_CHANCE = 0.05
BUSY_RETRIES = 5  # a request answered 503 is sent again this many times at most
KINDS = (
    ("tap", re.compile(r"^/heart-to-heart/games/[^/]+/tap$")),
    ("hearts action", re.compile(r"^/hearts/games/[^/]+/(play|pass|next-hand)$")),
    ("page", re.compile(r"^/(heart-to-heart|hearts)$")),
    ("new deal", re.compile(r"/deal/")),
    ("assist", re.compile(r"/(hint|review)$")),  # --everything: a hint, a hand's review
)
ACTIONS = ("tap", "hearts action")


@dataclass
class Stats:
    counting_from: float
    counting_until: float
    max_requests: int
    started_at: float = field(default_factory=time.monotonic)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    server_cpu: float = 0.0  # the server's CPU seconds during the window
    server_waited: float = 0.0  # seconds its loops waited for a CPU during the window
    client_cpu: float = 0.0  # the same two for this process, the players
    client_waited: float = 0.0
    errors: int = 0
    resent: int = 0
    refused: int = 0  # answers 503 (the bots' queue: app/web/hearts/thinking.py)
    first_refused: float | None = None  # seconds into the run of the first 503, counted or not
    error_samples: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values())

    def record(self, path: str, started: float, seconds: float) -> None:
        if not self.counting_from <= started < self.counting_until:
            return
        kind = next((name for name, pattern in KINDS if pattern.search(path)), "other")
        self.latencies.setdefault(kind, []).append(seconds)

    def busy(self, started: float) -> None:
        if self.first_refused is None:
            self.first_refused = started - self.started_at
        if self.counting_from <= started < self.counting_until:
            self.refused += 1

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(what)


class TimedTransport(httpx.AsyncBaseTransport):
    """Times every request to its last body byte."""

    def __init__(self, stats: Stats) -> None:
        self.inner = httpx.AsyncHTTPTransport(limits=ONE_CONNECTION, verify=SHARED_TLS)
        self.stats = stats

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started = time.monotonic()
        for _ in range(BUSY_RETRIES):
            response, body = await self.send(request)
            if response.status_code != 503:
                break
            # A busy room: the page sends the same request again after Retry-After
            # (static/js/taps.js), and so does this player; the wait counts in its time.
            self.stats.busy(time.monotonic())
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))
        self.stats.record(request.url.path, started, time.monotonic() - started)
        return httpx.Response(response.status_code, headers=response.headers, content=body,
                              extensions=response.extensions)

    async def send(self, request: httpx.Request) -> tuple[httpx.Response, bytes]:
        try:
            response = await self.inner.handle_async_request(request)
        except (httpx.RemoteProtocolError, httpx.ReadError):
            # The server closed the kept-alive connection as the request went out (its idle
            # timer, 5 s in uvicorn). Browsers send the request again on a new connection, and
            # so does this player, once; the version in the form makes a repeat harmless.
            self.stats.resent += 1
            response = await self.inner.handle_async_request(request)
        # As sent (maybe compressed): the Response made below decodes it.
        body = b"".join([chunk async for chunk in response.aiter_raw()])
        await response.aclose()
        return response, body

    async def aclose(self) -> None:
        await self.inner.aclose()


async def play(player: HeartToHeartPlayer | HeartsPlayer, rng: random.Random, stats: Stats,
               deadline: float, think: tuple[float, float]) -> None:
    h2h = isinstance(player, HeartToHeartPlayer)
    fresh = True
    while time.monotonic() < deadline and stats.requests < stats.max_requests:
        try:
            if fresh:
                await (player.new_game() if h2h else player.new_match())
                fresh = False
            await asyncio.sleep(rng.uniform(*think))
            if time.monotonic() >= deadline:
                return
            if rng.random() < RELOAD_CHANCE:
                await player.load()
            elif h2h:
                fresh = not player.taps
                if not fresh:
                    await player.tap()
            elif player.phase == "match_over":
                fresh = True
            else:
                await player.act()
        except (UnexpectedAnswer, httpx.TransportError) as error:
            stats.error(f"{type(error).__name__}: {error}")
            fresh = True  # as a person would: start over from the page


def own_run_queue_seconds() -> float:
    return int(Path("/proc/self/schedstat").read_text().split()[1]) / 1e9


async def run_config(server: Served, players: int, seconds: float, ramp: float, settle: float,
                     think: tuple[float, float], max_requests: int, seed: int,
                     bots: str = "N", hearts_share: float = 0.5) -> Stats:
    stats = Stats(0.0, 0.0, max_requests)
    clients = [browser(server.base_url, TimedTransport(stats)) for _ in range(players)]
    start = time.monotonic()
    # Counting starts once the start-up burst (every player's first deal and page) has drained.
    deadline = stats.counting_until = start + ramp + settle + seconds
    stats.counting_from = start + ramp + settle
    rng = random.Random(seed)

    async def one(index: int) -> None:
        await asyncio.sleep(ramp * index / players)
        own = random.Random(rng.random())
        # Spread evenly: with a share of one half, every second player plays Hearts.
        if int((index + 1) * hearts_share) == int(index * hearts_share):
            player: HeartToHeartPlayer | HeartsPlayer = HeartToHeartPlayer(clients[index], own)
        else:
            player = HeartsPlayer(clients[index], own, bots)
        await play(player, own, stats, deadline, think)

    async def window() -> None:
        await asyncio.sleep(ramp + settle)
        cpu, waited = server.cpu_seconds(), server.run_queue_seconds()
        own_cpu, own_waited = time.process_time(), own_run_queue_seconds()
        await asyncio.sleep(seconds)
        stats.server_cpu = server.cpu_seconds() - cpu
        stats.server_waited = server.run_queue_seconds() - waited
        stats.client_cpu = time.process_time() - own_cpu
        stats.client_waited = own_run_queue_seconds() - own_waited

    try:
        await asyncio.wait_for(asyncio.gather(window(), *(one(i) for i in range(players))),
                               timeout=ramp + settle + seconds + 120)
    finally:
        for client in clients:
            await client.aclose()
    return stats


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def row(store: str, workers: int, bots: str, players: int, stats: Stats) -> str:
    everything = [v for values in stats.latencies.values() for v in values]
    rate = len(everything) / (stats.counting_until - stats.counting_from)
    per_kind = " · ".join(
        f"{kind} {percentile(stats.latencies[kind], 0.5) * 1e3:.0f}/"
        f"{percentile(stats.latencies[kind], 0.99) * 1e3:.0f}"
        for kind, _ in KINDS if kind in stats.latencies
    )
    window = stats.counting_until - stats.counting_from
    first_refused = "–" if stats.first_refused is None else f"{stats.first_refused:.1f} s"
    return (
        f"| {store} | {workers} | {BOT_NAMES[bots]} | {players} | {len(everything)} | "
        f"{rate:.0f} | {percentile(everything, 0.5) * 1e3:.1f} | "
        f"{percentile(everything, 0.95) * 1e3:.1f} | "
        f"{percentile(everything, 0.99) * 1e3:.1f} | {stats.errors} | {stats.refused} | "
        f"{first_refused} | {stats.resent} | "
        f"{stats.server_cpu / max(len(everything), 1) * 1e3:.1f} | "
        f"{stats.server_waited / (window * workers):.0%} | "
        f"{stats.client_cpu / window:.0%} / {stats.client_waited / window:.0%} | {per_kind} |"
    )


def flush(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


# --- everything on (issue 30) -------------------------------------------------------------------

EVERYTHING_CONFIGS = "sqlite:2,redis:2"  # two workers on one SQLite file; two instances on Redis
BREAKS_AT_P99 = 1.0  # seconds: an action slower than this at p99 is past what the room serves
STREAMS_PROBED = 100
RUNS = 4  # at most per deployment: the players given, then doubled (or halved) till it turns


async def hint(player: HeartToHeartPlayer) -> None:
    answer = await player.client.post(
        f"/heart-to-heart/games/{player.game_id}/hint",
        data={"version": str(player.version), "elapsed": "1.0"}, headers=HX,
    )
    expect(answer, 200, "hint")
    player.version = h2h_version(answer.text) or player.version


async def review(player: HeartsPlayer) -> None:
    expect(await player.client.get(f"/hearts/games/{player.hand.game_id}/review"), 200, "review")


async def play_assisted(player: HeartToHeartPlayer | HeartsPlayer, rng: random.Random,
                        stats: Stats, deadline: float, think: tuple[float, float]) -> None:
    """:func:`play`, with a hint at the start of each Heart to Heart game and the review of
    each Hearts hand when it is over."""
    while time.monotonic() < deadline:
        try:
            if isinstance(player, HeartToHeartPlayer):
                await player.new_game()
                await hint(player)
                while player.taps and time.monotonic() < deadline:
                    await asyncio.sleep(rng.uniform(*think))
                    await player.tap()
            else:
                await player.new_match()
                while player.phase != "match_over" and time.monotonic() < deadline:
                    await asyncio.sleep(rng.uniform(*think))
                    if player.phase == "hand_over":
                        await review(player)
                    await player.act()
        except (UnexpectedAnswer, httpx.TransportError) as error:
            stats.error(f"{type(error).__name__}: {error}")


def resident_bytes(servers: list[Served]) -> int:
    total = 0
    for server in servers:
        for process in server.processes():
            with contextlib.suppress(OSError):  # it ended meanwhile
                status = (process / "status").read_text()
                total += int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) * 1024
    return total


async def memory_per_stream(servers: list[Served], table_urls: list[str]) -> float:
    """Bytes of the servers' resident memory per event stream: STREAMS_PROBED more streams
    (watchers of the tables, spread over the servers) opened and their first event come."""
    before = resident_bytes(servers)
    clients = [browser(servers[n % len(servers)].base_url) for n in range(STREAMS_PROBED)]
    came = [asyncio.Event() for _ in clients]

    async def watch(n: int) -> None:
        url = f"{table_urls[n % len(table_urls)]}/events"
        async with clients[n].stream("GET", url) as answer:
            async for line in answer.aiter_lines():
                if line.startswith("data:"):
                    came[n].set()

    tasks = [asyncio.create_task(watch(n)) for n in range(len(clients))]
    try:
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in came)), 60)
        await asyncio.sleep(1)  # what the streams allocated is in the pages resident
        return (resident_bytes(servers) - before) / len(clients)
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await task
        for client in clients:
            await client.aclose()


@dataclass
class Everything:
    solo: Stats
    tables: Any  # bench.tables.Stats
    cpu: float
    stream_bytes: float


async def run_everything(servers: list[Served], players: int, tables: int, seconds: float,
                         ramp: float, settle: float, think: tuple[float, float],
                         seed: int) -> Everything:
    # bench.tables reads this module's helpers, so it is read here, not at the top.
    from bench.tables import Stats as TableStats
    from bench.tables import play_table

    start = time.monotonic()
    counting_from, counting_until = start + ramp + settle, start + ramp + settle + seconds
    solo = Stats(counting_from, counting_until, max_requests=10**9)
    at_tables = TableStats(counting_from, counting_until)
    urls = [server.base_url for server in servers]
    rng = random.Random(seed)
    clients: list[httpx.AsyncClient] = []
    table_urls: list[str] = []

    async def player(index: int) -> None:
        await asyncio.sleep(ramp * index / players)
        own = random.Random(rng.random())
        client = browser(urls[index % len(urls)], TimedTransport(solo))
        clients.append(client)
        if index % 2 == 0:
            one: HeartToHeartPlayer | HeartsPlayer = HeartToHeartPlayer(client, own)
        else:  # every second Hearts player against Hard bots
            one = HeartsPlayer(client, own, "H" if index % 4 == 1 else "N")
        await play_assisted(one, own, solo, counting_until, think)

    async def table(index: int) -> None:
        await asyncio.sleep(ramp * index / tables)
        own = random.Random(rng.random())
        pair = (urls[index % len(urls)], urls[(index + 1) % len(urls)])
        await play_table(pair, at_tables, own, think, clients, "hard", table_urls)

    async def window() -> tuple[float, float]:
        await asyncio.sleep(ramp + settle)
        before = sum(server.cpu_seconds() for server in servers)
        await asyncio.sleep(seconds)
        cpu = sum(server.cpu_seconds() for server in servers) - before
        probed = await memory_per_stream(servers, table_urls) if table_urls else float("nan")
        return cpu, probed

    try:
        (cpu, probed), *_ = await asyncio.wait_for(
            asyncio.gather(window(), *(player(i) for i in range(players)),
                           *(table(i) for i in range(tables))),
            timeout=ramp + settle + seconds + 180,
        )
    finally:
        for client in clients:
            await client.aclose()
    return Everything(solo, at_tables, cpu, probed)


def solo_actions(stats: Stats) -> list[float]:
    return [v for kind in ACTIONS for v in stats.latencies.get(kind, ())]


def broken(run: Everything) -> bool:
    actions = solo_actions(run.solo)
    return bool(run.solo.errors or run.tables.errors or run.solo.refused or run.tables.refused
                or percentile(actions, 0.99) > BREAKS_AT_P99
                or percentile(run.tables.actions, 0.99) > BREAKS_AT_P99)


def everything_row(config: str, players: int, tables: int, run: Everything) -> str:
    solo, at_tables = run.solo, run.tables
    actions = solo_actions(solo)
    requests = solo.requests + len(at_tables.actions)
    load = Path("/proc/loadavg").read_text().split()[0]
    return (
        f"| {config} | {players} | {tables} | {requests} | {solo.errors + at_tables.errors} | "
        f"{solo.refused + at_tables.refused} | {percentile(actions, 0.99) * 1e3:.0f} | "
        f"{percentile(solo.latencies.get('assist', []), 0.99) * 1e3:.0f} | "
        f"{percentile(at_tables.actions, 0.99) * 1e3:.0f} | "
        f"{percentile(at_tables.deliveries, 0.99) * 1e3:.0f} | "
        f"{run.cpu / max(requests, 1) * 1e3:.1f} | {run.stream_bytes / 1024:.0f} | {load} |"
    )


def everything_main(arguments: argparse.Namespace) -> None:
    # Everything on: the metrics, and the access log in JSON, as a club would run it.
    os.environ.update(CARDROOM_METRICS="true", CARDROOM_LOG_FORMAT="json")
    print(f"everything on: solo players (half Heart to Heart with a hint per game, half Hearts "
          f"with a review per hand, against Hard bots for half of them), tables of two people "
          f"and two Hard bots; think {arguments.think[0]}–{arguments.think[1]} s, "
          f"{arguments.seconds:.0f} s measured after a {arguments.ramp:.0f} s ramp and "
          f"{arguments.settle:.0f} s to settle")
    print()
    print("| deployment | solo players | tables | requests | errors | refused (503) "
          "| solo action p99 ms | hint/review p99 ms | table action p99 ms | event p99 ms "
          "| server CPU ms/request | memory per open stream kB | load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for config in (arguments.configs or EVERYTHING_CONFIGS).split(","):
        store, count = config.split(":")
        players, tables = arguments.players, arguments.tables
        held: bool | None = None  # whether the first run held: then double, else halve
        for _ in range(RUNS):
            with contextlib.ExitStack() as stack:
                if store == "redis":
                    flush(arguments.redis)
                    stack.callback(flush, arguments.redis)
                    servers = [stack.enter_context(serve(arguments.redis, 1, access_log=True))
                               for _ in range(int(count))]
                else:
                    # The workers add up their metrics in a directory of their own.
                    shared = stack.enter_context(tempfile.TemporaryDirectory())
                    os.environ["PROMETHEUS_MULTIPROC_DIR"] = shared
                    stack.callback(os.environ.pop, "PROMETHEUS_MULTIPROC_DIR")
                    servers = [stack.enter_context(serve(None, int(count), access_log=True))]
                run = asyncio.run(run_everything(
                    servers, players, tables, arguments.seconds, arguments.ramp,
                    arguments.settle, tuple(arguments.think), arguments.seed,
                ))
            deployment = ("two instances, Redis" if store == "redis"
                          else f"{count} workers, SQLite")
            print(everything_row(deployment, players, tables, run), flush=True)
            for sample in (run.solo.error_samples + run.tables.samples)[:5]:
                print(f"  error: {sample[:300]}")
            holds = not broken(run)
            if held is None:
                held = holds
            elif holds != held:
                break  # found where it turns
            if held:
                players, tables = players * 2, tables * 2
            else:
                players, tables = max(players // 2, 1), max(tables // 2, 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=12.0, help="measured time per config")
    parser.add_argument("--ramp", type=float, default=10.0, help="players start over this long")
    parser.add_argument("--settle", type=float, default=5.0,
                        help="then wait this long before counting")
    parser.add_argument("--think", type=float, nargs=2, default=(1.5, 4.5),
                        metavar=("MIN", "MAX"), help="seconds between a player's actions")
    parser.add_argument("--configs", default=None,
                        help=f"store:workers, comma-separated ({CONFIGS}; --everything: "
                        f"{EVERYTHING_CONFIGS}, redis:2 being two instances)")
    parser.add_argument("--redis", default=REDIS_URL, help="a spare database: it is flushed")
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--hearts-share", type=float, default=0.5,
                        help="the share of players who play Hearts (the others Heart to Heart)")
    parser.add_argument("--everything", action="store_true",
                        help="the room with everything on, then twice the players (above)")
    parser.add_argument("--tables", type=int, default=50, help="tables (--everything)")
    arguments = parser.parse_args(argv)
    if arguments.everything:
        everything_main(arguments)
        return
    print(f"{arguments.players} players, {arguments.hearts_share:.0%} of them play Hearts, "
          f"think {arguments.think[0]}–{arguments.think[1]} s, {arguments.seconds:.0f} s measured "
          f"after a {arguments.ramp:.0f} s ramp and {arguments.settle:.0f} s to settle")
    print()
    print("| store | workers | bots | players | requests | req/s | p50 ms | p95 ms | p99 ms "
          "| errors | refused (503) | first 503 | resent | server CPU ms/req "
          "| server loop waiting for a CPU | players' CPU / waiting | p50/p99 ms by kind |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for config in (arguments.configs or CONFIGS).split(","):
        store, workers, bots = (config + ":N").split(":")[:3]
        url = arguments.redis if store == "redis" else None
        if url:
            flush(url)
        try:
            with serve(url, int(workers)) as server:
                stats = asyncio.run(run_config(
                    server, arguments.players, arguments.seconds, arguments.ramp,
                    arguments.settle, tuple(arguments.think), arguments.max_requests,
                    arguments.seed, bots, arguments.hearts_share,
                ))
        finally:
            if url:
                flush(url)
        print(row(store, int(workers), bots, arguments.players, stats), flush=True)
        for sample in stats.error_samples:
            print(f"  error: {sample[:300]}")


if __name__ == "__main__":
    main()
