"""Real uvicorn processes for the reliability tests, and a spare Redis database.

``start_server(store_url)`` starts a :class:`Server` (tests/live_server.py), stopped at the end
of the test even when the test fails; all sign cookies with ``SECRET_KEY``. ``deployments``
holds, for the whole session, one instance on SQLite and two instances on one Redis (the run's
own server, tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from cardroom_pages import SECRET_KEY
from live_server import LiveServer


class Server(LiveServer):
    """A server of the reliability tests: their key, and no rate limits unless a test asks
    (races at machine speed from one address)."""

    def __init__(self, store_url: str, workdir: Path, **options) -> None:
        options.setdefault("rate_limit_scale", "0")
        super().__init__(store_url, workdir, secret_key=SECRET_KEY, **options)


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(store_url: str, **options) -> Server:
        server = Server(store_url, tmp_path, **options)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def redis_db(redis_server) -> Iterator[str]:
    """The reliability tests' Redis database, empty before and after the module."""
    url = redis_server.url("reliability")
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture(scope="session")
def deployments(tmp_path_factory, redis_server) -> Iterator[dict[str, list[Server]]]:
    """Started once for the session (under pytest-xdist, once per worker), not once per module:
    every test that uses them plays in sessions and games of its own. Their Redis database is
    theirs alone, so the modules that empty ``redis_db`` leave it be."""
    workdir = tmp_path_factory.mktemp("deployments")
    sqlite = f"sqlite:///{workdir / 'cardroom.sqlite3'}"
    redis_url = redis_server.url("deployments")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    servers = {"sqlite": [Server(sqlite, workdir)],
               "redis": [Server(redis_url, workdir), Server(redis_url, workdir)]}
    try:
        for group in servers.values():
            for server in group:
                server.start()
        yield servers
    finally:
        for group in servers.values():
            for server in group:
                server.stop()
        client.flushdb()
        client.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
