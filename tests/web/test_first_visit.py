"""No work for nobody (issue 17): a visit without a session cookie (a crawler, a chat app's link
preview, a browser's first request) writes nothing to the store, on SQLite and on Redis; the
first action stores the game the page showed, and it plays on. A Hearts match not stored yet
keeps its deal secret: nothing the page shows (its id included) tells the deal, two sessions get
different ones, and the code revealed at the match's end is the deal that was dealt."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
import redis
from fastapi import FastAPI

from app.main import create_app
from app.rules.cards import card_text, cards_in
from app.rules.hearts import HeartsMatch, deal_hands, parse_match_code
from app.store import SECONDS_PER_DAY
from app.web.first_visit import DEAL_COOKIE
from app.web.hearts import service as hearts
from app.web.session import COOKIE_NAME, SessionMiddleware
from tests.conftest import BASE_URL
from tests.reliability.cardroom_pages import HX, HeartsHand, h2h_board

CODE = re.compile(r"H[HT]1-[ENWH]-[A-Z]{7}")
H2H_DEAL = "HH1-W-AAAAAAB"
HEARTS_DEAL = "HT1-E-AAAAAAC"
API = "/api/hearts/games"


@pytest.fixture(params=["sqlite", "redis"])
async def room(request, settings, clock, redis_server) -> AsyncIterator[FastAPI]:
    """The app on a real SQLite file, or on the real Redis (its database emptied first)."""
    if request.param == "redis":
        redis_url = redis_server.url("first_visit")
        redis.Redis.from_url(redis_url).flushdb()
        settings = settings.model_copy(update={"store_url": redis_url})
    application = create_app(settings, clock=clock)
    async with application.router.lifespan_context(application):
        yield application
    if request.param == "redis":
        redis.Redis.from_url(redis_url).flushdb()


def written(app: FastAPI) -> int:
    """Every row of every table of the SQLite file, or every key of the Redis database."""
    url = app.state.settings.store_url
    if url.startswith("redis://"):
        client = redis.Redis.from_url(url)
        try:
            return client.dbsize()
        finally:
            client.close()
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        tables = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return sum(db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables)


def browsers(app: FastAPI) -> Callable[..., httpx.AsyncClient]:
    def browser(**kwargs) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL,
                                 headers={"accept-language": "en"}, **kwargs)
    return browser


def session_of(app: FastAPI, client: httpx.AsyncClient) -> str:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False)
    return signer.session_from(client.cookies[COOKIE_NAME])


def hearts_hand(page: str) -> HeartsHand:
    return HeartsHand.from_page(page)


def dealt_hand(code: str) -> list[str]:
    """The player's first hand as the code deals it."""
    return sorted(card_text(c) for c in cards_in(deal_hands(parse_match_code(code), 1)[0]))


GETS = ["/", "/heart-to-heart", "/hearts", "/heart-to-heart/rules", "/hearts/rules",
        f"/heart-to-heart/deal/{H2H_DEAL}", f"/hearts/deal/{HEARTS_DEAL}",
        "/heart-to-heart/daily", "/hearts/daily", "/heart-to-heart/new", "/hearts/new",
        "/stats", "/stats/reset", "/settings", "/heart-to-heart/examples",
        f"/hearts/deal/{HEARTS_DEAL}/results", f"/heart-to-heart/deal/{H2H_DEAL}/results",
        "/api/settings", "/api/heart-to-heart/options", "/api/hearts/daily",
        f"/api/hearts/deals/{HEARTS_DEAL}/results", "/api/hearts/daily/2026-01-01/results"]


async def test_no_get_without_a_cookie_writes_anything(room):
    browser = browsers(room)
    for path in GETS:
        # A crawler: no cookie kept, redirects followed (each hop is cookie-less too).
        async with browser() as crawler:
            answer = await crawler.get(path)
            assert answer.status_code in (200, 303, 405), (path, answer.status_code)
            if answer.status_code == 303:
                assert answer.headers["location"] in ("/heart-to-heart", "/hearts"), path
                crawler.cookies.clear()
                assert (await crawler.get(answer.headers["location"])).status_code == 200
        # A link preview that keeps the cookie across the redirect, as a browser does.
        async with browser() as preview:
            assert (await preview.get(path, follow_redirects=True)).status_code in (200, 405)
        assert written(room) == 0, path
    # A reload with the cookie shows the same game again, still not stored.
    async with browser() as first:
        page = (await first.get("/hearts")).text
        assert hearts_hand((await first.get("/hearts")).text) == hearts_hand(page)
        board = h2h_board((await first.get("/heart-to-heart")).text)
        assert h2h_board((await first.get("/heart-to-heart")).text) == board
    assert written(room) == 0


