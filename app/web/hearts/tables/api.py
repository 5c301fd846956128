"""The JSON API of tables: ``/api/hearts/tables/...`` (contract.md, "Added in the second
round"), and their event stream, which the pages use too.

Every answer and every event is the caller's own view (app/web/hearts/tables/views.py): the
seat's hand and nobody else's.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Body, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent
from pydantic import ConfigDict, Field

from app.rules.cards import parse_card
from app.settings import Settings
from app.web.api_models import (
    CARD_PATTERN,
    ErrorResponse,
    HeartsMoon,
    HeartsPass,
    HeartsPlay,
    HeartsRulesBody,
    StrictBody,
    VersionBody,
    error_responses,
    matches,
    state_response,
    version_of,
)
from app.web.deps import Visit, VisitDep
from app.web.errors import api_error
from app.web.games import GameNotFound
from app.web.hearts.api import invalid_card, rules_of
from app.web.hearts.tables import service
from app.web.hearts.tables.board import PageFeed, page_urls, watch_urls
from app.web.hearts.tables.clock import TableClock
from app.web.hearts.tables.names import sit_named
from app.web.hearts.tables.service import REACTIONS, ReactionName, Table, TableRefused
from app.web.hearts.tables.streams import held_version, played_since
from app.web.hearts.tables.texts import refused_text
from app.web.hearts.tables.views import TableView, table_view
from app.web.hearts.tables.watch import WatchDelay, next_shown_at, table_of, watch_code, watched
from app.web.i18n import translator
from app.web.nickname import NicknameInvalid, clean_nickname
from app.web.profile import update_profile

router = APIRouter(prefix="/api/hearts/tables", tags=["Hearts"])
watching = APIRouter(prefix="/api/hearts/watch", tags=["Hearts"])

# An event stream ends after this long; the browser then reconnects (with Last-Event-ID).
STREAM_LIFETIME = 300.0
DEFAULT_GRACE = Settings.model_fields["table_away_grace_seconds"].default


class NewTable(StrictBody):
    bot_level: Literal["easy", "normal", "hard", "expert"] = "normal"
    turn_seconds: int | None = Field(
        default=30,
        ge=service.TURN_SECONDS_MIN,
        le=service.TURN_SECONDS_MAX,
        description="The turn limit in seconds (15–120), or null for none.",
    )
    name: str | None = Field(
        default=None,
        max_length=200,
        description="The creator's nickname (1–20 characters); the profile's when left out.",
    )

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"bot_level": "normal", "turn_seconds": 30}]}
    )


class SitDown(StrictBody):
    seat: int | None = Field(
        default=None, ge=0, le=3, description="A free seat; any when left out."
    )
    name: str = Field(max_length=200, description="The player's nickname (1–20 characters).")

    model_config = ConfigDict(json_schema_extra={"examples": [{"seat": 2, "name": "Lan"}]})


class StartTable(StrictBody):
    bot_level: Literal["easy", "normal", "hard", "expert"] | None = None
    turn_seconds: int | None = Field(
        default=None,
        ge=service.TURN_SECONDS_MIN,
        le=service.TURN_SECONDS_MAX,
        description="Changes the turn limit set when the table was opened (null: none).",
    )
    rules: HeartsRulesBody | None = Field(
        default=None, description="The match's house rules; the seed's when left out."
    )
    watch_delay: WatchDelay | None = Field(
        default=None,
        description="How far behind watchers see the match: `none` (the default), `trick` (the "
        "table as it stood four cards ago; the match's end at once) or `30s`.",
    )

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"bot_level": "hard", "turn_seconds": 60,
                                         "watch_delay": "trick"}]}
    )


class React(StrictBody):
    reaction: ReactionName = Field(description="One of the preset reactions; no free text.")

    model_config = ConfigDict(json_schema_extra={"examples": [{"reaction": "clap"}]})


async def existing_table(table_id: str, visit: VisitDep) -> Table:
    """The table; a missing one is a 404 before any stream starts."""
    return await service.load(visit.store, table_id)


def clock_of(request: Request) -> TableClock:
    return request.app.state.table_clock


def code_of(request: Request, table_id: str) -> str:
    """The table's watch code (watch.py), under this server's key."""
    return watch_code(request.app.state.settings.secret_key, table_id)


async def answer(request: Request, visit: Visit, table: Table, status: int = 200) -> Response:
    clock = clock_of(request)
    presence = await clock.streams.presence(table.table_id)
    clock.note(table, presence)
    view = table_view(seen_by(table, visit), visit.session_id, visit.clock(), presence)
    view.watch_code = code_of(request, table.table_id)
    return state_response(view, status)


def seen_by(table: Table, visit: Visit) -> Table:
    """The table as the caller sees it: a caller without a seat watches (watch.py)."""
    if table.seat_of(visit.session_id) is None:
        return watched(table, visit.clock())
    return table


async def refusal(request: Request, visit: Visit, refused: TableRefused) -> JSONResponse:
    table = refused.table
    presence = await clock_of(request).streams.presence(table.table_id)
    view = table_view(seen_by(table, visit), visit.session_id, visit.clock(), presence)
    message = refused_text(refused, translator(visit.lang))
    body = {
        "error": {"code": refused.reason, "message": message},
        "state": view.model_dump(mode="json"),
    }
    return JSONResponse(body, status_code=refused.status)


async def nickname(visit: Visit, raw: str) -> str | JSONResponse:
    """The cleaned nickname, kept in the profile; or the 422 that says what is wrong."""
    try:
        name = clean_nickname(raw)
    except NicknameInvalid as invalid:
        message = translator(visit.lang).gettext(invalid.reason)
        return api_error(422, "invalid_name", message)
    if visit.profile.data.get("nickname") != name:
        await update_profile(visit.store, visit.session_id, lambda d: d.update(nickname=name))
    return name


async def apply(
    request: Request,
    visit: Visit,
    table_id: str,
    version: int | None,
    change: service.Change,
    *,
    slow: bool = False,
    restarts_turn: bool = True,
) -> Response:
    try:
        table = await service.change(
            visit.store, table_id, version, change, visit.clock, slow=slow,
            restarts_turn=restarts_turn,
        )
    except TableRefused as refused:
        return await refusal(request, visit, refused)
    return await answer(request, visit, table)


async def seat_move(
    request: Request, visit: Visit, table_id: str, version: int | None, move: service.Move
) -> Response:
    """One of the caller's seat's moves, then the bots' answer."""
    change = service.seat_action(visit.session_id, move)
    return await apply(request, visit, table_id, version, change, slow=True)


