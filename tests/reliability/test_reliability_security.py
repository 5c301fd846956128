"""Hostile input and the browser-side protections, on the real app (in process, through httpx;
the chunked body also against a real uvicorn).

tests/web/test_core.py covers the basics on the language switch (cookie attributes, one forged
cookie, cross-origin refusal, body limits, CSP headers on a few pages); these add the games:
forged and foreign-key cookies never reach a game, a refused tap changes nothing, every page
and fragment keeps to the CSP (no inline script, style or event handler), a chunked oversize
body on a real server, deal codes bounded, HTML in URLs, headers and form fields never
reflected unescaped, and no hostile value answered with a 5xx.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest
from cardroom_pages import H2H_STALE, HX, h2h_board, h2h_version
from itsdangerous import Signer

from app.main import create_app
from app.settings import Settings
from app.web.security import MAX_BODY
from app.web.session import COOKIE_NAME, SessionMiddleware

XSS = '"><img src=x onerror=alert(1)>'
PAGES = ["/", "/heart-to-heart", "/hearts", "/heart-to-heart/rules", "/heart-to-heart/examples",
         "/hearts/rules", "/no-such-page", "/heart-to-heart/deal/HH1-X-AAAAAAA"]


async def h2h_game(client: httpx.AsyncClient) -> tuple[str, int]:
    return h2h_board((await client.get("/heart-to-heart")).text)


async def tap(client: httpx.AsyncClient, game_id: str, version: int, **headers) -> httpx.Response:
    return await client.post(f"/heart-to-heart/games/{game_id}/tap",
                             data={"target": "stock", "version": str(version)},
                             headers={**HX, **headers})


# --- the session cookie ----------------------------------------------------------------------


def set_cookie(response: httpx.Response) -> str:
    cookies = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
    assert len(cookies) == 1
    return cookies[0]


async def test_secure_cookies_from_the_environment(monkeypatch, tmp_path) -> None:
    """The contract's variable itself (tests/web/test_core.py sets the field directly)."""
    monkeypatch.setenv("CARDROOM_SECURE_COOKIES", "true")
    monkeypatch.setenv("CARDROOM_SECRET_KEY", "k" * 32)
    monkeypatch.setenv("CARDROOM_STORE_URL", f"sqlite:///{tmp_path / 'c.sqlite3'}")
    application = create_app(Settings())
    transport = httpx.ASGITransport(app=application)
    async with (application.router.lifespan_context(application),
                httpx.AsyncClient(transport=transport, base_url="https://testserver") as client):
        cookie = set_cookie(await client.get("/"))
    assert "secure" in [part.strip().lower() for part in cookie.split(";")]


def tampered(value: str) -> list[str]:
    session, signature = value.rsplit(".", 1)
    flipped = session[:-1] + ("A" if session[-1] != "A" else "B")
    return [f"{flipped}.{signature}", f"{session}.{signature[:-2]}", session, f"{session}.",
            f"{session}.{'x' * len(signature)}"]


async def test_a_tampered_cookie_is_a_new_session(client: httpx.AsyncClient, new_client) -> None:
    game_id, _ = await h2h_game(client)
    value = client.cookies[COOKIE_NAME]
    for forged in tampered(value):
        other = new_client(cookies={COOKIE_NAME: forged})
        answer = await other.get("/heart-to-heart")
        # A fresh session (and cookie), with a game of its own, never the old one.
        assert set_cookie(answer).split(";")[0] != f"{COOKIE_NAME}={value}"
        assert h2h_board(answer.text)[0] != game_id
        assert (await tap(other, game_id, 1)).status_code == 404
    # The genuine cookie still reaches the game.
    assert (await h2h_game(client))[0] == game_id


async def test_a_session_id_signed_with_another_key_is_refused(
    client: httpx.AsyncClient, new_client, app
) -> None:
    """Knowing somebody's session id is not enough without the server's key."""
    game_id, _ = await h2h_game(client)
    victim = SessionMiddleware(app, app.state.settings.secret_key, False).session_from(
        client.cookies[COOKIE_NAME])
    for key in ("another-key", ""):
        forged = Signer(key, salt="cardroom-session").sign(victim).decode()
        other = new_client(cookies={COOKIE_NAME: forged})
        assert (await tap(other, game_id, 1)).status_code == 404
        assert h2h_board((await other.get("/heart-to-heart")).text)[0] != game_id


# --- cross-origin requests -------------------------------------------------------------------


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"},
    {"origin": "null"},
    {"origin": "http://testserver.evil.example"},
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    {"sec-fetch-site": "cross-site", "origin": "http://testserver"},
])
async def test_cross_origin_state_changes_are_refused(client: httpx.AsyncClient, headers) -> None:
    game_id, version = await h2h_game(client)
    refused = await tap(client, game_id, version, **headers)
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("text/html")  # a page route: an error page
    # Nothing changed: the same version still applies.
    applied = await tap(client, game_id, version)
    assert H2H_STALE not in applied.text and h2h_version(applied.text) == version + 1


