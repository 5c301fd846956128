"""Pydantic models of the JSON API (``shared/spec/contract.md``, "JSON API"): every request
body and every answer, so ``/openapi.json`` describes the API whole.

Request bodies are strict (no "5" for 5, no "true" for true) and refuse unknown fields. Cards,
targets are plain strings whose pattern the schema shows, deal codes are read as the pages read
them; the routes check them and answer 422 with a message in the player's language.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date as date_type
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.store import StoredGame
from app.web.games import Loaded, StaleVersion
from app.web.i18n import translator

CARD_PATTERN = r"^(A|[2-9]|10|J|Q|K)[CDHS]$"
TARGET_PATTERN = r"^(heart:(1?[0-9]|2[0-4])|stock|waste)$"
# (28 letters: a secret deal's code, a Hearts match's or a daily's, shown once it is over)
HH_DEAL_PATTERN = r"^HH1-[NW]-([A-Z]{7}|[A-Z]{28})$"
HT_DEAL_PATTERN = r"^HT1-[ENH]-([A-Z]{7}|[A-Z]{28})(-[A-Z0-9]+)?$"
RANK_PATTERN = r"^(A|[2-9]|10|J|Q|K)$"
# The longest a version can be (store versions count changes, from 1).
MAX_VERSION = 2**53 - 1


def matches(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text) is not None


def _pattern(pattern: str, max_length: int, **extra: Any) -> Any:
    """A string field that documents ``pattern`` (the route checks it, with a better message)."""
    return Field(max_length=max_length, json_schema_extra={"pattern": pattern}, **extra)


class StrictBody(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


VersionField = Annotated[
    int | None,
    Field(
        ge=0,
        le=MAX_VERSION,
        description="The state version the client acts on; when it is not the current one "
        "the answer is 409 with the current state and nothing changes.",
    ),
]


class VersionBody(StrictBody):
    version: VersionField = None

    model_config = ConfigDict(json_schema_extra={"examples": [{"version": 7}]})


# -- errors ----------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="A stable key, e.g. not_found, invalid_card, follow_suit.")
    message: str = Field(description="What is wrong, in the player's language.")


class ErrorResponse(BaseModel):
    error: ErrorDetail

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"error": {"code": "not_found", "message": "This game does not exist."}}]
        }
    )


# -- Heart to Heart --------------------------------------------------------------------------


class HeartToHeartNewGame(StrictBody):
    deal: Annotated[
        str | None,
        Field(
            max_length=40,
            description="A deal code like HH1-N-AAAAAAM (N: any deal, W: a deal that can be "
            "won; letter case and surrounding spaces do not matter); a random N deal when "
            "left out.",
        ),
    ] = None

    model_config = ConfigDict(json_schema_extra={"examples": [{"deal": "HH1-N-AAAAAAM"}]})


class HeartToHeartTap(StrictBody):
    target: Annotated[
        str,
        _pattern(
            TARGET_PATTERN, 8, description="A heart position heart:0 … heart:24, stock or waste."
        ),
    ]
    version: VersionField = None

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"target": "heart:24", "version": 3}, {"target": "stock"}]}
    )


class HeartToHeartOptions(StrictBody):
    move_errors: bool = Field(description="Say “Must be same rank” after a mismatched tap.")
    placement_help: bool = Field(description="Outline the cards that can pair, dim the others.")

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"move_errors": True, "placement_help": False}]}
    )


class HeartCard(BaseModel):
    pos: int = Field(ge=0, le=24)
    rank: str = Field(pattern=RANK_PATTERN)
    state: Literal["covered", "free", "removed"]


class PlacementHelp(BaseModel):
    outlined: list[str] = Field(description="Targets placement help outlines now.")
    dimmed: list[str] = Field(description="Targets placement help dims now.")


class HeartToHeartState(BaseModel):
    game_id: str
    deal: str | None = Field(
        pattern=HH_DEAL_PATTERN,
        description="The game's deal code; null in a daily game (its board shows the code once "
        "the UTC day is over).",
    )
    version: int = Field(ge=1)
    status: Literal["playing", "won", "stalemate"]
    score: int = Field(ge=0)
    moves: int = Field(ge=0)
    elapsed_seconds: int = Field(ge=0)
    heart: list[HeartCard] = Field(min_length=25, max_length=25)
    stock_count: int = Field(ge=0)
    waste_count: int = Field(ge=0)
    waste_top: str | None = Field(pattern=RANK_PATTERN)
    selected: str | None = Field(pattern=TARGET_PATTERN)
    undo_depth: int = Field(ge=0, le=100)
    message: str | None = Field(description="The move-error text right after the tap.")
    options: HeartToHeartOptions
    help: PlacementHelp


class HeartToHeartConflict(BaseModel):
    """409: a stale version, or an undo with nothing to take back; nothing changed."""

    error: ErrorDetail
    state: HeartToHeartState


# -- Hearts ----------------------------------------------------------------------------------

Card = Annotated[str, _pattern(CARD_PATTERN, 3)]


class HeartsRulesBody(StrictBody):
    """House rules (app/rules/hearts_rules.py); a key left out keeps the seed's value."""

    passing: Literal["cycle", "none"] = Field(
        default="cycle", description="cycle: left, right, across, no pass; none: never."
    )
    queen_breaks_hearts: bool = Field(default=False, description="Playing the Q♠ breaks hearts.")
    hearts_must_be_broken: bool = Field(
        default=True, description="Hearts may not be led before one has been played."
    )
    first_trick_points: bool = Field(
        default=False, description="Hearts and the Q♠ may be discarded on the first trick."
    )
    jack_of_diamonds: Literal[0, -10] = Field(default=0, description="Omnibus: −10.")
    no_tricks_bonus: Literal[0, -5] = Field(
        default=0, description="Points for a seat that takes no trick in a hand."
    )
    moon: Literal["add_to_others", "subtract_from_shooter", "shooters_choice", "safe"] = Field(
        default="add_to_others",
        description="What shooting the moon does: 26 to each other seat, −26 to the shooter, "
        "the shooter's choice (POST …/moon), or safe (adds unless that ends the match with "
        "the shooter not winning it, then subtracts).",
    )
    target: int = Field(default=100, ge=50, le=500, description="The total that ends the match.")
    perfect_100: bool = Field(
        default=False, description="A total of exactly the target drops to half of it."
    )


