"""The GameStore contract: every test runs against SQLite and against Redis."""

from __future__ import annotations

import asyncio

from app.store import GameStore, StoredGame

NESTED_STATE = {
    "kind": "hearts",
    "hands": [[0, 13, 26, 39], [], [51]],
    "trick": {"leader": 2, "cards": [{"seat": 2, "card": 38}, {"seat": 3, "card": None}]},
    "scores": [0, 26, -3, 1.5],
    "flags": {"hearts_broken": True, "moon": False, "pass": None},
    "log": ["Bắc đi 2♣", 'quote " and \\ backslash', "emoji 🂡"],
    "deep": {"a": {"b": {"c": {"d": [[[1]]]}}}},
}


async def test_create_then_get_returns_the_game(store: GameStore, clock, new_session):
    alice = new_session()
    created = await store.create(alice, "hearts", {"turn": 0})
    assert created.kind == "hearts"
    assert created.version == 1
    assert created.state == {"turn": 0}
    assert created.updated_at == clock.now
    assert await store.get(alice, created.game_id) == created


async def test_game_ids_are_distinct_and_url_safe(store: GameStore, new_session):
    alice = new_session()
    ids = {(await store.create(alice, "hearts", {})).game_id for _ in range(20)}
    assert len(ids) == 20
    for game_id in ids:
        assert len(game_id) >= 16
        assert all(c.isalnum() or c in "-_" for c in game_id)


async def test_unknown_game_is_none(store: GameStore, new_session):
    assert await store.get(new_session(), "no-such-game") is None
    assert await store.compare_and_set(new_session(), "no-such-game", 1, {}) is None


async def test_create_makes_the_current_game_of_its_kind(store: GameStore, new_session):
    alice = new_session()
    assert await store.current(alice, "hearts") is None
    first = await store.create(alice, "hearts", {"n": 1})
    other_kind = await store.create(alice, "heart_to_heart", {"n": 2})
    assert await store.current(alice, "hearts") == first
    second = await store.create(alice, "hearts", {"n": 3})
    assert await store.current(alice, "hearts") == second
    assert await store.current(alice, "heart_to_heart") == other_kind
    # The replaced game still exists by its id.
    assert await store.get(alice, first.game_id) == first


async def test_current_follows_writes(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"n": 1})
    written = await store.compare_and_set(alice, game.game_id, 1, {"n": 2})
    assert await store.current(alice, "hearts") == written


async def test_another_session_cannot_see_or_write_a_game(store: GameStore, new_session):
    alice, mallory = new_session(), new_session()
    game = await store.create(alice, "hearts", {"secret": "hand"})
    assert await store.get(mallory, game.game_id) is None
    assert await store.compare_and_set(mallory, game.game_id, 1, {"stolen": True}) is None
    assert await store.current(mallory, "hearts") is None
    # Mallory's failed write changed nothing.
    assert await store.get(alice, game.game_id) == game


async def test_sessions_have_separate_current_games(store: GameStore, new_session):
    alice, bob = new_session(), new_session()
    alices = await store.create(alice, "hearts", {"who": "alice"})
    bobs = await store.create(bob, "hearts", {"who": "bob"})
    assert await store.current(alice, "hearts") == alices
    assert await store.current(bob, "hearts") == bobs


async def test_compare_and_set_succeeds_on_the_stored_version(store: GameStore, clock, new_session):
    alice = new_session()
    game = await store.create(alice, "heart_to_heart", {"step": 0})
    clock.advance(5)
    written = await store.compare_and_set(alice, game.game_id, 1, {"step": 1})
    assert written == StoredGame(game.game_id, "heart_to_heart", 2, {"step": 1}, clock.now)
    assert await store.get(alice, game.game_id) == written


async def test_compare_and_set_refuses_a_stale_or_future_version(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"step": 0})
    assert await store.compare_and_set(alice, game.game_id, 1, {"step": 1}) is not None
    assert await store.compare_and_set(alice, game.game_id, 1, {"step": "stale"}) is None
    assert await store.compare_and_set(alice, game.game_id, 3, {"step": "future"}) is None
    stored = await store.get(alice, game.game_id)
    assert (stored.version, stored.state) == (2, {"step": 1})


async def test_versions_grow_by_one_per_write(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"step": 0})
    for step in range(1, 11):
        game = await store.compare_and_set(alice, game.game_id, game.version, {"step": step})
        assert game.version == step + 1
    assert (await store.get(alice, game.game_id)).state == {"step": 10}


async def test_fifty_concurrent_writes_of_one_version_apply_once(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"tap": None})
    results = await asyncio.gather(
        *(store.compare_and_set(alice, game.game_id, 1, {"tap": i}) for i in range(50))
    )
    winners = [result for result in results if result is not None]
    assert len(winners) == 1
    assert winners[0].version == 2
    assert await store.get(alice, game.game_id) == winners[0]


async def test_two_writers_on_one_game_never_lose_a_write(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"count": 0})

    async def bump() -> None:
        for _ in range(15):
            while True:
                seen = await store.get(alice, game.game_id)
                # Let the other writers run between the read and the write.
                await asyncio.sleep(0)
                state = {"count": seen.state["count"] + 1}
                if await store.compare_and_set(alice, game.game_id, seen.version, state):
                    break

    await asyncio.gather(bump(), bump(), bump())
    stored = await store.get(alice, game.game_id)
    assert (stored.version, stored.state) == (46, {"count": 45})


