"""Load at tables with friends (issue 15): many tables of two people and two Normal bots, each
person with the table's event stream open and a human's think time before each move.

Measured: how long an action takes (the request, the bots' answer included), and how long
until the other person's event stream brings the change (from the moment the action was sent).
Errors: a transport failure, or any answer but 200 to a move the player's own view allowed
(sent without a version, as the page does: the other person may have moved meanwhile).

    nice .venv/bin/python -m bench.tables [--tables 100] [--seconds 20] [--configs sqlite:1,redis:2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field

import httpx

from bench.load import BUSY_RETRIES, REDIS_URL, flush, percentile
from bench.web import Served, browser, serve

CONFIGS = "sqlite:1,sqlite:2,redis:1,redis:2"


@dataclass
class Stats:
    counting_from: float
    counting_until: float
    actions: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    errors: int = 0
    resent: int = 0
    refused: int = 0  # answers 503 (the bots' queue), sent again after Retry-After
    samples: list[str] = field(default_factory=list)

    def counts(self, started: float) -> bool:
        return self.counting_from <= started < self.counting_until

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.samples) < 5:
            self.samples.append(what)


async def post(client: httpx.AsyncClient, url: str, stats: Stats,
               body: dict | None = None) -> httpx.Response:
    """The answer to a POST as a page gets it: sent again on a new connection when the server
    closed the kept-alive one (its idle timer, 5 s in uvicorn), and after Retry-After when the
    bots' queue is full (503), as the page does (BUSY_RETRIES times at most)."""
    for _ in range(BUSY_RETRIES):
        try:
            answer = await client.post(url, json=body)
        except (httpx.RemoteProtocolError, httpx.ReadError):
            stats.resent += 1
            answer = await client.post(url, json=body)
        if answer.status_code != 503:
            break
        stats.refused += 1
        await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
    return answer


@dataclass
class Person:
    client: httpx.AsyncClient
    stream: httpx.AsyncClient
    url: str = ""
    view: dict = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Table:
    def __init__(self, people: list[Person], stats: Stats) -> None:
        self.people = people
        self.stats = stats
        # The version an action made -> when it was sent, and by which seat.
        self.sent: dict[int, tuple[float, int]] = {}
        self.arrivals: list[list[tuple[int, float]]] = [[], []]  # (version, when) by seat

    async def listen(self, person: Person, seat: int) -> None:
        try:
            await self.follow(person, seat)
        except httpx.HTTPError as error:
            self.stats.error(f"event stream: {type(error).__name__}: {error}")

    async def follow(self, person: Person, seat: int) -> None:
        async with person.stream.stream("GET", f"{person.url}/events") as answer:
            data = None
            async for line in answer.aiter_lines():
                if line.startswith("data:"):
                    data = json.loads(line[5:])
                elif not line and data is not None:
                    self.delivered(seat, data["version"])
                    # The answer to this person's own action may have brought it already.
                    if data["version"] > person.view.get("version", 0):
                        person.view = data
                        person.changed.set()
                    data = None

    def delivered(self, seat: int, version: int) -> None:
        """An event of ``version`` reached ``seat``'s screen now."""
        now = time.monotonic()
        self.arrivals[seat].append((version, now))
        for made, (sent, actor) in list(self.sent.items()):
            if made <= version and actor != seat:
                del self.sent[made]
                if self.stats.counts(sent):
                    self.stats.deliveries.append(now - sent)

    def acted(self, seat: int, version: int, sent: float) -> None:
        """``seat``'s action made ``version``: its delivery to the other screen is timed from
        ``sent`` (that screen may have it already: the event can beat the answer)."""
        other = 1 - seat
        arrived = next((t for v, t in self.arrivals[other] if v >= version), None)
        if arrived is None:
            self.sent[version] = (sent, seat)
        elif self.stats.counts(sent):
            self.stats.deliveries.append(arrived - sent)

    async def move(
        self, seat: int, person: Person, rng: random.Random, think: tuple[float, float]
    ) -> None:
        view = person.view
        if view.get("phase") == "passing" and not view["pass_chosen"]:
            verb, body = "pass", {"cards": view["hand"][:3]}
        elif view.get("phase") == "playing" and view["turn"] == view["my_seat"]:
            verb, body = "play", {"card": rng.choice(view["legal"])}
        elif view.get("phase") == "hand_over" and seat == 0:
            verb, body = "next-hand", {}
        else:
            if person.view is view:  # nothing came since the view was read (no await between)
                person.changed.clear()
                await person.changed.wait()
            return
        await asyncio.sleep(rng.uniform(*think))
        sent = time.monotonic()
        answer = await post(person.client, f"{person.url}/{verb}", self.stats, body)
        took = time.monotonic() - sent
        if answer.status_code != 200:
            self.stats.error(f"{verb}: {answer.status_code} {answer.text[:160]}")
            return
        version = answer.json()["version"]
        if self.stats.counts(sent):
            self.stats.actions.append(took)
            self.acted(seat, version, sent)
        if version > person.view.get("version", 0):
            person.view = answer.json()


