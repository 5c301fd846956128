"""Logs and metrics of real uvicorn servers (app/logs.py, app/web/observe.py, app/metrics.py).

- With ``CARDROOM_LOG_FORMAT=json`` and uvicorn's access log on, each request has one JSON
  access line (uvicorn's own is replaced, not doubled), found by its ``X-Request-ID``: the route
  template, the status, the duration and the session's hash, never its cookie; a warning written
  while serving a request carries that request's id.
- With two workers and ``PROMETHEUS_MULTIPROC_DIR``, ``/metrics`` counts every worker's
  requests, whichever worker answers the scrape.
"""

from __future__ import annotations

import json
import sqlite3

import httpx
from cardroom_pages import SECRET_KEY

from app.web.observe import session_hash
from app.web.session import COOKIE_NAME, SessionMiddleware


def lines_of(logs: str) -> list[dict]:
    return [json.loads(line) for line in logs.splitlines() if line.startswith("{")]


def test_a_json_access_line_per_request_found_by_its_request_id(start_server, sqlite_url):
    server = start_server(sqlite_url, uvicorn_args=("--log-level", "info"), log_format="json")
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        page = client.get("/hearts/rules", headers={"x-request-id": "club-42.a"})
        assert page.status_code == 200 and page.headers["x-request-id"] == "club-42.a"
        cookie = client.cookies[COOKIE_NAME]
        game = client.post("/api/heart-to-heart/games", json={})
        insane = client.get(f"/api/heart-to-heart/games/{game.json()['game_id']}",
                            headers={"x-request-id": "a b" + "c" * 70})
        made = insane.headers["x-request-id"]
        assert made != "a b" + "c" * 70 and " " not in made
        # The store locked by another process past the app's patience: a 503 and a warning.
        lock = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            refused = client.post("/api/heart-to-heart/games", json={},
                                  headers={"x-request-id": "locked-1"})
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert refused.status_code == 503
    lines = lines_of(server.stopped_logs())

    session = SessionMiddleware(None, SECRET_KEY, False).session_from(cookie)
    assert session is not None
    (access,) = [line for line in lines if line["request_id"] == "club-42.a"]
    assert access["logger"] == "app.access"
    assert access["route"] == "/hearts/rules" and access["method"] == "GET"
    assert access["status"] == 200 and access["duration_ms"] > 0
    assert access["session"] == session_hash(session)
    assert access["time"].endswith("+00:00")
    (by_template,) = [line for line in lines if line["request_id"] == made]
    assert by_template["route"] == "/api/heart-to-heart/games/{game_id}"
    locked = [line for line in lines if line["request_id"] == "locked-1"]
    assert [line["logger"] for line in locked] == ["app.web.errors", "app.access"]
    assert locked[0]["level"] == "WARNING" and locked[1]["status"] == 503
    # uvicorn's lines take the same form; its access line is not written beside the app's.
    assert any(line["logger"].startswith("uvicorn") for line in lines)
    assert not any(line["logger"] == "uvicorn.access" for line in lines)
    # One line per request (the start-up's /healthz probes aside).
    access_lines = [line for line in lines if line["logger"] == "app.access"]
    assert sum(line["route"] != "/healthz" for line in access_lines) == 4
    assert session not in json.dumps(lines) and cookie not in json.dumps(lines)


def test_two_workers_metrics_count_every_workers_requests(start_server, sqlite_url, tmp_path):
    shared = tmp_path / "metrics"
    shared.mkdir()
    server = start_server(
        sqlite_url, uvicorn_args=("--workers", "2", "--no-access-log"), metrics="true",
        env={"PROMETHEUS_MULTIPROC_DIR": str(shared)},
    )
    requests = 40

    def health_checks(client: httpx.Client) -> float:
        wanted = 'cardroom_http_requests_total{method="GET",route="/healthz",status="200"}'
        lines = client.get("/metrics").text.splitlines()
        return sum(float(line.split()[-1]) for line in lines if line.startswith(wanted))

    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        before = health_checks(client)
        for _ in range(requests):  # a new connection each: the kernel spreads them
            assert client.get("/healthz", headers={"connection": "close"}).status_code == 200
        assert health_checks(client) - before == requests
    # The workers each keep their own file, which the scrape adds up.
    assert len(list(shared.glob("counter_*.db"))) == 2
