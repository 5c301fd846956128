"""Daily deals and results boards: the pages, the nickname form and the JSON API.

``/heart-to-heart/daily`` and ``/hearts/daily`` show this browser's game of the day when it is
the current one, else a page that starts it (a form: a GET never starts or gives up a game);
``POST /api/{game}/daily`` starts or resumes it in the API. The deal's code is never shown
during its day (app/web/daily_codes.py). A browser's first daily game of a day is its result on
the day's board, finished or given up; a daily game started again that day is practice.

Boards: ``/{game}/daily/{date}/results`` (a day's, by date) and ``/{game}/deal/{code}/results``
(a code's, open), the same in the API under ``/api/{game}/daily/{date}/results`` and
``/api/{game}/deals/{code}/results``; each section paged (app/web/results.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Body, Form, Query, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel

from app.rules.deal_codes import DealCodeError
from app.rules.hearts import parse_match_code
from app.store import SECONDS_PER_DAY, GameStore
from app.web.api_models import (
    DailyDeal,
    DailyStart,
    HeartsResults,
    HeartToHeartResults,
    error_responses,
    state_response,
)
from app.web.daily_codes import (
    HEART_TO_HEART,
    HEARTS,
    HEARTS_DAILY_HANDS,
    daily_code,
    seconds_to_next,
    shown_code,
    today,
)
from app.web.deps import SettingsDep, Visit, VisitDep
from app.web.errors import PageError, api_error
from app.web.games import Loaded
from app.web.heart_to_heart import pages as heart_to_heart_pages
from app.web.heart_to_heart import service as heart_to_heart_service
from app.web.heart_to_heart.api import game_state_response
from app.web.heart_to_heart.texts import deal_error_message as heart_to_heart_deal_error
from app.web.heart_to_heart.texts import result_words as heart_to_heart_result_words
from app.web.hearts import pages as hearts_pages
from app.web.hearts import service as hearts_service
from app.web.hearts.api import match_state
from app.web.hearts.texts import deal_error_message as hearts_deal_error
from app.web.i18n import translator
from app.web.nickname import NICKNAME_MAX, NicknameInvalid, clean_nickname
from app.web.preferences import Options
from app.web.profile import Profile, update_profile
from app.web.replays import share_url
from app.web.results import (
    APART,
    ASSISTED,
    CARDS_PLAYED,
    DAILY,
    HUMAN_PACE_SECONDS,
    PRACTICE,
    RANKED,
    SECTIONS,
    BoardPage,
    Standing,
    board_page,
    code_board,
    daily_board,
    daily_of,
    daily_played,
    rename,
)
from app.web.templating import page

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api")

# The URL segment of each game kind, and back.
SLUGS = {HEART_TO_HEART: "heart-to-heart", HEARTS: "hearts"}
KINDS = {slug: kind for kind, slug in SLUGS.items()}
# A page number past this is refused (a board of a billion rows has fewer pages).
MAX_PAGE = 10_000_000


def parse_code(kind: str, text: str) -> str:
    """The code ``text`` names in its standard form; raises DealCodeError."""
    if kind == HEART_TO_HEART:
        return heart_to_heart_service.parse_code(text)
    return str(parse_match_code(text))


def code_error(kind: str, error: DealCodeError, text: str, lang: str) -> str:
    if kind == HEART_TO_HEART:
        return heart_to_heart_deal_error(error, text, lang)
    return hearts_deal_error(error, translator(lang))


def parse_day(text: str, now: float) -> date | None:
    """The day ``text`` names ("2026-11-30"), if its daily has begun; else None."""
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None
    return day if day is not None and day <= today(now) else None


# -- this browser's daily game -----------------------------------------------------------------


async def current_daily(
    store: GameStore, session_id: str, kind: str, day: date
) -> Loaded[Any] | None:
    """This browser's current game of ``kind`` if it is ``day``'s daily game."""
    if kind == HEART_TO_HEART:
        current: Loaded[Any] | None = await heart_to_heart_service.readable_current(
            store, session_id
        )
    else:
        current = await hearts_service.readable_current(store, session_id)
    if current is not None and daily_of(current.stored.state) == day:
        return current
    return None


async def start_daily(
    store: GameStore, session_id: str, kind: str, secret: str, now: float
) -> tuple[Loaded[Any], bool]:
    """This browser's daily game of today, and whether it was started now: the current game
    when it is today's daily, else a new one, which is practice when this browser has a
    result on today's board already. A game it replaces is given up as any would be."""
    day = today(now)
    found = await current_daily(store, session_id, kind, day)
    if found is not None:
        return found, False
    marks: dict[str, Any] = {DAILY: day.isoformat()}
    if await store.result_of(daily_board(kind, day), session_id) is not None:
        marks[PRACTICE] = True
    code = daily_code(kind, day, secret)
    if kind == HEART_TO_HEART:
        return await heart_to_heart_service.replace_game(store, session_id, code, marks), True
    match = await hearts_service.new_match(
        store, session_id, parse_match_code(code), last_hand=HEARTS_DAILY_HANDS, hidden=True,
        marks=marks,
    )
    return match, True


