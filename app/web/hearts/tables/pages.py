"""Table pages: opening a table, the table itself (its seats before the match, then the match
drawn with the solo table's pieces), and the seat's actions. The page follows the table
through the event stream of the API (static/js/hearts-live.js), and catches up with
``/pieces?after=`` (the cards played since, then every piece)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.rules.cards import parse_card
from app.web.deps import Visit, VisitDep
from app.web.errors import PageError
from app.web.hearts.pages import _parse_cards, _parse_version
from app.web.hearts.table import TEMPLATE, Urls, last_trick, piece_renderer
from app.web.hearts.tables import service
from app.web.hearts.tables.board import board_pieces, catch_up, turned
from app.web.hearts.tables.service import REACTIONS, Table, TableRefused
from app.web.hearts.tables.texts import (
    REACTION_SYMBOLS,
    compass,
    reaction_label,
    refused_text,
    seat_label,
)
from app.web.hearts.tables.views import seat_view
from app.web.hearts.texts import seat_names
from app.web.i18n import translator
from app.web.nickname import NICKNAME_MAX, NicknameInvalid, clean_nickname
from app.web.pieces import answer, make_piece, render_once, status
from app.web.profile import update_profile
from app.web.templating import page

router = APIRouter(prefix="/hearts", include_in_schema=False)


def urls_for(table_id: str) -> Urls:
    def url(name: str) -> str:
        return router.url_path_for(name, table_id=table_id)

    return Urls(
        play=url("table_play"), pass_=url("table_pass"), undo=url("table_play"),
        next=url("table_next_hand"), last=url("table_last_trick"),
    )


def to_table(table_id: str) -> RedirectResponse:
    return RedirectResponse(router.url_path_for("table_page", table_id=table_id), 303)


async def nickname(visit: Visit, raw: str) -> str:
    tr = translator(visit.lang)
    try:
        name = clean_nickname(raw)
    except NicknameInvalid as invalid:
        raise PageError(400, tr.gettext(invalid.reason)) from invalid
    if visit.profile.data.get("nickname") != name:
        await update_profile(visit.store, visit.session_id, lambda d: d.update(nickname=name))
    return name


async def change(visit: Visit, table_id: str, version: int | None, apply: service.Change,
                 request: Request) -> Table:
    try:
        table = await service.change(visit.store, table_id, version, apply, visit.clock,
                                     slow=True)
    except TableRefused as refused:
        if refused.status == 409 and request.headers.get("hx-request") == "true":
            raise
        raise PageError(refused.status, refused_text(refused, translator(visit.lang))) from None
    request.app.state.table_clock.note(table)
    return table


@router.post("/tables", name="table_new")
async def table_new(visit: VisitDep, name: Annotated[str, Form(max_length=200)] = "") -> Response:
    raw = name or visit.profile.data.get("nickname") or ""
    cleaned = await nickname(visit, raw) if raw else None
    table = await service.create(visit.store, visit.session_id, cleaned, "normal", 30,
                                 visit.clock())
    return to_table(table.table_id)


@router.get("/t/{table_id}", response_class=HTMLResponse, name="table_page")
async def table_page(table_id: str, request: Request, visit: VisitDep) -> HTMLResponse:
    table = await service.load(visit.store, table_id)
    request.app.state.table_clock.note(table)
    tr = translator(visit.lang)
    seat = table.seat_of(visit.session_id)
    urls = urls_for(table_id)
    context = {
        "table": table,
        "table_id": table_id,
        "my_seat": seat,
        "creator": seat == Table.CREATOR,
        "labels": [seat_label(table, n, tr) for n in range(4)],
        "compass": compass(tr),
        "invite": str(request.url_for("table_page", table_id=table_id)),
        "nickname": visit.profile.data.get("nickname") or "",
        "nickname_max": NICKNAME_MAX,
        "reactions": [(key, REACTION_SYMBOLS[key], reaction_label(key, tr)) for key in REACTIONS],
        "events": f"/api/hearts/tables/{table_id}/events",
        "pieces_url": router.url_path_for("table_pieces", table_id=table_id),
        "piece": None,
    }
    if table.match is not None:
        pieces = board_pieces(table, seat, urls, tr)
        context["piece"] = piece_renderer(pieces, visit.lang)
    return page(request, "hearts/table_page.html", context, visit.lang)


@router.post("/t/{table_id}/sit", name="table_sit")
async def table_sit(
    table_id: str, request: Request, visit: VisitDep,
    name: Annotated[str, Form(max_length=200)] = "", seat: Annotated[str, Form()] = "",
) -> Response:
    cleaned = await nickname(visit, name)
    wanted = int(seat) if seat in ("0", "1", "2", "3") else None
    await change(visit, table_id, None, service.sit(visit.session_id, cleaned, wanted), request)
    return to_table(table_id)


@router.post("/t/{table_id}/start", name="table_start")
async def table_start(
    table_id: str, request: Request, visit: VisitDep,
    level: Annotated[str, Form()] = "normal", seconds: Annotated[str, Form()] = "30",
) -> Response:
    limit: int | None = int(seconds) if seconds.isdigit() and len(seconds) < 4 else None
    if not service.settings_valid(level, limit):
        raise PageError(400, translator(visit.lang).gettext(
            "Pick a level and a turn limit of 15 to 120 seconds, or none."))
    await change(visit, table_id, None, service.start(visit.session_id, level, limit), request)
    return to_table(table_id)


async def seat_act(
    table_id: str, request: Request, visit: VisitDep, version: str | None,
    apply: service.Change,
) -> Response:
    held = _parse_version(version)
    tr = translator(visit.lang)
    message = ""
    try:
        # The others move while this player thinks, so the page's version is only where its
        # catch-up starts: the rules themselves refuse a move made twice or out of turn.
        table = await change(visit, table_id, None, apply, request)
    except TableRefused as refused:
        table, message = refused.table, refused_text(refused, tr)
    if request.headers.get("hx-request") != "true":
        return to_table(table_id)
    seat = table.seat_of(visit.session_id)
    body = catch_up(table, seat, held or 0, urls_for(table_id), tr, visit.lang)
    return answer(body + status(message), status_code=409 if message else 200)


VersionField = Annotated[str | None, Form()]
# What a seat's move reads from the page's form: ``cards`` to pass, or the ``card`` played.
MOVES: dict[str, Callable[[str, str], service.Move]] = {
    "pass": lambda cards, card: service.pass_cards(_parse_cards(cards)),
    "play": lambda cards, card: service.play_card(parse_card(card)),
    "next-hand": lambda cards, card: service.next_hand,
}


def move_route(verb: str) -> None:
    """``POST /hearts/t/{table_id}/{verb}`` (named ``table_pass``, ``table_play``,
    ``table_next_hand``): the seat's move from the page's form."""
    read = MOVES[verb]

    async def route(
        table_id: str, request: Request, visit: VisitDep,
        cards: Annotated[str, Form(max_length=80)] = "",
        card: Annotated[str, Form(max_length=8)] = "",
        version: VersionField = None,
    ) -> Response:
        move = service.seat_action(visit.session_id, read(cards, card))
        return await seat_act(table_id, request, visit, version, move)

    name = f"table_{verb.replace('-', '_')}"
    router.post(f"/t/{{table_id}}/{verb}", name=name)(route)


for verb in MOVES:
    move_route(verb)


@router.post("/t/{table_id}/react", name="table_react")
async def table_react(
    table_id: str, request: Request, visit: VisitDep,
    reaction: Annotated[str, Form(max_length=20)] = "",
) -> Response:
    """A preset reaction from the page; the page shows it when the event stream brings it."""
    tr = translator(visit.lang)
    if reaction not in REACTIONS:
        raise PageError(400, tr.gettext("That is not one of the reactions."))
    react = service.react(visit.session_id, reaction, visit.clock())
    try:
        await service.change(visit.store, table_id, None, react, visit.clock,
                             restarts_turn=False)
    except TableRefused as refused:
        if request.headers.get("hx-request") != "true":
            raise PageError(refused.status, refused_text(refused, tr)) from None
        return answer(status(refused_text(refused, tr)), status_code=refused.status)
    if request.headers.get("hx-request") != "true":
        return to_table(table_id)
    return Response(status_code=204)


@router.post("/t/{table_id}/back", name="table_back")
async def table_back(table_id: str, request: Request, visit: VisitDep) -> Response:
    await service.seen_back(visit.store, table_id, visit.session_id)
    await change(visit, table_id, None, service.back(visit.session_id), request)
    return to_table(table_id)


@router.get("/t/{table_id}/pieces", name="table_pieces")
async def table_pieces_since(
    table_id: str, visit: VisitDep, after: Annotated[str, Query(max_length=15)] = "0"
) -> Response:
    table = await service.load(visit.store, table_id)
    if table.match is None:
        return answer(status(""))
    seat = table.seat_of(visit.session_id)
    held = int(after) if after.isdigit() else 0
    tr = translator(visit.lang)
    return answer(catch_up(table, seat, held, urls_for(table_id), tr, visit.lang))


@router.get("/t/{table_id}/last-trick", response_class=HTMLResponse, name="table_last_trick")
async def table_last_trick(table_id: str, visit: VisitDep) -> HTMLResponse:
    table = await service.load(visit.store, table_id)
    seat = table.seat_of(visit.session_id)
    view = seat_view(table, seat)
    tr = translator(visit.lang)
    last = None if view is None else last_trick(turned(view, seat or 0), tr)
    shown = make_piece("last_trick", (last, seat_names(tr)))
    return answer(render_once(TEMPLATE, shown, visit.lang))
