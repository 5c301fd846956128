"""Issue 18, finding 10: share links, caches and the session cookie's name and count."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi.routing import APIRoute

from app.main import ROUTERS, create_app
from app.settings import Settings
from app.web.session import COOKIE_NAME

HEARTS_SHARE = re.compile(r'class="ht-code" href="([^"]*)"')
H2H_SHARE = re.compile(r'class="stat deal" href="([^"]*)"')


def share_links(html: str) -> list[str]:
    return HEARTS_SHARE.findall(html) + H2H_SHARE.findall(html)


@pytest.fixture
async def public_client(settings):
    """A browser of an app whose CARDROOM_PUBLIC_URL is https://cards.example."""
    application = create_app(settings.model_copy(update={"public_url": "https://cards.example"}))
    async with (application.router.lifespan_context(application),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=application),
                                  base_url="http://testserver") as client):
        yield client


async def test_share_links_never_take_the_host_header(client):
    await client.get("/hearts/deal/HT1-N-AAAAAAB")  # a random match's code is secret
    for path in ("/hearts", "/heart-to-heart"):
        response = await client.get(path, headers={"host": "evil.example"})
        links = share_links(response.text)
        assert links, path
        for link in links:
            assert "evil.example" not in link
            assert re.fullmatch(r"/(hearts|heart-to-heart)/deal/H[HT]1-\w-[A-Z]{7}", link), link


async def test_share_links_use_the_public_url_when_set(public_client):
    client = public_client
    await client.get("/hearts/deal/HT1-N-AAAAAAB")
    for path in ("/hearts", "/heart-to-heart"):
        response = await client.get(path, headers={"host": "evil.example"})
        links = share_links(response.text)
        assert links, path
        for link in links:
            assert link.startswith("https://cards.example/"), link


@pytest.mark.parametrize("value", ["cards.example", "ftp://cards.example", "https://",
                                   "https://cards.example/?x=1", "https://cards.example/#a"])
def test_a_public_url_that_is_not_a_site_is_refused(value):
    with pytest.raises(ValueError, match="CARDROOM_PUBLIC_URL"):
        Settings(secret_key="k" * 32, public_url=value)


def test_the_public_url_loses_its_last_slash():
    assert Settings(secret_key="k" * 32, public_url="https://cards.example/").public_url == (
        "https://cards.example")


async def test_personal_answers_are_not_stored_by_caches(client):
    for method, path in [("GET", "/"), ("GET", "/heart-to-heart"), ("GET", "/hearts"),
                         ("POST", "/api/hearts/games"), ("GET", "/no-such-page")]:
        response = await client.request(method, path, follow_redirects=True)
        assert response.headers.get("cache-control") == "no-store", path
    game = (await client.post("/api/heart-to-heart/games", json={})).json()
    response = await client.get(f"/api/heart-to-heart/games/{game['game_id']}")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"


async def test_static_files_keep_their_caching(client):
    response = await client.get("/static/css/app.css")
    assert response.status_code == 200
    assert "no-store" not in response.headers.get("cache-control", "")
    assert "etag" in response.headers


def set_cookies(response: httpx.Response) -> list[str]:
    return [v for k, v in response.headers.multi_items() if k == "set-cookie"]


async def test_two_session_cookies_count_as_none(client, new_client):
    await client.get("/")
    valid = client.cookies[COOKIE_NAME]
    for second in (valid, "forged.value"):
        other = new_client(headers={"cookie": f"{COOKIE_NAME}={valid}; {COOKIE_NAME}={second}"})
        response = await other.get("/")
        (cookie,) = set_cookies(response)
        assert cookie.startswith(f"{COOKIE_NAME}=")
        assert not cookie.startswith(f"{COOKIE_NAME}={valid};")
    # One cookie is still a session: no new cookie is set.
    one = new_client(headers={"cookie": f"other=1; {COOKIE_NAME}={valid}"})
    assert set_cookies(await one.get("/")) == []


async def test_secure_cookies_are_host_prefixed(settings):
    settings = settings.model_copy(update={"secure_cookies": True})
    application = create_app(settings)
    async with (application.router.lifespan_context(application),
                httpx.AsyncClient(transport=httpx.ASGITransport(app=application),
                                  base_url="https://testserver") as client):
        (cookie,) = set_cookies(await client.get("/"))
        name, _, rest = cookie.partition("=")
        attributes = [part.strip().lower() for part in rest.split(";")[1:]]
        assert name == f"__Host-{COOKIE_NAME}"
        assert "secure" in attributes and "path=/" in attributes
        assert not any(part.startswith("domain") for part in attributes)
        assert set_cookies(await client.get("/")) == []  # the prefixed cookie is a session
        # The name without the prefix could have been set by a sibling site: it is ignored.
        value = client.cookies[name]
        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, value)
        assert len(set_cookies(await client.get("/"))) == 1


FOREIGN = {"host": "evil.example", "x-forwarded-host": "evil.example",
           "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}
# A stream that does not end; its events are GET /api/hearts/tables/{id}'s view.
ENDLESS = {"/api/hearts/tables/{table_id}/events", "/api/hearts/watch/{watch_code}/events"}


async def every_get_path(client: httpx.AsyncClient) -> list[str]:
    """Every GET route of the app (app/main.py ROUTERS), its path filled with a real game, table
    and code of this client's, so that the pages answer with their content."""
    h2h = (await client.post("/api/heart-to-heart/games", json={})).json()["game_id"]
    hearts = (await client.post("/api/hearts/games", json={})).json()["game_id"]
    table = (await client.post("/api/hearts/tables", json={"bot_level": "easy"})).json()
    await client.post(f"/api/hearts/tables/{table['table_id']}/seats", json={"name": "Lan"})
    paths = []
    for router in ROUTERS:
        for route in router.routes:
            if not isinstance(route, APIRoute) or "GET" not in route.methods:
                continue
            if route.path in ENDLESS:
                continue
            hearts_route = route.path.startswith(("/hearts", "/api/hearts"))
            paths.append(route.path.format(
                game_id=hearts if hearts_route else h2h, table_id=table["table_id"],
                watch_code=table["watch_code"],
                code="HT1-N-AAAAAAB" if hearts_route else "HH1-W-AAAAAAM", day="2026-01-01",
            ))
    return paths


async def test_no_answer_holds_a_host_the_request_named(client):
    """Issue 28, F6: the table's invitation was built from the request's Host. Every link the
    server makes is relative or under CARDROOM_PUBLIC_URL (here empty): no page or answer of
    any GET route holds the host a request named."""
    paths = await every_get_path(client)
    assert len(paths) > 35
    for path in paths:
        response = await client.get(path, headers=FOREIGN)
        assert response.status_code < 500, path
        assert "evil.example" not in response.text, path
        assert "evil.example" not in str(response.headers), path
    table_page = next(path for path in paths if re.fullmatch(r"/hearts/t/[^/]+", path))
    page = (await client.get(table_page, headers=FOREIGN)).text
    invite = re.search(r'value="([^"]*)" data-invite', page).group(1)
    assert re.fullmatch(r"/hearts/t/[\w-]+", invite), invite


async def test_the_invitation_is_under_the_public_url_when_set(public_client):
    client = public_client
    created = await client.post("/hearts/tables", data={"name": "An"})
    page = (await client.get(created.headers["location"], headers=FOREIGN)).text
    invite = re.search(r'value="([^"]*)" data-invite', page).group(1)
    assert invite == "https://cards.example" + created.headers["location"]