def daily_path(kind: str) -> str:
    return router.url_path_for(f"{kind}_daily")


def daily_results_path(kind: str, day: date) -> str:
    return router.url_path_for(f"{kind}_daily_results", day=day.isoformat())


def code_results_path(kind: str, code: str) -> str:
    return router.url_path_for(f"{kind}_results", code=code)


def add_daily_pages(kind: str) -> None:
    slug = SLUGS[kind]

    async def daily_page(request: Request, visit: VisitDep) -> Response:
        """Today's daily game when it is this browser's current game; else what starting it
        means (practice after a first result; a game in progress given up), and the boards."""
        now = visit.clock()
        day = today(now)
        if await current_daily(visit.store, visit.session_id, kind, day) is not None:
            if kind == HEART_TO_HEART:
                return await heart_to_heart_pages.game_view(
                    request, visit.store, visit.session_id, visit.profile, visit.lang
                )
            return await hearts_pages.hearts_current(
                request, visit.store, visit.session_id, visit.lang, visit.clock
            )
        played = await visit.store.result_of(
            daily_board(kind, day), visit.session_id, place=False
        )
        service = heart_to_heart_service if kind == HEART_TO_HEART else hearts_service
        context = {
            "kind": kind,
            "day": day.isoformat(),
            "practice": played is not None,
            "unfinished": await service.has_unfinished(visit.store, visit.session_id),
            "results": daily_results_path(kind, day),
            "yesterday": daily_results_path(kind, day - timedelta(days=1)),
            "start": daily_path(kind),
            "hands": HEARTS_DAILY_HANDS,
        }
        return page(request, "daily/start.html", context, visit.lang)

    async def daily_start(visit: VisitDep, settings: SettingsDep) -> Response:
        await start_daily(visit.store, visit.session_id, kind, settings.secret_key, visit.clock())
        return RedirectResponse(daily_path(kind), status_code=303)

    router.add_api_route(f"/{slug}/daily", daily_page, name=f"{kind}_daily")
    router.add_api_route(
        f"/{slug}/daily", daily_start, methods=["POST"], name=f"{kind}_daily_start"
    )


for _kind in SLUGS:
    add_daily_pages(_kind)


@dataclass(frozen=True, slots=True)
class DailyTile:
    """What the home page says of one game's daily deal."""

    kind: str
    played: bool
    results: str


def home_daily(profile: Profile, now: float) -> dict[str, Any]:
    """The home page's daily block: each game's deal, played or not yet, and the time left."""
    day = today(now)
    tiles = [
        DailyTile(kind, daily_played(profile.data, kind) == str(day), daily_results_path(kind, day))
        for kind in (HEART_TO_HEART, HEARTS)
    ]
    return {"tiles": tiles, "seconds": seconds_to_next(now)}


# -- boards ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """A results board as pages and the API name it: a daily's (``day``; ``code`` None until
    the day is over) or a code's (open)."""

    kind: str
    key: str
    day: date | None
    code: str | None

    @property
    def open(self) -> bool:
        return self.day is None

    @property
    def duplicate(self) -> bool:
        """Scored by matchpoints: the Hearts daily."""
        return self.kind == HEARTS and self.day is not None

    @property
    def links_replays(self) -> bool:
        """A daily's board once its day is over, when its code is shown too: earlier, a replay
        would show the day's winning line. A code's board never links to them: its deal stays
        playable, and a replay would give its line away."""
        return self.day is not None and self.code is not None


def daily_board_of(kind: str, day: date, secret: str, now: float) -> Board:
    return Board(kind, daily_board(kind, day), day, shown_code(kind, day, secret, now))


