"""Rate limits on writes (issue 28, F8; app/web/limits.py): a flood from one session or one
address is answered 429 with Retry-After and changes nothing; other sessions and addresses go
on; a person playing as fast as people do never meets a limit; the counts are shared by two
instances on one Redis. Every window is moved by the app's clock, never by waiting."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable

import httpx
import pytest
import redis
from fastapi import FastAPI

from app.main import create_app
from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.settings import Settings
from app.web.limits import CREATIONS, MOVES, Budget, RateLimitMiddleware
from tests.conftest import BASE_URL, Clock, RedisServer
from tests.reliability.cardroom_pages import HX, h2h_board, h2h_version

DEAL = "HH1-W-AAAAAAB"
NEW_GAME = "/api/heart-to-heart/games"
WINDOW_START = 1_800_000_000  # a multiple of every window


def target_text(target: int | str) -> str:
    return f"heart:{target}" if isinstance(target, int) else target


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The tests' settings with the limits on (tests/conftest.py turns them off)."""
    return settings.model_copy(update={"rate_limit_scale": 1.0})


@pytest.fixture
def clock() -> Clock:
    return Clock(WINDOW_START + 15)  # 45 s of a minute's window left, 5 of ten seconds'


@pytest.fixture
async def browser(app: FastAPI) -> AsyncIterator[Callable[..., httpx.AsyncClient]]:
    """A browser (its own cookie jar) at an address, 127.0.0.1 unless told."""
    clients: list[httpx.AsyncClient] = []
    default_app = app

    def make(address: str = "127.0.0.1", app: FastAPI = default_app) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(address, 50_000))
        client = httpx.AsyncClient(
            transport=transport, base_url=BASE_URL, headers={"accept-language": "en"}
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


def games_stored(app: FastAPI) -> int:
    path = app.state.settings.store_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM games").fetchone()[0]


async def create(client: httpx.AsyncClient) -> httpx.Response:
    return await client.post(NEW_GAME, json={"deal": DEAL})


async def test_a_session_flooding_new_games_gets_429_and_creates_nothing_more(
    app, browser, clock
):
    alice = browser()
    await alice.get("/")  # the session's cookie (a request without one is counted by address)
    for _ in range(CREATIONS.per_session):
        created = await create(alice)
        assert created.status_code == 201
    last = created.json()["game_id"]

    refused = await create(alice)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "45"
    assert refused.json() == {"error": {
        "code": "rate_limited",
        "message": "Too many requests in a short time. Wait a few seconds, then try again.",
    }}
    vietnamese = await alice.post(NEW_GAME, json={"deal": DEAL}, headers={"accept-language": "vi"})
    assert vietnamese.json()["error"]["message"].startswith("Quá nhiều yêu cầu")
    assert games_stored(app) == CREATIONS.per_session

    # Moves have a budget of their own, and another browser at the same address goes on.
    tap = await alice.post(f"/api/heart-to-heart/games/{last}/tap", json={"target": "stock"})
    assert tap.status_code == 200
    assert (await create(browser())).status_code == 201
    clock.advance(45)  # the next window
    assert (await create(alice)).status_code == 201


@pytest.mark.parametrize(
    ("flooder", "neighbour"),
    [
        (lambda n: "192.0.2.7", "192.0.2.8"),
        # One machine holds a whole IPv6 /64: it counts as one address.
        (lambda n: f"2001:db8:1:2::{n + 1:x}", "2001:db8:1:3::1"),
    ],
    ids=["ipv4", "ipv6"],
)
async def test_an_address_flooding_without_cookies_gets_429_and_its_neighbour_does_not(
    app, browser, flooder, neighbour
):
    # A new browser every time, so a new session: only the address counts.
    for n in range(CREATIONS.per_address):
        assert (await create(browser(flooder(n)))).status_code == 201
    refused = await create(browser(flooder(CREATIONS.per_address)))
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "45"
    assert games_stored(app) == CREATIONS.per_address
    assert (await create(browser(neighbour))).status_code == 201


async def test_x_forwarded_for_is_not_the_address(browser):
    """uvicorn puts a trusted proxy's X-Forwarded-For into the scope; the app never reads it."""
    for n in range(CREATIONS.per_address + 1):
        forwarded = {"x-forwarded-for": f"10.0.{n}.1"}
        answer = await browser("192.0.2.9").post(NEW_GAME, json={"deal": DEAL}, headers=forwarded)
    assert answer.status_code == 429


async def test_page_taps_past_the_limit_answer_the_status_line_and_change_nothing(
    app, browser, clock
):
    player = browser()
    game_id, version = h2h_board((await player.get(f"/heart-to-heart/deal/{DEAL}",
                                                   follow_redirects=True)).text)
    tap = f"/heart-to-heart/games/{game_id}/tap"
    for _ in range(MOVES.per_session):
        answer = await player.post(tap, data={"target": "stock", "version": version}, headers=HX)
        assert answer.status_code == 200
        version = h2h_version(answer.text)

    refused = await player.post(tap, data={"target": "stock", "version": version}, headers=HX)
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "5"
    assert 'id="status"' in refused.text and "Too many requests in a short time" in refused.text
    plain = await player.post(tap, data={"target": "stock", "version": version})
    assert plain.status_code == 429
    assert "<h1>Too many requests</h1>" in plain.text
    assert h2h_board((await player.get("/heart-to-heart")).text) == (game_id, version)

    clock.advance(5)
    answer = await player.post(tap, data={"target": "stock", "version": version}, headers=HX)
    assert answer.status_code == 200 and h2h_version(answer.text) == version + 1


async def test_a_player_as_fast_as_people_never_meets_a_limit(browser, clock):
    """Whole games tapped at 10 taps a second (a fast player bursts at 5 or 6), a new game
    every two seconds, settings and a nickname in between."""
    player = browser()
    for game in range(3):
        page = await player.get(f"/heart-to-heart/deal/{DEAL}", follow_redirects=True)
        game_id, version = h2h_board(page.text)
        for target in solve(new_game(DEAL)):
            clock.advance(0.1)
            answer = await player.post(
                f"/heart-to-heart/games/{game_id}/tap",
                data={"target": target_text(target), "version": version}, headers=HX,
            )
            assert answer.status_code == 200, (game, version)
            version = h2h_version(answer.text)
        assert "You won" in (await player.get("/heart-to-heart")).text
        clock.advance(2)
        assert (await player.put("/api/settings", json={"sound": False})).status_code == 200
        assert (await player.post("/heart-to-heart/new", headers=HX)).status_code < 400
    for _ in range(20):
        clock.advance(2)
        assert (await player.post("/hearts/new", data={"level": "E"})).status_code == 303


@pytest.fixture
async def two_instances(
    settings: Settings, clock: Clock, redis_server: RedisServer
) -> AsyncIterator[list[FastAPI]]:
    """Two apps on one Redis, as two machines behind one load balancer."""
    redis_url = redis_server.url("limits")
    redis.Redis.from_url(redis_url).flushdb()
    settings = settings.model_copy(update={"store_url": redis_url})
    apps = [create_app(settings, clock=clock), create_app(settings, clock=clock)]
    async with (
        apps[0].router.lifespan_context(apps[0]),
        apps[1].router.lifespan_context(apps[1]),
    ):
        yield apps
    redis.Redis.from_url(redis_url).flushdb()


async def test_two_instances_on_one_redis_share_the_limit(two_instances, browser, clock):
    first, second = (browser(app=app) for app in two_instances)
    await first.get("/")
    second.cookies = first.cookies  # one browser, its requests spread over both instances
    for n in range(CREATIONS.per_session):
        assert (await create(second if n % 2 else first)).status_code == 201
    for client in (first, second):
        refused = await create(client)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "45"
    clock.advance(45)
    assert (await create(second)).status_code == 201


async def test_a_store_that_cannot_count_answers_503_not_500(app, browser):
    await app.state.store.close()
    answer = await create(browser())
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "store_unavailable"
    assert answer.headers["retry-after"]


@pytest.mark.parametrize("scale", [-1, float("nan"), float("inf")])
def test_the_scale_is_a_finite_number_not_below_zero(settings, scale):
    with pytest.raises(ValueError, match="rate_limit_scale"):
        Settings(**{**settings.model_dump(), "rate_limit_scale": scale})


def test_a_scale_multiplies_every_budget_and_keeps_at_least_one():
    assert RateLimitMiddleware(None, 2).moves == Budget("moves", 10, 300, 1200)
    assert RateLimitMiddleware(None, 0.001).creations == Budget("new", 60, 1, 1)
