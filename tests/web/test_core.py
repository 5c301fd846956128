"""The web core: security, sessions, languages, errors, health, settings and statistics."""

from __future__ import annotations

import re

import httpx
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from jinja2.ext import babel_extract

from app.main import create_app
from app.rules.cards import QUEEN_OF_SPADES, parse_card
from app.settings import Settings
from app.web.i18n import LOCALES_DIR, card_name, pick_language
from app.web.profile import record_heart_to_heart_game, record_hearts_match, update_profile
from app.web.session import COOKIE_NAME
from app.web.templating import ROOT


async def test_security_headers_on_pages_and_health(client):
    for path in ("/", "/healthz", "/heart-to-heart/rules", "/no-such-page"):
        response = await client.get(path)
        csp = response.headers["content-security-policy"]
        assert "script-src 'self';" in csp
        assert "style-src 'self';" in csp
        assert "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"


async def test_pages_have_no_inline_script_or_style(client):
    for path in ("/", "/heart-to-heart", "/heart-to-heart/rules", "/heart-to-heart/examples"):
        html = (await client.get(path, follow_redirects=True)).text
        assert not re.search(r"<script(?![^>]*\ssrc=)", html), path
        assert " style=" not in html and "<style" not in html, path
        assert " hx-on" not in html, path


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": "http://testserver"},
    ],
)
async def test_cross_origin_state_changes_are_refused(client, headers):
    response = await client.post("/lang", data={"lang": "vi"}, headers=headers)
    assert response.status_code == 403
    assert "Requests from other sites are refused." in response.text  # a page, not JSON
    page = await client.get("/")
    assert '<html lang="en">' in page.text  # the switch did not happen


async def test_same_origin_state_changes_pass(client):
    headers = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    response = await client.post("/lang", data={"lang": "vi", "next": "/"}, headers=headers)
    assert response.status_code == 303
    assert '<html lang="vi">' in (await client.get("/")).text


async def test_oversize_bodies_are_refused(client):
    response = await client.post("/lang", content=b"lang=vi&" + b"x" * 17_000)
    assert response.status_code == 413

    async def chunks():
        for _ in range(20):
            yield b"x" * 1024

    response = await client.post(
        "/lang", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413
    response = await client.post("/lang", data={"lang": "vi", "next": "/" + "a" * 200})
    assert response.status_code == 303


async def test_session_cookie(client):
    response = await client.get("/")
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie
    # Known session: no new cookie.
    assert "set-cookie" not in (await client.get("/")).headers
    assert "set-cookie" not in (await client.get("/healthz")).headers


async def test_a_forged_cookie_gets_a_new_session(client, new_client):
    await client.post("/lang", data={"lang": "vi"})
    value = client.cookies[COOKIE_NAME]
    session_id, _, signature = value.rpartition(".")
    forged = new_client(cookies={COOKIE_NAME: f"{session_id}x.{signature}"})
    response = await forged.get("/", headers={"accept-language": "en"})
    assert "set-cookie" in response.headers
    assert '<html lang="en">' in response.text  # not the forged session's Vietnamese
    same = new_client(cookies={COOKIE_NAME: value})
    assert '<html lang="vi">' in (await same.get("/")).text


async def test_secure_cookies_when_configured(settings):
    application = create_app(settings.model_copy(update={"secure_cookies": True}))
    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            assert "; Secure" in (await c.get("/")).headers["set-cookie"]


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("en-US,en;q=0.9", "en"),
        ("vi-VN,vi;q=0.9,en;q=0.8", "vi"),
        ("fr-FR,fr;q=0.9", "vi"),
        ("", "vi"),
        ("fr, en;q=0.5, vi;q=0.4", "en"),
        ("en;q=0.2, vi", "vi"),
        ("en;q=x", "vi"),
    ],
)
async def test_language_from_accept_language(new_client, accept, lang):
    assert pick_language(accept) == lang
    browser = new_client(headers={"accept-language": accept})
    html = (await browser.get("/")).text
    assert f'<html lang="{lang}">' in html


