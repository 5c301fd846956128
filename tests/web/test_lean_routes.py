"""A lean endpoint (app/web/api_route.py) reads its body model as FastAPI would: the same
model, declared once as a lean route and once as a plain FastAPI route, answers every body
alike, accepted or refused."""

from __future__ import annotations

import httpx
import pytest
from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse

from app.web.api_models import HeartToHeartTap
from app.web.api_route import ApiRoute, lean

router = APIRouter(route_class=ApiRoute)


def read(body: HeartToHeartTap) -> dict:
    return {"read": body.model_dump(), "type": type(body).__name__}


@router.post("/lean")
@lean
async def lean_echo(body: HeartToHeartTap) -> JSONResponse:
    return JSONResponse(read(body))


@router.post("/plain")
async def plain_echo(body: HeartToHeartTap) -> dict:
    return read(body)


JSON = "application/json"
BODIES = [
    (b'{"target": "heart:3", "version": 4}', JSON),
    (b'{"target": "stock"}', JSON),
    (b'{"target": "waste", "version": null}', JSON),
    (b'{"target": "stock", "target": "heart:1"}', JSON),  # the last one counts
    (b'{"target": "heart:3", "version": "4"}', JSON),  # strict: no string for a number
    (b'{"target": "heart:3", "version": 4.0}', JSON),
    (b'{"target": "heart:3", "version": true}', JSON),
    (b'{"target": "heart:25"}', JSON),
    (b'{"target": "stock", "extra": 1}', JSON),
    (b'{"version": 4}', JSON),
    (b'["stock"]', JSON),
    (b'"stock"', JSON),
    (b'{"target": "stock"', JSON),
    (b'', JSON),
    (b'{"target": "st\xffock"}', JSON),
    (b'{"target": "stock"}', "application/vnd.cardroom+json; charset=utf-8"),
    (b'{"target": "stock"}', "text/plain"),
    (b'target=stock', "application/x-www-form-urlencoded"),
]


@pytest.mark.parametrize(("body", "content_type"), BODIES)
async def test_a_lean_route_reads_a_body_as_fastapi_does(body: bytes, content_type: str):
    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        headers = {"content-type": content_type}
        lean_answer = await client.post("/lean", content=body, headers=headers)
        plain_answer = await client.post("/plain", content=body, headers=headers)
    assert lean_answer.status_code == plain_answer.status_code
    assert lean_answer.json() == plain_answer.json()


async def test_the_bodies_cover_both_ways_in():
    """Some bodies above are accepted (the quick way), some refused (FastAPI's way)."""
    app = FastAPI()
    app.include_router(router)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        codes = [(await client.post("/lean", content=body, headers={"content-type": kind}))
                 .status_code for body, kind in BODIES]
    assert codes.count(200) >= 4 and codes.count(422) >= 8