def code_board_of(kind: str, code: str) -> Board:
    return Board(kind, code_board(kind, code), None, code)


# The replay page of each game kind, which a share link opens.
REPLAY_ROUTES = {HEART_TO_HEART: "heart_to_heart_replay", HEARTS: "hearts_replay"}


def replay_link(request: Request, board: Board, standing: Standing, now: float) -> str | None:
    """The share link of a row's game, where the board links to replays; None for a row kept
    without its game (recorded before boards linked to replays, or given up unfinished) and
    for one whose game may have expired: the store keeps a game ``game_ttl_days`` after its
    last write, the boards their rows for DAILY_KEEP_DAYS."""
    if not board.links_replays or standing.game_id is None:
        return None
    kept_for = request.app.state.settings.game_ttl_days * SECONDS_PER_DAY
    if now >= standing.row["finished_at"] + kept_for:
        return None
    return share_url(request, board.kind, standing.game_id, REPLAY_ROUTES[board.kind])


async def read_board(visit: Visit, board: Board, section: str, number: int) -> BoardPage:
    return await board_page(
        visit.store, board.key, section, number, visit.session_id, board.duplicate
    )


def share_text(kind: str, title: str, standing: Standing, lang: str) -> str:
    """What "Share result" says (the page adds the link): "Daily deal of 2026-11-30 ♥ won in
    2:10, 91 moves"."""
    tr = translator(lang)
    row = standing.row
    if kind == HEART_TO_HEART:
        outcome = heart_to_heart_result_words(row, lang)
    elif standing.matchpoints is not None:
        points = ", ".join(map(str, row["points"]))
        if standing.percent is None:
            outcome = tr.gettext("points per hand: %(points)s") % {"points": points}
        else:
            text = tr.gettext("%(percent)d%% of the matchpoints (points per hand: %(points)s)")
            outcome = text % {"percent": round(standing.percent), "points": points}
    elif row["moon"]:
        outcome = tr.gettext("shot the moon in the first hand")
    else:
        outcome = tr.ngettext(
            "%(num)d point in the first hand", "%(num)d points in the first hand", row["points"]
        ) % {"num": row["points"]}
    return f"{title} ♥ {outcome}"


def board_title(board: Board, lang: str) -> str:
    tr = translator(lang)
    if board.day is not None:
        return tr.gettext("Daily deal of %(date)s") % {"date": board.day.isoformat()}
    return tr.gettext("Deal %(code)s") % {"code": board.code}


async def results_page(
    request: Request, visit: Visit, board: Board, section: str, number: int
) -> Response:
    """A board's page: a section's page of rows, this browser's row, the pager, what is ranked
    and why, the share text and the nickname form."""
    shown = await read_board(visit, board, section, number)
    counts = {
        other: shown.total if other == section else await visit.store.results_count(
            board.key, other
        )
        for other in SECTIONS
    }
    mine = shown.mine
    if mine is None:  # this browser's row may be in the other section
        other = APART if section == RANKED else RANKED
        mine = (await read_board(visit, board, other, 1)).mine if counts[other] else None
    title = board_title(board, visit.lang)
    if board.day is not None:
        deal_url = daily_path(board.kind) if board.day == today(visit.clock()) else None
    else:
        deal_route = "heart_to_heart_deal" if board.kind == HEART_TO_HEART else "hearts_deal"
        deal_url = request.app.url_path_for(deal_route, code=board.code)
    if board.day is not None and board.code is not None:
        route = "heart_to_heart_deal" if board.kind == HEART_TO_HEART else "hearts_deal"
        code_url = request.app.url_path_for(route, code=board.code)
    else:
        code_url = None
    context = {
        "kind": board.kind,
        "board": board,
        "title": title,
        "shown": shown,
        "counts": counts,
        "mine_elsewhere": mine if mine is not None and mine not in shown.rows else None,
        "share": share_text(board.kind, title, mine, visit.lang) if mine else None,
        "replay_of": partial(replay_link, request, board, now=visit.clock()),
        "deal_url": deal_url,
        "code_url": code_url,
        "pace": HUMAN_PACE_SECONDS,
        "nickname": visit.profile.nickname,
        "nickname_max": NICKNAME_MAX,
    }
    return page(request, "daily/results.html", context, visit.lang)


SectionQuery = Annotated[str, Query(pattern="^(ranked|apart)$")]
PageQuery = Annotated[int, Query(ge=1, le=MAX_PAGE)]