async def play_table(
    base_urls: tuple[str, str], stats: Stats, rng: random.Random, think: tuple[float, float],
    clients: list[httpx.AsyncClient], bot_level: str = "normal",
    table_urls: list[str] | None = None,
) -> None:
    """One table, its two people each on their own base URL (two instances: the events cross
    from one to the other), played until ``stats.counting_until``; their clients go in
    ``clients``, for the caller to close, and the table's API URL in ``table_urls``."""

    def person(base_url: str) -> Person:
        made = Person(browser(base_url), browser(base_url))
        clients.extend((made.client, made.stream))
        return made

    people = [person(base_urls[0]), person(base_urls[1])]
    created = await post(people[0].client, "/api/hearts/tables", stats,
                         {"bot_level": bot_level, "turn_seconds": None, "name": "A"})
    url = f"/api/hearts/tables/{created.json()['table_id']}"
    if table_urls is not None:
        table_urls.append(url)
    await post(people[1].client, f"{url}/seats", stats, {"seat": 2, "name": "B"})
    for p in people:
        p.url = url
        # The stream is the same browser on a second connection, as EventSource is.
        p.stream.cookies = p.client.cookies
    table = Table(people, stats)
    listeners = [asyncio.create_task(table.listen(p, n)) for n, p in enumerate(people)]
    await post(people[0].client, f"{url}/start", stats)

    async def seat(n: int) -> None:
        while time.monotonic() < stats.counting_until:
            try:
                await table.move(n, people[n], rng, think)
            except httpx.HTTPError as error:
                stats.error(f"{type(error).__name__}: {error}")

    try:
        await asyncio.wait_for(
            asyncio.gather(seat(0), seat(1)), stats.counting_until - time.monotonic() + 30
        )
    except TimeoutError:
        pass
    finally:
        for task in listeners:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await task


async def run_config(
    server: Served, tables: int, seconds: float, ramp: float, think: tuple[float, float], seed: int
) -> tuple[Stats, float]:
    start = time.monotonic()
    stats = Stats(start + ramp, start + ramp + seconds)
    rng = random.Random(seed)
    clients: list[httpx.AsyncClient] = []

    async def one(index: int) -> None:
        await asyncio.sleep(ramp * index / tables)
        own = random.Random(rng.random())
        await play_table((server.base_url, server.base_url), stats, own, think, clients)

    cpu = 0.0
    try:

        async def window() -> float:
            await asyncio.sleep(ramp)
            before = server.cpu_seconds()
            await asyncio.sleep(seconds)
            return server.cpu_seconds() - before

        cpu, *_ = await asyncio.gather(window(), *(one(i) for i in range(tables)))
    finally:
        for client in clients:
            await client.aclose()
    return stats, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--ramp", type=float, default=10.0)
    parser.add_argument("--think", type=float, nargs=2, default=(1.5, 4.5))
    parser.add_argument("--configs", default=CONFIGS)
    parser.add_argument("--redis", default=REDIS_URL, help="a spare database: it is flushed")
    parser.add_argument("--seed", type=int, default=15)
    arguments = parser.parse_args(argv)
    print(
        f"{arguments.tables} tables of two people and two Normal bots, think "
        f"{arguments.think[0]}–{arguments.think[1]} s, {arguments.seconds:.0f} s measured"
    )
    print()
    print(
        "| store | workers | actions | errors | resent | action p50/p99 ms | event p50/p99 ms "
        "| server CPU ms/action |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for config in arguments.configs.split(","):
        store, workers = config.split(":")
        url = arguments.redis if store == "redis" else None
        if url:
            flush(url)
        try:
            with serve(url, int(workers)) as server:
                stats, cpu = asyncio.run(
                    run_config(
                        server,
                        arguments.tables,
                        arguments.seconds,
                        arguments.ramp,
                        tuple(arguments.think),
                        arguments.seed,
                    )
                )
        finally:
            if url:
                flush(url)
        a, d = stats.actions, stats.deliveries
        print(
            f"| {store} | {workers} | {len(a)} | {stats.errors} | {stats.resent} | "
            f"{percentile(a, 0.5) * 1e3:.0f}/{percentile(a, 0.99) * 1e3:.0f} | "
            f"{percentile(d, 0.5) * 1e3:.0f}/{percentile(d, 0.99) * 1e3:.0f} | "
            f"{cpu / max(len(a), 1) * 1e3:.1f} |",
            flush=True,
        )
        for sample in stats.samples:
            print(f"  error: {sample[:300]}")


if __name__ == "__main__":
    main()
