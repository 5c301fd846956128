"""Playing a Hearts match through the JSON API, for the fair-play tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import httpx

from app.web.hearts.thinking import THINKING

API = "/api/hearts/games"


async def step(client: httpx.AsyncClient, state: dict) -> dict:
    """One action of a player who passes its first three cards and plays its first legal card;
    the state after it (and the bots' answer)."""
    url = f"{API}/{state['game_id']}"
    version = state["version"]
    if state["phase"] == "passing":
        answer = await client.post(f"{url}/pass",
                                   json={"cards": state["hand"][:3], "version": version})
    elif state["phase"] == "playing":
        answer = await client.post(f"{url}/play",
                                   json={"card": state["legal"][0], "version": version})
    else:
        answer = await client.post(f"{url}/next-hand", json={"version": version})
    assert answer.status_code == 200, answer.text
    return answer.json()


async def play_to_the_end(
    client: httpx.AsyncClient, state: dict, check: Callable[[dict], None]
) -> dict:
    """Play until the match is over, calling ``check`` on every state on the way."""
    while state["phase"] != "match_over":
        state = await step(client, state)
        if state["phase"] != "match_over":
            check(state)
    return state


@asynccontextmanager
async def bots_busy() -> AsyncIterator[None]:
    """Fills the bots' queue, up to its expected wait, with work that waits until the block
    ends."""
    gate = threading.Event()
    tasks = []
    while THINKING.expected_wait() <= THINKING.max_wait:
        tasks.append(asyncio.create_task(THINKING.run(gate.wait)))
        await asyncio.sleep(0)  # the task is admitted when it first runs
    assert THINKING.admitted == len(tasks)
    try:
        yield
    finally:
        gate.set()
        await asyncio.gather(*tasks)
