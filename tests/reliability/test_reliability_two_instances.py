"""Two uvicorn processes on one Redis, one player served by both in turn.

The player's requests alternate between the two instances (as a load balancer without sticky
sessions would send them), with one cookie jar: a whole Heart to Heart game won by the solver's
line, then a Hearts hand from the pass to its last card. Not one request may go wrong: no stale
answer, no lost session, no error status.
"""

from __future__ import annotations

import itertools

import httpx
from cardroom_pages import (
    H2H_STALE,
    HEARTS_STALE,
    HX,
    SECRET_KEY,
    HeartsHand,
    h2h_board,
    h2h_version,
)

from app.rules.heart_to_heart import HeartToHeartGame, new_game, target_text
from app.rules.heart_to_heart_solver import solve
from app.store import open_store
from app.web.session import COOKIE_NAME, SessionMiddleware

DEAL = "HH1-W-AAAAAAB"
MATCH = "HT1-N-AAAAAAC"


def session_of(client: httpx.Client) -> str:
    return SessionMiddleware(None, SECRET_KEY, False).session_from(client.cookies[COOKIE_NAME])


async def test_two_instances_serve_one_player_alternately(start_server, redis_db) -> None:
    servers = [start_server(redis_db), start_server(redis_db)]
    turn = itertools.cycle(servers)
    with httpx.Client(headers={"accept-language": "en"}, timeout=30) as client:
        # Heart to Heart: the deal URL on one instance, the page and every tap alternating.
        opened = client.get(next(turn).url(f"/heart-to-heart/deal/{DEAL}"))
        assert opened.status_code == 303
        game_id, version = h2h_board(client.get(next(turn).url("/heart-to-heart")).text)
        taps = solve(new_game(DEAL))
        for target in taps:
            answer = client.post(
                next(turn).url(f"/heart-to-heart/games/{game_id}/tap"),
                data={"target": target_text(target), "version": str(version)}, headers=HX,
            )
            assert answer.status_code == 200, answer.text[:300]
            assert H2H_STALE not in answer.text
            assert h2h_version(answer.text) == version + 1
            version += 1
        won = client.get(next(turn).url("/heart-to-heart")).text
        assert "You won" in won and h2h_board(won) == (game_id, version)

        # Hearts: the pass and a whole hand of plays, alternating.
        assert client.get(next(turn).url(f"/hearts/deal/{MATCH}")).status_code == 303
        hand = HeartsHand.from_page(client.get(next(turn).url("/hearts")).text)
        assert hand.phase == "passing"
        plays = claimed = 0
        while hand.phase != "hand_over":
            if hand.phase == "passing":
                url, data = "pass", {"cards": ",".join(list(hand.cards)[:3])}
            else:
                url, data = "play", {"card": hand.playable[0]}
                plays += 1
            answer = client.post(
                next(turn).url(f"/hearts/games/{hand.game_id}/{url}"),
                data={**data, "version": str(hand.version)}, headers=HX,
            )
            assert answer.status_code == 200, answer.text[:300]
            assert HEARTS_STALE not in answer.text
            if "The rest of the tricks are yours." in answer.text:  # a claim (on by default)
                claimed = len(hand.cards) - 1
            hand.apply(answer.text)
        assert plays + claimed == 13 and not hand.cards
        session = session_of(client)

    # Both instances wrote to the one store: it holds the won game and the played hand.
    store = open_store(redis_db, 30)
    try:
        game = await store.get(session, game_id)
        assert game.version == version == 1 + len(taps)
        assert HeartToHeartGame.from_json(game.state).is_won
        match = await store.get(session, hand.game_id)
        assert match.version == hand.version == 1 + 1 + plays
    finally:
        await store.close()
