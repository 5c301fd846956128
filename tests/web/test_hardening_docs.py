"""Issue 18, finding 9: /docs is served from this site, under a CSP without inline scripts,
and neither it nor /openapi.json starts a session."""

from __future__ import annotations

import json
import re

from app.web.templating import ROOT


async def test_docs_use_only_this_sites_pinned_assets(client):
    response = await client.get("/docs")
    assert response.status_code == 200
    html = response.text
    assert "cdn" not in html.lower() and "https://" not in html
    assert not re.search(r"<script(?![^>]*\ssrc=)", html), "an inline script"
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("vendor/swagger-ui/swagger-ui-bundle.js" in s for s in sources)
    assert any("vendor/swagger-ui/swagger-ui.css" in s for s in sources)
    assert any("js/swagger-init.js" in s for s in sources)
    for source in sources:
        assert source.startswith("/static/"), source
        assert (await client.get(source)).status_code == 200, source
    # The version served is the one package-lock.json pins.
    lock = json.loads((ROOT / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/swagger-ui-dist"]["version"]
    assert json.loads((ROOT / "package.json").read_text())["dependencies"]["swagger-ui-dist"] == (
        pinned)
    bundle = (await client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js")).text
    assert pinned in bundle


async def test_docs_csp_allows_no_inline_script_nor_other_origin(client):
    csp = (await client.get("/docs")).headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert "unsafe" not in csp and "http" not in csp
    assert directives["frame-ancestors"] == "'none'"


async def test_docs_and_openapi_set_no_session_cookie(new_client):
    client = new_client()
    for path in ("/docs", "/openapi.json", "/static/js/swagger-init.js"):
        response = await client.get(path)
        assert response.status_code == 200, path
        assert "set-cookie" not in response.headers, path
    assert (await client.get("/docs/oauth2-redirect")).status_code == 404
