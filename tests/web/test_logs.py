"""app/logs.py in-process: the request id in each line, and tasks that outlive a request."""

from __future__ import annotations

import io
import json
import logging

from app.logs import REQUEST_ID, detached_task, handler_for


async def test_a_task_that_outlives_its_request_logs_under_no_request_id():
    out = io.StringIO()
    logger = logging.getLogger("app.test_logs")
    logger.addHandler(handler_for("json", out))
    logger.setLevel(logging.INFO)
    try:
        token = REQUEST_ID.set("req-1")
        logger.info("while serving")

        async def later() -> None:
            logger.info("in the background")

        await detached_task(later())
        REQUEST_ID.reset(token)
    finally:
        logger.handlers.clear()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["message"], line["request_id"]) for line in lines] == [
        ("while serving", "req-1"), ("in the background", "-")]
