"""The logs: one access line per request, and the request's id in every line written while
serving it (``CARDROOM_LOG_FORMAT``: ``text``, the default, or ``json``, one object a line).

The request id lives in a context variable (set by app/web/observe.py for the time of a
request); a filter on the handler copies it into each record. Under uvicorn this module's
handler replaces uvicorn's own (so its start-up and error lines take the same format and id),
and the app writes the access line in place of uvicorn's: it knows the route template and the
session. uvicorn's ``--no-access-log`` and ``--log-level`` still decide whether there is one.
Run in-process (tests, benchmarks), logging is left as it is and there is no access line.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sys
from collections.abc import Coroutine
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import orjson

T = TypeVar("T")
LogFormat = Literal["text", "json"]

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="-")
ACCESS = logging.getLogger("app.access")

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"


def detached_task(work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """A task that outlives the request that happened to start it (a table's clock, a change
    feed's reader): run outside that request's context, so its log lines name no request."""
    return asyncio.create_task(work, context=contextvars.Context())


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request being served (``-`` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id, and
    an access line's fields (``extra={"access": {...}}``)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        access = getattr(record, "access", None)
        if access is not None:
            line.update(access)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()


def handler_for(log_format: LogFormat, stream: Any = None) -> logging.Handler:
    """A handler writing ``log_format`` lines to ``stream`` (stderr), with request ids."""
    handler = logging.StreamHandler(stream or sys.stderr)
    text = logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(JsonFormatter() if log_format == "json" else text)
    handler.addFilter(RequestIdFilter())
    return handler


def configure_logging(log_format: LogFormat) -> None:
    """Under uvicorn (its loggers have their handlers): one handler of ``log_format`` for the
    app's and uvicorn's lines, and the app's access line instead of uvicorn's, at uvicorn's
    level. Otherwise nothing changes, and no access line is written."""
    uvicorn, uvicorn_access = logging.getLogger("uvicorn"), logging.getLogger("uvicorn.access")
    if not uvicorn.handlers:
        return
    access_on = uvicorn_access.hasHandlers() and uvicorn_access.isEnabledFor(logging.INFO)
    handler = handler_for(log_format)
    uvicorn.handlers = [handler]
    app = logging.getLogger("app")
    app.handlers = [handler]
    app.propagate = False
    app.setLevel(logging.getLogger("uvicorn.error").getEffectiveLevel())
    ACCESS.setLevel(logging.INFO if access_on else logging.CRITICAL + 1)
    # Never two access lines: uvicorn writes none once its access logger has no handler.
    uvicorn_access.handlers = []
    uvicorn_access.propagate = False