TABLE = {"model": TableView, "description": "The caller's view of the table"}
# An event stream's refusals: JSON even there, where the answer itself is an event stream.
STREAM_REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {
        "description": answer["description"],
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}
        },
    }
    for status, answer in error_responses(404, 422).items()
}
REFUSED = {
    403: {"model": ErrorResponse, "description": "Not the caller's seat (or another site)."},
    409: {"model": ErrorResponse, "description": "Refused; the view as it is now is under state."},
}
ACTION = {200: TABLE, **error_responses(404, 413, 422), **REFUSED}


def table_action(verb: str, summary: str, responses: dict | None = None) -> Any:
    """The decorator of ``POST /api/hearts/tables/{table_id}/{verb}``: an action at the table
    answered with the caller's view (a refusal: the error and the view as it is now)."""
    return router.post(
        f"/{{table_id}}/{verb}",
        response_model=TableView,
        operation_id=f"hearts_table_{verb.replace('-', '_')}",
        summary=summary,
        responses={**ACTION, **(responses or {})},
    )


@router.post(
    "",
    status_code=201,
    response_model=TableView,
    operation_id="hearts_create_table",
    summary="Open a table; the caller sits South",
    responses=error_responses(403, 413, 422),
)
async def create_table(
    request: Request, visit: VisitDep, body: Annotated[NewTable | None, Body()] = None
):
    body = body or NewTable()
    raw = body.name if body.name is not None else visit.profile.data.get("nickname")
    name: str | None = None
    if raw is not None:
        cleaned = await nickname(visit, raw)
        if isinstance(cleaned, JSONResponse):
            return cleaned
        name = cleaned
    table = await service.create(
        visit.store, visit.session_id, name, body.bot_level, body.turn_seconds, visit.clock()
    )
    return await answer(request, visit, table, 201)


