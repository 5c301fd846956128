"""The route class of the JSON API routers: a body that cannot even be decoded (bytes that are
not UTF-8 under a JSON content type, which FastAPI answers with a bare 400) is malformed input
like any other, so it gets the API's 422."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException


class ApiRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                return await handler(request)
            except HTTPException as error:
                # The API raises no 400 of its own: this is FastAPI failing to read the body.
                if error.status_code != 400:
                    raise
                problem = {"type": "body", "loc": ("body",), "msg": "The body is not UTF-8 JSON."}
                raise RequestValidationError([problem]) from error

        return route
