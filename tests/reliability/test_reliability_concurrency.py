"""Races against real servers: one uvicorn on SQLite, and two uvicorn instances on one Redis
(the requests of a race spread over both).

- Fifty simultaneous copies of one tap, or of one Hearts play, all holding the same version,
  apply exactly once; the forty-nine others get the current board.
- Two tabs of one browser tapping at the same time never fork the game: the applied taps form
  one chain of versions, and replaying them in that order gives exactly the stored game.
- A stale page (htmx or a plain form) gets the current board, never an error page.
"""

from __future__ import annotations

import asyncio
import random
import re

import httpx
import pytest
from cardroom_pages import (
    H2H_STALE,
    HEARTS_STALE,
    HEARTS_VERSION,
    HX,
    SECRET_KEY,
    HeartsHand,
    h2h_board,
    h2h_version,
)

from app.rules.heart_to_heart import HeartToHeartGame, new_game, parse_target
from app.store import open_store
from app.web.session import COOKIE_NAME, SessionMiddleware

COPIES = 50
BACKENDS = ["sqlite", "redis"]


def browser(servers) -> tuple[httpx.AsyncClient, list[str]]:
    """One browser (one cookie jar) and the base URLs its requests are spread over."""
    limits = httpx.Limits(max_connections=COPIES + 10)
    client = httpx.AsyncClient(headers={"accept-language": "en"}, timeout=60, limits=limits)
    return client, [server.base_url for server in servers]


async def open_deal(client: httpx.AsyncClient, base: str, path: str, code: str) -> str:
    assert (await client.get(f"{base}{path}/deal/{code}")).status_code == 303
    return (await client.get(f"{base}{path}")).text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_fifty_copies_of_a_tap_apply_once(deployments, backend) -> None:
    client, bases = browser(deployments[backend])
    async with client:
        game_id, version = h2h_board(await open_deal(client, bases[0], "/heart-to-heart",
                                                     "HH1-N-AAAAAAM"))
        answers = await asyncio.gather(*(
            client.post(f"{bases[i % len(bases)]}/heart-to-heart/games/{game_id}/tap",
                        data={"target": "stock", "version": str(version)}, headers=HX)
            for i in range(COPIES)
        ))
        assert sorted(a.status_code for a in answers) == [200] + [409] * (COPIES - 1)
        applied = [a for a in answers if a.status_code == 200]
        assert H2H_STALE not in applied[0].text and h2h_version(applied[0].text) == version + 1
        for stale in answers:
            # The current board, whole, in out-of-band pieces (not an error page).
            if stale is not applied[0]:
                assert H2H_STALE in stale.text
                assert "<html" not in stale.text and 'id="h2h-heart"' in stale.text
                assert h2h_version(stale.text) == version + 1
        board = (await client.get(f"{bases[-1]}/heart-to-heart")).text
        assert h2h_board(board) == (game_id, version + 1)
        assert re.search(r'data-info="moves"[^>]*>(\d+)<', board).group(1) == "1"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_fifty_copies_of_a_hearts_play_apply_once(deployments, backend) -> None:
    client, bases = browser(deployments[backend])
    async with client:
        hand = HeartsHand.from_page(await open_deal(client, bases[0], "/hearts", "HT1-N-AAAAAAD"))
        passed = await client.post(
            f"{bases[0]}/hearts/games/{hand.game_id}/pass",
            data={"cards": ",".join(list(hand.cards)[:3]), "version": str(hand.version)},
            headers=HX,
        )
        hand.apply(passed.text)
        card, version = hand.playable[0], hand.version
        answers = await asyncio.gather(*(
            client.post(f"{bases[i % len(bases)]}/hearts/games/{hand.game_id}/play",
                        data={"card": card, "version": str(version)}, headers=HX)
            for i in range(COPIES)
        ))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200] + [409] * (COPIES - 1)
        for answer in answers:
            assert int(HEARTS_VERSION.search(answer.text).group(1)) == version + 1
            if answer.status_code == 409:
                assert "<html" not in answer.text and 'id="ht-hand"' in answer.text
                assert HEARTS_STALE in answer.text
        after = HeartsHand.from_page((await client.get(f"{bases[-1]}/hearts")).text)
        assert after.version == version + 1
        assert card not in after.cards and len(after.cards) == 12
        # Without htmx, a stale form post leads back to the table as it is now.
        plain = await client.post(f"{bases[0]}/hearts/games/{hand.game_id}/play",
                                  data={"card": card, "version": str(version)})
        assert plain.status_code == 303 and plain.headers["location"] == "/hearts"


async def tab(client: httpx.AsyncClient, base: str, game_id: str, version: int, seed: int,
              taps: int) -> list[tuple[int, str]]:
    """A tab tapping at random; returns (version made, target) for every tap that applied."""
    rng = random.Random(seed)
    applied = []
    for _ in range(taps):
        target = rng.choice(["stock", "stock", "waste", *(f"heart:{p}" for p in range(13, 25))])
        answer = await client.post(f"{base}/heart-to-heart/games/{game_id}/tap",
                                   data={"target": target, "version": str(version)}, headers=HX)
        assert answer.status_code in (200, 409) and "<html" not in answer.text
        # 409: the other tab moved first; the answer is the board as it is now.
        assert (answer.status_code == 409) == (H2H_STALE in answer.text)
        made = h2h_version(answer.text)
        if answer.status_code == 200 and made is not None:
            assert made == version + 1
            applied.append((made, target))
        version = made or version
    return applied


@pytest.mark.parametrize("backend", BACKENDS)
async def test_two_tabs_never_fork_a_game(deployments, backend) -> None:
    client, bases = browser(deployments[backend])
    async with client:
        game_id, version = h2h_board(await open_deal(client, bases[0], "/heart-to-heart",
                                                     "HH1-N-AAAAAAN"))
        chains = await asyncio.gather(*(
            tab(client, bases[i % len(bases)], game_id, version, seed=i, taps=40)
            for i in range(2)
        ))
        applied = sorted(chains[0] + chains[1])
        # One chain: every version from version+1 up was made by exactly one applied tap.
        assert [made for made, _ in applied] == list(range(version + 1, version + 1 + len(applied)))
        assert chains[0] and chains[1], "both tabs should have landed taps"
        final = version + len(applied)

        # A stale plain-form post leads back to the game's page as it is now.
        page = await client.post(f"{bases[-1]}/heart-to-heart/games/{game_id}/tap",
                                 data={"target": "stock", "version": str(version)},
                                 follow_redirects=True)
        assert page.status_code == 200 and h2h_board(page.text) == (game_id, final)
        session = SessionMiddleware(None, SECRET_KEY, False).session_from(
            client.cookies[COOKIE_NAME])

    store = open_store(deployments[backend][0].store_url, 30)
    try:
        stored = await store.get(session, game_id)
    finally:
        await store.close()
    assert stored.version == final
    replayed = new_game("HH1-N-AAAAAAN")
    for _, target in applied:
        assert replayed.tap(parse_target(target)).changed
    saved = HeartToHeartGame.from_json(stored.state)
    replayed.add_play_time(saved.play_time)  # the server's clock ran between the taps
    assert saved == replayed