@pytest.mark.parametrize("headers", [
    {"origin": "http://testserver"},
    {"sec-fetch-site": "same-origin"},
    {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
])
async def test_same_origin_state_changes_pass(client: httpx.AsyncClient, headers) -> None:
    game_id, version = await h2h_game(client)
    assert (await tap(client, game_id, version, **headers)).status_code == 200
    assert h2h_board((await client.get("/heart-to-heart")).text)[1] == version + 1


async def test_cross_site_navigation_still_shows_pages(client: httpx.AsyncClient) -> None:
    # A link from another site (a shared deal URL) is a GET: it must work.
    answer = await client.get("/heart-to-heart/deal/HH1-N-AAAAAAM",
                              headers={"sec-fetch-site": "cross-site"})
    assert answer.status_code == 303


# --- headers and the CSP ---------------------------------------------------------------------


def csp_directives(response: httpx.Response) -> dict[str, list[str]]:
    policy = response.headers["content-security-policy"]
    return {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}


@pytest.mark.parametrize("path", PAGES)
async def test_every_page_is_protected_and_keeps_to_its_csp(
    client: httpx.AsyncClient, path: str
) -> None:
    answer = await client.get(path)
    assert answer.headers["content-type"].startswith("text/html")
    csp = csp_directives(answer)
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] in ("same-origin", "strict-origin-when-cross-origin",
                                                 "no-referrer")
    html = answer.text
    # What that CSP would block in a browser must not be in the page at all.
    for script in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S):
        assert "src=" in script.group(1) and not script.group(2).strip(), script.group(0)[:80]
    assert not re.search(r"\son[a-z]+\s*=", html), re.search(r"\son[a-z]+\s*=.{0,40}", html)
    assert not re.search(r"\sstyle\s*=", html), re.search(r"\sstyle\s*=.{0,60}", html)
    assert "javascript:" not in html.lower() and "hx-on" not in html and "js:" not in html


