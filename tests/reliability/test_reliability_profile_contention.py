"""Issue 18, finding 6: parallel profile updates of one browser all apply, on both stores.

Fifty option changes at once (over two instances on Redis) all answer 200 and each one is a
version of the profile; statistics recorded at once by two processes all count.
"""

from __future__ import annotations

import asyncio
import multiprocessing

import httpx
import pytest
from cardroom_pages import HX, SECRET_KEY, h2h_board

from app.store import open_store
from app.web.profile import record_heart_to_heart_game, record_hearts_match
from app.web.session import COOKIE_NAME, SessionMiddleware

COPIES = 50
BACKENDS = ["sqlite", "redis"]


async def profile_of(store_url: str, session_id: str) -> tuple[int, dict]:
    store = open_store(store_url, 30)
    try:
        return await store.get_profile(session_id)
    finally:
        await store.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_fifty_option_changes_at_once_all_apply(deployments, backend) -> None:
    servers = deployments[backend]
    bases = [server.base_url for server in servers]
    limits = httpx.Limits(max_connections=COPIES + 10)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        game_id, _ = h2h_board((await client.get(f"{bases[0]}/heart-to-heart")).text)
        session = SessionMiddleware(None, SECRET_KEY, False).session_from(
            client.cookies[COOKIE_NAME])
        before, _ = await profile_of(servers[0].store_url, session)
        answers = await asyncio.gather(*(
            client.post(f"{bases[i % len(bases)]}/heart-to-heart/options", headers=HX,
                        data={"game": game_id, "move_errors": str(i % 2 == 0).lower(),
                              "placement_help": "true"})
            for i in range(COPIES)
        ))
    assert [answer.status_code for answer in answers] == [200] * COPIES
    version, data = await profile_of(servers[0].store_url, session)
    assert version == before + COPIES  # every change was written, none lost to another
    assert data["h2h_options"]["placement_help"] is True


def record_many(store_url: str, session_id: str, count: int, barrier) -> None:
    async def run() -> None:
        store = open_store(store_url, 30)
        try:
            barrier.wait()
            await asyncio.gather(*(
                record_heart_to_heart_game(store, session_id, won=True, seconds=60 + i, moves=90)
                if i % 2 else
                record_hearts_match(store, session_id, won=False, hand_points=[3, 4], moons=0)
                for i in range(count)
            ))
        finally:
            await store.close()

    asyncio.run(run())


@pytest.mark.parametrize("backend", BACKENDS)
def test_statistics_recorded_at_once_by_two_processes_all_count(deployments, backend) -> None:
    store_url = deployments[backend][0].store_url
    session = f"contention-{backend}"
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    workers = [context.Process(target=record_many, args=(store_url, session, COPIES, barrier))
               for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    version, data = asyncio.run(profile_of(store_url, session))
    assert version == 2 * COPIES
    assert data["stats"]["heart_to_heart"]["played"] == COPIES
    assert data["stats"]["heart_to_heart"]["best_time"] == 61
    assert data["stats"]["hearts"]["played"] == COPIES
    assert data["stats"]["hearts"]["points"] == 7 * COPIES
