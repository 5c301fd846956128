"""Issue 18, finding 4 (the store's and the profile's half): what cannot be read is absent.

Each kind of damage is written straight into the backend, as a newer version, a crash or a
hand edit would leave it: bad JSON, JSON that is not an object, a newer version, a wrong type.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.store import GameStore, GameUnreadable, StoredGame, Unreadable, read_game
from app.store.sqlite import SqliteStore
from app.web.profile import (
    PROFILE_VERSION,
    load_profile,
    record_heart_to_heart_game,
    record_hearts_match,
    update_profile,
)

BAD_JSON = ['{"v": 1, "stats": {', "", "not json", "[1, 2]", "null", '"text"', "[" * 100_000]
GOOD_PROFILE = {"v": 1, "lang": "en", "h2h_options": {"move_errors": True},
                "stats": {"hearts": {"played": 2, "won": 1, "hands": 9, "points": 50, "moons": 0}}}
DAMAGED_PROFILES = [
    {"v": PROFILE_VERSION + 1, "lang": "en"},
    {"v": "1"},
    {"lang": 7},
    {"h2h_options": ["move_errors"]},
    {"h2h_options": {"move_errors": "yes"}},
    {"stats": []},
    {"stats": {"heart_to_heart": {"played": "3"}}},
    {"stats": {"heart_to_heart": {"best_time": -1}}},
    {"stats": {"hearts": {"points": 1.5}}},
    {"stats": {"hearts": {"won": True}}},
]


@pytest.fixture
def write_raw(store: GameStore, tmp_path, redis_client, redis_prefix):
    """Put ``text`` where the store keeps a profile's data or a game's state."""
    return lambda table, key, text: _write_raw(
        store, tmp_path / "store" / "cardroom.sqlite3", redis_client, redis_prefix, table, key,
        text)


def _write_raw(store, sqlite_path, redis_client, redis_prefix, table: str, key: str, text: str):
    if isinstance(store, SqliteStore):
        conn = sqlite3.connect(sqlite_path, isolation_level=None)
        try:
            column, id_column = ("data", "session_id") if table == "profiles" else (
                "state", "game_id")
            changed = conn.execute(f"UPDATE {table} SET {column} = ? WHERE {id_column} = ?",
                                   (text, key)).rowcount
        finally:
            conn.close()
        assert changed == 1
    else:
        name, field = ("profile", "data") if table == "profiles" else ("game", "state")
        assert redis_client.hset(f"{redis_prefix}{name}:{key}", field, text) == 0


# -- profiles ---------------------------------------------------------------------------------


async def test_a_readable_profile_is_read_as_it_is(store, new_session):
    alice = new_session()
    await update_profile(store, alice, lambda data: data.update(GOOD_PROFILE))
    assert (await load_profile(store, alice)).data == GOOD_PROFILE


async def test_what_this_version_writes_it_reads_back(store, new_session):
    """Guards the checks: a writer that stores a value of another type would lose profiles."""
    alice = new_session()
    await update_profile(store, alice, lambda data: data.update(lang="vi"))
    await record_heart_to_heart_game(store, alice, won=True, seconds=95, moves=70)
    await record_heart_to_heart_game(store, alice, won=False, seconds=5, moves=2)
    await record_hearts_match(store, alice, won=True, hand_points=[0, 26, 4], moons=1)
    written = (await update_profile(
        store, alice, lambda data: data.update(h2h_options={"placement_help": False}))).data
    assert (await load_profile(store, alice)).data == written
    assert written["stats"]["heart_to_heart"]["played"] == 2
    assert written["stats"]["hearts"]["moons"] == 1


@pytest.mark.parametrize("text", BAD_JSON + [json.dumps(p) for p in DAMAGED_PROFILES])
async def test_an_unreadable_profile_is_absent_and_replaced(
    store, new_session, write_raw, text
):
    alice = new_session()
    await update_profile(store, alice, lambda data: data.update(GOOD_PROFILE))
    write_raw("profiles", alice, text)

    profile = await load_profile(store, alice)
    assert profile.data == {}
    assert profile.version == 1  # still there: the next write replaces it
    await record_heart_to_heart_game(store, alice, won=True, seconds=90, moves=80)
    after = await load_profile(store, alice)
    assert after.version == 2
    assert after.data["stats"]["heart_to_heart"]["won"] == 1
    assert "lang" not in after.data and "hearts" not in after.data["stats"]


# -- games ------------------------------------------------------------------------------------


class LoaderBug(Exception):
    pass


def buggy_loader(stored: StoredGame) -> dict:
    raise LoaderBug(stored.game_id)


def load_state(stored: StoredGame) -> dict:
    """A game's loader as the web layer writes it: what it cannot read is GameUnreadable."""
    if stored.state.get("v") != 1:
        raise GameUnreadable(f"game {stored.game_id}: version {stored.state.get('v')!r}")
    return stored.state


async def test_read_game_gives_the_game_with_its_loaded_form(store, new_session):
    alice = new_session()
    created = await store.create(alice, "hearts", {"v": 1, "turn": 0})
    assert await read_game(store.get(alice, created.game_id), load_state) == (
        created, {"v": 1, "turn": 0})
    assert await read_game(store.current(alice, "hearts"), load_state) == (
        created, {"v": 1, "turn": 0})
    assert await read_game(store.get(alice, "no-such-game"), load_state) is None
    assert await read_game(store.current(alice, "heart_to_heart"), load_state) is None


@pytest.mark.parametrize("text", BAD_JSON)
async def test_a_game_that_is_not_json_is_unreadable(
    store, new_session, write_raw, text
):
    alice = new_session()
    created = await store.create(alice, "hearts", {"v": 1})
    write_raw("games", created.game_id, text)
    with pytest.raises(GameUnreadable):
        await store.get(alice, created.game_id)
    with pytest.raises(GameUnreadable):
        await store.current(alice, "hearts")
    for fetch in (store.get(alice, created.game_id), store.current(alice, "hearts")):
        found = await read_game(fetch, load_state)
        assert isinstance(found, Unreadable) and created.game_id in found.reason
    # Treated as absent: a new game takes its place.
    replacement = await store.create(alice, "hearts", {"v": 1})
    assert await read_game(store.current(alice, "hearts"), load_state) == (
        replacement, {"v": 1})
    # Another session still sees nothing at all.
    assert await store.get(new_session(), created.game_id) is None


async def test_a_game_its_loader_cannot_read_is_unreadable(store, new_session):
    alice = new_session()
    newer = await store.create(alice, "hearts", {"v": 2, "turn": 0})
    found = await read_game(store.current(alice, "hearts"), load_state)
    assert found == Unreadable(f"game {newer.game_id}: version 2")
    # Other errors of a loader are bugs, not damage: they are not hidden.
    with pytest.raises(LoaderBug):
        await read_game(store.current(alice, "hearts"), buggy_loader)


async def test_a_redis_game_with_a_field_missing_is_unreadable(
    store, new_session, redis_client, redis_prefix
):
    if isinstance(store, SqliteStore):
        pytest.skip("SQLite's columns are NOT NULL")
    alice = new_session()
    created = await store.create(alice, "hearts", {"v": 1})
    for field, value in (("version", "one"), ("kind", None)):
        key = f"{redis_prefix}game:{created.game_id}"
        if value is None:
            redis_client.hdel(key, field)
        else:
            redis_client.hset(key, field, value)
        assert isinstance(await read_game(store.get(alice, created.game_id), load_state),
                          Unreadable)
