"""Every page form, read by FastAPI from its model (app/web/forms.py), refuses hostile input with
a 4xx and never a 5xx: each field of each form route gets each hostile value in turn, the
other fields valid, as a plain post and as an htmx one.

The routes and their fields are found from the app itself, so a form added later is covered.
Numbers are ASCII digits only: "²" passes ``str.isdigit()`` but not ``int()``, and once gave a
500 on every page action. An optional field left empty counts as absent (an empty form input),
so "" is refused only where a field is required.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Annotated, Any, get_args, get_origin

import httpx
import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app.main import ROUTERS
from app.web.forms import PageForm
from tests.reliability.cardroom_pages import HX

HOSTILE_NUMBERS = ("²", "", "1e3", "-1", "9" * 40, "١٢", " 1", "1_0", "0x1")
HOSTILE_TEXTS = ("²", "\x00", "x" * 5000, "%", "<script>", "ZZ", "")
# A valid value for each field that a form requires, to reach the field under test.
VALID = {
    "target": "stock", "card": "2C", "version": "1", "name": "Lan", "choice": "add_to_others"
}


def form_model(route: APIRoute) -> type[BaseModel] | None:
    """The model a route reads its form into (``form: TapFormDep``, app/web/forms.py)."""
    hints = typing.get_type_hints(route.endpoint, include_extras=True)
    for hint in hints.values():
        if get_origin(hint) is Annotated:
            kind = get_args(hint)[0]
            if isinstance(kind, type) and issubclass(kind, PageForm):
                return kind
    return None


def is_numeric(annotation: Any) -> bool:
    if annotation in (int, float):
        return True
    if get_origin(annotation) is Annotated:
        return is_numeric(get_args(annotation)[0])
    if get_origin(annotation) in (typing.Union, types.UnionType):
        return any(is_numeric(arg) for arg in get_args(annotation) if arg is not type(None))
    return False


def form_routes() -> list[tuple[APIRoute, type[BaseModel]]]:
    found = []
    for route in (route for router in ROUTERS for route in router.routes):
        if isinstance(route, APIRoute) and "POST" in route.methods:
            model = form_model(route)
            if model is not None:
                found.append((route, model))
    return found


async def ids(client: httpx.AsyncClient) -> dict[str, str]:
    """Real path parameters of this browser: its games, a table it opened, a deal code."""
    h2h = (await client.get("/heart-to-heart")).text
    hearts = (await client.get("/hearts")).text
    table = await client.post("/hearts/tables", data={"name": "Lan"})
    return {
        "game_id": re.search(r"/heart-to-heart/games/([\w-]+)/tap", h2h).group(1),
        "hearts_game_id": re.search(r"/hearts/games/([\w-]+)/play", hearts).group(1),
        "table_id": table.headers["location"].rsplit("/", 1)[1],
        "code": "HH1-W-AAAAAAB",
    }


def path_of(route: APIRoute, known: dict[str, str]) -> str:
    game_id = known["hearts_game_id"] if route.path.startswith("/hearts/") else known["game_id"]
    return route.path.format(game_id=game_id, table_id=known["table_id"], code=known["code"])


def base_form(model: type[BaseModel]) -> dict[str, str]:
    return {name: VALID[name] for name, field in model.model_fields.items()
            if field.is_required()}


def test_the_page_forms_are_found():
    """The search below finds the actions of both games and of tables (else it proves little)."""
    paths = {route.path for route, _ in form_routes()}
    assert {
        "/heart-to-heart/games/{game_id}/tap", "/heart-to-heart/games/{game_id}/undo",
        "/hearts/games/{game_id}/play", "/hearts/games/{game_id}/pass",
        "/hearts/t/{table_id}/play", "/hearts/t/{table_id}/start", "/hearts/t/{table_id}/sit",
    } <= paths


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
async def test_hostile_values_in_every_field_of_every_page_form(app, client, htmx):
    known = await ids(client)
    headers = HX if htmx else {}
    checked = 0
    for route, model in form_routes():
        path = path_of(route, known)
        for name, field in model.model_fields.items():
            numeric = is_numeric(field.annotation)
            for value in HOSTILE_NUMBERS if numeric else HOSTILE_TEXTS:
                data = {**base_form(model), name: value}
                response = await client.post(path, data=data, headers=headers)
                where = (route.path, name, value[:12])
                assert response.status_code < 500, where
                refused = value != "" or field.is_required()
                if numeric and refused:
                    assert 400 <= response.status_code < 500, where
                checked += 1
    assert checked > 200