def add_results_pages(kind: str) -> None:
    slug = SLUGS[kind]

    async def code_results(
        code: str, request: Request, visit: VisitDep, section: SectionQuery = RANKED,
        page: PageQuery = 1,
    ) -> Response:
        lang = visit.lang
        try:
            code = parse_code(kind, code)
        except DealCodeError as error:
            tr = translator(lang)
            message = code_error(kind, error, code, lang)
            title = tr.gettext("This deal code cannot be used")
            raise PageError(400, message, title=title) from error
        return await results_page(request, visit, code_board_of(kind, code), section, page)

    async def day_results(
        day: str, request: Request, visit: VisitDep, settings: SettingsDep,
        section: SectionQuery = RANKED, page: PageQuery = 1,
    ) -> Response:
        now = visit.clock()
        found = parse_day(day, now)
        if found is None:
            tr = translator(visit.lang)
            raise PageError(404, tr.gettext("There is no daily deal of that day yet."))
        board = daily_board_of(kind, found, settings.secret_key, now)
        return await results_page(request, visit, board, section, page)

    router.add_api_route(f"/{slug}/deal/{{code}}/results", code_results, name=f"{kind}_results")
    router.add_api_route(
        f"/{slug}/daily/{{day}}/results", day_results, name=f"{kind}_daily_results"
    )


for _kind in SLUGS:
    add_results_pages(_kind)