class HeartsRulesState(HeartsRulesBody):
    """The full rule set of a match."""


class HeartsNewGame(StrictBody):
    deal: Annotated[
        str | None,
        Field(
            max_length=48,
            description="A match code like HT1-N-AAAAAAA (the letter is the bots' level: E, "
            "N or H; letter case and surrounding spaces do not matter), house rules "
            "possibly following in their short form (HT1-N-AAAAAAA-J); a random Normal match "
            "when left out.",
        ),
    ] = None
    rules: HeartsRulesBody | None = Field(
        default=None,
        description="House rules; the seed's when left out. With a deal, they replace the "
        "code's own.",
    )

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"deal": "HT1-N-AAAAAAA"}, {"rules": {"jack_of_diamonds": -10}}]
        }
    )


class HeartsPass(StrictBody):
    cards: list[Card] = Field(max_length=13, description="The three cards to pass.")
    version: VersionField = None

    model_config = ConfigDict(json_schema_extra={"examples": [{"cards": ["QS", "AS", "KH"]}]})


class HeartsPlay(StrictBody):
    card: Card
    version: VersionField = None

    model_config = ConfigDict(json_schema_extra={"examples": [{"card": "2C", "version": 4}]})


class HeartsMoon(StrictBody):
    choice: Literal["add_to_others", "subtract_from_shooter"] = Field(
        description="26 to each other seat, or −26 to the player who shot the moon."
    )
    version: VersionField = None

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"choice": "subtract_from_shooter", "version": 40}]}
    )


Seat = Annotated[int, Field(ge=0, le=3)]
ShownCard = Annotated[str, Field(pattern=CARD_PATTERN)]


class SeatState(BaseModel):
    seat: Seat
    name: str
    human: bool
    cards_left: int = Field(ge=0, le=13)
    hand_points: int = Field(ge=0, le=26)
    total: int = Field(description="Below zero only under house rules that subtract.")


class Play(BaseModel):
    seat: Seat
    card: ShownCard


class FinishedTrick(BaseModel):
    leader: Seat
    cards: list[Play] = Field(min_length=4, max_length=4)
    winner: Seat
    points: int = Field(ge=0, le=26)


