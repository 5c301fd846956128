"""``create_named``: a game stored under an id the caller chose (a page's game stored at its
first action), on SQLite and on Redis."""

from __future__ import annotations

from app.store import GameStore, new_game_id


async def test_a_named_game_is_stored_once_under_its_id(store: GameStore, clock, new_session):
    alice, bob = new_session(), new_session()
    game_id = new_game_id() + "-HH1-N-AAAAAAB"
    created = await store.create_named(alice, "heart_to_heart", {"n": 1}, game_id)
    assert created is not None
    assert (created.game_id, created.version, created.updated_at) == (game_id, 1, clock.now)
    assert await store.get(alice, game_id) == created
    assert await store.current(alice, "heart_to_heart") == created
    # The id is taken: a second create (a double tap, or another browser) changes nothing.
    other = await store.create(alice, "heart_to_heart", {"n": 2})
    assert await store.create_named(alice, "heart_to_heart", {"n": 3}, game_id) is None
    assert await store.create_named(bob, "heart_to_heart", {"n": 4}, game_id) is None
    assert await store.get(alice, game_id) == created
    assert await store.get(bob, game_id) is None
    assert await store.current(alice, "heart_to_heart") == other
    assert await store.current(bob, "heart_to_heart") is None