@router.get(
    "/{table_id}",
    response_model=TableView,
    operation_id="hearts_get_table",
    summary="The table as the caller may see it",
    responses=error_responses(404, 422),
)
async def get_table(table_id: str, request: Request, visit: VisitDep):
    return await answer(request, visit, await service.load(visit.store, table_id))


@table_action("seats", "Take a seat (a free one when none is named)")
async def take_seat(table_id: str, body: SitDown, request: Request, visit: VisitDep):
    name = await nickname(visit, body.name)
    if isinstance(name, JSONResponse):
        return name
    return await apply(
        request, visit, table_id, None, sit_named(visit.session_id, name, body.seat),
        restarts_turn=False,
    )


@table_action("start", "Start the match (the creator only); bots take the empty seats")
async def start_table(
    table_id: str,
    request: Request,
    visit: VisitDep,
    body: Annotated[StartTable | None, Body()] = None,
):
    level = None if body is None else body.bot_level
    seconds: int | bool | None = False
    if body is not None and "turn_seconds" in body.model_fields_set:
        seconds = body.turn_seconds
    rules = rules_of(None if body is None else body.rules)
    if isinstance(rules, JSONResponse):
        return rules
    delay = None if body is None else body.watch_delay
    change = service.start(visit.session_id, level, seconds, visit.clock(), rules, delay)
    return await apply(request, visit, table_id, None, change, slow=True)


@table_action("pass", "Pass three cards from the caller's hand")
async def table_pass(table_id: str, body: HeartsPass, request: Request, visit: VisitDep):
    if not all(matches(CARD_PATTERN, text) for text in body.cards):
        return invalid_card(visit.lang)
    mask = sum({1 << parse_card(text) for text in body.cards})
    return await seat_move(request, visit, table_id, body.version, service.pass_cards(mask))


@table_action("play", "Play a card from the caller's hand")
async def table_play(table_id: str, body: HeartsPlay, request: Request, visit: VisitDep):
    if not matches(CARD_PATTERN, body.card):
        return invalid_card(visit.lang)
    move = service.play_card(parse_card(body.card))
    return await seat_move(request, visit, table_id, body.version, move)


@table_action("next-hand", "Deal the next hand after a hand is over")
async def table_next_hand(
    table_id: str,
    request: Request,
    visit: VisitDep,
    body: Annotated[VersionBody | None, Body()] = None,
):
    return await seat_move(request, visit, table_id, version_of(body), service.next_hand)


@table_action(
    "moon",
    "Say what the caller's moon does, under the shooter's-choice rule (the shooter only)",
)
async def table_moon(table_id: str, body: HeartsMoon, request: Request, visit: VisitDep):
    move = service.choose_moon(body.choice)
    return await seat_move(request, visit, table_id, body.version, move)


@table_action(
    "back",
    "Take the seat back from the bot after being away (409 when the seat is not away)",
)
async def table_back(
    table_id: str,
    request: Request,
    visit: VisitDep,
    body: Annotated[VersionBody | None, Body()] = None,
):
    await service.seen_back(visit.store, table_id, visit.session_id)
    back = service.back(visit.session_id, visit.clock())
    return await apply(request, visit, table_id, version_of(body), back, restarts_turn=False)


@table_action(
    "reactions",
    f"Send one of the preset reactions ({', '.join(REACTIONS)})",
    {429: {"model": ErrorResponse, "description": f"More than {service.REACTION_BURST} "
           f"reactions from the seat in {service.REACTION_WINDOW:.0f} seconds."}},
)
async def table_react(table_id: str, body: React, request: Request, visit: VisitDep):
    change = service.react(visit.session_id, body.reaction, visit.clock())
    return await apply(request, visit, table_id, None, change, restarts_turn=False)


