"""SIGKILL in the middle of a run, on SQLite: every move answered with success is still there.

Several players (each its own browser) play at once against one uvicorn, Heart to Heart taps
and Hearts actions, recording every success the server answered. Once enough moves were
answered the server is killed with SIGKILL while requests are in flight, then started again on
the same file; each player's game must hold at least every move it was told succeeded, and at
most the one request that was in flight when the server died.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass

import httpx
from cardroom_pages import H2H_STALE, HX, HeartsHand, h2h_board, h2h_version

H2H_PLAYERS = 6
HEARTS_PLAYERS = 3
KILL_AFTER = 150  # successful moves answered before the kill
MOVES = re.compile(r'data-info="moves"[^>]*>(\d+)<')


@dataclass
class Acked:
    version: int
    moves: int = 0


class Run:
    def __init__(self) -> None:
        self.answered = 0
        self.enough = asyncio.Event()

    def success(self) -> None:
        self.answered += 1
        if self.answered >= KILL_AFTER:
            self.enough.set()


async def heart_to_heart_player(client: httpx.AsyncClient, base: str, run: Run, acked: Acked):
    game_id, version = h2h_board((await client.get(f"{base}/heart-to-heart")).text)
    acked.version = version
    while True:
        try:
            answer = await client.post(f"{base}/heart-to-heart/games/{game_id}/tap",
                                       data={"target": "stock", "version": str(version)},
                                       headers=HX)
        except httpx.TransportError:
            return  # the server is gone
        assert answer.status_code == 200 and H2H_STALE not in answer.text
        version = h2h_version(answer.text)
        acked.version, acked.moves = version, int(MOVES.search(answer.text).group(1))
        run.success()


async def hearts_player(client: httpx.AsyncClient, base: str, run: Run, acked: Acked):
    hand = HeartsHand.from_page((await client.get(f"{base}/hearts")).text)
    acked.version = hand.version
    while hand.phase != "match_over":
        if hand.phase == "passing":
            action, data = "pass", {"cards": ",".join(list(hand.cards)[:3])}
        elif hand.phase == "playing":
            action, data = "play", {"card": hand.playable[0]}
        else:
            action, data = "next-hand", {}
        try:
            answer = await client.post(f"{base}/hearts/games/{hand.game_id}/{action}",
                                       data={**data, "version": str(hand.version)}, headers=HX)
        except httpx.TransportError:
            return
        assert answer.status_code == 200, answer.text[:300]
        hand.apply(answer.text)
        acked.version = hand.version
        run.success()


async def test_sigkill_loses_no_answered_move(start_server, sqlite_url) -> None:
    server = start_server(sqlite_url)
    clients = [httpx.AsyncClient(headers={"accept-language": "en"}, timeout=30)
               for _ in range(H2H_PLAYERS + HEARTS_PLAYERS)]
    h2h, hearts = clients[:H2H_PLAYERS], clients[H2H_PLAYERS:]
    acked = [Acked(0) for _ in clients]
    h2h_acked, hearts_acked = acked[:H2H_PLAYERS], acked[H2H_PLAYERS:]
    run = Run()
    try:
        players = [
            *(heart_to_heart_player(c, server.base_url, run, a)
              for c, a in zip(h2h, h2h_acked, strict=True)),
            *(hearts_player(c, server.base_url, run, a)
              for c, a in zip(hearts, hearts_acked, strict=True)),
        ]
        tasks = [asyncio.create_task(player) for player in players]
        await run.enough.wait()
        server.kill()
        await asyncio.gather(*tasks)
        assert run.answered >= KILL_AFTER

        server.start()  # the same SQLite file
        for client, seen in zip(h2h, h2h_acked, strict=True):
            page = (await client.get(f"{server.base_url}/heart-to-heart")).text
            version = h2h_board(page)[1]
            # Nothing answered is lost; at most the one request in flight was also saved.
            assert seen.version <= version <= seen.version + 1
            moves = int(MOVES.search(page).group(1))
            assert moves == seen.moves + (version - seen.version)
        for client, seen in zip(hearts, hearts_acked, strict=True):
            hand = HeartsHand.from_page((await client.get(f"{server.base_url}/hearts")).text)
            assert seen.version <= hand.version <= seen.version + 1
        # The file itself came through whole.
        with closing(sqlite3.connect(sqlite_url.removeprefix("sqlite:///"))) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        for client in clients:
            await client.aclose()
