"""The urlencoded forms of the hottest page routes (a tap, an undo), read by hand.

starlette's general form parser and even ``urllib.parse.parse_qsl`` cost a tap more than the
few short fields they decode; :func:`parse_urlencoded` reads them the way ``parse_qsl`` does
(tests/web/test_forms.py checks it against ``parse_qsl``), taking its slow path only for a field
that needs decoding.
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from starlette.requests import ClientDisconnect, Request


def parse_urlencoded(text: str, max_fields: int) -> dict[str, str]:
    """The fields of ``text`` as ``dict(parse_qsl(text, max_num_fields=max_fields))`` gives
    them: blank values and parts without "=" left out, the last of a repeated name kept.
    ValueError when there are more than ``max_fields`` fields."""
    if text.count("&") >= max_fields:
        raise ValueError("too many fields")
    fields: dict[str, str] = {}
    for part in text.split("&"):
        name, equals, value = part.partition("=")
        if not equals or not value:
            continue
        if "%" in part or "+" in part:
            name, value = unquote_plus(name), unquote_plus(value)
        fields[name] = value
    return fields


async def read_body(request: Request) -> bytes:
    """The request's whole body, straight from its ASGI messages (the body is read once:
    ``request.body()`` must not be called after)."""
    chunks = []
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
