"""The JSON API of Heart to Heart: ``/api/heart-to-heart/...`` (contract.md, "JSON API").

Same service as the pages (:mod:`app.web.heart_to_heart.service`), so a game moves freely
between the two. The clock: an API client has no screen, so the wall-clock time between two
changes of a game counts as play time (the rules count it only while the game is in play).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from app.rules.deal_codes import DealCodeError, parse_deal_code
from app.rules.heart_to_heart import (
    GAME,
    HEART_SIZE,
    VARIANTS,
    Target,
    new_game,
    parse_target,
    rank_name,
    target_text,
)
from app.store import GameStore, StoredGame
from app.web.api_models import (
    TARGET_PATTERN,
    HeartCard,
    HeartToHeartConflict,
    HeartToHeartNewGame,
    HeartToHeartOptions,
    HeartToHeartState,
    HeartToHeartTap,
    PlacementHelp,
    VersionBody,
    conflict_answer,
    error_responses,
    links_to,
    matches,
    state_answer,
)
from app.web.api_route import ApiRoute
from app.web.deps import ClockDep, Lang, ProfileDep, SessionId, StoreDep
from app.web.errors import api_error
from app.web.games import StaleVersion
from app.web.heart_to_heart import service
from app.web.heart_to_heart.service import KIND, Loaded, Options, Refused
from app.web.heart_to_heart.texts import deal_error_message, move_error, undo_refusal
from app.web.i18n import translator

router = APIRouter(prefix="/api/heart-to-heart", tags=["Heart to Heart"], route_class=ApiRoute)


def _order(target: Target) -> tuple[int, int]:
    return (1, 0) if isinstance(target, str) else (0, target)


def game_state(loaded: Loaded, options: Options, message: str | None = None) -> HeartToHeartState:
    stored, game = loaded.stored, loaded.game
    outlined, dimmed = game.placement_help() if options.placement_help else ((), ())
    selected, top = game.selected, game.waste_top
    return HeartToHeartState(
        game_id=stored.game_id,
        deal=game.deal,
        version=stored.version,
        status=game.status,
        score=game.score,
        moves=game.moves,
        elapsed_seconds=game.elapsed_seconds,
        heart=[
            HeartCard(pos=pos, rank=rank_name(game.rank_at(pos)), state=game.position_state(pos))
            for pos in range(HEART_SIZE)
        ],
        stock_count=game.stock_count,
        waste_count=game.waste_count,
        waste_top=None if top is None else rank_name(top),
        selected=None if selected is None else target_text(selected),
        undo_depth=game.undo_depth,
        message=message,
        options=HeartToHeartOptions(**asdict(options)),
        help=PlacementHelp(
            outlined=[target_text(t) for t in sorted(outlined, key=_order)],
            dimmed=[target_text(t) for t in sorted(dimmed, key=_order)],
        ),
    )


async def act(
    store: GameStore,
    session_id: str,
    game_id: str,
    version: int | None,
    options: Options,
    lang: str,
    action: service.Action,
    now: float,
) -> HeartToHeartState | JSONResponse:
    """The API's side of an action: the state after it, or 409 with the state as it is."""
    try:
        turn = await service.act(
            store, session_id, game_id, version, action, service.wall_time(now)
        )
    except StaleVersion as stale:
        message = translator(lang).gettext(
            "The game has changed since that version; here it is now."
        )
        return conflict_answer("stale_version", message, game_state(stale.current, options))
    except Refused as refused:
        message = undo_refusal(refused.error, lang)
        return conflict_answer(refused.error.reason, message, game_state(refused.current, options))
    return game_state(turn.after, options, move_error(turn.result, options, lang))


GAME_OPERATIONS = ("heart_to_heart_get_game", "heart_to_heart_tap", "heart_to_heart_undo")


