"""Table pages: opening a table, the table itself (its seats before the match, then the match
drawn with the solo table's pieces), and the seat's actions. The page follows the table
through its event stream (static/js/hearts-live.js; app/web/hearts/tables/board.py, PageFeed);
a seat's move answers with every piece and the cards played since the page's version."""

from __future__ import annotations

from dataclasses import replace

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from app.rules.hearts_rules import PRESETS
from app.web.actions import action_answer, conflict_answer, is_htmx
from app.web.deps import Visit, VisitDep
from app.web.errors import PageError
from app.web.games import GameNotFound
from app.web.hearts.forms import MoonFormDep, MoveFormDep, PassFormDep, PlayFormDep
from app.web.hearts.table import TEMPLATE, Urls, last_trick, piece_renderer
from app.web.hearts.tables import service
from app.web.hearts.tables.board import (
    TABLE_TEMPLATE,
    back_piece,
    board_pieces,
    catch_up,
    names_from,
    page_urls,
    turned,
    watch_urls,
)
from app.web.hearts.tables.forms import NameFormDep, ReactFormDep, SitFormDep, StartFormDep
from app.web.hearts.tables.lobby import delay_words, lobby_seats, room_controls, waiting_words
from app.web.hearts.tables.names import sit_named
from app.web.hearts.tables.service import REACTIONS, Table, TableRefused
from app.web.hearts.tables.texts import (
    REACTION_SYMBOLS,
    compass,
    reaction_label,
    refused_text,
)
from app.web.hearts.tables.views import seat_view
from app.web.hearts.tables.watch import table_of, watch_code, watched
from app.web.hearts.texts import seat_names
from app.web.i18n import translator
from app.web.nickname import NICKNAME_MAX, NicknameInvalid, clean_nickname
from app.web.pieces import Piece, answer, render_once, status
from app.web.profile import update_profile
from app.web.templating import page

router = APIRouter(prefix="/hearts", include_in_schema=False)


def urls_for(table_id: str) -> Urls:
    return page_urls(router.url_path_for, table_id)


def table_url(table_id: str) -> str:
    return router.url_path_for("table_page", table_id=table_id)


def to_table(table_id: str) -> RedirectResponse:
    return RedirectResponse(table_url(table_id), 303)


def nickname(visit: Visit, raw: str) -> str:
    """``raw`` cleaned (app/web/nickname.py); a name that cannot be used is a 400 page."""
    try:
        return clean_nickname(raw)
    except NicknameInvalid as invalid:
        raise PageError(400, translator(visit.lang).gettext(invalid.reason)) from invalid


async def remember(visit: Visit, name: str) -> None:
    """The browser goes by ``name`` from now on, at every table and on the boards."""
    if visit.profile.data.get("nickname") != name:
        await update_profile(visit.store, visit.session_id, lambda d: d.update(nickname=name))


async def change(visit: Visit, table_id: str, version: int | None, apply: service.Change,
                 request: Request, *, restarts_turn: bool = True) -> Table:
    """Apply ``apply`` to the table; a refusal is an error page (TableRefused: see seat_move,
    which answers a seat's refused move with the table as it is)."""
    table = await service.change(visit.store, table_id, version, apply, visit.clock, slow=True,
                                 restarts_turn=restarts_turn)
    request.app.state.table_clock.note(table)
    return table


async def change_or_error_page(
    visit: Visit, table_id: str, apply: service.Change, request: Request, *,
    restarts_turn: bool = True,
) -> Table:
    try:
        return await change(visit, table_id, None, apply, request, restarts_turn=restarts_turn)
    except TableRefused as refused:
        raise PageError(refused.status, refused_text(refused, translator(visit.lang))) from None


@router.post("/tables", name="table_new")
async def table_new(form: NameFormDep, visit: VisitDep) -> Response:
    """A new table, its creator seated under their name: the form's, else the one this
    browser gave before; a browser that never gave one is asked first (table_name_page)."""
    raw = form.name or visit.profile.data.get("nickname") or ""
    if not raw:
        return RedirectResponse(router.url_path_for("table_name_page"), 303)
    cleaned = nickname(visit, raw)
    await remember(visit, cleaned)
    table = await service.create(visit.store, visit.session_id, cleaned, "normal", 30,
                                 visit.clock())
    return to_table(table.table_id)


@router.get("/tables/new", response_class=HTMLResponse, name="table_name_page")
async def table_name_page(request: Request, visit: VisitDep) -> HTMLResponse:
    """The name a browser's player goes by at tables, asked once before their first table."""
    context = {"nickname": visit.profile.data.get("nickname") or "",
               "nickname_max": NICKNAME_MAX}
    return page(request, "hearts/table_new.html", context, visit.lang)


def watch_link(request: Request, table_id: str) -> str:
    code = watch_code(request.app.state.settings.secret_key, table_id)
    return request.app.state.settings.public_link(
        router.url_path_for("watch_page", watch_code=code))


