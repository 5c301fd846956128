"""Shared fixtures: the real app on a real temporary SQLite store, driven through httpx; and
this test run's own Redis server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
import pytest
import redis
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings

BASE_URL = "http://testserver"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_START_SECONDS = 10.0


# The browser modules whose tests are longest (whole hands and games, two pages): first among
# the browser tests, so that the run does not end on one of them while the other workers wait.
LONG_BROWSER_MODULES = (
    "test_replays_browser.py", "test_play_by_ear_browser.py", "test_tables_browser.py",
    "test_spectators_browser.py", "test_daily_browser.py", "test_assists_browser.py",
    "test_accessibility_browser.py",
)


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last. Their session-wide sync Playwright keeps an event loop
    running in the main thread, after which no asyncio test can start its own. Among them,
    the longest modules first."""

    def order(item) -> tuple[bool, bool]:
        browser = item.get_closest_marker("browser") is not None
        return browser, browser and item.path.name not in LONG_BROWSER_MODULES

    items.sort(key=order)


@pytest.fixture(scope="session", autouse=True)
def search_processes_kept() -> Iterator[None]:
    """The Hard bots' search processes (app/web/hearts/thinking.py) spawned once per test
    process, not once per app: each test's app stops its pool when it shuts down, and spawning
    the processes again (each imports the app's bots) cost more than most tests that search.
    A pool whose process died is still started again (tests/fairplay kills one)."""
    from app.web.hearts import thinking

    kept: dict[int, ProcessPoolExecutor] = {}

    class KeptSearches(thinking.Searches):
        def _start(self) -> ProcessPoolExecutor:
            pool = kept.get(self.workers)
            if pool is None or getattr(pool, "_broken", False):
                pool = kept[self.workers] = super()._start()
            return pool

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            """Kept for the next app; stopped at the end of the session."""

    started = thinking.Searches
    thinking.Searches = KeptSearches  # type: ignore[misc]
    try:
        yield
    finally:
        thinking.Searches = started  # type: ignore[misc]
        for pool in kept.values():
            pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(
        store_url=f"sqlite:///{tmp_path / 'cardroom.sqlite3'}",
        secret_key="test-secret-key-long-enough-for-the-check",
        secure_cookies=False,
        game_ttl_days=30,
        # Tests play at machine speed on a clock that stands still, which the rate limits exist
        # to refuse; tests/web/test_limits.py turns them on.
        rate_limit_scale=0,
    )


class Clock:
    """The time as the app and its store see it: it stands still until a test moves it."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())


@pytest.fixture
async def app(settings: Settings, clock: Clock) -> AsyncIterator[FastAPI]:
    application = create_app(settings, clock=clock)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def new_client(app: FastAPI) -> AsyncIterator[Callable[..., httpx.AsyncClient]]:
    """Make more browsers (each with its own cookie jar, so its own session)."""
    async with AsyncExitStack() as stack:

        def make(**kwargs) -> httpx.AsyncClient:
            client = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url=BASE_URL, **kwargs
            )
            stack.push_async_callback(client.aclose)
            return client

        yield make


@pytest.fixture
def client(new_client: Callable[..., httpx.AsyncClient]) -> httpx.AsyncClient:
    """One browser that asks for English pages."""
    return new_client(headers={"accept-language": "en"})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(directory: Path) -> tuple[int, subprocess.Popen]:
    """A redis-server on a free loopback port, keeping nothing on disk, once it answers; its
    port and process. Another program may take the free port first: then another port."""
    for _ in range(3):
        port = free_port()
        process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=port)
        try:
            deadline = time.monotonic() + REDIS_START_SECONDS
            while process.poll() is None:
                try:
                    client.ping()
                    return port, process
                except redis.ConnectionError:
                    if time.monotonic() > deadline:
                        process.kill()
                        raise
                    time.sleep(0.05)
        finally:
            client.close()
        process.wait()
    raise RuntimeError(f"{REDIS_SERVER} did not start")


class RedisServer:
    """This run's own Redis (under pytest-xdist, each worker's own), so test runs side by side
    never touch each other's keys. Each suite that empties its database has one of its own."""

    DATABASES = ("store", "daily", "reliability", "tables", "first_visit", "fairplay", "limits",
                 "deployments")

    def __init__(self, port: int) -> None:
        self.port = port

    def url(self, suite: str) -> str:
        return f"redis://127.0.0.1:{self.port}/{self.DATABASES.index(suite) + 1}"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    port, process = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield RedisServer(port)
    finally:
        process.kill()
        process.wait()
