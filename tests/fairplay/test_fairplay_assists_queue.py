"""Issue 28, F7: the assists that search (a Hearts hint and hand review, a Heart to Heart hint
and "where was it lost") wait their turn in the bots' bounded queue, so a full queue answers
them 503 with Retry-After and changes nothing; and a hand's review is searched once and kept."""

from __future__ import annotations

import re

from app.web.hearts.thinking import THINKING
from tests.fairplay.hearts_play import API, bots_busy

H2H_API = "/api/heart-to-heart/games"
SAME_SITE = {"origin": "http://testserver"}


async def hand_over(client) -> str:
    """A Hearts match whose first hand is over; its id."""
    state = (await client.post(API, json={"deal": "HT1-N-AAAAAHB"})).json()
    url = f"{API}/{state['game_id']}"
    state = (await client.post(f"{url}/pass", json={"cards": state["hand"][:3]})).json()
    while state["phase"] == "playing":
        state = (await client.post(f"{url}/play", json={"card": state["legal"][0]})).json()
    assert state["phase"] == "hand_over"
    return state["game_id"]


def busy(answer) -> bool:
    return answer.status_code == 503 and int(answer.headers["retry-after"]) >= 1


async def test_a_full_queue_refuses_the_assists_that_search(client):
    game_id = await hand_over(client)
    hearts = (await client.post(API, json={"deal": "HT1-N-AAAAAHB"})).json()
    h2h = (await client.post(H2H_API, json={"deal": "HH1-W-AAAAAAM"})).json()
    async with bots_busy():
        assert busy(await client.get(f"/hearts/games/{game_id}/review"))
        assert busy(await client.get(f"{API}/{hearts['game_id']}/hint"))
        assert busy(await client.post(f"/hearts/games/{hearts['game_id']}/hint",
                                      data={"version": str(hearts["version"])},
                                      headers=SAME_SITE))
        assert busy(await client.get(f"{H2H_API}/{h2h['game_id']}/hint"))
        assert busy(await client.get(f"{H2H_API}/{h2h['game_id']}/review"))
    # Nothing was marked assisted.
    assert (await client.get(f"{API}/{hearts['game_id']}")).json()["version"] == hearts["version"]
    assert (await client.get(f"{H2H_API}/{h2h['game_id']}")).json()["version"] == h2h["version"]
    # The queue has room again: they answer.
    assert (await client.get(f"{API}/{hearts['game_id']}/hint")).status_code == 200
    assert (await client.get(f"{H2H_API}/{h2h['game_id']}/hint")).status_code == 200


async def test_a_hands_review_is_searched_once(client):
    game_id = await hand_over(client)
    url = f"/hearts/games/{game_id}/review"
    admitted = THINKING.turns
    first = (await client.get(url)).text
    assert THINKING.turns == admitted + 1  # through the bots' queue
    assert len(re.findall(r"<th scope=\"row\">", first)) == 14
    again = (await client.get(url)).text
    assert again == first and THINKING.turns == admitted + 1  # kept, not searched again
