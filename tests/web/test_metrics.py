"""``/metrics`` (app/metrics.py, app/web/observe.py): a 404 unless ``CARDROOM_METRICS=true``;
on, a scrape after a few actions finds every metric moved, the requests named by their route
template."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

import app.store.sqlite as sqlite_store
from app.main import create_app
from app.settings import Settings
from app.web.hearts.thinking import THINKING
from tests.conftest import BASE_URL
from tests.web.test_room import win_through_the_api
from tests.web.test_server_cost import another_request_first, drawn

Samples = dict[tuple[str, frozenset], float]
DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "grafana-dashboard.json"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"metrics": True})


async def scrape(client: httpx.AsyncClient) -> Samples:
    answer = await client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "set-cookie" not in answer.headers
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
def locked(app) -> Iterator[sqlite3.Connection]:
    """The store's file with its write lock taken, as another process holds it."""
    lock = sqlite3.connect(app.state.settings.store_url.removeprefix("sqlite:///"),
                           isolation_level=None)
    yield lock
    if lock.in_transaction:
        lock.execute("ROLLBACK")
    lock.close()


async def first_event(app, path: str, cookie: str) -> tuple[asyncio.Task, asyncio.Queue]:
    """A table's event stream opened over ASGI, once its first event came; the stream ends when
    the queue it reads gets a disconnect."""
    incoming: asyncio.Queue = asyncio.Queue()
    bodies: asyncio.Queue = asyncio.Queue()
    await incoming.put({"type": "http.request", "body": b"", "more_body": False})

    async def send(message: dict) -> None:
        if message.get("body"):
            await bodies.put(message["body"])

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
             "server": ("testserver", 80), "state": {},
             "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())]}
    task = asyncio.create_task(app(scope, incoming.get, send))
    assert b"data:" in await asyncio.wait_for(bodies.get(), 10)
    return task, incoming


async def test_metrics_are_a_404_unless_turned_on(tmp_path):
    off = create_app(Settings(store_url=f"sqlite:///{tmp_path / 's.sqlite3'}",
                              secret_key="k" * 32, rate_limit_scale=0))
    async with off.router.lifespan_context(off), httpx.AsyncClient(
        transport=httpx.ASGITransport(app=off), base_url=BASE_URL
    ) as client:
        assert (await client.get("/metrics")).status_code == 404


async def test_a_scrape_after_a_few_actions_finds_every_metric_moved(
    app, client, new_client, locked, monkeypatch
):
    before = await scrape(client)

    # Solo play: a Heart to Heart game won, a Hearts match against Hard bots played to its end
    # (to 50, the lowest target: fewer hands of Hard's searches).
    await win_through_the_api(client)
    state = (await client.post("/api/hearts/games",
                               json={"deal": "HT1-H-AAAAAAB", "rules": {"target": 50}})).json()
    url = f"/api/hearts/games/{state['game_id']}"
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            answer = await client.post(f"{url}/pass", json={"cards": state["hand"][:3]})
        elif state["phase"] == "hand_over":
            answer = await client.post(f"{url}/next-hand", json={})
        else:
            answer = await client.post(f"{url}/play", json={"card": state["legal"][0]})
        assert answer.status_code == 200, answer.text
        state = answer.json()

    # A tap without a version that loses its compare-and-set to another tab's, and is retried.
    game = (await client.post("/api/heart-to-heart/games", json={})).json()
    with another_request_first(app.state.store, drawn):
        tapped = await client.post(f"/api/heart-to-heart/games/{game['game_id']}/tap",
                                   json={"target": "stock"})
    assert tapped.status_code == 200

    # A table: opened, started (bots in the empty seats), its event stream open.
    table = (await client.post("/api/hearts/tables", json={"turn_seconds": None})).json()
    events = f"/api/hearts/tables/{table['table_id']}/events"
    assert (await client.post(f"/api/hearts/tables/{table['table_id']}/start")).status_code == 200
    cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    stream, incoming = await first_event(app, events, cookie)
    during = await scrape(client)

    # The bots' queue full: a turn refused. The store locked past its patience: a 503.
    monkeypatch.setattr(THINKING, "max_wait", -1.0)
    busy = await client.post(f"{url}/play", json={"card": "2C"})
    assert busy.status_code == 503
    monkeypatch.undo()
    monkeypatch.setattr(sqlite_store, "BUSY_GIVE_UP", 0.2)
    locked.execute("BEGIN EXCLUSIVE")
    assert (await client.post("/api/heart-to-heart/games", json={})).status_code == 503
    locked.execute("ROLLBACK")

    await incoming.put({"type": "http.disconnect"})
    await asyncio.wait_for(stream, 10)
    after = await scrape(client)

    play = {"method": "POST", "route": "/api/hearts/games/{game_id}/play"}
    assert moved(before, after, "cardroom_http_requests_total", **play, status="200") >= 13
    assert moved(before, after, "cardroom_http_requests_total", **play, status="503") == 1
    assert moved(before, after, "cardroom_http_request_duration_seconds_count", **play) >= 14
    assert moved(before, after, "cardroom_http_request_duration_seconds_sum", **play) > 0
    # No raw path is a label: the game's id appears nowhere.
    assert not any(state["game_id"] in dict(labels).get("route", "") for _, labels in after)
    assert moved(before, after, "cardroom_bot_decision_seconds_count", level="hard") >= 3 * 13
    assert moved(before, after, "cardroom_thinking_queue_wait_seconds_count") > 0
    assert moved(before, after, "cardroom_thinking_refused_total") == 1
    assert moved(before, during, "cardroom_table_streams_open") == 1
    assert moved(before, during, "cardroom_tables_live") == 1
    assert moved(before, after, "cardroom_table_streams_open") == 0
    assert moved(before, after, "cardroom_store_errors_total", backend="sqlite") == 1
    assert moved(before, after, "cardroom_cas_retries_total", what="game") == 1
    # Two Heart to Heart games stored; the one the locked store refused was not.
    for game, count in (("heart_to_heart", 2), ("hearts", 1), ("hearts_table", 1)):
        assert moved(before, after, "cardroom_games_started_total", game=game) == count, game
    for game in ("heart_to_heart", "hearts"):
        assert moved(before, after, "cardroom_games_finished_total", game=game) == 1, game


async def test_the_sample_dashboard_asks_only_for_metrics_the_app_serves(client):
    served = set(re.findall(r"^# TYPE (\w+) ", (await client.get("/metrics")).text, re.MULTILINE))
    panels = json.loads(DASHBOARD.read_text())["panels"]
    asked = {name for panel in panels for target in panel["targets"]
             for name in re.findall(r"\bcardroom_\w+", target["expr"])}
    assert asked
    for name in asked:
        family = re.sub(r"_(total|bucket|count|sum)$", "", name)
        assert family in served or name in served, name