async def pass_first_three(client: httpx.AsyncClient, hand: HeartsHand) -> httpx.Response:
    cards = ",".join(sorted(hand.cards)[:3])
    return await client.post(f"/hearts/games/{hand.game_id}/pass", headers=HX,
                             data={"cards": cards, "version": str(hand.version)})


async def plays_on(client: httpx.AsyncClient, hand: HeartsHand) -> None:
    """After the pass the player's first play is taken (the bots answer) and stored."""
    page = hearts_hand((await client.get("/hearts")).text)
    assert page.game_id == hand.game_id and page.version == hand.version + 1
    played = await client.post(f"/hearts/games/{page.game_id}/play", headers=HX,
                               data={"card": page.playable[0], "version": str(page.version)})
    assert played.status_code == 200
    assert hearts_hand((await client.get("/hearts")).text).version == page.version + 1


async def test_a_hearts_deal_link_is_stored_at_its_first_action(room):
    deal = HEARTS_DEAL
    async with browsers(room)() as browser:
        opened = await browser.get(f"/hearts/deal/{HEARTS_DEAL}")
        # The deal goes along in a cookie.
        assert opened.headers["location"] == "/hearts" and DEAL_COOKIE in browser.cookies
        opened = await browser.get("/hearts")
        assert f'<span data-info="deal">{deal}</span>' in opened.text  # a code's own match
        hand = hearts_hand(opened.text)
        assert sorted(hand.cards) == dealt_hand(deal) and hand.version == 1
        assert written(room) == 0
        assert (await pass_first_three(browser, hand)).status_code == 200
        stored = await room.state.store.get(session_of(room, browser), hand.game_id)
        assert stored.version == 2 and stored.state["deal"] == deal
        assert HeartsMatch.from_json(stored.state).last_hand is None
        current = await room.state.store.current(session_of(room, browser), "hearts")
        assert current.game_id == hand.game_id
        await plays_on(browser, hand)


async def test_a_heart_to_heart_deal_link_is_stored_at_its_first_action(room):
    deal = H2H_DEAL
    async with browsers(room)() as browser:
        page = (await browser.get(f"/heart-to-heart/deal/{H2H_DEAL}", follow_redirects=True)).text
        assert f'data-info="deal">{deal}<' in page
        game_id, version = h2h_board(page)
        assert written(room) == 0
        for step in range(2):
            tap = await browser.post(f"/heart-to-heart/games/{game_id}/tap", headers=HX,
                                     data={"target": "stock", "version": str(version + step)})
            assert tap.status_code == 200
        stored = await room.state.store.get(session_of(room, browser), game_id)
        assert stored.version == version + 2 and stored.state["deal"] == deal
        assert h2h_board((await browser.get("/heart-to-heart")).text) == (game_id, version + 2)


async def test_with_a_cookie_a_deal_link_stores_its_game_as_before(app, client):
    await client.get("/")
    assert (await client.get(f"/hearts/deal/{HEARTS_DEAL}")).status_code == 303
    current = await app.state.store.current(session_of(app, client), "hearts")
    assert current is not None and current.state["deal"] == HEARTS_DEAL
    assert DEAL_COOKIE not in client.cookies


