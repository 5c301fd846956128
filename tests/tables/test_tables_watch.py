"""Watching a table (app/web/hearts/tables/watch.py): the watch link's code, and a match to its
end (two hands: two_hands.py) watched under every house-rule preset and every delay, each view
and page the watcher gets checked against the hands dealt at the version it shows: no card of a
hand or a pass, ever, and never a table newer than the delay allows. The app's clock is the
test's (Clock)."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

import pytest
from two_hands import TwoHandMatch

from app.rules.cards import card_text, cards_in
from app.rules.hearts_rules import PRESETS
from app.web.hearts.tables import service
from app.web.hearts.tables.service import Presence
from app.web.hearts.tables.views import table_view
from app.web.hearts.tables.watch import (
    DELAY_CARDS,
    DELAY_SECONDS,
    WATCH_DELAYS,
    cards_played,
    public_moment,
    table_of,
    watch_code,
    watched,
)

SECRET = "test-secret-key-long-enough-for-the-check"
CARD_ATTR = re.compile(r'data-card="(\w+)"')
STEP_SECONDS = 7.0  # the clock moves this much between two moves: the 30 s delay lags behind
NOBODY = Presence((False,) * 4, (None,) * 4, 12.0)
# The table's own delay for each preset's match; every delay is also checked at every step.
CHOSEN = {"seed": "none", "omnibus": "trick", "no_pass": "30s", "tournament": "trick",
          "new_moon": "30s"}


def test_a_watch_code_names_its_table_and_tells_nothing_of_its_id():
    table_id = "q3PpjM8yY0Ue3n2dlMx4Tw"
    code = watch_code(SECRET, table_id)
    assert code != table_id and len(code) == 22
    assert table_of(SECRET, code) == table_id
    assert table_of("another-secret-key-long-enough-for-it", code) != table_id
    # One spelling per code; anything else names no table.
    for wrong in ("", "short", code + "A", "!" * 22, code[:-1] + "=="):
        assert table_of(SECRET, wrong) is None


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_a_watcher_sees_no_hidden_card_under_every_rule_and_delay(
    preset, app, new_client, clock, monkeypatch
):
    monkeypatch.setattr(service, "HeartsMatch", TwoHandMatch)
    store = app.state.store
    creator, guest = new_client(), new_client()
    watcher = new_client()
    created = (await creator.post(
        "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": None, "name": "An"}
    )).json()
    table_id, code = created["table_id"], created["watch_code"]
    api = f"/api/hearts/tables/{table_id}"
    assert (await guest.post(f"{api}/seats", json={"seat": 2, "name": "Lan"})).status_code == 200

    # Before the start: the watcher sees the seats, no match, and the page never the id.
    before = (await watcher.get(f"/api/hearts/watch/{code}")).json()
    assert before["phase"] == "waiting" and before["my_seat"] is None
    assert before["table_id"] == code
    waiting = (await watcher.get(f"/hearts/w/{code}")).text
    assert table_id not in waiting and 'data-action="sit"' not in waiting
    assert 'id="tb-waiting"' not in waiting  # nobody is asked to sit

    started = await creator.post(f"{api}/start", json={"rules": PRESETS[preset].to_json(),
                                                       "watch_delay": CHOSEN[preset]})
    assert started.status_code == 200, started.text
    assert started.json()["watch_delay"] == CHOSEN[preset]

    # version -> the hand, the cards played in it, and when the change was made
    history: dict[int, tuple[int, frozenset[str], float]] = {}
    seen_versions: set[int] = set()

    async def record() -> None:
        table = await service.load(store, table_id)
        match = table.match
        assert match is not None
        history[table.version] = (match.hand_number, played_cards(match), clock())

    await record()

    def check(view: dict, delay: str, now: float, latest: service.Table) -> None:
        """The watcher's view against the hands dealt at the version it shows."""
        assert view["my_seat"] is None and view["hand"] == [] and view["legal"] == []
        assert view["passed"] is None and view["received"] is None
        assert not view["pass_chosen"]
        if view["phase"] == "waiting":
            return
        shown = view["version"]
        hand, played, when = history[shown]
        assert view["hand_number"] == hand
        on_table = {p["card"] for t in view["tricks"] for p in t["cards"]} | {
            p["card"] for p in view["trick"]}
        assert on_table == played  # every card played then, and none still in a hand
        for seat in view["seats"]:
            assert seat["played_away"] == [] and (seat["autoplayed_card"] in played
                                                  or seat["autoplayed_card"] is None)
        if view["phase"] != "match_over":
            assert view["deal"] is None
        moment = public_moment(latest.match)
        if delay == "30s" and shown != latest.version:
            assert when <= now - DELAY_SECONDS
        if delay == "trick" and view["phase"] != "match_over" and shown != latest.version:
            shown_count = 52 * hand + len(played)
            assert shown_count <= cards_played(moment) - DELAY_CARDS
        if delay == "none":
            assert shown == latest.version

    async def watch_everything() -> None:
        latest = await service.load(store, table_id)
        now = clock()
        # Every delay, from the table as stored (the page's pieces: below, at the table's).
        for delay in WATCH_DELAYS:
            shown = watched(replace(latest, watch_delay=delay), now)
            check(table_view(shown, "", now, NOBODY).model_dump(mode="json"), delay, now, latest)
        # The table's own delay, through the watch link: the API, the page, the last trick.
        view = (await watcher.get(f"/api/hearts/watch/{code}")).json()
        check(view, latest.watch_delay, now, latest)
        seen_versions.add(view["version"])
        page = (await watcher.get(f"/hearts/w/{code}")).text
        shown_played = history[view["version"]][1] if view["phase"] != "waiting" else set()
        assert set(CARD_ATTR.findall(page)) <= shown_played
        over = view["phase"] == "match_over"
        assert (table_id in page) == over  # only the replay's link, once it is over
        last = (await watcher.get(f"/hearts/w/{code}/last-trick")).text
        assert set(CARD_ATTR.findall(last)) <= shown_played
        # A watcher who has the invite link but no seat sees the same, at the same delay.
        stranger = (await watcher.get(api)).json()
        assert stranger["version"] == view["version"] and stranger["my_seat"] is None

    players = {0: creator, 2: guest}
    for _ in range(2000):
        # The players' pages keep their streams open: nobody is away.
        await store.table_streams_seen([(table_id, s, f"page{s}") for s in players])
        await watch_everything()
        view = (await creator.get(api)).json()
        if view["phase"] == "match_over":
            break
        if view["phase"] == "moon":  # a player shot it: the bots' seats choose at once
            moved = await players[view["moon"]].post(f"{api}/moon",
                                                     json={"choice": "add_to_others"})
        elif view["phase"] == "hand_over":
            moved = await creator.post(f"{api}/next-hand")
        elif view["phase"] == "passing":
            moved = None
            for player in players.values():
                mine = (await player.get(api)).json()
                if not mine["pass_chosen"]:
                    moved = await player.post(f"{api}/pass", json={"cards": mine["hand"][:3]})
                    break
        else:
            player = players[view["turn"]]
            moved = await player.post(f"{api}/play",
                                      json={"card": (await player.get(api)).json()["legal"][0]})
        assert moved is not None and moved.status_code == 200, moved
        await record()
        clock.advance(STEP_SECONDS)
    else:
        pytest.fail("the match did not end")
    # The delay lets the watcher catch up: once it has passed, the table as it is.
    clock.advance(DELAY_SECONDS + 1)
    await watch_everything()
    final = (await watcher.get(f"/api/hearts/watch/{code}")).json()
    assert final["version"] == (await creator.get(api)).json()["version"]
    if CHOSEN[preset] != "none":
        assert len(seen_versions) > 1 and min(seen_versions) < final["version"]


