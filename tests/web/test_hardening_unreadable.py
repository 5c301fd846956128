"""Issue 18, finding 4 (the profile's half): a damaged profile never makes a page answer 500.

The damage is written into the real SQLite file behind the app; the store tests check each kind
on both stores (tests/store/test_store_unreadable.py).
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.web.profile import load_profile
from app.web.session import COOKIE_NAME

DAMAGE = ["{", "[]", json.dumps({"v": 2, "lang": "en"}),
          json.dumps({"stats": {"heart_to_heart": {"played": "many"}}}),
          json.dumps({"h2h_options": {"move_errors": "yes"}, "lang": ["en"]})]


@pytest.mark.parametrize("text", DAMAGE)
async def test_pages_and_answers_work_with_a_damaged_profile(app, client, settings, text):
    await client.post("/lang", data={"lang": "en"})
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    with sqlite3.connect(settings.store_url.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE profiles SET data = ? WHERE session_id = ?", (text, session_id))

    for path in ("/", "/heart-to-heart", "/hearts", "/heart-to-heart/rules", "/no-such-page"):
        response = await client.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
    game = (await client.post("/api/heart-to-heart/games", json={})).json()
    assert (await client.get(f"/api/heart-to-heart/games/{game['game_id']}")).status_code == 200
    response = await client.post("/heart-to-heart/options", data={"placement_help": "true"})
    assert response.status_code == 303
    assert (await load_profile(app.state.store, session_id)).data == {
        "v": 1, "h2h_options": {"move_errors": False, "placement_help": True}}
