"""open_store: which URLs and settings it accepts, and how it refuses the rest."""

from __future__ import annotations

import pytest

from app.store import StoreError, open_store


@pytest.mark.parametrize(
    "url",
    [
        "",
        "cardroom.sqlite3",
        "postgres://localhost/cardroom",
        "sqlite://cardroom.sqlite3",
        "sqlite:///",
        "redis://127.0.0.1:notaport/0",
        "redis://127.0.0.1:6379/notadb",
        None,
    ],
)
def test_bad_urls_raise_store_error(url):
    with pytest.raises(StoreError):
        open_store(url, 30)


@pytest.mark.parametrize("ttl_days", [0, -1, "30", 1.5, True])
def test_bad_ttl_raises_store_error(ttl_days, tmp_path):
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{tmp_path / 'x.sqlite3'}", ttl_days)


async def test_relative_sqlite_path_is_under_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite:///./data/cardroom.sqlite3", 30)
    try:
        await store.ping()
    finally:
        await store.close()
    assert (tmp_path / "data" / "cardroom.sqlite3").is_file()


def test_sqlite_file_that_is_not_a_database_raises(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database, " * 100)
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{path}", 30)


def test_sqlite_directory_that_cannot_exist_raises(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{blocker / 'data' / 'cardroom.sqlite3'}", 30)


async def test_unreachable_redis_fails_loudly():
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    store = open_store("redis://127.0.0.1:1/0", 30)
    try:
        with pytest.raises(StoreError):
            await store.ping()
        with pytest.raises(StoreError):
            await store.get("session", "game")
    finally:
        await store.close()