async def test_nested_state_round_trips_exactly(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", NESTED_STATE)
    assert (await store.get(alice, game.game_id)).state == NESTED_STATE
    changed = {**NESTED_STATE, "scores": [26, 0, 0, 0]}
    await store.compare_and_set(alice, game.game_id, 1, changed)
    assert (await store.get(alice, game.game_id)).state == changed
    assert (await store.current(alice, "hearts")).state == changed


async def test_returned_states_are_independent_copies(store: GameStore, new_session):
    alice = new_session()
    game = await store.create(alice, "hearts", {"hands": [[1, 2]]})
    first = await store.get(alice, game.game_id)
    first.state["hands"][0].append(3)
    assert (await store.get(alice, game.game_id)).state == {"hands": [[1, 2]]}


async def test_profile_starts_empty_then_is_compare_and_set(store: GameStore, new_session):
    alice = new_session()
    assert await store.get_profile(alice) == (0, {})
    assert await store.put_profile(alice, 0, {"language": "vi", "stats": {"won": 0}})
    assert await store.get_profile(alice) == (1, {"language": "vi", "stats": {"won": 0}})
    # A second "create" and a stale version are refused and change nothing.
    assert not await store.put_profile(alice, 0, {"language": "en"})
    assert await store.put_profile(alice, 1, {"language": "en", "stats": {"won": 1}})
    assert not await store.put_profile(alice, 1, {"language": "fr"})
    assert not await store.put_profile(alice, 7, {"language": "fr"})
    assert await store.get_profile(alice) == (2, {"language": "en", "stats": {"won": 1}})


async def test_profile_update_needs_an_existing_profile(store: GameStore, new_session):
    alice = new_session()
    assert not await store.put_profile(alice, 1, {"language": "en"})
    assert await store.get_profile(alice) == (0, {})


async def test_profiles_belong_to_their_session(store: GameStore, new_session):
    alice, bob = new_session(), new_session()
    assert await store.put_profile(alice, 0, {"language": "en"})
    assert await store.get_profile(bob) == (0, {})
    assert await store.put_profile(bob, 0, {"language": "vi"})
    assert await store.get_profile(alice) == (1, {"language": "en"})


async def test_concurrent_profile_creations_apply_once(store: GameStore, new_session):
    alice = new_session()
    results = await asyncio.gather(*(store.put_profile(alice, 0, {"writer": i}) for i in range(20)))
    assert results.count(True) == 1
    version, data = await store.get_profile(alice)
    assert version == 1
    assert data == {"writer": results.index(True)}


async def test_a_reopened_store_keeps_everything(open_backend, new_session):
    alice = new_session()
    first = await open_backend()
    game = await first.create(alice, "hearts", NESTED_STATE)
    game = await first.compare_and_set(alice, game.game_id, 1, {"after": "restart"})
    await first.put_profile(alice, 0, {"language": "vi"})
    await first.close()

    second = await open_backend()
    assert await second.get(alice, game.game_id) == game
    assert await second.current(alice, "hearts") == game
    assert await second.get_profile(alice) == (1, {"language": "vi"})
    assert await second.compare_and_set(alice, game.game_id, 2, {"still": "writable"})


async def test_close_twice_is_harmless(open_backend):
    store = await open_backend()
    await store.close()
    await store.close()


async def test_an_allowance_is_taken_up_to_its_limit_then_refused_until_the_window_ends(
    store: GameStore, clock, new_session
):
    bucket = new_session()
    clock.advance(15)  # windows start at multiples of their length: 45 s of this one are left
    assert [await store.take_allowance([(bucket, 3)], 60) for _ in range(3)] == [0, 0, 0]
    assert await store.take_allowance([(bucket, 3)], 60) == 45
    clock.advance(44.5)
    assert await store.take_allowance([(bucket, 3)], 60) == 0.5
    clock.advance(0.5)  # the next window
    assert await store.take_allowance([(bucket, 3)], 60) == 0


async def test_a_refused_allowance_takes_nothing_from_any_bucket(store: GameStore, new_session):
    session, address = new_session(), new_session()
    both = [(address, 5), (session, 2)]
    assert [await store.take_allowance(both, 10) for _ in range(3)] == [0, 0, 10]
    # The address gave 2 of its 5: the refusal took none.
    assert [await store.take_allowance([(address, 5)], 10) for _ in range(4)] == [0, 0, 0, 10]


async def test_buckets_and_windows_are_counted_apart(store: GameStore, new_session):
    alice, bob = new_session(), new_session()
    assert await store.take_allowance([(alice, 1)], 10) == 0
    assert await store.take_allowance([(alice, 1)], 10) > 0
    assert await store.take_allowance([(bob, 1)], 10) == 0


async def test_concurrent_takes_never_pass_the_limit(store: GameStore, new_session):
    bucket = new_session()
    waits = await asyncio.gather(*(store.take_allowance([(bucket, 10)], 60) for _ in range(50)))
    assert waits.count(0) == 10


async def test_two_stores_on_one_backend_share_allowances(open_backend, new_session):
    """As several workers, or several instances on one Redis, do."""
    bucket = new_session()
    first, second = await open_backend(), await open_backend()
    assert await first.take_allowance([(bucket, 3)], 60) == 0
    assert await second.take_allowance([(bucket, 3)], 60) == 0
    assert await first.take_allowance([(bucket, 3)], 60) == 0
    assert await second.take_allowance([(bucket, 3)], 60) > 0
    assert await first.take_allowance([(bucket, 3)], 60) > 0
