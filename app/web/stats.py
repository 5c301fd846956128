"""Statistics: the page ``/stats`` (each game, Hearts per bot level, assisted games apart, a
chart of the last results drawn here as SVG), its reset (which asks first, on a page of its
own, so it works without JavaScript too), and the "new best" line of a Heart to Heart win.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.rules.hearts_rules import SEED_RULES, HeartsRules, RulesError
from app.web.deps import Lang, ProfileDep, SessionId, StoreDep
from app.web.hearts.texts import rules_summary
from app.web.i18n import translator
from app.web.profile import RECENT_RESULTS, SEED_RULES_KEY, reset_statistics, statistics
from app.web.templating import page, render_template

router = APIRouter(include_in_schema=False)

# The chart: one bar per result, a win full height, a loss a stub.
BAR_WIDTH = 8
BAR_GAP = 2
CHART_HEIGHT = 40
LOSS_HEIGHT = 8


@dataclass(frozen=True, slots=True)
class Bar:
    x: int
    y: int
    height: int
    won: bool


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    won: int
    lost: int
    bar_width: int = BAR_WIDTH


def chart(recent: list[bool]) -> Chart:
    """The bars of the last results, oldest at the left."""
    last = recent[-RECENT_RESULTS:]
    bars = []
    for i, won in enumerate(last):
        height = CHART_HEIGHT if won else LOSS_HEIGHT
        bars.append(Bar(i * (BAR_WIDTH + BAR_GAP), CHART_HEIGHT - height, height, won))
    wins = sum(last)
    return Chart(
        RECENT_RESULTS * (BAR_WIDTH + BAR_GAP) - BAR_GAP, CHART_HEIGHT, tuple(bars),
        wins, len(last) - wins,
    )


@router.get("/stats", response_class=HTMLResponse, name="stats_page")
async def stats_page(request: Request, profile: ProfileDep, lang: Lang) -> HTMLResponse:
    stats = statistics(profile)
    charts = {
        "heart_to_heart": chart(stats["heart_to_heart"]["recent"]),
        "hearts": chart(stats["hearts"]["recent"]),
    }
    context = {
        "stats": stats,
        "rules_names": rules_names(stats["hearts_rules"], lang),
        "charts": charts,
        "reset_done": request.query_params.get("reset") == "1",
    }
    return page(request, "stats.html", context, lang)


def rules_names(by_rules: dict[str, dict], lang: str) -> dict[str, str]:
    """Each house-rule set the statistics count (by its short form), named for the player; a
    key that names no rule set is left out."""
    tr = translator(lang)
    names = {}
    for key in by_rules:
        try:
            rules = SEED_RULES if key == SEED_RULES_KEY else HeartsRules.from_short(key)
        except RulesError:
            continue
        names[key] = rules_summary(rules, tr)
    return names


@router.get("/stats/reset", response_class=HTMLResponse, name="stats_reset_ask")
async def stats_reset_ask(request: Request, lang: Lang) -> HTMLResponse:
    return page(request, "stats_reset.html", {}, lang)


@router.post("/stats/reset", name="stats_reset")
async def stats_reset(request: Request, store: StoreDep, session_id: SessionId) -> Response:
    await reset_statistics(store, session_id)
    return RedirectResponse(request.app.url_path_for("stats_page") + "?reset=1", 303)


@router.get("/stats/news/heart-to-heart", response_class=HTMLResponse, name="h2h_news")
async def heart_to_heart_news(profile: ProfileDep, lang: Lang) -> HTMLResponse:
    """The records the last Heart to Heart win set, as a line for the win's dialog."""
    stats = statistics(profile)["heart_to_heart"]
    return HTMLResponse(render_template("_news.html", {"stats": stats}, lang))
