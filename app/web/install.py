"""Install and offline: the web app manifest, the service worker and its offline page.

The service worker (static/js/sw.js) is served from ``/sw.js`` so that its scope is the whole
site. Its first line, written here, names this build's static files (with their content
versions) and a cache named after them: a new build brings a new worker, which fills a new
cache and drops the old one.
"""

from __future__ import annotations

import hashlib
import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.web.deps import Lang
from app.web.i18n import translator
from app.web.static_files import STATIC_DIR, assets, static_url
from app.web.templating import page

router = APIRouter(include_in_schema=False)

THEME_COLOUR = "#0f5132"
BACKGROUND_COLOUR = "#0f4a26"
OFFLINE_PATH = "/offline"
# Swagger UI is for /docs, which needs the network anyway.
NOT_CACHED = ("vendor/swagger-ui/", "js/swagger-init.js", "js/sw.js")


def precached() -> list[str]:
    """The fingerprinted URLs of the static files every page may need offline."""
    names = sorted({asset.name for asset in assets().values()})
    return [static_url(name) for name in names if not name.startswith(NOT_CACHED)]


def _worker_script() -> bytes:
    files = [*precached(), OFFLINE_PATH]
    cache = "cardroom-" + hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
    config = json.dumps({"cache": cache, "files": files, "offline": OFFLINE_PATH})
    body = (STATIC_DIR / "js" / "sw.js").read_text()
    return f"self.CARDROOM = {config};\n{body}".encode()


WORKER_SCRIPT = _worker_script()


@router.get("/manifest.webmanifest", name="manifest")
async def manifest(lang: Lang) -> Response:
    tr = translator(lang)
    static = static_url
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": tr.gettext("Card room: Heart to Heart and Hearts"),
        "short_name": tr.gettext("Card room"),
        "lang": lang,
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.get("/sw.js", name="service_worker")
async def service_worker() -> Response:
    return Response(WORKER_SCRIPT, media_type="text/javascript")


@router.get(OFFLINE_PATH, response_class=HTMLResponse, name="offline")
async def offline(request: Request, lang: Lang) -> HTMLResponse:
    return page(request, "offline.html", {}, lang)