class HeartsState(BaseModel):
    game_id: str
    deal: str | None = Field(
        pattern=HT_DEAL_PATTERN,
        description="The match's deal code; null until the match is over when it was started "
        "without one (a code shows every hand), and always in a daily match (its board shows "
        "the code once the UTC day is over).",
    )
    version: int = Field(ge=1)
    bot_level: Literal["easy", "normal", "hard", "expert"]
    phase: Literal["passing", "playing", "moon", "hand_over", "match_over"]
    hand_number: int = Field(ge=1)
    pass_direction: Literal["left", "right", "across", "none"]
    seats: list[SeatState] = Field(min_length=4, max_length=4)
    hand: list[ShownCard] = Field(max_length=13)
    legal: list[ShownCard] = Field(max_length=13)
    turn: Seat | None
    trick: list[Play] = Field(max_length=3)
    tricks: list[FinishedTrick] = Field(max_length=13)
    hearts_broken: bool
    passed: list[ShownCard] | None
    received: list[ShownCard] | None
    hand_scores: list[list[int]]
    moon: Seat | None
    winner: Seat | None
    undo_available: bool
    rules: HeartsRulesState = Field(
        default_factory=HeartsRulesState, description="The match's house rules, every key."
    )
    claimed: bool = Field(
        default=False,
        description="True when the rest of the hand played itself out after the last action: "
        "the player held every trick left (the claim setting, hearts_claim, on by default; "
        "the tricks show the cards played for the player). False again after the next "
        "action.",
    )


class HeartsConflict(BaseModel):
    """409: a stale version or an action the rules refuse; nothing changed."""

    error: ErrorDetail
    state: HeartsState


# -- daily deals and results boards (app/web/daily.py) ---------------------------------------


class DailyDeal(BaseModel):
    date: date_type = Field(description="Today (UTC): the day of this daily deal.")
    code: str | None = Field(
        description="The deal's code: null until the day is over (it is then an ordinary, "
        "open deal, shown on the day's board)."
    )
    results: str = Field(description="The path of the day's results board in this API.")

    model_config = ConfigDict(
        json_schema_extra={"examples": [{
            "date": "2026-11-30", "code": None,
            "results": "/api/heart-to-heart/daily/2026-11-30/results",
        }]}
    )


class DailyStart(StrictBody):
    """Starting the daily takes nothing; a body, when sent, is an empty object."""

    model_config = ConfigDict(json_schema_extra={"examples": [{}]})


class ResultRow(BaseModel):
    rank: int = Field(ge=1, description="The place in its section (tied rows share one).")
    nickname: str | None = Field(description="The player's nickname; null when none was set.")
    mine: bool = Field(description="The row is this session's.")
    assisted: bool = Field(
        description="The player used a hint or an undo, or the \"cards played\" panel (Hearts)."
    )
    apart: list[Literal["api", "assisted", "fast", "cards_played"]] = Field(
        description="Why the row is ranked apart: played through this API, with an undo or a "
        "hint, faster than a person taps (under 0.35 s a move on average), or with the \"cards "
        "played\" panel on (the setting hearts_cards_played). Empty: ranked."
    )
    finished_at: int = Field(description="When the game finished, in seconds since the epoch.")
    replay: str | None = Field(
        description="The share link of the game's replay (opens for anyone): on a daily's board "
        "once its UTC day is over. Null before, on a code's board (its deal stays playable), "
        "for a game given up unfinished or recorded before boards linked to replays, and once "
        "the game may have expired from the store (CARDROOM_GAME_TTL_DAYS after it finished)."
    )


class HeartToHeartResultRow(ResultRow):
    won: bool
    cards_left: int = Field(ge=0, le=25, description="Heart cards left (0 for a win).")
    seconds: int = Field(ge=0)
    moves: int = Field(ge=0)


class HeartsResultRow(ResultRow):
    points: int = Field(ge=0, le=26, description="The player's points in the match's first hand.")
    moon: bool = Field(description="The player shot the moon in it.")


class HeartsDailyRow(ResultRow):
    points: list[int] = Field(
        min_length=4, max_length=4,
        description="The player's points in each hand (26 for a hand not played: given up).",
    )
    moons: list[bool] = Field(min_length=4, max_length=4, description="The hands shot the moon.")
    hands_played: int = Field(ge=0, le=4)
    matchpoints: list[float] = Field(
        min_length=4, max_length=4,
        description="Per hand: 1 for each other result of the section that took more points, "
        "½ for each that took as many.",
    )
    percent: float | None = Field(
        ge=0, le=100,
        description="The matchpoints as a share of the most possible; null while alone.",
    )


class ResultsPage(BaseModel):
    section: Literal["ranked", "apart"] = Field(
        description="ranked: page play without help at a person's pace; apart: the others."
    )
    page: int = Field(ge=1)
    pages: int = Field(ge=1)
    total: int = Field(ge=0, description="The rows of the section.")
    open: bool = Field(
        description="Anyone can know this deal (a code's board): a comparison among friends. "
        "False for a daily's board, whose deal stays secret until the day is over."
    )
    mine: dict[str, Any] | None = Field(description="This session's row, if it is in the section.")