@router.get("/t/{table_id}", response_class=HTMLResponse, name="table_page")
async def table_page(table_id: str, request: Request, visit: VisitDep) -> HTMLResponse:
    table = await service.load(visit.store, table_id)
    request.app.state.table_clock.note(table)
    seat = table.seat_of(visit.session_id)
    if seat is None and table.match is not None:  # the match started without this browser
        table = watched(table, visit.clock())
    return table_page_of(request, visit, table, seat, None)


@router.get("/w/{watch_code}", response_class=HTMLResponse, name="watch_page")
async def watch_page(watch_code: str, request: Request, visit: VisitDep) -> HTMLResponse:
    """A table as its watchers see it (app/web/hearts/tables/watch.py): its public part, at the
    delay its creator chose; the page names the table by the watch code only."""
    table = await service.load(visit.store, watched_id(request, watch_code))
    request.app.state.table_clock.note(table)
    shown = replace(watched(table, visit.clock()), table_id=watch_code)
    return table_page_of(request, visit, shown, None, watch_code)


def watched_id(request: Request, code: str) -> str:
    table_id = table_of(request.app.state.settings.secret_key, code)
    if table_id is None:
        raise GameNotFound(service.NOT_FOUND)
    return table_id


def table_page_of(
    request: Request, visit: Visit, table: Table, seat: int | None, code: str | None
) -> HTMLResponse:
    """The table's page for ``seat``; through the watch link (``code``), a watcher's page that
    names the table by that code, with no invite and no form."""
    tr = translator(visit.lang)
    table_id = table.table_id
    host = table.seats[Table.CREATOR].name or compass(tr)[Table.CREATOR]
    over = table.match is not None and table.match.phase == "match_over"
    context = {
        "table": table,
        "table_id": table_id,
        "my_seat": seat,
        "creator": seat == Table.CREATOR,
        "watching": code is not None,
        "invite": "" if code else request.app.state.settings.public_link(table_url(table_id)),
        "watch_link": "" if code else watch_link(request, table_id),
        "nickname": visit.profile.data.get("nickname") or "",
        "nickname_max": NICKNAME_MAX,
        "reactions": [(key, REACTION_SYMBOLS[key], reaction_label(key, tr)) for key in REACTIONS],
        "events": (f"/api/hearts/watch/{code}/events" if code
                   else f"/api/hearts/tables/{table_id}/events"),
        "piece": None,
        "host": host,
        "seats": lobby_seats(table, seat, tr),
        # Through the watch link nobody is asked to sit: the page says it waits for the start.
        "waiting": "" if code else waiting_words(table, seat, tr),
        "controls": room_controls(table, tr),
        "delay": delay_words(table.watch_delay, tr) if seat is None else "",
        # The replay is the table's own page (/hearts/t/{id}/replay): once the match is over
        # its id gives nothing away (no seat to take, no move to make).
        "replay": (f"/hearts/t/{watched_id(request, code) if code else table_id}/replay"
                   if over and seat is None else ""),
    }
    if table.match is not None:
        urls = watch_urls(router.url_path_for, code) if code else urls_for(table_id)
        pieces = board_pieces(table, seat, urls, tr)
        context["piece"] = piece_renderer(pieces, visit.lang)
        context["last_url"] = urls.last
        back_url = "" if code else str(request.app.url_path_for("table_back", table_id=table_id))
        context["back"] = render_once(
            TABLE_TEMPLATE, back_piece(table, seat, back_url, visit.lang), visit.lang
        )
    return page(request, "hearts/table_page.html", context, visit.lang)


@router.post("/t/{table_id}/sit", name="table_sit")
async def table_sit(
    table_id: str, form: SitFormDep, request: Request, visit: VisitDep
) -> Response:
    cleaned = nickname(visit, form.name or visit.profile.data.get("nickname") or "")
    sit = sit_named(visit.session_id, cleaned, form.seat)
    await change_or_error_page(visit, table_id, sit, request, restarts_turn=False)
    await remember(visit, cleaned)
    return to_table(table_id)


@router.post("/t/{table_id}/name", name="table_name")
async def table_name(
    table_id: str, form: NameFormDep, request: Request, visit: VisitDep
) -> Response:
    """The name this browser goes by (its profile's, for every table and board); a seated
    player's seat takes it too (refused when another player at the table has it)."""
    table = await service.load(visit.store, table_id)
    cleaned = nickname(visit, form.name)
    if table.seat_of(visit.session_id) is not None:
        rename = sit_named(visit.session_id, cleaned, None)
        await change_or_error_page(visit, table_id, rename, request, restarts_turn=False)
    await remember(visit, cleaned)
    return to_table(table_id)


@router.post("/t/{table_id}/start", name="table_start")
async def table_start(
    table_id: str, form: StartFormDep, request: Request, visit: VisitDep
) -> Response:
    rules = PRESETS.get(form.rules)
    if not service.settings_valid(form.level, form.seconds, form.watch_delay) or rules is None:
        raise PageError(400, translator(visit.lang).gettext(
            "Pick a level and a turn limit of 15 to 120 seconds, or none."))
    start = service.start(visit.session_id, form.level, form.seconds, visit.clock(), rules,
                          form.watch_delay)
    await change_or_error_page(visit, table_id, start, request)
    return to_table(table_id)


