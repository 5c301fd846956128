"""Redis only: every key is namespaced and expires, and every write renews the expiry."""

from __future__ import annotations

import pytest

from app.store import open_store

TTL_DAYS = 7
TTL_SECONDS = TTL_DAYS * 86_400

# Redis counts whole seconds down from the moment of the write: allow for a slow test machine.
SLACK = 60


@pytest.fixture
async def store(redis_url, redis_prefix, clock):
    store = open_store(redis_url, TTL_DAYS, clock=clock, redis_prefix=redis_prefix)
    await store.ping()
    yield store
    await store.close()


def assert_fresh_ttl(redis_client, key, ttl=TTL_SECONDS):
    assert ttl - SLACK <= redis_client.ttl(key) <= ttl, key


async def test_every_key_is_namespaced_and_expires(store, redis_client, redis_prefix, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    await store.compare_and_set(alice, game.game_id, 1, {"n": 1})
    await store.put_profile(alice, 0, {"language": "vi"})
    keys = {
        f"{redis_prefix}game:{game.game_id}",
        f"{redis_prefix}current:{alice}",
        f"{redis_prefix}profile:{alice}",
    }
    assert keys <= set(redis_client.scan_iter(match=f"{redis_prefix}*"))
    assert not set(redis_client.scan_iter(match=f"*{game.game_id}*")) - keys
    for key in keys:
        assert_fresh_ttl(redis_client, key)


async def test_every_write_renews_the_expiry(store, redis_client, redis_prefix, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    await store.put_profile(alice, 0, {"language": "vi"})
    game_key = f"{redis_prefix}game:{game.game_id}"
    current_key = f"{redis_prefix}current:{alice}"
    profile_key = f"{redis_prefix}profile:{alice}"
    for key in (game_key, current_key, profile_key):
        redis_client.expire(key, 100)

    await store.compare_and_set(alice, game.game_id, 1, {"n": 1})
    assert_fresh_ttl(redis_client, game_key)
    assert_fresh_ttl(redis_client, current_key)
    assert redis_client.ttl(profile_key) <= 100

    await store.put_profile(alice, 1, {"language": "en"})
    assert_fresh_ttl(redis_client, profile_key)


async def test_refused_writes_change_nothing(store, redis_client, redis_prefix, new_session):
    alice, mallory = new_session(), new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    game_key = f"{redis_prefix}game:{game.game_id}"
    redis_client.expire(game_key, 100)
    before = redis_client.hgetall(game_key)

    assert await store.compare_and_set(alice, game.game_id, 5, {"n": "stale"}) is None
    assert await store.compare_and_set(mallory, game.game_id, 1, {"n": "stolen"}) is None
    assert redis_client.hgetall(game_key) == before
    assert redis_client.ttl(game_key) <= 100
    assert not redis_client.exists(f"{redis_prefix}current:{mallory}")


async def test_ttl_follows_the_setting(redis_url, redis_prefix, redis_client, new_session):
    store = open_store(redis_url, 2, redis_prefix=redis_prefix)
    try:
        alice = new_session()
        game = await store.create(alice, "hearts", {})
        await store.put_profile(alice, 0, {})
    finally:
        await store.close()
    for key in (f"game:{game.game_id}", f"current:{alice}", f"profile:{alice}"):
        assert_fresh_ttl(redis_client, redis_prefix + key, ttl=2 * 86_400)


async def test_a_game_whose_key_expired_is_gone(store, redis_client, redis_prefix, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 0})
    # EXPIRE with 0 makes Redis expire the key now, as it would at the end of its TTL.
    redis_client.expire(f"{redis_prefix}game:{game.game_id}", 0)
    assert await store.get(alice, game.game_id) is None
    assert await store.current(alice, "hearts") is None
    assert await store.compare_and_set(alice, game.game_id, 1, {"n": 1}) is None
    assert not redis_client.exists(f"{redis_prefix}game:{game.game_id}")


async def test_purge_is_left_to_redis(store):
    assert await store.purge_expired() == 0
