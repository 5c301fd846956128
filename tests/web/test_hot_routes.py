"""The hot routes (app/web/hot_routes.py): Heart to Heart taps and undos, page and API, are
answered below FastAPI's router, with the app's middleware and error answers all the same; any
other request goes on to the router."""

from __future__ import annotations

import pytest
from fastapi import FastAPI

from app.web.hot_routes import HotRoutes
from tests.reliability.cardroom_pages import HX, h2h_board


@pytest.fixture
def routed(app: FastAPI) -> list[tuple[str, str]]:
    """The (method, path) of each request that reaches FastAPI's router."""
    hot = app.router.middleware_stack
    assert isinstance(hot, HotRoutes)
    router_stack = hot.app
    seen: list[tuple[str, str]] = []

    async def recording(scope, receive, send):
        seen.append((scope["method"], scope["path"]))
        await router_stack(scope, receive, send)

    hot.app = recording
    return seen


async def test_taps_and_undos_are_answered_before_the_router(client, routed):
    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
    page = f"/heart-to-heart/games/{game_id}"
    api = f"/api{page}"
    routed.clear()
    tap = await client.post(f"{page}/tap", data={"target": "stock", "version": str(version)},
                            headers=HX)
    assert tap.status_code == 200
    assert tap.headers["cache-control"] == "no-store"
    assert "content-security-policy" in tap.headers
    undo = await client.post(f"{page}/undo", data={"version": str(version + 1)})
    assert undo.status_code == 200
    assert undo.text.startswith("<!doctype html>")  # the whole page, links made by url_for
    state = (await client.post(f"{api}/tap", json={"target": "stock"})).json()
    assert state["version"] == version + 3
    assert (await client.post(f"{api}/undo", json={"version": state["version"]})).status_code == 200
    # Errors raised there get the app's answers, in the browser's language.
    vi = {"accept-language": "vi"}
    bad = await client.post(f"{api}/tap", json={"target": "heart:99"}, headers=vi)
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] in {"invalid_request", "invalid_target"}
    assert (await client.post(f"{api}/tap", content=b"{", headers={
        "content-type": "application/json"})).json()["error"]["code"] == "invalid_request"
    missing = await client.post("/api/heart-to-heart/games/nosuchgame/undo", headers=vi)
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert missing.json()["error"]["message"].startswith("Ván này")  # Vietnamese
    refused = await client.post(f"{page}/tap", data={"target": "stock", "version": "x"}, headers=HX)
    assert refused.status_code == 400
    assert "<!doctype html>" in refused.text
    assert routed == []


async def test_everything_else_goes_to_the_router(client, routed):
    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
    page = f"/heart-to-heart/games/{game_id}"
    others = [
        ("GET", f"{page}/tap", 405),
        ("GET", f"/api{page}/tap", 405),
        ("POST", f"{page}/tap/", 307),  # the router's redirect to the path without the slash
        ("POST", f"{page}/hint", 200),
        ("POST", "/heart-to-heart/games/a/b/tap", 404),
    ]
    routed.clear()
    for method, path, status in others:
        answer = await client.request(method, path, data={"version": str(version)}, headers=HX,
                                      follow_redirects=False)
        assert answer.status_code == status, (method, path, answer.text)
    assert routed == [(method, path) for method, path, _ in others]