@router.get(
    "/{table_id}/events",
    response_class=EventSourceResponse,
    operation_id="hearts_table_events",
    summary="The caller's view after each change, as server-sent events (id: the version)",
    description="Each change of the table is an event whose id is the table's version: the "
    "caller's view, and under `played` the cards played since the previous event, each with "
    "its version, hand, seat and card (`null` on a first connection, or when the table no "
    "longer keeps that far back: then the view is all there is). The current view comes at "
    "once on connecting; a client that reconnects with `Last-Event-ID` (EventSource does it "
    "by itself) gets the view with what it missed under `played`, from any instance, and no "
    "event it already had. When only a player's presence changes (a page opened or closed "
    "its stream), the view comes again in an event without an id, as it does on reconnecting "
    "at the current version. The stream ends after a few minutes; EventSource reconnects by "
    "itself.\n\n"
    "Presence: a seated player's open stream is what makes the seat `connected`. A seat with no "
    f"stream open for the grace period ({DEFAULT_GRACE:.0f} seconds unless the server sets "
    "`CARDROOM_TABLE_AWAY_GRACE_SECONDS`: longer than a reload or a network blip) is "
    "`away`, as is a player who let two turns in a row run past the limit: the Normal bot "
    "plays the seat at once, from that seat's view only, until the player comes back "
    "(`POST …/back`, refused with 409 when the seat is not away; it leaves the turn limit "
    "running). A client that never opens the stream is away the same way, from the start of "
    "the match: a script playing a seat keeps this stream open.\n\n"
    "A caller without a seat is a watcher: the events are the table's public part only (no "
    "hand, no pass), at the delay the creator chose (`watch_delay`), as through the watch link "
    "(`GET /api/hearts/watch/{watch_code}/events`); an open watcher's stream counts in "
    "`watchers`.",
    responses=STREAM_REFUSALS,
)
async def table_events(
    request: Request, visit: VisitDep, table: Annotated[Table, Depends(existing_table)],
    # The site's own page: its pieces instead of the view (board.PageFeed), from the version
    # it holds (a reconnection's Last-Event-ID, else ``after``).
    pieces: Annotated[bool, Query(include_in_schema=False)] = False,
    after: Annotated[int, Query(ge=0, le=2**53, include_in_schema=False)] = 0,
    last_event_id: Annotated[str | None, Header(max_length=64, include_in_schema=False)] = None,
) -> AsyncIterator[ServerSentEvent]:
    seat = table.seat_of(visit.session_id)
    async for event in follow(request, visit, table, seat, None, pieces, after, last_event_id):
        yield event


