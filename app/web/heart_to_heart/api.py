"""The JSON API of Heart to Heart: ``/api/heart-to-heart/...`` (contract.md, "JSON API").

Same service as the pages (:mod:`app.web.heart_to_heart.service`), so a game moves freely
between the two. The clock: an API client has no screen, so the server's time between two
changes of a game counts as play time, each gap capped (the rules count it only while the game
is in play).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Annotated, Literal, TypeVar

import orjson
from fastapi import APIRouter, Body
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.rules.deal_codes import DealCodeError
from app.rules.heart_to_heart import (
    ALL_REMOVED,
    WASTE_BIT,
    free_mask_of,
    new_game,
    parse_target,
    positions_in,
    rank_name,
    target_text,
)
from app.store import GameStore, StoredGame
from app.web.api_models import (
    TARGET_PATTERN,
    HeartToHeartConflict,
    HeartToHeartNewGame,
    HeartToHeartOptions,
    HeartToHeartState,
    HeartToHeartTap,
    StateRoutes,
    VersionBody,
    api_conflict,
    api_stale,
    assist_answer,
    error_responses,
    game_fields,
    json_response,
    links_to,
    matches,
    version_of,
)
from app.web.deps import ProfileDep, SessionId, StoreDep, Visit, VisitDep
from app.web.errors import api_error
from app.web.games import Loaded, StaleVersion
from app.web.heart_to_heart import assists, service
from app.web.heart_to_heart.service import KIND, LoadedGame, Options, UndoRefused
from app.web.heart_to_heart.texts import deal_error_message, move_error, undo_refusal
from app.web.i18n import translator

router = APIRouter(prefix="/api/heart-to-heart", tags=["Heart to Heart"])


def help_targets(mask: int) -> list[str]:
    """A mask of placement-help targets as the API lists them: heart positions in order, then
    the waste."""
    targets = [target_text(pos) for pos in positions_in(mask & ALL_REMOVED)]
    return [*targets, "waste"] if mask & WASTE_BIT else targets


def heart_json(ranks: tuple[int, ...], removed: int) -> orjson.Fragment:
    """The heart as the API shows it (HeartCard objects), already serialized."""
    free = free_mask_of(removed)
    return orjson.Fragment(orjson.dumps([
        {"pos": pos, "rank": rank_name(rank),
         "state": "removed" if removed >> pos & 1 else "free" if free >> pos & 1 else "covered"}
        for pos, rank in enumerate(ranks)
    ]))


def options_model(options: Options) -> HeartToHeartOptions:
    """The options as the API shows them."""
    return HeartToHeartOptions(**asdict(options))


def options_json(options: Options) -> orjson.Fragment:
    """The options as the state shows them."""
    return orjson.Fragment(orjson.dumps(asdict(options)))


def state_json(loaded: LoadedGame, options: Options, message: str | None = None) -> bytes:
    """The game as :class:`HeartToHeartState` describes it, serialized straight from the rules'
    game: an action answers it on every tap, and the state the server built from its own game
    needs no validating (tests check it against the model)."""
    stored, game = loaded.stored, loaded.game
    outlined, dimmed = game.placement_masks() if options.placement_help else (0, 0)
    selected, top = game.selected, game.waste_top
    return orjson.dumps({
        **game_fields(stored, service.shown_deal(loaded)),
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "elapsed_seconds": game.elapsed_seconds,
        "heart": heart_json(game.heart_ranks, game.removed_mask),
        "stock_count": game.stock_count,
        "waste_count": game.waste_count,
        "waste_top": None if top is None else rank_name(top),
        "selected": None if selected is None else target_text(selected),
        "undo_depth": game.undo_depth,
        "message": message,
        "options": options_json(options),
        "help": {
            "outlined": help_targets(outlined),
            "dimmed": help_targets(dimmed),
        },
    })


def game_state(
    loaded: LoadedGame, options: Options, message: str | None = None
) -> HeartToHeartState:
    """The state as a model (for the answers that embed it: a conflict, the docs' example)."""
    return HeartToHeartState.model_validate_json(state_json(loaded, options, message))


def game_state_response(loaded: LoadedGame, options: Options, message: str | None = None,
                 status_code: int = 200) -> Response:
    return json_response(state_json(loaded, options, message), status_code)


async def api_action(
    visit: Visit, game_id: str, version: int | None, action: service.Action
) -> Response:
    """The API's side of an action: the state after it, or 409 with the state as it is."""
    timing = service.wall_time(visit.clock())
    options = Options.of(visit.profile)
    try:
        turn = await service.apply_action(
            visit.store, visit.session_id, game_id, version, action, timing, visit.latest_games,
            via_api=True,
        )
    except StaleVersion as stale:
        return api_stale(game_state(stale.current, options), visit.lang)
    except UndoRefused as refused:
        message = undo_refusal(refused.error, visit.lang)
        return api_conflict(refused.error.reason, message, game_state(refused.current, options))
    return game_state_response(
        turn.after, options, move_error(turn.result.kind, options.move_errors, visit.lang)
    )


def example_state() -> HeartToHeartState:
    """A real new game, as the documented example."""
    stored = StoredGame("q3J8cW1pZk9aXr2T", KIND, 1, {}, 0.0)
    return game_state(Loaded(stored, new_game("HH1-N-AAAAAAM")), Options())


ROUTES = StateRoutes(
    router,
    HeartToHeartState,
    links_to(
        "heart_to_heart_get_game", "heart_to_heart_tap", "heart_to_heart_undo",
        "heart_to_heart_back",
    ),
    HeartToHeartConflict,
)
ACTED = "The state after the action"


@ROUTES.create(
    "heart_to_heart_create_game",
    "Start a game (it becomes this session's current game)",
    "The new game",
    example_state(),
)
async def create_game(visit: VisitDep, body: Annotated[HeartToHeartNewGame | None, Body()] = None):
    deal = None if body is None else body.deal
    try:
        code = service.deal_or_random(deal)
    except DealCodeError as error:
        return api_error(422, "invalid_deal", deal_error_message(error, deal or "", visit.lang))
    loaded = await service.replace_game(visit.store, visit.session_id, code)
    return game_state_response(loaded, Options.of(visit.profile), status_code=201)


@ROUTES.read("heart_to_heart_get_game", "The state of a game")
async def get_game(game_id: str, visit: VisitDep):
    loaded = await service.owned(visit.store, visit.session_id, game_id)
    return game_state_response(loaded, Options.of(visit.profile))


@ROUTES.action(
    "tap",
    ACTED,
    "heart_to_heart_tap",
    "Tap a heart card, the stock or the waste, as on the page",
    "A tap that does nothing answers the state unchanged (same version).",
)
async def tap(game_id: str, body: HeartToHeartTap, visit: VisitDep):
    if not matches(TARGET_PATTERN, body.target):
        message = translator(visit.lang).gettext(
            "A target is heart:0 to heart:24, stock or waste."
        )
        return api_error(422, "invalid_target", message)
    target = parse_target(body.target)
    return await api_action(visit, game_id, body.version, lambda game: game.tap(target))


@ROUTES.action(
    "undo",
    ACTED,
    "heart_to_heart_undo",
    "Take back the last move",
    "Nothing to undo, or a won game: 409 with the state.",
)
async def undo(
    game_id: str, visit: VisitDep, body: Annotated[VersionBody | None, Body()] = None
):
    return await api_action(visit, game_id, version_of(body), lambda game: game.undo())


@router.get(
    "/options",
    response_model=HeartToHeartOptions,
    operation_id="heart_to_heart_get_options",
    summary="This session's Heart to Heart options",
)
async def get_options(profile: ProfileDep):
    return options_model(Options.of(profile))


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


class HeartToHeartHint(BaseModel):
    """The next step of a winning line (contract.md, "Added in the second round")."""

    winnable: bool = Field(description="Whether the game can still be won from here.")
    targets: list[str] = Field(
        description="The taps of the next move of a winning line, in order: heart:N, stock, "
        "waste. Empty when there is no line (or the game is won)."
    )
    undo_to_winnable: int | None = Field(
        description="With no winning line: the fewest undos that reach a position with one "
        "(null when undo cannot)."
    )
    version: int = Field(description="The game's version now: a hint marks the game assisted.")


Asked = TypeVar("Asked")
Assist = Callable[
    [GameStore, str, str, int | None, service.Timing],
    Awaitable[tuple[service.HeartToHeartTurn, Asked]],
]


def assist_route(
    verb: str,
    model: type[BaseModel],
    operation_id: str,
    summary: str,
    ask: Assist[Asked],
    answer: Callable[[Asked, int], BaseModel],
) -> None:
    """Declare ``GET /games/{game_id}/{verb}``: what ``ask`` finds, as ``answer`` puts it with
    the game's version after asking (asking may mark the game assisted)."""

    async def route(game_id: str, visit: VisitDep) -> BaseModel | Response:
        timing = service.wall_time(visit.clock())
        options = Options.of(visit.profile)
        return await assist_answer(
            ask(visit.store, visit.session_id, game_id, None, timing),
            lambda found: answer(found[1], found[0].after.stored.version),
            lambda current: game_state(current, options),
            visit.lang,
        )

    ROUTES.assist(verb, model, operation_id, summary)(route)


def hint_answer(given: assists.Hint, version: int) -> HeartToHeartHint:
    return HeartToHeartHint(
        winnable=given.winnable,
        targets=[target_text(t) for t in given.targets],
        undo_to_winnable=given.undo_to_winnable,
        version=version,
    )


assist_route(
    "hint", HeartToHeartHint, "heart_to_heart_hint",
    "A hint: the next move of a winning line (the game counts as assisted)",
    assists.ask, hint_answer,
)


class HeartToHeartReview(BaseModel):
    """Where a lost game was lost: the solver on the game's whole history."""

    verdict: Literal["winnable", "never", "lost", "unknown"] = Field(
        description="winnable: it is won or can still be won from here; never: not even the "
        "deal could be won; lost: see the other fields; unknown: a game saved before its "
        "moves were kept, lost beyond its undo history."
    )
    last_winnable_moves: int | None = Field(
        description="When lost: the moves made at the last position from which the game "
        "could be won (the move that lost it is move last_winnable_moves + 1)."
    )
    losing_move: list[str] = Field(
        description="When lost: the taps of the move that lost it (heart:N, waste), else empty."
    )
    undos: int | None = Field(
        description="When lost: the undos that go back there; null when that is beyond the "
        "undo history (POST .../back then plays the game again from its deal)."
    )
    version: int = Field(
        description="The game's version now: asking while the game is in play marks it "
        "assisted, as a hint does."
    )


def review_answer(lost: assists.WhereLost, version: int) -> HeartToHeartReview:
    return HeartToHeartReview(
        verdict=lost.verdict,
        last_winnable_moves=lost.moves,
        losing_move=[] if lost.move is None else [target_text(t) for t in lost.move.taps],
        undos=lost.undos,
        version=version,
    )


assist_route(
    "review", HeartToHeartReview, "heart_to_heart_review",
    "Where a lost game was lost (asked while the game is in play, it counts as a hint)",
    assists.review, review_answer,
)


@ROUTES.action(
    "back",
    ACTED,
    "heart_to_heart_back",
    "Go back to the last position from which a lost game could be won",
    "By undo when the undo history reaches, else by playing the game again from its deal; "
    "the game counts as assisted. A game that is not lost answers its state unchanged.",
)
async def back(
    game_id: str, visit: VisitDep, body: Annotated[VersionBody | None, Body()] = None
):
    return await api_action(visit, game_id, version_of(body), assists.go_back)