async def seat_move(
    table_id: str, request: Request, visit: Visit, version: int | None, move: service.Move
) -> Response:
    """A seat's move: the table's pieces since the page's ``version``; a move the rules refuse
    (409) the same, with the reason."""
    tr = translator(visit.lang)
    apply = service.seat_action(visit.session_id, move)
    reason: str | None = None
    try:
        # The others move while this player thinks, so the page's version is only where its
        # catch-up starts: the rules themselves refuse a move made twice or out of turn.
        table = await change(visit, table_id, None, apply, request)
    except TableRefused as refused:
        if refused.status != 409:  # not this browser's seat, or no such table
            raise PageError(refused.status, refused_text(refused, tr)) from None
        table, reason = refused.table, refused_text(refused, tr)
    seat = table.seat_of(visit.session_id)

    def caught_up() -> Markup:
        return catch_up(table, seat, version or 0, urls_for(table_id), tr, visit.lang)

    if reason is not None:
        return conflict_answer(request, table_url(table_id), caught_up, reason)
    return action_answer(request, table_url(table_id), caught_up)


@router.post("/t/{table_id}/pass", name="table_pass")
async def table_pass(
    table_id: str, form: PassFormDep, request: Request, visit: VisitDep
) -> Response:
    return await seat_move(table_id, request, visit, form.version, service.pass_cards(form.cards))


@router.post("/t/{table_id}/play", name="table_play")
async def table_play(
    table_id: str, form: PlayFormDep, request: Request, visit: VisitDep
) -> Response:
    return await seat_move(table_id, request, visit, form.version, service.play_card(form.card))


@router.post("/t/{table_id}/next-hand", name="table_next_hand")
async def table_next_hand(
    table_id: str, form: MoveFormDep, request: Request, visit: VisitDep
) -> Response:
    return await seat_move(table_id, request, visit, form.version, service.next_hand)


@router.post("/t/{table_id}/moon", name="table_moon")
async def table_moon(
    table_id: str, form: MoonFormDep, request: Request, visit: VisitDep
) -> Response:
    """The player who shot the moon under the shooter's-choice rule says what it does."""
    return await seat_move(table_id, request, visit, form.version, service.choose_moon(form.choice))


@router.post("/t/{table_id}/react", name="table_react")
async def table_react(
    table_id: str, form: ReactFormDep, request: Request, visit: VisitDep
) -> Response:
    """A preset reaction from the page; the page shows it when the event stream brings it."""
    tr = translator(visit.lang)
    if form.reaction not in REACTIONS:
        raise PageError(400, tr.gettext("That is not one of the reactions."))
    react = service.react(visit.session_id, form.reaction, visit.clock())
    try:
        await service.change(visit.store, table_id, None, react, visit.clock,
                             restarts_turn=False)
    except TableRefused as refused:
        if not is_htmx(request):
            raise PageError(refused.status, refused_text(refused, tr)) from None
        return answer(status(refused_text(refused, tr)), status_code=refused.status)
    if not is_htmx(request):
        return to_table(table_id)
    return Response(status_code=204)


@router.post("/t/{table_id}/back", name="table_back")
async def table_back(table_id: str, request: Request, visit: VisitDep) -> Response:
    await service.seen_back(visit.store, table_id, visit.session_id)
    back = service.back(visit.session_id, visit.clock())
    try:
        await change(visit, table_id, None, back, request, restarts_turn=False)
    except TableRefused as refused:
        if refused.reason != "not_away":  # a second tap finds the seat back already
            raise PageError(refused.status, refused_text(refused, translator(visit.lang))) from None
    return to_table(table_id)


@router.get("/t/{table_id}/last-trick", response_class=HTMLResponse, name="table_last_trick")
async def table_last_trick(table_id: str, visit: VisitDep) -> HTMLResponse:
    table = await service.load(visit.store, table_id)
    seat = table.seat_of(visit.session_id)
    if seat is None:
        table = watched(table, visit.clock())
    return last_trick_answer(table, seat, visit)


@router.get("/w/{watch_code}/last-trick", response_class=HTMLResponse, name="watch_last_trick")
async def watch_last_trick(watch_code: str, request: Request, visit: VisitDep) -> HTMLResponse:
    table = await service.load(visit.store, watched_id(request, watch_code))
    return last_trick_answer(watched(table, visit.clock()), None, visit)


def last_trick_answer(table: Table, seat: int | None, visit: Visit) -> HTMLResponse:
    view = seat_view(table, seat)
    tr = translator(visit.lang)
    # A watcher has no "you": the seats go by their players' names.
    names = seat_names(tr) if seat is not None else names_from(table, 0, tr)
    last = None if view is None else last_trick(turned(view, seat or 0), tr, names)
    shown = Piece.of("last_trick", last=last, names=names)
    return answer(render_once(TEMPLATE, shown, visit.lang))
