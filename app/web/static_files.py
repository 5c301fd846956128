"""Static files, served from memory with fingerprinted URLs and compressed once.

Pages name a file through ``static("css/app.css")`` (app/web/templating.py), which gives its
fingerprinted URL, ``/static/<hash>/css/app.css``: the hash is of the file's content, so the
URL changes whenever the file does, and browsers and shared caches may keep it for a year
without asking again (``immutable``). The plain URL (``/static/css/app.css``) still answers,
with an ETag, for anything that links to it by name; caches must revalidate it.

The files are read when the app starts (``make setup`` copies the vendored ones first). Text
files over ``COMPRESS_MIN`` bytes are also sent Brotli- or gzip-compressed at high levels,
chosen by the request's ``Accept-Encoding``: each file is compressed on its first request and
kept, so the work is done once per start, and only for the files asked for (Swagger UI's,
most of the work, only when someone opens /docs). A request names a file only through this
table, never through the file system.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import brotli
from starlette.exceptions import HTTPException
from starlette.routing import get_route_path
from starlette.types import Receive, Scope, Send

from app.web.compression import COMPRESS_MIN, accepted_encoding, is_compressible

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "static"
PREFIX = "/static/"
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"
HASH_LENGTH = 10
BEST_BROTLI_UP_TO = 256 * 1024


@dataclass(slots=True)
class Asset:
    """One file: its bytes, and, once first asked for, the same compressed by each encoding
    that made it smaller."""

    name: str  # path under static/, like "css/app.css"
    url: str  # the fingerprinted URL
    content_type: str
    etag: bytes
    body: bytes
    compressible: bool
    _encoded: dict[str, bytes] | None = None

    async def encoded(self) -> dict[str, bytes]:
        # In a thread: Swagger UI's bundle takes a good part of a second, in which the event
        # loop keeps answering (Brotli and zlib let go of the GIL).
        if self._encoded is None:
            self._encoded = (await asyncio.to_thread(_compressed, self.body)
                             if self.compressible else {})
        return self._encoded


def fingerprinted(name: str, digest: str) -> str:
    """``css/app.css`` → ``<digest>/css/app.css``: the file keeps its name (and its folder's
    relative links), under a folder named by its content."""
    return f"{digest}/{name}"


def _asset(path: Path, name: str) -> Asset:
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if content_type.startswith("text/") or content_type == "application/javascript":
        content_type += "; charset=utf-8"
    compressible = len(body) >= COMPRESS_MIN and is_compressible(content_type.encode())
    return Asset(
        name, PREFIX + fingerprinted(name, digest), content_type, f'"{digest}"'.encode(), body,
        compressible,
    )


def _compressed(body: bytes) -> dict[str, bytes]:
    # Brotli's best quality costs about 1.3 s per MB: the large vendored files (Swagger UI)
    # take a level that costs 20 times less and gives 10% more bytes.
    quality = 11 if len(body) < BEST_BROTLI_UP_TO else 9
    encoded = {}
    for encoding, packed in (
        ("br", brotli.compress(body, quality=quality)),
        ("gzip", gzip.compress(body, compresslevel=9, mtime=0)),
    ):
        if len(packed) < len(body):
            encoded[encoding] = packed
    return encoded


@cache
def assets() -> dict[str, Asset]:
    """Every static file by the path a request may name: plain and fingerprinted."""
    found: dict[str, Asset] = {}
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            asset = _asset(path, path.relative_to(STATIC_DIR).as_posix())
            found[PREFIX + asset.name] = asset
            found[asset.url] = asset
    return found


def static_url(name: str) -> str:
    """The fingerprinted URL of ``static/<name>`` (the plain one for a file that is missing)."""
    asset = assets().get(PREFIX + name)
    return asset.url if asset is not None else PREFIX + name


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return value
    return None


async def serve_static(scope: Scope, receive: Receive, send: Send) -> None:
    """The ASGI app mounted at /static."""
    if scope["method"] not in ("GET", "HEAD"):
        raise HTTPException(405, headers={"Allow": "GET, HEAD"})
    path = PREFIX + get_route_path(scope).lstrip("/")  # the path under the mount
    asset = assets().get(path)
    if asset is None:
        raise HTTPException(404)
    headers = [
        (b"content-type", asset.content_type.encode()),
        (b"etag", asset.etag),
        (b"cache-control", IMMUTABLE if path == asset.url else REVALIDATE),
    ]
    if asset.compressible:
        headers.append((b"vary", b"Accept-Encoding"))
    if _header(scope, b"if-none-match") == asset.etag:
        await send({"type": "http.response.start", "status": 304, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
        return
    body = asset.body
    encoded = await asset.encoded()
    encoding = accepted_encoding(_header(scope, b"accept-encoding"), encoded)
    if encoding is not None:
        body = encoded[encoding]
        headers.append((b"content-encoding", encoding.encode()))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
