"""Every JSON route refuses hostile bodies with a 4xx and never a 5xx: each field of each body
model gets each hostile value in turn, and every route gets bodies that are no JSON object at
all (nested 8,000 deep, not UTF-8, a bare string). The routes and their models are found from
the app's routers, so a route added later is covered."""

from __future__ import annotations

import json

import httpx
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app.main import ROUTERS

HOSTILE_VALUES = ("²", "", "1e3", -1, 10**40, "9" * 40, 1.5, True, None, [], {}, "x" * 5000,
                  "\x00")
DEEP = b"[" * 8000 + b"]" * 8000
BROKEN_BODIES = (DEEP, b'{"a":' + DEEP + b"}", b"\xff\xfe", b'"stock"', b"[]", b"{")


def json_routes() -> list[tuple[APIRoute, type[BaseModel] | None]]:
    found = []
    for route in (route for router in ROUTERS for route in router.routes):
        if (isinstance(route, APIRoute) and route.path.startswith("/api/")
                and route.methods & {"POST", "PUT"}):
            model = None
            if route.body_field is not None:
                annotation = route.body_field.field_info.annotation
                for kind in (annotation, *getattr(annotation, "__args__", ())):
                    if isinstance(kind, type) and issubclass(kind, BaseModel):
                        model = kind
            found.append((route, model))
    return found


async def path_values(client: httpx.AsyncClient) -> dict[str, str]:
    h2h = (await client.post("/api/heart-to-heart/games", json={})).json()
    hearts = (await client.post("/api/hearts/games", json={})).json()
    table = (await client.post("/api/hearts/tables", json={"name": "Lan"})).json()
    return {"h2h": h2h["game_id"], "hearts": hearts["game_id"], "table_id": table["table_id"]}


def path_of(route: APIRoute, known: dict[str, str]) -> str:
    game_id = known["h2h"] if route.path.startswith("/api/heart-to-heart/") else known["hearts"]
    return route.path.format(game_id=game_id, table_id=known["table_id"])


async def test_the_json_routes_are_found():
    paths = {route.path for route, _ in json_routes()}
    assert {"/api/heart-to-heart/games/{game_id}/tap", "/api/hearts/games/{game_id}/play",
            "/api/hearts/tables/{table_id}/play", "/api/settings"} <= paths


async def test_hostile_bodies_on_every_json_route(client):
    known = await path_values(client)
    checked = 0
    for route, model in json_routes():
        method = "PUT" if "PUT" in route.methods else "POST"
        path = path_of(route, known)
        for raw in BROKEN_BODIES:
            response = await client.request(
                method, path, content=raw, headers={"content-type": "application/json"})
            assert 400 <= response.status_code < 500, (route.path, raw[:12])
            assert response.json()["error"]["code"], route.path
            checked += 1
        for name in (model.model_fields if model else ()):
            for value in HOSTILE_VALUES:
                body = json.dumps({name: value}).encode()
                response = await client.request(
                    method, path, content=body, headers={"content-type": "application/json"})
                assert response.status_code < 500, (route.path, name, repr(value)[:12])
                checked += 1
    assert checked > 300
