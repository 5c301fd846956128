"""The Expert level (issue 32) is offered wherever a level is chosen, in both languages, and
plays: a deal code with the letter X, and a table with ``"bot_level": "expert"``."""

from __future__ import annotations

import re

VI = {"accept-language": "vi"}
SAME_SITE = {"origin": "http://testserver"}


async def test_the_new_match_picker_offers_expert_in_both_languages(new_client):
    english = await new_client().get("/hearts", headers={"accept-language": "en"})
    assert re.search(r'name="level" value="X"[^>]*> <b>Expert</b>', english.text)
    vietnamese = await new_client().get("/hearts", headers=VI)
    assert re.search(r'name="level" value="X"[^>]*> <b>Chuyên gia</b>', vietnamese.text)
    settings = await new_client().get("/settings", headers=VI)
    assert re.search(r'value="expert"[^>]*>[^<]*(<[^>]+>)*\s*Chuyên gia', settings.text)


async def test_a_deal_code_with_x_plays_against_expert(client):
    started = await client.post("/hearts/deal/HT1-X-AAAAAAA")
    assert started.status_code == 303
    page = await client.get("/hearts")
    assert "HT1-X-AAAAAAA" in page.text and "Bots: Expert" in page.text


async def test_a_table_takes_expert_bots(client):
    created = await client.post("/api/hearts/tables", json={"bot_level": "expert"})
    assert created.status_code in (200, 201) and created.json()["bot_level"] == "expert"
    lobby = await client.get(f"/hearts/t/{created.json()['table_id']}")
    assert re.search(r'name="level" value="expert" checked', lobby.text)
