"""Daily deals and results per deal: the pages, the nickname form and the JSON API.

``/heart-to-heart/daily`` and ``/hearts/daily`` open today's deal (UTC) as a shared deal URL
would; ``/{game}/deal/{code}/results`` shows the board of a code (app/web/results.py). The
API answers the same from ``/api/{game}/daily`` and ``/api/{game}/deals/{code}/results``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.rules.deal_codes import DealCodeError
from app.rules.hearts import parse_match_code
from app.web.api_models import HH_DEAL_PATTERN, HT_DEAL_PATTERN, error_responses
from app.web.daily_codes import (
    HEART_TO_HEART,
    HEARTS,
    daily_code,
    daily_date,
    seconds_to_next,
    today,
)
from app.web.deps import ClockDep, Lang, SessionId, StoreDep, Visit, VisitDep
from app.web.errors import PageError, api_error
from app.web.first_visit import is_new_session
from app.web.heart_to_heart import pages as heart_to_heart_pages
from app.web.heart_to_heart import service as heart_to_heart_service
from app.web.heart_to_heart.texts import deal_error_message as heart_to_heart_deal_error
from app.web.hearts import pages as hearts_pages
from app.web.hearts.texts import deal_error_message as hearts_deal_error
from app.web.i18n import translator
from app.web.nickname import NICKNAME_MAX, NicknameInvalid, clean_nickname
from app.web.profile import Profile, update_profile
from app.web.results import Standing, daily_played, rename, standings
from app.web.templating import page

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api")

# The URL segment of each game kind, and back.
SLUGS = {HEART_TO_HEART: "heart-to-heart", HEARTS: "hearts"}
KINDS = {slug: kind for kind, slug in SLUGS.items()}


def parse_code(kind: str, text: str) -> str:
    """The code ``text`` names in its standard form; raises DealCodeError."""
    if kind == HEART_TO_HEART:
        return heart_to_heart_service.parse_code(text)
    return str(parse_match_code(text))


def code_error(kind: str, error: DealCodeError, text: str, lang: str) -> str:
    if kind == HEART_TO_HEART:
        return heart_to_heart_deal_error(error, text, lang)
    return hearts_deal_error(error, translator(lang))


def results_path(kind: str, code: str) -> str:
    return router.url_path_for(f"{kind}_results", code=code)


# -- the daily deals ------------------------------------------------------------------------


def is_to_game(answer: Response) -> bool:
    """The deal URL's answer once the deal is the current game: a redirect to the game."""
    return isinstance(answer, RedirectResponse)


@router.get("/heart-to-heart/daily", name="heart_to_heart_daily")
async def heart_to_heart_daily(request: Request, visit: VisitDep) -> Response:
    """Today's deal, opened as its deal URL opens it (asking first over an unfinished game),
    and then shown here, so that this address stays the page of the daily deal."""
    store, session_id, profile, lang = visit.store, visit.session_id, visit.profile, visit.lang
    code = daily_code(HEART_TO_HEART, today(visit.clock()))
    if is_new_session(request):  # nothing stored for a visit without a cookie
        return heart_to_heart_pages.first_visit_page(request, code, session_id, profile, lang)
    answer = await heart_to_heart_pages.deal_view(code, request, store, session_id, profile, lang)
    if is_to_game(answer):
        return await heart_to_heart_pages.game_view(request, store, session_id, profile, lang)
    return answer


@router.get("/hearts/daily", name="hearts_daily")
async def hearts_daily(request: Request, visit: VisitDep) -> Response:
    store, session_id, lang = visit.store, visit.session_id, visit.lang
    code = daily_code(HEARTS, today(visit.clock()))
    if is_new_session(request):  # nothing stored for a visit without a cookie
        return hearts_pages.first_visit_page(request, code, session_id, lang, visit.clock)
    answer = await hearts_pages.hearts_deal(request, code, store, session_id, lang, visit.clock)
    if is_to_game(answer):
        return await hearts_pages.hearts_current(request, store, session_id, lang, visit.clock)
    return answer


