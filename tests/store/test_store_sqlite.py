"""SQLite only: expiry and purge, locking between processes, crashes, and the file itself."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.store import StoreError, open_store
from app.store import sqlite as sqlite_store

ROOT = Path(__file__).resolve().parents[2]
TTL_DAYS = 30
DAY = 86_400.0


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "data" / "cardroom.sqlite3"


@pytest.fixture
async def store(db_path, clock):
    store = open_store(f"sqlite:///{db_path}", TTL_DAYS, clock=clock)
    yield store
    await store.close()


def count_rows(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("games", "current_games", "profiles")
        }


async def test_the_file_is_in_wal_mode_with_its_schema(store, db_path):
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert count_rows(db_path) == {"games": 0, "current_games": 0, "profiles": 0}


async def test_an_expired_game_not_purged_yet_gives_its_id_back(store, clock, new_session):
    """Redis drops an expired key itself; SQLite's row waits for the hourly purge, and must not
    keep a page's next game (app/web/games.py) from being stored under its id meanwhile."""
    alice = new_session()
    game_id = "a" * 16 + "-HH1-N-AAAAAAB"
    assert await store.create_named(alice, "heart_to_heart", {"n": 1}, game_id) is not None
    clock.advance(TTL_DAYS * DAY + 1)
    again = await store.create_named(alice, "heart_to_heart", {"n": 2}, game_id)
    assert again is not None
    assert (again.version, again.state) == (1, {"n": 2})
    assert await store.get(alice, game_id) == again
    assert await store.current(alice, "heart_to_heart") == again


