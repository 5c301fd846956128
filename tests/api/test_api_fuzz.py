"""Schemathesis against ``/openapi.json`` of the real app (ASGI, a temporary SQLite store):
every operation on its own, then stateful runs that follow the schema's links from a new game
to its actions. No answer may be a 5xx or break the schema; input the schema refuses must be
refused (4xx).

The client holds one session cookie per app, so the games it creates are its own and the links
reach them. Checks that assume an action on valid input always succeeds are left out: a valid
body may still be a stale version or a move the rules refuse (409), by design.
"""

from __future__ import annotations

import random
import secrets

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.python.asgi import shutdown_lifespans
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ensure_resource_availability,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from app.main import create_app
from app.web.session import COOKIE_NAME, SessionMiddleware

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    unsupported_method,
]
STATEFUL_CHECKS = [*CHECKS, ensure_resource_availability]


def cookie_for(app, session_id: str) -> dict[str, str]:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False).signer
    return {COOKIE_NAME: signer.sign(session_id).decode()}


@pytest.fixture
def api_schema(settings):
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(settings))
    # A table's event streams only end after minutes: tests/tables reads them.
    yield schema.exclude(operation_id="hearts_table_events").exclude(
        operation_id="hearts_watch_events")
    # The ASGI transport keeps the app's lifespan (and its store) running until told.
    shutdown_lifespans()


FUZZ = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)
EXAMPLES = {GenerationMode.POSITIVE: 40, GenerationMode.NEGATIVE: 20}
STATEFUL_EXAMPLES = 40


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(EXAMPLES))
def test_every_operation(api_schema, mode):
    cookies = cookie_for(api_schema.app, "fuzz-operations")
    calls = 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        if mode == GenerationMode.NEGATIVE and operation.method.upper() == "GET":
            continue  # no body, and any string is a game id: nothing can be made invalid
        if mode == GenerationMode.NEGATIVE and not (
            operation.body or operation.path_parameters or operation.query
        ):
            continue  # nothing to make invalid (starting the daily takes no input)

        @settings(FUZZ, max_examples=EXAMPLES[mode])
        @given(case=operation.as_strategy(generation_mode=mode))
        def fuzz(case):
            nonlocal calls
            calls += 1
            case.call_and_validate(cookies=cookies, checks=CHECKS)

        fuzz()
    assert calls >= 12 * EXAMPLES[mode] // 2


@pytest.mark.slow
def test_stateful_games(api_schema, monkeypatch):
    app = api_schema.app
    machine = api_schema.as_state_machine()
    # A game started without a deal code gets a random one. Hypothesis replays the choices of
    # a scenario and needs the app to answer them the same way each time, so each scenario
    # draws its "random" deals from the same seeded sequence.
    deals = random.Random()
    monkeypatch.setattr(secrets, "randbelow", lambda bound: deals.randrange(bound))

    class Games(machine):
        runs = 0

        def setup(self) -> None:
            deals.seed(0)
            # A session of its own per scenario, so each starts without games.
            Games.runs += 1
            self.cookies = cookie_for(app, f"fuzz-scenario-{Games.runs}")

        def get_call_kwargs(self, case):
            return {"cookies": self.cookies}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=STATEFUL_CHECKS)

    Games.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=20,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
    # Enough scenarios ran (Hypothesis may end a few early; derandomized, so always the same).
    assert Games.runs >= STATEFUL_EXAMPLES * 3 // 4


async def test_the_schema_describes_the_json_api_and_nothing_else(client):
    spec = (await client.get("/openapi.json")).json()
    assert set(spec["paths"]) == {
        "/api/heart-to-heart/games",
        "/api/heart-to-heart/games/{game_id}",
        "/api/heart-to-heart/games/{game_id}/tap",
        "/api/heart-to-heart/games/{game_id}/undo",
        "/api/heart-to-heart/games/{game_id}/hint",
        "/api/heart-to-heart/games/{game_id}/review",
        "/api/heart-to-heart/games/{game_id}/back",
        "/api/heart-to-heart/options",
        "/api/hearts/games",
        "/api/hearts/games/{game_id}",
        "/api/hearts/games/{game_id}/pass",
        "/api/hearts/games/{game_id}/play",
        "/api/hearts/games/{game_id}/undo",
        "/api/hearts/games/{game_id}/next-hand",
        "/api/hearts/games/{game_id}/moon",
        "/api/hearts/games/{game_id}/hint",
        "/api/heart-to-heart/daily",
        "/api/hearts/daily",
        "/api/heart-to-heart/deals/{code}/results",
        "/api/hearts/deals/{code}/results",
        "/api/heart-to-heart/daily/{day}/results",
        "/api/hearts/daily/{day}/results",
        "/api/hearts/tables",
        "/api/hearts/tables/{table_id}",
        "/api/hearts/tables/{table_id}/seats",
        "/api/hearts/tables/{table_id}/start",
        "/api/hearts/tables/{table_id}/pass",
        "/api/hearts/tables/{table_id}/play",
        "/api/hearts/tables/{table_id}/next-hand",
        "/api/hearts/tables/{table_id}/moon",
        "/api/hearts/tables/{table_id}/back",
        "/api/hearts/tables/{table_id}/reactions",
        "/api/hearts/tables/{table_id}/events",
        "/api/hearts/watch/{watch_code}",
        "/api/hearts/watch/{watch_code}/events",
        "/api/settings",
        "/api/hearts/games/{game_id}/replay",
        "/api/hearts/tables/{table_id}/replay",
        "/api/heart-to-heart/games/{game_id}/replay",
    }
    schemas = spec["components"]["schemas"]
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            body = operation.get("requestBody")
            if body:  # every body has a model with examples
                ref = body["content"]["application/json"]["schema"]
                name = (ref.get("$ref") or ref["anyOf"][0]["$ref"]).rsplit("/", 1)[1]
                assert schemas[name].get("examples"), (path, method)
            for status, answer in operation["responses"].items():
                if status.startswith("4"):
                    assert answer["content"]["application/json"]["schema"]["$ref"].endswith(
                        ("ErrorResponse", "Conflict")
                    ), (path, method, status)
    assert (await client.get("/docs")).status_code == 200