async def follow(
    request: Request, visit: Visit, table: Table, seat: int | None, watch_code: str | None,
    pieces: bool, after: int, last_event_id: str | None,
) -> AsyncIterator[ServerSentEvent]:
    """The events of ``seat``'s view (None: a watcher's, at the table's delay; through the
    watch link, ``watch_code`` names the table in place of its id)."""
    store, clock, table_clock = visit.store, visit.clock, clock_of(request)
    table_id = table.table_id
    shown_id = watch_code or table_id
    session = visit.session_id if seat is not None else ""  # "" sits nowhere

    def as_seen(table: Table) -> Table:
        if seat is not None:
            return table
        return replace(watched(table, clock()), table_id=shown_id)

    shown = as_seen(table)
    # The version the client has: a reconnection's Last-Event-ID; a page's ``after``.
    held = held_version(last_event_id, shown)
    page = None
    if pieces:
        if watch_code is None:
            urls = page_urls(request.app.url_path_for, table_id)
            back = str(request.app.url_path_for("table_back", table_id=table_id))
        else:
            urls, back = watch_urls(request.app.url_path_for, watch_code), ""
        held = min(after, shown.version) if held is None else held
        page = PageFeed(seat, held, urls, back, translator(visit.lang), visit.lang)
    stream = secrets.token_urlsafe(8)  # this connection, among the seat's open streams
    started = clock()
    marks: tuple[object, ...] | None = None  # the presence the client was last sent
    try:
        await table_clock.streams.opened(table_id, stream, seat)
        while True:
            presence = table_clock.streams.known(table_id)
            table_clock.note(table, presence)
            # A change: an event with its version for id. A player whose page came or went, or
            # a watcher (or a reconnection at the version the client has): the view again, with
            # no id, so that no event the client had comes twice.
            if held != shown.version or marks != (presence.connected, presence.watchers):
                view = table_view(shown, session, clock(), presence)
                if page is not None:
                    data = page.event(shown, view)
                else:
                    data = {**view.model_dump(mode="json"),
                            "played": played_since(shown, held)}
                changed = held != shown.version
                held, marks = shown.version, (presence.connected, presence.watchers)
                yield ServerSentEvent(data=data, id=str(held) if changed else None)
            if await request.is_disconnected() or clock() - started > STREAM_LIFETIME:
                return
            wait = table_clock.waits.heartbeat
            catching_up = next_shown_at(table, clock()) if seat is None else None
            if catching_up is not None:  # a delayed watcher's table moves on by itself
                wait = max(0.05, min(wait, catching_up - clock()))
            found = await store.wait_table(table_id, table.version, wait)
            if found is None:
                return
            if found > table.version:
                table = await service.load(store, table_id)
            shown = as_seen(table)
    finally:
        # The stream may end by cancellation (the browser went): saying so must not be.
        with anyio.CancelScope(shield=True):
            await table_clock.streams.closed(table_id, stream, seat)
        if seat is not None:
            table_clock.check_gone_at(table_id, clock() + table_clock.waits.grace)


async def watched_table(watch_code: str, request: Request, visit: VisitDep) -> Table:
    """The table a watch code names; a code that names none is a 404."""
    table_id = table_of(request.app.state.settings.secret_key, watch_code)
    if table_id is None:
        raise GameNotFound(service.NOT_FOUND)
    return await service.load(visit.store, table_id)


@watching.get(
    "/{watch_code}",
    response_model=TableView,
    operation_id="hearts_watch_table",
    summary="A table as its watchers see it (the watch link's code; no seat, no action)",
    description="The table's public part only: the cards played, the tricks, the points, the "
    "cards each seat holds (how many), whose turn; never a hand or a pass. At the delay the "
    "creator chose (`watch_delay`): the view is the table as it stood that long ago (`version` "
    "is that version). `table_id` is the watch code: the table's own id, the invitation, is "
    "never shown here.",
    responses=error_responses(404, 422),
)
async def watch_table(
    watch_code: str, request: Request, visit: VisitDep,
    table: Annotated[Table, Depends(watched_table)],
):
    clock = clock_of(request)
    presence = await clock.streams.presence(table.table_id)
    clock.note(table, presence)
    shown = replace(watched(table, visit.clock()), table_id=watch_code)
    return state_response(table_view(shown, "", visit.clock(), presence))


@watching.get(
    "/{watch_code}/events",
    response_class=EventSourceResponse,
    operation_id="hearts_watch_events",
    summary="A watcher's view after each change, as server-sent events (id: the version)",
    description="As `GET /api/hearts/tables/{table_id}/events`, for a watcher: each event is "
    "the view of `GET /api/hearts/watch/{watch_code}` with the cards played since under "
    "`played`; with a delay, events come as the table stood that long ago, and a stream "
    "reopened with `Last-Event-ID` holds the same delay. The stream counts in the table's "
    "`watchers`.",
    responses=STREAM_REFUSALS,
)
async def watch_events(
    watch_code: str, request: Request, visit: VisitDep,
    table: Annotated[Table, Depends(watched_table)],
    pieces: Annotated[bool, Query(include_in_schema=False)] = False,
    after: Annotated[int, Query(ge=0, le=2**53, include_in_schema=False)] = 0,
    last_event_id: Annotated[str | None, Header(max_length=64, include_in_schema=False)] = None,
) -> AsyncIterator[ServerSentEvent]:
    async for event in follow(request, visit, table, None, watch_code, pieces, after,
                              last_event_id):
        yield event