def played_cards(match) -> frozenset[str]:
    view = match.view(0)
    played = [p.card for t in view.tricks for p in t.cards] + [p.card for p in view.trick]
    return frozenset(card_text(c) for c in played)


async def watched_match(new_client, preset: str):
    """A table of An (seat 0), Lan (seat 2) and two bots, started under ``preset``, and a
    watcher who reads English: the creator's, the guest's and the watcher's clients, and the
    table as created."""
    creator, guest = new_client(), new_client()
    watcher = new_client(headers={"accept-language": "en"})
    created = (await creator.post(
        "/api/hearts/tables", json={"bot_level": "easy", "turn_seconds": None, "name": "An"}
    )).json()
    api = f"/api/hearts/tables/{created['table_id']}"
    assert (await guest.post(f"{api}/seats", json={"seat": 2, "name": "Lan"})).status_code == 200
    rules = PRESETS[preset].to_json()
    started = await creator.post(f"{api}/start", json={"rules": rules, "watch_delay": "none"})
    assert started.status_code == 200, started.text
    return creator, guest, watcher, created


async def test_a_watcher_asks_about_the_table_and_is_no_seat(app, new_client):
    """The Ask button and keys reach a watcher too, with the questions about the table only:
    no hand, nothing to play, and a turn is a seat's by name (the bottom seat's is no "you")."""
    creator, guest, watcher, created = await watched_match(new_client, "no_pass")
    api, code = f"/api/hearts/tables/{created['table_id']}", created["watch_code"]

    for seat in (0, 2):  # the bottom seat's turn, then another's
        shown = (await watcher.get(f"/api/hearts/watch/{code}")).json()
        while shown["turn"] != seat:  # the players play on; the bots play at once
            player = creator if shown["turn"] == 0 else guest
            legal = (await player.get(api)).json()["legal"]
            played = await player.post(f"{api}/play", json={"card": legal[0],
                                                             "version": shown["version"]})
            assert played.status_code == 200, played.text
            shown = (await watcher.get(f"/api/hearts/watch/{code}")).json()
        page = (await watcher.get(f"/hearts/w/{code}")).text
        assert 'data-open="ask-dialog"' in page
        assert re.findall(r'data-ask="(\w+)"', page) == ["trick", "last", "scores", "out", "turn"]
        answers = {key: unescape(text) for key, text in
                   re.findall(r'<p data-answer="(\w+)">([^<]*)</p>', page)}
        assert set(answers) == {"trick", "last", "scores", "out", "turn"}
        name = shown["seats"][shown["turn"]]["name"]
        assert answers["turn"].startswith(f"{name} to play."), answers["turn"]
        assert "Your" not in " ".join(answers.values())
    # A seat still asks about its own hand.
    seated = (await creator.get(f"/hearts/t/{created['table_id']}")).text
    assert re.findall(r'data-ask="(\w+)"', seated)[:2] == ["hand", "play"]