class HeartToHeartResults(ResultsPage):
    code: str | None = Field(pattern=HH_DEAL_PATTERN)
    date: date_type | None = Field(description="The daily deal's day (a daily's board).")
    rows: list[HeartToHeartResultRow]


class HeartsResults(ResultsPage):
    code: str | None = Field(pattern=HT_DEAL_PATTERN)
    date: date_type | None = Field(description="The daily deal's day (a daily's board).")
    rows: list[HeartsResultRow] | list[HeartsDailyRow]


def error_responses(*statuses: int, conflict: type[BaseModel] | None = None) -> dict:
    """The documented error answers of a route (they all share the error shape)."""
    described = {
        403: "A state-changing request from another site (Origin, Sec-Fetch-Site) is refused.",
        404: "No such game for this session (another session's game does not exist here).",
        409: "Stale version or an action the rules refuse; the current state is under state.",
        413: "The request body is over 16 KB.",
        422: "Malformed input.",
        503: "The store of games cannot be reached or stays locked; try again after Retry-After.",
    }
    return {
        status: {
            "model": conflict if status == 409 and conflict else ErrorResponse,
            "description": described[status],
        }
        for status in (*statuses, 503)
    }


def links_to(*operation_ids: str) -> dict:
    """OpenAPI links from a state to the operations on the same game (for clients and
    stateful fuzzing): each takes ``game_id`` from the answer."""
    return {
        operation_id: {
            "operationId": operation_id,
            "parameters": {"game_id": "$response.body#/game_id"},
        }
        for operation_id in operation_ids
    }


def state_response(state: BaseModel, status_code: int = 200) -> Response:
    """A state the server just built and validated, as the route's answer: serialized once,
    without FastAPI validating it against the response model a second time."""
    return json_response(state.__pydantic_serializer__.to_json(state), status_code)


def json_response(body: bytes, status_code: int = 200) -> Response:
    """JSON the server serialized itself, as the route's answer."""
    return Response(body, status_code, media_type="application/json")


def api_conflict(code: str, message: str, state: BaseModel) -> JSONResponse:
    """409 in the error shape, with the current state under ``state``; nothing changed."""
    body = {"error": {"code": code, "message": message}, "state": state.model_dump(mode="json")}
    return JSONResponse(body, status_code=409)


def documented_state(
    status: int, description: str, links: dict, example: BaseModel | None = None
) -> dict:
    """The documented answer carrying a state, with its links and, for a new game, a real
    state as the example."""
    answer: dict = {"description": description, "links": links}
    if example is not None:
        answer["content"] = {"application/json": {"example": example.model_dump(mode="json")}}
    return {status: answer}


@dataclass(frozen=True, slots=True)
class StateRoutes:
    """The routes of one game's API that answer its state, documented alike: each method is the
    decorator of one route (its path, the state's model, the links from a state to the game's
    operations, the error answers)."""

    router: APIRouter
    model: type[BaseModel]
    links: dict
    conflict: type[BaseModel]  # the 409 answer, with the state

    def create(self, operation_id: str, summary: str, answer: str, example: BaseModel) -> Any:
        responses = {
            **documented_state(201, answer, self.links, example),
            **error_responses(403, 413, 422),
        }
        return self.router.post(
            "/games", status_code=201, response_model=self.model, responses=responses,
            operation_id=operation_id, summary=summary,
        )

    def read(self, operation_id: str, summary: str) -> Any:
        responses = {**documented_state(200, "The state", self.links), **error_responses(404, 422)}
        return self.router.get(
            "/games/{game_id}", response_model=self.model, responses=responses,
            operation_id=operation_id, summary=summary,
        )

    def action(
        self, verb: str, answer: str, operation_id: str, summary: str, description: str | None
    ) -> Any:
        responses = {
            **documented_state(200, answer, self.links),
            **error_responses(403, 404, 409, 413, 422, conflict=self.conflict),
        }
        return self.router.post(
            f"/games/{{game_id}}/{verb}", response_model=self.model, responses=responses,
            operation_id=operation_id, summary=summary, description=description,
        )

    def assist(self, verb: str, model: type[BaseModel], operation_id: str, summary: str) -> Any:
        """An assist (a hint, the review of a lost game) is read (GET) but may mark the game
        assisted, so it may meet a newer version: answer it through :func:`assist_answer`."""
        return self.router.get(
            f"/games/{{game_id}}/{verb}", response_model=model,
            responses=error_responses(404, 409, 422, conflict=self.conflict),
            operation_id=operation_id, summary=summary,
        )