async def test_fragments_and_refusals_carry_the_headers(client: httpx.AsyncClient) -> None:
    game_id, version = await h2h_game(client)
    for answer in (await tap(client, game_id, version),
                   await tap(client, game_id, version + 1, origin="http://evil.example")):
        assert "'none'" in csp_directives(answer)["frame-ancestors"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        # The refusal is an error page: scripts only by src, nothing inline.
        assert not re.search(r"\sstyle\s*=|<script(?![^>]*\ssrc=)", answer.text)


# --- sizes -----------------------------------------------------------------------------------


async def test_oversize_bodies_leave_the_game_alone(client: httpx.AsyncClient) -> None:
    game_id, version = await h2h_game(client)
    url = f"/heart-to-heart/games/{game_id}/tap"
    form = f"target=stock&version={version}&pad=".encode()
    headers = {**HX, "content-type": "application/x-www-form-urlencoded"}
    big = await client.post(url, content=form + b"x" * MAX_BODY, headers=headers)
    assert big.status_code == 413
    # A lying Content-Length is refused too.
    lying = {**headers, "content-length": "9" * 30}
    assert (await client.post(url, content=form, headers=lying)).status_code in (400, 413)
    assert h2h_board((await client.get("/heart-to-heart")).text)[1] == version
    assert (await client.post(url, content=form + b"x" * 100, headers=headers)).status_code == 200


async def test_oversize_chunked_body_on_a_real_server(start_server, sqlite_url) -> None:
    server = start_server(sqlite_url)
    big = b"target=stock&version=1&pad=" + b"x" * (4 * MAX_BODY)

    async def chunks():
        for start in range(0, len(big), 4096):
            yield big[start:start + 4096]

    async with httpx.AsyncClient(base_url=server.base_url) as client:
        game_id, _ = await h2h_game(client)
        answer = await client.post(f"/heart-to-heart/games/{game_id}/tap", content=chunks(),
                                   headers={**HX, "content-type":
                                            "application/x-www-form-urlencoded"})
        assert answer.status_code == 413
        assert h2h_board((await client.get("/heart-to-heart")).text)[1] == 1


@pytest.mark.parametrize("path", ["/heart-to-heart/deal/", "/hearts/deal/"])
async def test_deal_codes_are_bounded(client: httpx.AsyncClient, path: str) -> None:
    answer = await client.get(path + "A" * 4000)
    assert answer.status_code == 400
    main = re.search(r'<section class="panel error">.*?</section>', answer.text, re.S).group(0)
    assert "A" * 50 not in main and len(main) < 1000


# --- reflection ------------------------------------------------------------------------------


def assert_not_reflected(text: str, hostile: str = XSS) -> None:
    assert hostile not in text and hostile.upper() not in text
    assert "<img" not in text.lower()


@pytest.mark.parametrize("path", [
    "/heart-to-heart/deal/" + quote(XSS),
    "/hearts/deal/" + quote(XSS),
    "/heart-to-heart/deal/HH1-N-" + quote(XSS),
    "/hearts/deal/HT1-N-" + quote(XSS),
    "/" + quote(XSS),
    "/heart-to-heart/examples?step=" + quote(XSS),
])
async def test_html_in_urls_is_not_reflected(client: httpx.AsyncClient, path: str) -> None:
    answer = await client.get(path)
    assert 400 <= answer.status_code < 500
    assert_not_reflected(answer.text)


async def test_html_in_accept_language_is_not_reflected(new_client) -> None:
    browser = new_client(headers={"accept-language": f"en;q=0.9, {XSS}"})
    for path in ("/", "/heart-to-heart", "/hearts", "/no-such-page"):
        answer = await browser.get(path)
        assert '<html lang="en">' in answer.text
        assert_not_reflected(answer.text)
    garbage = new_client(headers={"accept-language": XSS})
    assert '<html lang="vi">' in (await garbage.get("/")).text


async def test_html_in_form_fields_is_not_reflected(client: httpx.AsyncClient) -> None:
    game_id, version = await h2h_game(client)
    hearts_id = re.search(r'data-game="([\w-]+)"', (await client.get("/hearts")).text).group(1)
    posts = [
        (f"/heart-to-heart/games/{game_id}/tap", {"target": XSS, "version": str(version)}),
        (f"/heart-to-heart/games/{game_id}/tap", {"target": "<b>1</b>", "version": str(version)}),
        (f"/heart-to-heart/games/{quote(XSS)}/tap", {"target": "stock", "version": "1"}),
        ("/heart-to-heart/options", {"game": XSS[:40], "placement_help": "true"}),
        ("/heart-to-heart/new", {"kind": XSS}),
        (f"/hearts/games/{hearts_id}/pass", {"cards": XSS, "version": "1"}),
        (f"/hearts/games/{hearts_id}/play", {"card": "<img>", "version": "1"}),
        ("/hearts/new", {"level": XSS}),
        ("/lang", {"lang": XSS, "next": "/"}),
    ]
    for url, data in posts:
        for headers in (HX, {}):
            answer = await client.post(url, data=data, headers=headers)
            assert answer.status_code < 500, (url, answer.status_code)
            assert_not_reflected(answer.text)
            assert "<img" not in answer.headers.get("location", "")


@pytest.mark.parametrize("target", [XSS, "/heart-to-heart\r\nSet-Cookie: x=1", "/" + XSS])
async def test_language_switch_target_is_never_reflected_raw(client, target) -> None:
    answer = await client.post("/lang", data={"lang": "en", "next": target})
    assert answer.status_code == 303
    location = answer.headers["location"]
    assert location.startswith("/") and not location.startswith("//")
    assert not re.search(r'[<>"\r\n\\]', location)
    assert all("x=1" not in v for k, v in answer.headers.multi_items() if k == "set-cookie")


# --- nothing a client sends is a 5xx ---------------------------------------------------------


HOSTILE = ["", "-1", "1e400", "nan", "inf", "9" * 40, "\x00", "é" * 200, XSS, "[]", "{}"]


async def test_no_hostile_value_causes_a_server_error(client: httpx.AsyncClient) -> None:
    game_id, _ = await h2h_game(client)
    hearts_id = re.search(r'data-game="([\w-]+)"', (await client.get("/hearts")).text).group(1)
    forms = {
        f"/heart-to-heart/games/{game_id}/tap": ("target", "version", "elapsed"),
        f"/heart-to-heart/games/{game_id}/undo": ("version", "elapsed"),
        "/heart-to-heart/options": ("move_errors", "placement_help", "game"),
        f"/hearts/games/{hearts_id}/pass": ("cards", "version"),
        f"/hearts/games/{hearts_id}/play": ("card", "version"),
        f"/hearts/games/{hearts_id}/undo": ("version",),
        f"/hearts/games/{hearts_id}/next-hand": ("version",),
    }
    valid = {"target": "stock", "version": "1", "elapsed": "1", "cards": "2C,3C,4C",
             "card": "2C", "move_errors": "true", "placement_help": "true", "game": game_id}
    for url, fields in forms.items():
        for field in fields:
            for value in HOSTILE:
                data = {f: valid[f] for f in fields} | {field: value}
                answer = await client.post(url, data=data, headers=HX)
                assert answer.status_code < 500, (url, field, value, answer.status_code)