async def test_language_switch_is_remembered(client):
    home = (await client.get("/")).text
    assert "Your statistics" in home
    assert 'action="/lang"' in home
    response = await client.post("/lang", data={"lang": "vi", "next": "/heart-to-heart/rules"})
    assert response.status_code == 303
    assert response.headers["location"] == "/heart-to-heart/rules"
    # Remembered over the browser's Accept-Language, on every page.
    for path in ("/", "/heart-to-heart/rules", "/nowhere"):
        html = (await client.get(path)).text
        assert '<html lang="vi">' in html
        assert 'value="vi" lang="vi" aria-label="Tiếng Việt" aria-pressed="true"' in html
    assert "Thống kê của bạn" in (await client.get("/")).text


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil"])
async def test_language_switch_never_redirects_away(client, target):
    response = await client.post("/lang", data={"lang": "en", "next": target})
    assert response.headers["location"] == "/"


async def test_health_and_readiness(client):
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readiness_fails_when_the_store_is_gone(app, client):
    await app.state.store.close()
    response = await client.get("/readyz")
    assert response.status_code == 503
    assert (await client.get("/healthz")).status_code == 200


async def test_error_pages_and_api_errors(client):
    response = await client.get("/no/such/page")
    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.text
    response = await client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    response = await client.delete("/")
    assert response.status_code == 405


def test_card_names():
    assert card_name(QUEEN_OF_SPADES, "en") == "Queen of spades"
    assert card_name(QUEEN_OF_SPADES, "vi") == "Q bích"
    assert card_name(parse_card("AC"), "vi") == "Át chuồn"
    assert card_name(parse_card("AC"), "en") == "Ace of clubs"
    assert card_name(parse_card("10H"), "vi") == "10 cơ"
    assert card_name(parse_card("10H"), "en") == "10 of hearts"
    assert card_name(parse_card("KD"), "vi") == "K rô"
    assert card_name(parse_card("JD"), "en") == "Jack of diamonds"


def _catalog(lang: str, area: str) -> dict:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / f"{area}.po"
    with path.open("rb") as handle:
        # A message with a context (msgctxt) is its own message: keyed (context, id).
        messages = [m for m in read_po(handle, locale=lang) if m.id]
    return {(m.context, m.id) if m.context else m.id: m.string for m in messages}


def _my_messages() -> set:
    """Every message the core and Heart to Heart templates and modules ask for."""
    ids = set()
    for path in (ROOT / "templates").rglob("*.html"):
        if "hearts" in path.relative_to(ROOT / "templates").parts:
            continue
        options = {"extensions": "jinja2.ext.i18n"}
        ids.update(m[1] for m in extract_from_file(babel_extract, path, options=options))
    for path in (ROOT / "app" / "web").rglob("*.py"):
        if "hearts" in path.relative_to(ROOT / "app" / "web").parts or path.name.startswith("api"):
            continue
        ids.update(m[1] for m in extract_from_file("python", path))
    return ids


def test_every_message_has_a_vietnamese_translation():
    areas = ("core", "heart_to_heart", "daily", "hearts", "room")
    vi = {k: v for area in areas for k, v in _catalog("vi", area).items()}
    missing = [m for m in _my_messages() if not (vi.get(m) and all(vi[m]))]
    assert missing == []
    for area in areas:
        assert set(_catalog("en", area)) == set(_catalog("vi", area)), area


def test_areas_never_translate_one_message_two_ways():
    seen: dict = {}
    for lang in ("vi", "en"):
        for path in sorted((LOCALES_DIR / lang / "LC_MESSAGES").glob("*.po")):
            for message_id, text in _catalog(lang, path.stem).items():
                if not text or not any(text):
                    continue
                key = (lang, message_id)
                assert seen.setdefault(key, (text, path.name))[0] == text, (key, path.name)


