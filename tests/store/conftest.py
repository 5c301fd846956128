"""Fixtures shared by the store tests: each backend against its real server.

Redis: the run's own server (tests/conftest.py), with a key prefix unique to this run, deleted at
the end.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest
import redis

from app.store import GameStore, open_store
from tests.conftest import RedisServer

TTL_DAYS = 30


class FakeClock:
    """A clock that moves only when told to, so expiry is tested without waiting."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    return redis_server.url("store")


@pytest.fixture(scope="session")
def redis_prefix(redis_url: str) -> Iterator[str]:
    prefix = f"cardroom-test-{secrets.token_hex(6)}:"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    """A plain client on the test database, for looking at keys the store wrote."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


OpenStore = Callable[..., Awaitable[GameStore]]


@pytest.fixture(params=["sqlite", "redis"])
async def open_backend(
    request: pytest.FixtureRequest, tmp_path, redis_url: str, redis_prefix: str, clock: FakeClock
) -> AsyncIterator[OpenStore]:
    """Opens the backend under test (again, if called twice: same file, same keys)."""
    opened: list[GameStore] = []

    async def opener(*, ttl_days: int = TTL_DAYS) -> GameStore:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'store' / 'cardroom.sqlite3'}"
        else:
            url = redis_url
        store = open_store(url, ttl_days, clock=clock, redis_prefix=redis_prefix)
        opened.append(store)
        await store.ping()
        return store

    yield opener
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_backend: OpenStore) -> GameStore:
    return await open_backend()


@pytest.fixture
def new_session() -> Callable[[], str]:
    """Fresh session ids: the Redis keys of one run are shared by all tests, so keep them apart."""
    return lambda: secrets.token_urlsafe(16)