async def test_a_watcher_is_told_the_passing_without_a_receiver(app, new_client):
    """The passing's receiver is the bottom seat's: a watcher, who passes to nobody, is told
    the direction alone, in the info bar and in the answer to "whose turn"."""
    # The seed rules' first hand passes left.
    creator, _guest, watcher, created = await watched_match(new_client, "seed")
    code = created["watch_code"]
    seated = (await creator.get(f"/hearts/t/{created['table_id']}")).text
    # The creator passes to West, named after the arrow.
    assert re.search(r'data-dir="left">[^<]+<span aria-hidden="true">←</span> <b>', seated)
    page = (await watcher.get(f"/hearts/w/{code}")).text
    assert '<span class="ht-pill" data-dir="left">Passing left</span>' in page
    turn = unescape(re.search(r'<p data-answer="turn">([^<]*)</p>', page).group(1))
    assert turn == "Hand 1. Passing left. Hearts not broken."


def test_a_public_moment_holds_no_hand():
    from app.rules.hearts import HeartsMatch

    match = HeartsMatch.new("HT1-N-AAAAAAA")
    moment = public_moment(match)
    hand_cards = {card_text(c) for c in cards_in(match.view(0).hand)}
    assert not {"hands", "chosen_cards", "passed", "hand"} & moment.keys()
    assert moment["cards_left"] == [13, 13, 13, 13] and hand_cards
