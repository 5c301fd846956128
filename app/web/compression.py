"""Compressed answers (pure ASGI): pages and JSON of ``COMPRESS_MIN`` bytes or more go out
Brotli-compressed when the browser accepts it, else gzip.

Every page and API answer of this app is sent in one body message, so it is compressed whole;
a streamed answer (several body messages) and one already encoded (the static files,
app/web/static_files.py, are compressed once, on their first request) pass unchanged. A
tap's answer is a few hundred bytes and is sent as it is: below ``COMPRESS_MIN`` compression
saves less than it costs. The levels are fast ones: the work is done per request.
``Vary: Accept-Encoding`` is added only to an answer that chose a Cache-Control other than
no-store: app/web/security.py gives the others no-store, and a cache that keeps nothing needs
no Vary.
"""

from __future__ import annotations

import gzip
from collections.abc import Container

import brotli
from starlette.types import ASGIApp, Message, Receive, Scope, Send

COMPRESS_MIN = 1024
BROTLI_QUALITY = 4
GZIP_LEVEL = 6
# Best first: the first one the request accepts is used.
ENCODINGS = ("br", "gzip")
_COMPRESSIBLE = (b"text/", b"application/json", b"application/javascript", b"image/svg+xml")


def is_compressible(content_type: bytes) -> bool:
    return content_type.startswith(_COMPRESSIBLE)


def accepted_encoding(header: bytes | None, offered: Container[str]) -> str | None:
    """The best of ``ENCODINGS`` that ``offered`` holds and ``Accept-Encoding`` accepts (a
    q-value of 0 refuses one)."""
    if not header:
        return None
    accepted = set()
    for item in header.decode("latin-1").lower().split(","):
        name, _, params = item.partition(";")
        if _quality(params.replace(" ", "")) > 0:
            accepted.add(name.strip())
    for encoding in ENCODINGS:
        if encoding in offered and encoding in accepted:
            return encoding
    return None


def _quality(params: str) -> float:
    if not params.startswith("q="):
        return 1.0
    try:
        return float(params[2:])
    except ValueError:
        return 0.0


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


class CompressionMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accept = None
        for key, value in scope["headers"]:
            if key == b"accept-encoding":
                accept = value
                break
        start: Message | None = None

        async def compressing_send(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message  # held until the body shows whether to compress
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            held, start = start, None
            body = message.get("body", b"")
            headers = held.get("headers", [])
            if not message.get("more_body") and len(body) >= COMPRESS_MIN:
                content_type = cache_control = b""
                for key, value in headers:
                    if key == b"content-encoding":
                        content_type = b""  # encoded already
                        break
                    if key == b"content-type":
                        content_type = value
                    elif key == b"cache-control":
                        cache_control = value
                if is_compressible(content_type):
                    headers = [(k, v) for k, v in headers if k != b"content-length"]
                    if cache_control and b"no-store" not in cache_control:
                        headers.append((b"vary", b"Accept-Encoding"))
                    encoding = accepted_encoding(accept, ENCODINGS)
                    if encoding is not None:
                        body = compress(body, encoding)
                        headers.append((b"content-encoding", encoding.encode()))
                        message = {**message, "body": body}
                    headers.append((b"content-length", str(len(body)).encode()))
                    held = {**held, "headers": headers}
            await send(held)
            await send(message)

        await self.app(scope, receive, compressing_send)