@dataclass(frozen=True, slots=True)
class DailyTile:
    """What the home page says of one game's daily deal."""

    kind: str
    code: str
    played: bool


def home_daily(profile: Profile, now: float) -> dict[str, Any]:
    """The home page's daily block: each game's deal, played or not yet, and the time left."""
    day = today(now)
    tiles = [
        DailyTile(kind, daily_code(kind, day), daily_played(profile.data, kind) == str(day))
        for kind in (HEART_TO_HEART, HEARTS)
    ]
    return {"tiles": tiles, "seconds": seconds_to_next(now)}


# -- results pages --------------------------------------------------------------------------


def share_text(kind: str, code: str, row: dict[str, Any], lang: str) -> str:
    """What "Share result" says (the link is added by the page): "HH1-W-ABCDEFG ♥ won in 2:10,
    91 moves"."""
    tr = translator(lang)
    if kind == HEART_TO_HEART:
        minutes, seconds = divmod(row["seconds"], 60)
        time = f"{minutes}:{seconds:02d}"
        moves = tr.ngettext("%(num)d move", "%(num)d moves", row["moves"]) % {"num": row["moves"]}
        if row["won"]:
            outcome = tr.gettext("won in %(time)s, %(moves)s") % {"time": time, "moves": moves}
        else:
            left = tr.ngettext("%(num)d card left", "%(num)d cards left", row["cards_left"])
            outcome = tr.gettext("%(left)s after %(time)s, %(moves)s") % {
                "left": left % {"num": row["cards_left"]}, "time": time, "moves": moves,
            }
    elif row["moon"]:
        outcome = tr.gettext("shot the moon in the first hand")
    else:
        outcome = tr.ngettext(
            "%(num)d point in the first hand", "%(num)d points in the first hand", row["points"]
        ) % {"num": row["points"]}
    return f"{code} ♥ {outcome}"


async def results_page(request: Request, kind: str, code: str, visit: Visit) -> Response:
    """The board of a code: ranked rows, practice, this browser's share text and nickname."""
    lang = visit.lang
    try:
        code = parse_code(kind, code)
    except DealCodeError as error:
        tr = translator(lang)
        message = code_error(kind, error, code, lang)
        raise PageError(400, message, title=tr.gettext("This deal code cannot be used")) from error
    ranked, practice = await standings(visit.store, kind, code, visit.session_id)
    mine = next((s for s in ranked if s.mine), None)
    day = daily_date(kind, code, visit.clock())
    deal_route = "heart_to_heart_deal" if kind == HEART_TO_HEART else "hearts_deal"
    context = {
        "kind": kind,
        "code": code,
        "day": day.isoformat() if day else None,
        "ranked": ranked,
        "practice": practice,
        "share": share_text(kind, code, mine.row, lang) if mine else None,
        "deal_url": request.app.url_path_for(deal_route, code=code),
        "nickname": visit.profile.nickname,
        "nickname_max": NICKNAME_MAX,
    }
    return page(request, "daily/results.html", context, lang)


def add_results_page(kind: str) -> None:
    async def results(code: str, request: Request, visit: VisitDep) -> Response:
        return await results_page(request, kind, code, visit)

    router.add_api_route(f"/{SLUGS[kind]}/deal/{{code}}/results", results, name=f"{kind}_results")


for _kind in SLUGS:
    add_results_page(_kind)


@router.post("/results/nickname", name="set_nickname")
async def set_nickname(
    store: StoreDep,
    session_id: SessionId,
    lang: Lang,
    nickname: Annotated[str, Form(max_length=200)],
    game: Annotated[str, Form(max_length=20)],
    code: Annotated[str, Form(max_length=40)],
) -> Response:
    """Keep the nickname in the profile and put it on this browser's rows of that board."""
    tr = translator(lang)
    kind = KINDS.get(game)
    try:
        if kind is None:
            raise DealCodeError("game", "unknown game")
        code = parse_code(kind, code)
    except DealCodeError as error:
        raise PageError(400, tr.gettext("This deal code cannot be used")) from error
    try:
        name = clean_nickname(nickname)
    except NicknameInvalid as invalid:
        raise PageError(
            400,
            tr.gettext(invalid.reason),
            title=tr.gettext("This nickname cannot be used"),
            link=(results_path(kind, code), tr.gettext("Back to the results")),
        ) from invalid
    await update_profile(store, session_id, lambda data: data.__setitem__("nickname", name))
    await rename(store, kind, code, session_id, name)
    return RedirectResponse(results_path(kind, code), status_code=303)


