"""Real uvicorn processes for the table tests: one on SQLite, two on one Redis, or one with two
workers on SQLite (``--workers 2``: the requests of one player land on either worker); settings
given as keywords reach them as ``CARDROOM_*`` variables."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from live_server import QUIET, LiveServer

HERE = Path(__file__).parent
SECRET_KEY = "tables-test-key-tables-test-key-tables-test-key"


@pytest.fixture
def servers(tmp_path: Path, redis_server) -> Iterator[Callable[..., list[str]]]:
    """``servers(kind, **settings)``: the base URLs of a fresh deployment of that kind; with
    ``two_hands=True``, its tables' matches end after their second hand (two_hand_app.py)."""
    started: list[LiveServer] = []

    def start(kind: str, two_hands: bool = False, **settings: str) -> list[str]:
        sqlite = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
        redis_url = redis_server.url("tables")
        plan = {
            "sqlite": [(sqlite, ())],
            "sqlite-2-workers": [(sqlite, ("--workers", "2"))],
            "redis-2-instances": [(redis_url, ()), (redis_url, ())],
        }[kind]
        if kind.startswith("redis"):
            redis.Redis.from_url(redis_url).flushdb()
        urls = []
        for url, args in plan:
            server = LiveServer(
                url, tmp_path, secret_key=SECRET_KEY, uvicorn_args=(*QUIET, *args),
                # two_hand_app.py imports its neighbour two_hands.py.
                served="two_hand_app:app" if two_hands else "app.main:app", pythonpath=(HERE,),
                **settings,
            )
            started.append(server)
            urls.append(server.start().base_url)
        return urls

    yield start
    for server in started:
        server.stop()