@router.post("/results/nickname", name="set_nickname")
async def set_nickname(
    request: Request,
    visit: VisitDep,
    settings: SettingsDep,
    nickname: Annotated[str, Form(max_length=200)],
    game: Annotated[str, Form(max_length=20)],
    code: Annotated[str, Form(max_length=40)] = "",
    day: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Keep the nickname in the profile and put it on this browser's row of that board."""
    tr = translator(visit.lang)
    kind = KINDS.get(game)
    now = visit.clock()
    found = parse_day(day, now) if day else None
    if kind is not None and found is not None:
        board = daily_board_of(kind, found, settings.secret_key, now)
        back = daily_results_path(kind, found)
    else:
        try:
            if kind is None:
                raise DealCodeError("game", "unknown game")
            board = code_board_of(kind, parse_code(kind, code))
        except DealCodeError as error:
            raise PageError(400, tr.gettext("This deal code cannot be used")) from error
        back = code_results_path(kind, str(board.code))
    try:
        name = clean_nickname(nickname)
    except NicknameInvalid as invalid:
        raise PageError(
            400,
            tr.gettext(invalid.reason),
            title=tr.gettext("This nickname cannot be used"),
            link=(back, tr.gettext("Back to the results")),
        ) from invalid
    await update_profile(
        visit.store, visit.session_id, lambda data: data.__setitem__("nickname", name)
    )
    await rename(visit.store, board.key, visit.session_id, name)
    return RedirectResponse(back, status_code=303)


# -- JSON API -------------------------------------------------------------------------------


def api_row(
    request: Request, board: Board, standing: Standing, now: float
) -> dict[str, Any]:
    """A row as the API shows it: the fields of the boards before issue 29 (rank, nickname,
    mine, assisted, finished_at and the game's own), why it is ranked apart, and its replay's
    share link (null where the board does not link to replays)."""
    row = {**standing.row, "rank": standing.place, "nickname": standing.nickname,
           "mine": standing.mine,
           "assisted": bool({ASSISTED, CARDS_PLAYED} & set(standing.row["apart"])),
           "replay": replay_link(request, board, standing, now)}
    if standing.matchpoints is not None:
        row["matchpoints"] = list(standing.matchpoints)
        row["percent"] = standing.percent
    return row


async def api_board(
    request: Request, visit: Visit, board: Board, section: str, number: int
) -> dict[str, Any]:
    shown = await read_board(visit, board, section, number)
    now = visit.clock()
    return {
        "code": board.code,
        "date": board.day,
        "open": board.open,
        "section": shown.section,
        "page": shown.page,
        "pages": shown.pages,
        "total": shown.total,
        "rows": [api_row(request, board, s, now) for s in shown.rows],
        "mine": None if shown.mine is None else api_row(request, board, shown.mine, now),
    }


RANKED_DESCRIPTION = (
    "A section's page (50 rows), best first. Each session has one result per board, its "
    "first game (finished, or given up for another); later games are practice and are not "
    "listed. Section ranked: games played on the page without an undo or a hint at a "
    "person's pace; section apart: games with an action sent through this API, an undo or a "
    "hint, or Heart to Heart faster than 0.35 s a move on average. A code's board is open "
    "(anyone can know its deal); a daily's board shows its code once the UTC day is over."
)


@dataclass(frozen=True, slots=True)
class ApiGame:
    """How one game's daily and results endpoints are documented."""

    kind: str
    tag: str
    results_model: type[BaseModel]
    daily_summary: str
    state: Callable[[Loaded[Any], Visit, int], Response]


def heart_to_heart_state(loaded: Loaded[Any], visit: Visit, status: int) -> Response:
    return game_state_response(loaded, Options.of(visit.profile), status_code=status)


def hearts_state(loaded: Loaded[Any], visit: Visit, status: int) -> Response:
    return state_response(match_state(loaded, visit.lang), status)


API_GAMES = (
    ApiGame(
        HEART_TO_HEART, "Heart to Heart", HeartToHeartResults,
        "Today's Heart to Heart deal (winnable; the same for everyone)", heart_to_heart_state,
    ),
    ApiGame(
        HEARTS, "Hearts", HeartsResults,
        "Today's Hearts deal (four hands against Normal bots, one per pass direction, scored "
        "by matchpoints)", hearts_state,
    ),
)


def add_api_routes(game: ApiGame) -> None:
    kind, slug = game.kind, SLUGS[game.kind]

    async def daily(visit: VisitDep) -> DailyDeal:
        day = today(visit.clock())
        results = api.url_path_for(f"{kind}_api_daily_results", day=day.isoformat())
        return DailyDeal(date=day, code=None, results=results)

    async def start(
        visit: VisitDep, settings: SettingsDep,
        body: Annotated[DailyStart | None, Body()] = None,
    ) -> Response:
        loaded, started = await start_daily(
            visit.store, visit.session_id, kind, settings.secret_key, visit.clock()
        )
        return game.state(loaded, visit, 201 if started else 200)

    async def day_results(
        day: str, request: Request, visit: VisitDep, settings: SettingsDep,
        section: SectionQuery = RANKED, page: PageQuery = 1,
    ) -> Any:
        now = visit.clock()
        found = parse_day(day, now)
        if found is None:
            message = translator(visit.lang).gettext("There is no daily deal of that day yet.")
            return api_error(404, "no_daily", message)
        board = daily_board_of(kind, found, settings.secret_key, now)
        return await api_board(request, visit, board, section, page)

    async def code_results(
        code: str, request: Request, visit: VisitDep, section: SectionQuery = RANKED,
        page: PageQuery = 1,
    ) -> Any:
        try:
            code = parse_code(kind, code)
        except DealCodeError as error:
            return api_error(422, "invalid_deal", code_error(kind, error, code, visit.lang))
        return await api_board(request, visit, code_board_of(kind, code), section, page)

    api.add_api_route(
        f"/{slug}/daily", daily, response_model=DailyDeal, tags=[game.tag],
        operation_id=f"{kind}_daily", summary=game.daily_summary,
    )
    api.add_api_route(
        f"/{slug}/daily", start, methods=["POST"], tags=[game.tag],
        operation_id=f"{kind}_daily_start",
        summary="Start (or resume) this session's game of the day",
        description="The state, as starting a game answers it (201 when started now, 200 when "
        "it is the session's current game already), its deal code null. The session's first "
        "daily game of the day is its result on the day's board (finished, or given up for "
        "another game); one started again that day is practice.",
        responses={200: {"description": "The daily game"}, 201: {"description": "Started"},
                   **error_responses(403, 413, 422)},
    )
    api.add_api_route(
        f"/{slug}/daily/{{day}}/results", day_results, response_model=game.results_model,
        responses=error_responses(404, 422), tags=[game.tag],
        operation_id=f"{kind}_daily_results", name=f"{kind}_api_daily_results",
        summary="The results board of a day's daily deal", description=RANKED_DESCRIPTION,
    )
    api.add_api_route(
        f"/{slug}/deals/{{code}}/results", code_results, response_model=game.results_model,
        responses=error_responses(422), tags=[game.tag], operation_id=f"{kind}_results",
        summary="The results board of a deal code (open)", description=RANKED_DESCRIPTION,
    )


for _game in API_GAMES:
    add_api_routes(_game)