async def test_expired_games_and_profiles_vanish_at_once(store, clock, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    assert await store.put_profile(alice, 0, {"language": "vi"})
    clock.advance(TTL_DAYS * DAY - 1)
    assert await store.get(alice, game.game_id) == game
    clock.advance(2)
    assert await store.get(alice, game.game_id) is None
    assert await store.current(alice, "hearts") is None
    assert await store.compare_and_set(alice, game.game_id, 1, {"n": 1}) is None
    assert await store.get_profile(alice) == (0, {})
    # An expired profile is replaced by a new one, as if there had been none.
    assert await store.put_profile(alice, 0, {"language": "en"})
    assert await store.get_profile(alice) == (1, {"language": "en"})


async def test_writes_extend_the_life_of_a_game(store, clock, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    clock.advance(20 * DAY)
    await store.compare_and_set(alice, game.game_id, 1, {"n": 1})
    clock.advance(20 * DAY)
    assert (await store.get(alice, game.game_id)).version == 2
    assert (await store.current(alice, "hearts")).version == 2


async def test_purge_deletes_only_what_expired(store, db_path, clock, new_session):
    old, young = new_session(), new_session()
    old_game = await store.create(old, "hearts", {})
    await store.create(old, "heart_to_heart", {})
    await store.put_profile(old, 0, {"language": "vi"})
    clock.advance(20 * DAY)
    young_game = await store.create(young, "hearts", {})
    await store.put_profile(young, 0, {"language": "en"})
    clock.advance(11 * DAY)

    assert await store.purge_expired() == 3
    assert count_rows(db_path) == {"games": 1, "current_games": 1, "profiles": 1}
    assert await store.current(young, "hearts") == young_game
    assert await store.get(old, old_game.game_id) is None
    assert await store.purge_expired() == 0


async def test_purge_deletes_the_rate_counts_of_windows_that_ended(store, db_path, clock):
    await store.take_allowance([("ended", 5)], 60)
    clock.advance(60)
    await store.take_allowance([("current", 5)], 60)
    assert await store.purge_expired() == 0  # rate counts are nobody's data: not counted
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT bucket FROM rate_counts").fetchall() == [("current",)]


async def test_purge_works_in_batches(store, db_path, clock, new_session, monkeypatch):
    monkeypatch.setattr(sqlite_store, "PURGE_BATCH", 3)
    alice = new_session()
    for _ in range(10):
        await store.create(alice, "hearts", {})
    clock.advance(TTL_DAYS * DAY + 1)
    assert await store.purge_expired() == 10
    assert count_rows(db_path)["games"] == 0


async def test_opening_purges(db_path, clock, new_session):
    alice = new_session()
    store = open_store(f"sqlite:///{db_path}", TTL_DAYS, clock=clock)
    await store.create(alice, "hearts", {})
    await store.close()
    clock.advance(TTL_DAYS * DAY + 1)
    store = open_store(f"sqlite:///{db_path}", TTL_DAYS, clock=clock)
    try:
        assert count_rows(db_path)["games"] == 0
    finally:
        await store.close()


async def test_a_write_after_a_purge_interval_purges(store, db_path, clock, new_session):
    alice, bob = new_session(), new_session()
    await store.create(alice, "hearts", {})
    clock.advance(TTL_DAYS * DAY + sqlite_store.PURGE_EVERY)
    await store.create(bob, "hearts", {})
    # The purge that write started runs first on the maintenance thread: nothing is left.
    assert await store.purge_expired() == 0
    assert count_rows(db_path)["games"] == 1


@pytest.mark.parametrize("restart_frames", [sqlite_store.WAL_RESTART_FRAMES, 0])
async def test_checkpoints_keep_the_wal_small(
    store, db_path, new_session, monkeypatch, restart_frames
):
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_EVERY", 10)
    monkeypatch.setattr(sqlite_store, "WAL_RESTART_FRAMES", restart_frames)
    alice = new_session()
    game = await store.create(alice, "hearts", {})
    for version in range(1, 200):
        # 18 kB that differ each time (SQLite skips rewriting unchanged pages).
        state = {"filler": f"{version:06d}" * 3000}
        game = await store.compare_and_set(alice, game.game_id, version, state)
        # Jobs run in order: this waits for any checkpoint the write started.
        await store.purge_expired()
    # Without checkpoints, 200 such writes leave a WAL of about 4 MB.
    assert os.path.getsize(f"{db_path}-wal") < 500_000


async def test_a_locked_file_makes_writes_wait_without_blocking_the_loop(
    store, db_path, new_session
):
    # SQLite's own waiting would block the loop: the store waits with asyncio instead.
    assert store._conn.execute("PRAGMA busy_timeout").fetchone()[0] == 0
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        write = asyncio.create_task(store.compare_and_set(alice, game.game_id, 1, {"n": 1}))
        await asyncio.sleep(0)
        # Reads go on while the write waits for the lock.
        assert await store.get(alice, game.game_id) == game
        assert not write.done()
        other.execute("COMMIT")
        assert (await write).version == 2
    finally:
        other.close()


async def test_a_lock_held_too_long_is_a_store_error(store, db_path, new_session, monkeypatch):
    monkeypatch.setattr(sqlite_store, "BUSY_GIVE_UP", 0.05)
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError):
            await store.compare_and_set(alice, game.game_id, 1, {"n": 1})
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert await store.get(alice, game.game_id) == game


def test_a_newer_schema_is_refused(db_path):
    db_path.parent.mkdir()
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {sqlite_store.SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError):
        open_store(f"sqlite:///{db_path}", TTL_DAYS)


async def test_a_closed_store_raises_store_error(store, new_session):
    await store.close()
    with pytest.raises(StoreError):
        await store.get(new_session(), "game")


# A separate process that adds to its own counter in one shared game, retrying on conflicts.
COUNTER = """
import asyncio, sys
from app.store import open_store

async def main(url, session_id, game_id, name, times):
    store = open_store(url, 30)
    print("ready", flush=True)
    sys.stdin.readline()
    for _ in range(times):
        while True:
            game = await store.get(session_id, game_id)
            state = {**game.state, name: game.state[name] + 1}
            if await store.compare_and_set(session_id, game_id, game.version, state):
                break
    await store.close()

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])))
"""

# A separate process that writes as fast as it can and says which versions were stored.
WRITER = """
import asyncio, sys
from app.store import open_store

async def main(url, session_id):
    store = open_store(url, 30)
    game = await store.create(session_id, "hearts", {"n": 0})
    print(game.game_id, flush=True)
    while True:
        game = await store.compare_and_set(
            session_id, game.game_id, game.version, {"n": game.state["n"] + 1}
        )
        print(game.version, flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def python(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


async def test_two_processes_share_one_file_without_losing_a_write(db_path, new_session):
    url = f"sqlite:///{db_path}"
    alice = new_session()
    store = open_store(url, TTL_DAYS)
    try:
        game = await store.create(alice, "hearts", {"a": 0, "b": 0})
        times = 300
        workers = [python(COUNTER, url, alice, game.game_id, name, str(times)) for name in "ab"]
        for worker in workers:
            assert worker.stdout.readline() == "ready\n"
        for worker in workers:  # both start together, so their writes interleave
            worker.stdin.write("go\n")
            worker.stdin.flush()
        for worker in workers:
            assert worker.wait(timeout=60) == 0
        stored = await store.get(alice, game.game_id)
        assert stored.state == {"a": times, "b": times}
        assert stored.version == 1 + 2 * times
    finally:
        await store.close()


async def test_every_answered_write_survives_sigkill(db_path, new_session):
    url = f"sqlite:///{db_path}"
    alice = new_session()
    writer = python(WRITER, url, alice)
    try:
        game_id = writer.stdout.readline().strip()
        answered = 0
        while answered < 300:
            answered = int(writer.stdout.readline())
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=10)
        writer.stdout.close()
        writer.stdin.close()
    store = open_store(url, TTL_DAYS)
    try:
        stored = await store.get(alice, game_id)
        assert stored.version >= answered
        assert stored.state == {"n": stored.version - 1}
    finally:
        await store.close()
