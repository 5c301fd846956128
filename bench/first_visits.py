"""What a visit without a cookie costs the store (issue 17; figures in bench/README.md).

    nice .venv/bin/python -m bench.first_visits [--visits 300]

In-process (the ASGI app called through httpx, no network), on a temporary SQLite file: each
route is opened ``--visits`` times by a new client (no cookie, redirects not followed), and the
rows of every table counted after. The CPU time is this process's, client included. To compare
with an older tree, run the same file with ``PYTHONPATH`` pointing at that tree.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time

import httpx

from app.main import create_app
from app.settings import Settings

ROUTES = ("/", "/hearts", "/heart-to-heart", "/hearts/deal/HT1-N-AAAAAAC",
          "/heart-to-heart/deal/HH1-W-AAAAAAB", "/hearts/daily", "/heart-to-heart/daily")


def rows(path: str) -> int:
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return sum(db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables)


async def visit(transport: httpx.ASGITransport, route: str) -> None:
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        answer = await client.get(route)
        if answer.status_code not in (200, 303):
            raise RuntimeError(f"{route}: {answer.status_code}")


async def main(visits: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/cardroom.sqlite3"
        app = create_app(Settings(store_url=f"sqlite:///{path}", secret_key="bench-" * 8))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            for route in ROUTES:  # templates and caches warmed before counting
                await visit(transport, route)
            print(f"{'route':36} {'CPU µs/visit':>12} {'rows/visit':>10}")
            for route in ROUTES:
                written, start = rows(path), time.process_time()
                for _ in range(visits):
                    await visit(transport, route)
                cpu = (time.process_time() - start) / visits * 1e6
                print(f"{route:36} {cpu:12,.0f} {(rows(path) - written) / visits:10.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=300)
    asyncio.run(main(parser.parse_args().visits))
