"""Route classes.

:class:`LeanRoute`: an endpoint marked with :func:`lean` is called without FastAPI's general
request handling. The hottest routes (a tap, an undo) take only what :func:`lean` supports: the
``Request``, ``str`` path parameters, one JSON body model and the :data:`~app.web.deps.VisitDep`
or :data:`~app.web.deps.ArrivalDep` dependency. Their declaration stays what FastAPI documents
(the OpenAPI schema is unchanged). A body the model accepts is validated straight from its
bytes; any other goes through FastAPI's own function, so a bad body gets the very errors it
would get otherwise. What is left out is the general machinery (solving a tree of dependencies,
telemetry hooks, response models) that such an endpoint does not use.

:class:`ApiRoute`, the route class of the JSON API routers: a body that cannot even be decoded
(bytes that are not UTF-8 under a JSON content type, which FastAPI answers with a bare 400) is
malformed input like any other, so it gets the API's 422.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from contextlib import suppress
from typing import Any, TypeVar

from fastapi import Request, Response
from fastapi._compat import Undefined
from fastapi.dependencies.utils import request_body_to_args
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute

from app.web.deps import get_arrival, get_visit

Handler = Callable[[Request], Coroutine[Any, Any, Response]]
Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])

_LEAN: set[Callable[..., Any]] = set()
# The dependencies a lean endpoint may take (one of them).
VISITS = (get_visit, get_arrival)


def lean(endpoint: Endpoint) -> Endpoint:
    """Mark ``endpoint`` to be called by :class:`LeanRoute` without FastAPI's general request
    handling (put it under the route's decorator)."""
    _LEAN.add(endpoint)
    return endpoint


def is_lean(route: BaseRoute) -> bool:
    """Whether ``route`` calls a :func:`lean` endpoint without FastAPI's general handling."""
    return isinstance(route, LeanRoute) and route.endpoint in _LEAN


def _json_content_type(value: str | None) -> bool:
    """Whether FastAPI reads a body of this Content-Type as JSON: application/json or
    application/*+json (parameters and case aside)."""
    if not value:
        return False
    kind = value.partition(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


async def json_body(request: Request) -> Any:
    """The body as FastAPI reads it for a body model: Undefined when empty, the decoded JSON under a
    JSON content type (RequestValidationError ``json_invalid`` when it is not JSON), else the
    bytes (which the model then refuses); HTTPException 400 when it is not UTF-8."""
    raw = await request.body()
    if not raw:
        return Undefined
    if not _json_content_type(request.headers.get("content-type")):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        problem = {"type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error",
                   "input": {}, "ctx": {"error": error.msg}}
        raise RequestValidationError([problem], body=error.doc) from error
    except ValueError as error:  # not UTF-8
        raise HTTPException(400, "There was an error parsing the body") from error


class LeanRoute(APIRoute):
    def get_route_handler(self) -> Handler:
        if self.endpoint not in _LEAN:
            return super().get_route_handler()
        dependant = self.dependant
        unsupported = (dependant.query_params or dependant.header_params
                       or dependant.cookie_params or dependant.response_param_name
                       or dependant.background_tasks_param_name or len(dependant.body_params) > 1
                       or len(dependant.dependencies) > 1
                       or any(d.call not in VISITS for d in dependant.dependencies)
                       or any(field.field_info.annotation is not str or field.field_info.metadata
                              for field in dependant.path_params))
        if unsupported:
            raise TypeError(f"{self.path}: a lean endpoint takes only the request, path "
                            "parameters, one body model and VisitDep or ArrivalDep")
        endpoint = self.endpoint
        path_names = [field.name for field in dependant.path_params]
        request_name = dependant.request_param_name
        # The one dependency, if any: one of VISITS (checked above).
        dependency = dependant.dependencies[0] if dependant.dependencies else None
        visit_name = None if dependency is None else dependency.name
        visit_of = None if dependency is None else dependency.call
        body_fields = dependant.body_params
        embed = self._embed_body_fields
        # A body that is one model, as JSON, is validated straight from its bytes; what that
        # refuses goes through FastAPI's own reading, for its very errors.
        annotation = body_fields[0].field_info.annotation if len(body_fields) == 1 else None
        model = (annotation if not embed and isinstance(annotation, type)
                 and issubclass(annotation, BaseModel) else None)

        async def body_values(request: Request) -> dict[str, Any]:
            if model is not None and _json_content_type(request.headers.get("content-type")):
                with suppress(ValidationError):
                    return {body_fields[0].name: model.model_validate_json(await request.body())}
            body = await json_body(request)
            found, errors = await request_body_to_args(body_fields, body, embed)
            if errors:
                raise RequestValidationError(errors, body=body)
            return found

        async def handler(request: Request) -> Response:
            path_params = request.path_params
            values: dict[str, Any] = {name: path_params[name] for name in path_names}
            if body_fields:
                values.update(await body_values(request))
            if request_name is not None:
                values[request_name] = request
            if visit_name is not None and visit_of is not None:
                values[visit_name] = await visit_of(request)
            return await endpoint(**values)

        return handler


class ApiRoute(LeanRoute):
    def get_route_handler(self) -> Handler:
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
