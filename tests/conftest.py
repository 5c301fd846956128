"""Shared fixtures: the real app on a real temporary SQLite store, driven through httpx."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from app.settings import Settings

BASE_URL = "http://testserver"


def pytest_collection_modifyitems(config, items):
    """Run the browser tests last. Their session-wide sync Playwright keeps an event loop
    running in the main thread, after which no asyncio test can start its own."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


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