def test_secret_key_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CARDROOM_SECRET_KEY", raising=False)
    first = Settings().secret_key
    assert len(first) >= 32
    assert (tmp_path / "data" / "secret_key").read_text() == first
    assert Settings().secret_key == first
    monkeypatch.setenv("CARDROOM_SECRET_KEY", "from-the-environment-long-enough-for-the-check")
    monkeypatch.setenv("CARDROOM_SECURE_COOKIES", "true")
    monkeypatch.setenv("CARDROOM_GAME_TTL_DAYS", "7")
    monkeypatch.setenv("CARDROOM_STORE_URL", "redis://127.0.0.1:6379/3")
    settings = Settings()
    assert settings.secret_key == "from-the-environment-long-enough-for-the-check"
    assert settings.secure_cookies is True
    assert settings.game_ttl_days == 7
    assert settings.store_url == "redis://127.0.0.1:6379/3"
    assert "from-the-environment-long-enough-for-the-check" not in repr(settings)


async def test_statistics_hooks_and_home_page(app, client):
    await client.get("/")
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    store = app.state.store
    await record_heart_to_heart_game(store, session_id, won=True, seconds=200, moves=90)
    await record_heart_to_heart_game(store, session_id, won=True, seconds=150, moves=120)
    await record_heart_to_heart_game(store, session_id, won=False, seconds=10, moves=3)
    await record_heart_to_heart_game(store, session_id, won=True, seconds=400, moves=80)
    await record_hearts_match(store, session_id, won=True, hand_points=[3, 26, 0], moons=1)
    await record_hearts_match(store, session_id, won=False, hand_points=[10], moons=0)
    await update_profile(store, session_id, lambda data: data.__setitem__("lang", "en"))
    home = (await client.get("/")).text

    def figure(label: str) -> str:
        return re.search(rf"<dt>{label}</dt><dd>([^<]*)</dd>", home).group(1)

    assert figure("Games played") == "4"
    assert figure("Games won") == "3"
    assert figure("Win rate") == "75%"
    assert figure("Current streak") == "1"
    assert figure("Best streak") == "2"
    assert figure("Best time") == "2:30"
    assert figure("Fewest moves") == "80"
    assert figure("Matches played") == "2"
    assert figure("Matches won") == "1"
    assert figure("Average points per hand") == "9.8"
    assert figure("Moons shot") == "1"


async def test_robots_keep_crawlers_to_the_public_pages(app, client):
    """robots.txt keeps crawlers from a session's own pages and from replays (each path the
    app's own, by its route's name, so none goes stale), and leaves the public pages open."""
    answer = await client.get("/robots.txt")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    assert "set-cookie" not in answer.headers
    lines = answer.text.splitlines()
    assert lines[0] == "User-agent: *"
    assert all(line.startswith("Disallow: /") for line in lines[1:])
    disallowed = [line.removeprefix("Disallow: ") for line in lines[1:]]
    kept_away = [app.url_path_for(name, **params) for name, params in (
        ("hearts_replay", {"game_id": "x"}), ("heart_to_heart_replay", {"game_id": "x"}),
        ("hearts_table_replay", {"table_id": "x"}), ("table_page", {"table_id": "x"}),
        ("watch_page", {"watch_code": "x"}), ("stats_page", {}), ("settings_page", {}),
    )] + ["/api/hearts/games"]
    for path in kept_away:
        assert any(path.startswith(prefix) for prefix in disallowed), path
    for prefix in disallowed:  # no line for a path the app does not have
        assert any(path.startswith(prefix) for path in kept_away), prefix
    for path in ("/", "/hearts/rules", "/heart-to-heart/deal/HH1-N-AAAAAAA",
                 "/hearts/daily/2026-12-01/results"):
        assert not any(path.startswith(prefix) for prefix in disallowed), path