# -- JSON API -------------------------------------------------------------------------------


class DailyDeal(BaseModel):
    code: str = Field(description="Today's deal code (UTC), the same for everyone.")
    date: date

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"code": "HH1-W-ESVOECR", "date": "2026-11-30"}]}
    )


class ResultRow(BaseModel):
    rank: int | None = Field(description="The place on the board; null for practice (a replay).")
    nickname: str | None = Field(description="The player's nickname; null when none was set.")
    mine: bool = Field(description="The row is this session's.")
    assisted: bool = Field(description="The player used a hint or an undo.")
    finished_at: int = Field(description="When the game finished, in seconds since the epoch.")


class HeartToHeartResultRow(ResultRow):
    won: bool
    cards_left: int = Field(ge=0, le=25, description="Heart cards left (0 for a win).")
    seconds: int = Field(ge=0)
    moves: int = Field(ge=0)


class HeartsResultRow(ResultRow):
    points: int = Field(ge=0, le=26, description="The player's points in the first hand.")
    moon: bool = Field(description="The player shot the moon in it.")


class HeartToHeartResults(BaseModel):
    code: str = Field(pattern=HH_DEAL_PATTERN)
    rows: list[HeartToHeartResultRow]


class HeartsResults(BaseModel):
    code: str = Field(pattern=HT_DEAL_PATTERN)
    rows: list[HeartsResultRow]


def _api_rows(found: tuple[list[Standing], list[Standing]]) -> list[dict[str, Any]]:
    ranked, practice = found
    return [
        {**s.row, "rank": s.rank, "nickname": s.nickname, "mine": s.mine}
        for s in (*ranked, *practice)
    ]


RESULTS_DESCRIPTION = (
    "The finished games played on this code in this room, best first: each session once, "
    "by its first finished game (rank), then later games as practice (rank null)."
)


@dataclass(frozen=True, slots=True)
class ApiGame:
    """How one game's daily and results endpoints are documented."""

    kind: str
    tag: str
    results_model: type[BaseModel]
    daily_summary: str
    results_summary: str


API_GAMES = (
    ApiGame(
        HEART_TO_HEART,
        "Heart to Heart",
        HeartToHeartResults,
        "Today's Heart to Heart deal (a winnable one, the same for everyone)",
        "The results of a deal code",
    ),
    ApiGame(
        HEARTS,
        "Hearts",
        HeartsResults,
        "Today's Hearts deal (one hand against Normal bots, passing left)",
        "The results of a match code (the points of its first hand)",
    ),
)


def add_api_routes(game: ApiGame) -> None:
    kind = game.kind

    async def daily(clock: ClockDep) -> DailyDeal:
        day = today(clock())
        return DailyDeal(code=daily_code(kind, day), date=day)

    async def results(code: str, visit: VisitDep) -> Any:
        try:
            code = parse_code(kind, code)
        except DealCodeError as error:
            return api_error(422, "invalid_deal", code_error(kind, error, code, visit.lang))
        found = await standings(visit.store, kind, code, visit.session_id)
        return {"code": code, "rows": _api_rows(found)}

    slug = SLUGS[kind]
    api.add_api_route(
        f"/{slug}/daily",
        daily,
        response_model=DailyDeal,
        tags=[game.tag],
        operation_id=f"{kind}_daily",
        summary=game.daily_summary,
    )
    api.add_api_route(
        f"/{slug}/deals/{{code}}/results",
        results,
        response_model=game.results_model,
        responses=error_responses(422),
        tags=[game.tag],
        operation_id=f"{kind}_results",
        summary=game.results_summary,
        description=RESULTS_DESCRIPTION,
    )


for _game in API_GAMES:
    add_api_routes(_game)
