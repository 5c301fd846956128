"""Issue 34 at a table with friends: besides every card, a seat's page is told the cards it
received, the hand's result and the match's, in its player's language, once: each answer and
each catch-up tells only what happened since the version the page holds."""

from __future__ import annotations

import html
import re

import pytest
from test_tables_pages import SAME_SITE, open_table

from app.rules.cards import mask_of, parse_card
from app.web.hearts.table import sorted_hand
from app.web.i18n import cards_in_words, translator

HTMX = {**SAME_SITE, "hx-request": "true"}
OPENING = re.compile(r'<template id="ht-trick"[^>]*?data-say="([^"]*)"')
STATUS = re.compile(r'<p id="status"[^>]*>(.*?)</p>', re.S)


def told(answer: str) -> list[str]:
    """The words an answer has the page say besides the cards: the opening, the status line."""
    return [html.unescape(m) for m in OPENING.findall(answer) + STATUS.findall(answer)]


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_the_pass_received_and_the_hand_over_are_told_once(new_client, lang):
    tr = translator(lang)
    player = new_client(headers={"accept-language": lang})
    url = await open_table(player)
    await player.post(f"{url}/start", data={"seconds": "none"}, headers=SAME_SITE)
    api = f"/api/hearts/tables/{url.rsplit('/', 1)[1]}"
    state = (await player.get(api)).json()

    passed = await player.post(
        f"{url}/pass", data={"cards": " ".join(state["hand"][:3]), "version": state["version"]},
        headers=HTMX,
    )
    state = (await player.get(api)).json()
    received = cards_in_words(sorted_hand(mask_of(map(parse_card, state["received"]))), tr)
    everything = told(passed.text)
    assert everything == [tr.gettext("You received %(cards)s.") % {"cards": received}]

    while state["phase"] == "playing":
        answer = await player.post(
            f"{url}/play", data={"card": state["legal"][0], "version": state["version"]},
            headers=HTMX,
        )
        assert answer.status_code == 200
        everything += told(answer.text)
        state = (await player.get(api)).json()
    assert state["phase"] == "hand_over"
    scores = state["hand_scores"][-1]
    names = [tr.gettext("Bot (%(seat)s)") % {"seat": tr.gettext(s)}
             for s in ("South", "West", "North", "East")]
    names[0] = tr.gettext("You")  # to themselves, as in the solo game
    hand_over = (tr.gettext("Hand over.") + " "
                 + ", ".join(f"{names[s]} {scores[s]:+d}" for s in range(4)) + ".")
    # Told once each: the cards received, then (after the last card) the hand's result.
    assert len(everything) == 2 and everything[1].startswith(hand_over), everything

    # The next hand, asked for: its number and passing, then nothing of the hand before.
    answer = await player.post(f"{url}/next-hand", data={"version": state["version"]},
                               headers=HTMX)
    words = told(answer.text)
    assert len(words) == 1 and words[0].startswith(tr.gettext("Hand %(n)s") % {"n": 2}), words


async def test_a_whole_match_tells_each_hand_and_the_match_once(new_client):
    """A match to 50 (the tournament preset) at a table: each hand's number and passing, the
    cards received when there was a pass, the hand's result, and at the end the match's."""
    tr = translator("en")
    player = new_client(headers={"accept-language": "en"})
    url = await open_table(player)
    await player.post(f"{url}/start", data={"seconds": "none", "rules": "tournament"},
                      headers=SAME_SITE)
    api = f"/api/hearts/tables/{url.rsplit('/', 1)[1]}"
    everything: list[str] = []
    state = (await player.get(api)).json()
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            move = ("pass", {"cards": " ".join(state["hand"][:3])})
        elif state["phase"] == "playing":
            move = ("play", {"card": state["legal"][0]})
        else:
            assert state["phase"] == "hand_over"
            move = ("next-hand", {})
        answer = await player.post(f"{url}/{move[0]}", data={**move[1],
                                   "version": state["version"]}, headers=HTMX)
        assert answer.status_code == 200
        everything += told(answer.text)
        state = (await player.get(api)).json()
    hands = state["hand_number"]
    assert hands >= 2
    hand_over = [line for line in everything if line.startswith(tr.gettext("Hand over."))]
    assert len(hand_over) == hands
    new_hands = [line for line in everything if line.startswith("Hand ")
                 and not line.startswith("Hand over")]
    assert [line.split(".")[0] for line in new_hands] == [f"Hand {n}" for n in range(2, hands + 1)]
    passes = sum(1 for n in range(1, hands + 1) if n % 4 != 0)  # left, right, across, none
    assert sum(line.count("You received") for line in everything) == passes
    # The match's result comes with its last hand's, the player's own first.
    last = hand_over[-1]
    assert any(result in last for result in (
        tr.gettext("You win the match!"), tr.gettext("You share first place."), "Your place:"))
