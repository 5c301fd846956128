"""How long one store call takes, per backend (issue 8; figures in bench/README.md).

    nice .venv/bin/python -m bench.store [--calls 2000] [--redis redis://...]

Uses a temporary SQLite file and a throw-away key prefix on Redis (db 15 by default), both
removed at the end. The state is a real Hearts match from the rules engine, once as dealt and once
padded to 4 kB (a long game with its undo history). "thread hop" is what handing one call to a
worker thread and back costs on its own: the price the SQLite backend avoids by running inline.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import redis

from app.rules.hearts import HeartsMatch
from app.store import GameStore, open_store


def summary(name: str, seconds: list[float]) -> str:
    micro = sorted(s * 1e6 for s in seconds)
    p99 = micro[min(len(micro) - 1, int(len(micro) * 0.99))]
    return (
        f"  {name:<22} mean {statistics.fmean(micro):7.1f} µs   p50 {micro[len(micro) // 2]:7.1f}"
        f" µs   p99 {p99:7.1f} µs"
    )


async def timed(calls: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    seconds = []
    for i in range(calls):
        start = time.perf_counter()
        await call(i)
        seconds.append(time.perf_counter() - start)
    return seconds


async def measure(store: GameStore, state: dict, calls: int) -> list[str]:
    session = secrets.token_urlsafe(16)
    games = [await store.create(session, "hearts", state) for _ in range(calls)]
    game = games[-1]
    versions = {g.game_id: g.version for g in games}

    async def get(i: int) -> object:
        return await store.get(session, games[i].game_id)

    async def cas(i: int) -> object:
        gid = games[i].game_id
        written = await store.compare_and_set(session, gid, versions[gid], state)
        versions[gid] = written.version
        return written

    async def tap(i: int) -> object:
        stored = await store.get(session, games[i].game_id)
        return await store.compare_and_set(session, stored.game_id, stored.version, state)

    async def profile_round(i: int) -> object:
        version, data = await store.get_profile(session)
        return await store.put_profile(session, version, {**data, "taps": i})

    return [
        summary("create", await timed(calls, lambda i: store.create(session, "hearts", state))),
        summary("get", await timed(calls, get)),
        summary("compare_and_set", await timed(calls, cas)),
        summary("tap (get + CAS)", await timed(calls, tap)),
        summary("current", await timed(calls, lambda i: store.current(session, "hearts"))),
        summary("get + put profile", await timed(calls, profile_round)),
        f"  (last game version {(await store.get(session, game.game_id)).version})",
    ]


async def thread_hop(calls: int) -> str:
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=1) as executor:
        return summary(
            "thread hop alone",
            await timed(calls, lambda i: loop.run_in_executor(executor, int)),
        )


async def run(calls: int, redis_url: str) -> None:
    dealt = HeartsMatch.new("HT1-N-AAAAAAM").to_json()
    padded = {**dealt, "padding": "x" * (4096 - len(str(dealt)))}
    prefix = f"cardroom-measure-{secrets.token_hex(4)}:"
    with tempfile.TemporaryDirectory() as directory:
        backends = {
            "sqlite": f"sqlite:///{Path(directory) / 'measure.sqlite3'}",
            "redis": redis_url,
        }
        try:
            for name, url in backends.items():
                for label, state in (("dealt Hearts match", dealt), ("4 kB state", padded)):
                    store = open_store(url, 30, redis_prefix=prefix)
                    try:
                        print(f"{name}, {label}, {calls} calls each:")
                        print("\n".join(await measure(store, state, calls)))
                    finally:
                        await store.close()
            print(await thread_hop(calls))
        finally:
            client = redis.Redis.from_url(redis_url)
            keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
            if keys:
                client.delete(*keys)
            client.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls per measurement")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/15")
    arguments = parser.parse_args(argv)
    asyncio.run(run(arguments.calls, arguments.redis))


if __name__ == "__main__":
    main()