def example_state() -> HeartToHeartState:
    """A real new game, as the documented example."""
    stored = StoredGame("q3J8cW1pZk9aXr2T", KIND, 1, {}, 0.0)
    return game_state(Loaded(stored, new_game("HH1-N-AAAAAAM")), Options())


GAME_LINKS = links_to(*GAME_OPERATIONS)
ACTION_RESPONSES = {
    **state_answer(200, "The state after the action", GAME_LINKS),
    **error_responses(403, 404, 409, 413, 422, conflict=HeartToHeartConflict),
}


@router.post(
    "/games",
    status_code=201,
    response_model=HeartToHeartState,
    responses={
        **state_answer(201, "The new game", GAME_LINKS, example_state()),
        **error_responses(403, 413, 422),
    },
    operation_id="heart_to_heart_create_game",
    summary="Start a game (it becomes this session's current game)",
)
async def create_game(
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
    body: Annotated[HeartToHeartNewGame | None, Body()] = None,
):
    if body is None or body.deal is None:
        code = service.random_code("N")
    else:
        try:
            code = str(parse_deal_code(body.deal, GAME, VARIANTS))
        except DealCodeError as error:
            return api_error(422, "invalid_deal", deal_error_message(error, body.deal, lang))
    loaded = await service.replace_game(store, session_id, code)
    return game_state(loaded, Options.of(profile))


@router.get(
    "/games/{game_id}",
    response_model=HeartToHeartState,
    responses={**state_answer(200, "The state", GAME_LINKS), **error_responses(404, 422)},
    operation_id="heart_to_heart_get_game",
    summary="The state of a game",
)
async def get_game(
    game_id: str, store: StoreDep, session_id: SessionId, profile: ProfileDep, lang: Lang
):
    return game_state(await service.owned(store, session_id, game_id), Options.of(profile))


@router.post(
    "/games/{game_id}/tap",
    response_model=HeartToHeartState,
    responses=ACTION_RESPONSES,
    operation_id="heart_to_heart_tap",
    summary="Tap a heart card, the stock or the waste, as on the page",
    description="A tap that does nothing answers the state unchanged (same version).",
)
async def tap(
    game_id: str,
    body: HeartToHeartTap,
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
    clock: ClockDep,
):
    if not matches(TARGET_PATTERN, body.target):
        message = translator(lang).gettext(
            "A target is heart:0 to heart:24, stock or waste."
        )
        return api_error(422, "invalid_target", message)
    target = parse_target(body.target)
    return await act(
        store, session_id, game_id, body.version, Options.of(profile), lang,
        lambda game: game.tap(target), clock(),
    )


@router.post(
    "/games/{game_id}/undo",
    response_model=HeartToHeartState,
    responses=ACTION_RESPONSES,
    operation_id="heart_to_heart_undo",
    summary="Take back the last move",
    description="Nothing to undo, or a won game: 409 with the state.",
)
async def undo(
    game_id: str,
    store: StoreDep,
    session_id: SessionId,
    profile: ProfileDep,
    lang: Lang,
    clock: ClockDep,
    body: Annotated[VersionBody | None, Body()] = None,
):
    version = None if body is None else body.version
    return await act(
        store, session_id, game_id, version, Options.of(profile), lang,
        lambda game: game.undo(), clock(),
    )


@router.get(
    "/options",
    response_model=HeartToHeartOptions,
    operation_id="heart_to_heart_get_options",
    summary="This session's Heart to Heart options",
)
async def get_options(profile: ProfileDep):
    return HeartToHeartOptions(**asdict(Options.of(profile)))


@router.put(
    "/options",
    response_model=HeartToHeartOptions,
    responses=error_responses(403, 413, 422),
    operation_id="heart_to_heart_put_options",
    summary="Set this session's Heart to Heart options (the pages use them too)",
)
async def put_options(body: HeartToHeartOptions, store: StoreDep, session_id: SessionId):
    await service.store_options(store, session_id, Options(**body.model_dump()))
    return body