Asked = TypeVar("Asked")


async def assist_answer(
    ask: Awaitable[Asked],
    answer: Callable[[Asked], BaseModel],
    current_state: Callable[[Loaded[Any]], BaseModel],
    lang: str,
) -> BaseModel | JSONResponse:
    """An assist route's answer: what ``ask`` found, as ``answer`` puts it; 409 with the state
    (``current_state`` of the game as it is now) when other requests kept changing the game
    while it was asked."""
    try:
        found = await ask
    except StaleVersion as stale:
        return api_stale(current_state(stale.current), lang)
    return answer(found)


def version_of(body: VersionBody | None) -> int | None:
    return None if body is None else body.version


def game_fields(stored: StoredGame, deal: str | None) -> dict[str, Any]:
    """The fields every state starts with: which game, which deal, which version."""
    return {"game_id": stored.game_id, "deal": deal, "version": stored.version}


def api_stale(state: BaseModel, lang: str) -> JSONResponse:
    """409 for a client that acted on an older version of the game."""
    message = translator(lang).gettext("The game has changed since that version; here it is now.")
    return api_conflict("stale_version", message, state)


# -- replays (app/web/replays.py) ---------------------------------------------------------------


class ReplaySeat(BaseModel):
    seat: Seat
    name: str = Field(description="As the asker sees the seat: \"You\", a compass point, a "
                      "player's nickname or the bot there.")
    human: bool


class ReplayPass(BaseModel):
    seat: Seat
    to: Seat | None
    cards: list[ShownCard] = Field(min_length=3, max_length=3)


class ReplayDecision(BaseModel):
    trick: int | None = Field(ge=1, le=13, description="null for the pass.")
    chosen: list[ShownCard] = Field(max_length=3)
    best: list[ShownCard] = Field(max_length=3, description="The search's best choice.")
    expected_points_lost: float | None = Field(
        description="Points the choice is expected to cost against the best (the hand "
        "review's figure); null for a pass the search did not keep among its finalists."
    )


class ReplayHand(BaseModel):
    number: int = Field(ge=1)
    pass_direction: Literal["left", "right", "across", "none"]
    dealt: list[list[ShownCard]] = Field(
        min_length=4, max_length=4, description="Each seat's thirteen cards before the pass."
    )
    passes: list[ReplayPass] = Field(max_length=4)
    tricks: list[FinishedTrick] = Field(min_length=13, max_length=13)
    points: list[int] = Field(min_length=4, max_length=4, description="Taken in tricks.")
    scores: list[int] = Field(min_length=4, max_length=4, description="What the hand scored.")
    moon: Seat | None
    totals: list[int] = Field(min_length=4, max_length=4, description="The match after it.")
    review: list[ReplayDecision] | None = Field(
        description="The review of the review seat's pass and plays; null when there is none."
    )


class HeartsReplay(BaseModel):
    kind: Literal["hearts", "hearts_table"]
    id: str = Field(description="The game's or the table's id.")
    deal: str = Field(pattern=HT_DEAL_PATTERN)
    rules: HeartsRulesState
    seats: list[ReplaySeat] = Field(min_length=4, max_length=4)
    your_seat: Seat | None = Field(description="null for a watcher or a share link.")
    review_seat: Seat | None = Field(description="Whose decisions the review judges.")
    hands: list[ReplayHand]
    winner: Seat | None
    share_url: str = Field(description="A link that opens this replay to anyone, read-only.")


class HeartToHeartReplayStep(BaseModel):
    move: str | None = Field(
        description="The move made (\"d\" draw, \"r\" redeal, \"7+12\" or \"7+w\" a pair); "
        "null for the deal."
    )
    removed: list[int] = Field(max_length=25, description="Heart positions gone after it.")
    stock: int = Field(ge=0)
    waste: int = Field(ge=0)
    waste_top: str | None = Field(pattern=RANK_PATTERN)
    winnable: bool = Field(description="The solver's verdict on the position after it.")


class HeartToHeartReplay(BaseModel):
    id: str
    deal: str = Field(pattern=HH_DEAL_PATTERN)
    won: bool
    heart: list[str] = Field(min_length=25, max_length=25, description="The heart's ranks.")
    verdict: Literal["winnable", "never", "lost"]
    lost_after: int | None = Field(
        description="When lost: the moves made at the last position that could be won."
    )
    losing_move: str | None
    steps: list[HeartToHeartReplayStep]
    share_url: str
