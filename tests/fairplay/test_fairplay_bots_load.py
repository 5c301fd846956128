"""Issue 18, finding 3: Hard bots cannot starve the room. A stale request costs no search; a
session has one turn at a time; the bots think in pools of their own (Hard in processes), so
/healthz and static files do not wait for them; a full queue answers 503 with Retry-After and
changes nothing. (How fast /healthz stays under load is a benchmark: bench/starve.py.)
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import card_text, parse_card
from app.rules.hearts import HUMAN, HeartsMatch
from app.web.hearts.thinking import THINKING
from tests.fairplay.hearts_play import API, bots_busy

HARD = "HT1-H-AAAAAAC"


async def playing(client, deal: str = HARD) -> dict:
    """A new match of ``deal``, passed: the player's turn to play."""
    state = (await client.post(API, json={"deal": deal})).json()
    answer = await client.post(f"{API}/{state['game_id']}/pass",
                               json={"cards": state["hand"][:3], "version": state["version"]})
    assert answer.status_code == 200
    return answer.json()


async def test_parallel_copies_of_one_play_cost_one_search(client):
    state = await playing(client)
    url = f"{API}/{state['game_id']}/play"
    body = {"card": state["legal"][0], "version": state["version"]}
    turns = THINKING.turns
    answers = await asyncio.gather(*(client.post(url, json=body) for _ in range(20)))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 19
    assert THINKING.turns == turns + 1
    stale = await client.post(url, json=body)  # later still: refused before any search
    assert stale.status_code == 409 and THINKING.turns == turns + 1


async def test_a_full_queue_is_busy_and_changes_nothing(client):
    state = await playing(client, "HT1-E-AAAAAAC")
    body = {"card": state["legal"][0], "version": state["version"]}
    url = f"/hearts/games/{state['game_id']}/play"
    async with bots_busy():
        answer = await client.post(f"/api{url}", json=body)
        assert answer.status_code == 503
        assert answer.headers["retry-after"] == "1"
        assert answer.json()["error"]["code"] == "busy"
        page = await client.post(url, data={"card": body["card"],
                                             "version": str(body["version"])})
        assert page.status_code == 503 and "many players at once" in page.text
        tapped = await client.post(url, headers={"hx-request": "true"},
                                   data={"card": body["card"], "version": str(body["version"])})
        assert tapped.status_code == 503 and tapped.headers["retry-after"] == "1"
        assert 'id="status"' in tapped.text and "the page tries again" in tapped.text
        assert (await client.get(f"{API}/{state['game_id']}")).json() == state
    assert (await client.post(f"/api{url}", json=body)).status_code == 200


async def test_health_and_static_files_do_not_wait_for_the_bots(client):
    async with bots_busy():
        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get("/static/css/app.css")).status_code == 200
        assert (await client.get("/hearts/rules")).status_code == 200


async def test_hard_bots_decide_in_processes_as_they_would_here(client):
    """Bots are deterministic given the deal and the position, wherever they think."""
    state = await playing(client)
    answer = await client.post(f"{API}/{state['game_id']}/play",
                               json={"card": state["legal"][0], "version": state["version"]})
    here = HeartsMatch.new(HARD)
    play_bots(here)
    here.choose_pass(HUMAN, sum(1 << parse_card(c) for c in state["passed"]))
    pass_for_bots(here)
    play_bots(here)
    here.play(parse_card(state["legal"][0]), seat=HUMAN)
    play_bots(here)
    view = here.view(HUMAN)
    after = answer.json()

    def shown(plays) -> list[tuple[int, str]]:
        return [(p.seat, card_text(p.card)) for p in plays]

    assert [(p["seat"], p["card"]) for p in after["trick"]] == shown(view.trick)
    assert [[(p["seat"], p["card"]) for p in t["cards"]] for t in after["tricks"]] == [
        shown(t.cards) for t in view.tricks]


def search_processes() -> list[int]:
    """This process's children that run multiprocessing's spawned workers (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        if parent == os.getpid() and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


async def test_a_search_process_killed_is_replaced(client):
    state = await playing(client)
    answer = await client.post(f"{API}/{state['game_id']}/play",
                               json={"card": state["legal"][0], "version": state["version"]})
    assert answer.status_code == 200
    killed = search_processes()
    assert killed, "Hard searched in a process of its own"
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    state = answer.json()
    while state["phase"] == "playing":  # every turn answers, the bots' plays as before
        answer = await client.post(f"{API}/{state['game_id']}/play",
                                   json={"card": state["legal"][0], "version": state["version"]})
        assert answer.status_code == 200
        state = answer.json()
    assert set(search_processes()).isdisjoint(killed)
