"""/docs: Swagger UI for the JSON API, on this site's own terms.

FastAPI's page loads Swagger UI from a CDN at a floating version and starts it with an inline
script. This one serves the files of the pinned ``swagger-ui-dist`` package (package.json, copied
into static/vendor/swagger-ui by ``make setup``) and starts them from static/js/swagger-init.js,
so the CSP of /docs allows scripts from this site only. Like /openapi.json it needs no session
(see app/web/session.py).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.web.templating import render_template

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def api_docs(request: Request) -> HTMLResponse:
    context = {"title": request.app.title, "openapi_url": request.app.openapi_url}
    # The API and its description are in English, like its error messages.
    return HTMLResponse(render_template("api_docs.html", context, "en"))