async def test_a_hearts_first_visit_keeps_its_deal_secret_until_the_match_is_over(room):
    browser = browsers(room)
    async with browser() as first, browser() as second:
        page = (await first.get("/hearts")).text
        hand = hearts_hand(page)
        assert not CODE.search(page) and not CODE.search(hand.game_id)
        state = (await first.get(f"{API}/{hand.game_id}")).json()
        assert state["deal"] is None and state["bot_level"] == "normal"
        assert state["version"] == 1 and written(room) == 0
        other = hearts_hand((await second.get("/hearts")).text)
        # The first action stores the match with the deal the page showed.
        assert (await pass_first_three(first, hand)).status_code == 200
        assert (await pass_first_three(second, other)).status_code == 200
        code = (await room.state.store.get(session_of(room, first), hand.game_id)).state["deal"]
        other_code = (await room.state.store.get(session_of(room, second), other.game_id)
                      ).state["deal"]
        assert code != other_code
        assert dealt_hand(code) == sorted(hand.cards)
        assert dealt_hand(other_code) == sorted(other.cards)
        for shown in (page, hand.game_id, session_of(room, first), first.cookies[COOKIE_NAME]):
            assert code not in shown and code[-7:] not in shown
        # The id's deal comes from the server's key: the session and the id alone do not make it.
        dealer = hearts.Dealer(room.state.settings.secret_key, room.state.clock())
        level = parse_match_code(code).variant
        session = session_of(room, first)
        assert str(hearts.secret_deal(dealer, session, hand.game_id, level)) == code
        guess = hearts.Dealer("another-key-of-the-same-length-as-ours!!", dealer.now)
        assert str(hearts.secret_deal(guess, session, hand.game_id, level)) != code
        # Played to the end without versions: the code is shown then, and it is the same.
        state = (await first.get(f"{API}/{hand.game_id}")).json()
        while state["phase"] != "match_over":
            assert state["deal"] is None
            url = f"{API}/{hand.game_id}"
            if state["phase"] == "passing":
                answer = await first.post(f"{url}/pass", json={"cards": state["hand"][:3]})
            elif state["phase"] == "playing":
                answer = await first.post(f"{url}/play", json={"card": state["legal"][0]})
            else:
                answer = await first.post(f"{url}/next-hand", json={})
            assert answer.status_code == 200, answer.text
            state = answer.json()
        assert state["deal"] == code
        page = (await first.get("/hearts")).text
        assert f'<span data-info="deal">{code}</span>' in page


async def test_a_hearts_first_visit_follows_the_level_chosen_before_it_acts(app, client):
    await client.get("/")
    chosen = await client.put("/api/settings", json={"hearts_bot_level": "hard"})
    assert chosen.status_code == 200
    hand = hearts_hand((await client.get("/hearts")).text)
    assert (await client.get(f"{API}/{hand.game_id}")).json()["bot_level"] == "hard"
    assert await app.state.store.current(session_of(app, client), "hearts") is None
    # A hint is an action too (it marks the match assisted): it stores the match first.
    hint = await client.post(f"/hearts/games/{hand.game_id}/hint", headers=HX,
                             data={"version": str(hand.version)})
    assert hint.status_code == 200 and "Hint: the Hard bot would pass" in hint.text
    stored = await app.state.store.get(session_of(app, client), hand.game_id)
    match = HeartsMatch.from_json(stored.state)
    assert match.bot_level == "hard" and match.assisted and stored.state["deal_hidden"]


async def test_an_unstored_hearts_id_is_good_for_its_day_and_the_next(app, client, clock):
    hand = hearts_hand((await client.get("/hearts")).text)
    clock.advance(SECONDS_PER_DAY)
    assert (await client.get(f"{API}/{hand.game_id}")).status_code == 200
    clock.advance(SECONDS_PER_DAY)
    # Two days on, the page's id deals nothing (the page itself shows today's match).
    assert (await pass_first_three(client, hand)).status_code == 404
    assert (await client.get(f"{API}/{hand.game_id}")).status_code == 404
    assert hearts_hand((await client.get("/hearts")).text).game_id != hand.game_id
    assert await app.state.store.current(session_of(app, client), "hearts") is None


async def test_another_browser_cannot_take_a_pages_unstored_match(app, client, new_client):
    hand = hearts_hand((await client.get("/hearts")).text)
    other = new_client()
    assert (await pass_first_three(other, hand)).status_code == 404
    assert (await other.get(f"{API}/{hand.game_id}")).status_code == 404
    assert written(app) == 0
    assert (await pass_first_three(client, hand)).status_code == 200
