"""The last trick right after an undo (solo): the button stays as the table is, and the
dialog's trick is the last one finished in the hand as it now stands."""

from __future__ import annotations

import re

HTMX = {"hx-request": "true"}
CARD = re.compile(r'data-card="(\w+)"')


async def test_the_last_trick_opens_right_after_an_undo(client):
    state = (await client.post("/api/hearts/games", json={"deal": "HT1-E-ABCDEFG"})).json()
    game = state["game_id"]
    url = f"/hearts/games/{game}"
    await client.post(f"{url}/pass", headers=HTMX, data={
        "cards": " ".join(state["hand"][:3]), "version": state["version"]})
    for _ in range(4):  # enough plays that an undo leaves finished tricks behind
        state = (await client.get(f"/api/hearts/games/{game}")).json()
        await client.post(f"{url}/play", headers=HTMX, data={
            "card": state["legal"][0], "version": state["version"]})
    state = (await client.get(f"/api/hearts/games/{game}")).json()
    undone = await client.post(f"{url}/undo", headers=HTMX, data={"version": state["version"]})
    assert undone.status_code == 200
    after = (await client.get(f"/api/hearts/games/{game}")).json()
    assert after["tricks"] and after["phase"] == "playing"
    # The page as it now is offers the last trick, enabled.
    page = (await client.get("/hearts")).text
    button = re.search(r'<button id="ht-last"[^>]*>', page).group(0)
    assert "disabled" not in button and f'hx-get="{url}/last-trick"' in button
    shown = (await client.get(f"{url}/last-trick")).text
    assert set(CARD.findall(shown)) == {p["card"] for p in after["tricks"][-1]["cards"]}
