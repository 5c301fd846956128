"""Issue 18, finding 7: a store that is locked or down answers a clean 503, never a bare 500.

The SQLite file is locked by a second connection holding its write lock, as another process
would; Redis is a real server of the test's own, stopped in the middle of the test.
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

import app.store.sqlite as sqlite_store
from app.main import create_app
from app.settings import Settings
from tests.conftest import start_redis

# Not a timing the test depends on: the lock is held the whole time, only the wait is shorter.
SHORT_GIVE_UP = 0.2


def assert_clean_503(response: httpx.Response, *, api: bool) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["retry-after"].isdigit()
    assert "script-src 'self';" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"
    if api:
        assert response.json()["error"]["code"] == "store_unavailable"
    else:
        assert response.headers["content-type"].startswith("text/html")
        assert "Try again in a moment" in response.text


async def client_for(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    application = create_app(settings)
    async with (application.router.lifespan_context(application),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=application),
                                  base_url="http://testserver",
                                  headers={"accept-language": "en"}) as client):
        yield client


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    return tmp_path / "cardroom.sqlite3"


@pytest.fixture
async def sqlite_client(sqlite_file: Path, monkeypatch) -> AsyncIterator[httpx.AsyncClient]:
    monkeypatch.setattr(sqlite_store, "BUSY_GIVE_UP", SHORT_GIVE_UP)
    monkeypatch.setattr(sqlite_store, "PING_GIVE_UP", SHORT_GIVE_UP)
    settings = Settings(store_url=f"sqlite:///{sqlite_file}", secret_key="k" * 32)
    async for client in client_for(settings):
        yield client


async def test_a_locked_sqlite_file_answers_503(sqlite_client, sqlite_file):
    assert (await sqlite_client.get("/readyz")).status_code == 200
    assert (await sqlite_client.get("/")).status_code == 200
    lock = sqlite3.connect(sqlite_file, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        assert (await sqlite_client.get("/readyz")).status_code == 503
        assert_clean_503(await sqlite_client.post("/api/heart-to-heart/games", json={}), api=True)
        assert_clean_503(await sqlite_client.get("/heart-to-heart/deal/HH1-N-AAAAAAB"), api=False)
        assert_clean_503(await sqlite_client.post("/lang", data={"lang": "vi"}), api=False)
        assert (await sqlite_client.get("/healthz")).status_code == 200
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert (await sqlite_client.get("/readyz")).status_code == 200
    assert (await sqlite_client.post("/api/heart-to-heart/games", json={})).status_code == 201
    assert (await sqlite_client.get("/heart-to-heart")).status_code == 200


async def test_the_503_page_is_translated(sqlite_client, sqlite_file):
    # A known browser's deal link stores its match (a visit without a cookie writes nothing).
    await sqlite_client.get("/")
    lock = sqlite3.connect(sqlite_file, isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        response = await sqlite_client.get(
            "/hearts/deal/HT1-N-AAAAAAB", headers={"accept-language": "vi"}
        )
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert response.status_code == 503
    assert '<html lang="vi"' in response.text
    assert "Try again in a moment" not in response.text


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen]]:
    """A Redis server of the test's own (it stops it), keeping nothing on disk."""
    port, process = start_redis(tmp_path)
    try:
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        process.kill()
        process.wait()


async def test_a_redis_that_goes_down_answers_503(own_redis):
    url, process = own_redis
    async for client in client_for(Settings(store_url=url, secret_key="k" * 32)):
        game = (await client.post("/api/hearts/games", json={})).json()
        assert (await client.get("/readyz")).status_code == 200
        process.terminate()
        process.wait()
        assert (await client.get("/readyz")).status_code == 503
        assert_clean_503(await client.get(f"/api/hearts/games/{game['game_id']}"), api=True)
        assert_clean_503(await client.post("/api/heart-to-heart/games", json={}), api=True)
        assert_clean_503(await client.get("/"), api=False)
        assert_clean_503(await client.get("/hearts"), api=False)
        assert (await client.get("/healthz")).status_code == 200
