"""Results boards at 100,000 rows: the time of a board page (HTML) and of its JSON, in process.

Fills today's Heart to Heart daily board (sorted by outcome) and today's Hearts daily board
(scored by matchpoints, from the tallies of its points per hand) with ``--rows`` results each,
then asks for the first page, a middle page and the last page of each, ``--requests`` times,
through the app (httpx's ASGI transport: routing, the store's reads, the scoring, the template),
and prints p50 and p95 per URL. ``--store`` picks SQLite (a temporary file) or a Redis URL (its
keys are written under a prefix of their own and deleted at the end).

    PYTHONPATH=$PWD .venv/bin/python -m bench.boards --rows 100000 --requests 200
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from app.main import create_app
from app.settings import Settings
from app.web.daily_codes import HEART_TO_HEART, HEARTS, today
from app.web.results import PAGE_SIZE, RANKED, daily_board

# Points a player takes in one hand of the Hearts daily, and how often (a player who avoids the
# Q♠ most of the time; now and then a moon, 0 points for them).
HAND_POINTS = [0, 1, 2, 3, 4, 5, 6, 13, 14, 15, 16, 26]
HAND_WEIGHTS = [30, 14, 10, 8, 6, 4, 3, 8, 6, 4, 3, 4]


def heart_to_heart_row(rng: random.Random) -> tuple[dict, int]:
    cards_left = 0 if rng.random() < 0.6 else rng.randint(1, 25)
    seconds, moves = rng.randint(60, 900), rng.randint(60, 200)
    row = {"won": cards_left == 0, "cards_left": cards_left, "seconds": seconds, "moves": moves,
           "apart": [], "finished_at": 0}
    return row, cards_left << 40 | seconds << 16 | moves


def hearts_row(rng: random.Random) -> tuple[dict, str]:
    points = rng.choices(HAND_POINTS, HAND_WEIGHTS, k=4)
    row = {"points": points, "moons": [False] * 4, "hands_played": 4, "apart": [],
           "finished_at": 0}
    return row, ",".join(map(str, points))


async def fill(store, rows: int, now: float) -> None:
    rng = random.Random(29)
    day = today(now)
    for n in range(rows):
        row, order = heart_to_heart_row(rng)
        await store.add_result(daily_board(HEART_TO_HEART, day), f"s{n}", row, f"P{n}",
                               section=RANKED, order=order, group="", keep_days=90)
        row, group = hearts_row(rng)
        await store.add_result(daily_board(HEARTS, day), f"s{n}", row, f"P{n}",
                               section=RANKED, order=0, group=group, keep_days=90)


async def measure(store_url: str, rows: int, requests: int) -> None:
    settings = Settings(store_url=store_url, secret_key=secrets.token_urlsafe(32),
                        rate_limit_scale=0)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        store = app.state.store
        now = time.time()
        started = time.perf_counter()
        await fill(store, rows, now)
        print(f"filled 2 boards of {rows:,} rows in {time.perf_counter() - started:.1f} s")
        day = today(now).isoformat()
        last = -(-rows // PAGE_SIZE)
        urls = [
            f"/{game}/daily/{day}/results?page={page}"
            for game in ("heart-to-heart", "hearts") for page in (1, last // 2, last)
        ] + [f"/api/{game}/daily/{day}/results" for game in ("heart-to-heart", "hearts")]
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for url in urls:
                assert (await client.get(url)).status_code == 200, url
                times = []
                for _ in range(requests):
                    start = time.perf_counter()
                    answer = await client.get(url)
                    times.append((time.perf_counter() - start) * 1000)
                    assert answer.status_code == 200
                times.sort()
                p95 = times[int(len(times) * 0.95) - 1]
                print(f"{url:60s} p50 {statistics.median(times):6.1f} ms  p95 {p95:6.1f} ms"
                      f"  {len(answer.content):,} B")
        if store_url.startswith("redis"):
            await store._redis.flushdb()  # the bench's own database (the URL names it)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--store", default="sqlite",
                        help="sqlite (a temporary file) or a redis:// URL whose database is "
                             "flushed at the end")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        url = args.store
        if url == "sqlite":
            url = f"sqlite:///{Path(directory) / 'boards.sqlite3'}"
        asyncio.run(measure(url, args.rows, args.requests))


if __name__ == "__main__":
    main()
