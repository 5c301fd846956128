"""Issue 18, finding 9: Swagger UI on /docs works from this site's files under its strict CSP,
and a request made from it reaches the API."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

# Runs before the page's own scripts (and outside its CSP): it records every refusal.
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.mark.new_session  # opening /docs starts no session
def test_swagger_ui_works_under_the_docs_csp(new_page, base_url):
    page = new_page("desktop", "en")
    page.add_init_script(RECORD_VIOLATIONS)
    elsewhere: list[str] = []
    page.on("request", lambda request: None if request.url.startswith(base_url)
            else elsewhere.append(request.url))
    page.goto("/docs")
    # Both games, the settings and the replays.
    expect(page.locator(".opblock-tag-section")).to_have_count(4)
    assert page.context.cookies() == []  # opening /docs starts no session

    # Try one operation from the page: a new Heart to Heart game.
    operation = page.locator(".opblock-post", has_text="/api/heart-to-heart/games").first
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    status = operation.locator(".live-responses-table tbody .response-col_status").first
    expect(status).to_have_text("201")

    assert page.evaluate("window.__violations") == []
    assert elsewhere == []
