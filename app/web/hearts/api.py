"""The JSON API of Hearts: ``/api/hearts/...`` (contract.md, "JSON API").

Same service as the page (:mod:`app.web.hearts.service`), so a match moves freely between the
two. The state is built from the player's
:class:`HeartsView` only, so no card of another hand can reach it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from app.rules.cards import card_text, cards_in, parse_card
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import HUMAN, HeartsMatch, PlayedCard, parse_match_code
from app.store import GameStore, StoredGame
from app.web.api_models import (
    CARD_PATTERN,
    FinishedTrick,
    HeartsConflict,
    HeartsNewGame,
    HeartsPass,
    HeartsPlay,
    HeartsState,
    Play,
    SeatState,
    VersionBody,
    conflict_answer,
    error_responses,
    links_to,
    matches,
    state_answer,
)
from app.web.api_route import ApiRoute
from app.web.deps import Lang, SessionId, StoreDep
from app.web.errors import api_error
from app.web.games import StaleVersion
from app.web.hearts import service
from app.web.hearts.service import KIND, Loaded, Refused
from app.web.hearts.texts import deal_error_message, refusal_text, seat_names
from app.web.i18n import translator

router = APIRouter(prefix="/api/hearts", tags=["Hearts"], route_class=ApiRoute)


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def _plays(plays: tuple[PlayedCard, ...]) -> list[Play]:
    return [Play(seat=p.seat, card=card_text(p.card)) for p in plays]


def match_state(loaded: Loaded, lang: str) -> HeartsState:
    stored, match = loaded.stored, loaded.match
    view = match.view(HUMAN)
    names = seat_names(translator(lang))
    return HeartsState(
        game_id=stored.game_id,
        deal=view.deal,
        version=stored.version,
        bot_level=match.bot_level,
        phase=view.phase,
        hand_number=view.hand_number,
        pass_direction=view.pass_direction,
        seats=[
            SeatState(
                seat=s,
                name=names[s],
                human=s == HUMAN,
                cards_left=view.cards_left[s],
                hand_points=view.hand_points[s],
                total=view.totals[s],
            )
            for s in range(4)
        ],
        hand=_cards(view.hand),
        # The view offers the whole hand while passing (any card may be picked); the API's
        # `legal` is the cards that may be *played*.
        legal=_cards(view.legal) if view.phase == "playing" else [],
        turn=view.turn,
        trick=_plays(view.trick),
        tricks=[
            FinishedTrick(
                leader=t.leader, cards=_plays(t.cards), winner=t.winner, points=t.points
            )
            for t in view.tricks
        ],
        hearts_broken=view.hearts_broken,
        passed=None if view.passed is None else _cards(view.passed),
        received=None if view.received is None else _cards(view.received),
        hand_scores=[list(scores) for scores in view.hand_scores],
        moon=view.moon,
        winner=view.winner,
        undo_available=match.undo_available,
    )


def invalid_card(lang: str) -> JSONResponse:
    message = translator(lang).gettext("A card is its rank and suit, like 10H, QS or 2C.")
    return api_error(422, "invalid_card", message)


async def act(
    store: GameStore,
    session_id: str,
    lang: str,
    game_id: str,
    version: int | None,
    action: service.Action,
) -> HeartsState | JSONResponse:
    """The API's side of an action: the state after it and the bots' answer, or 409 with the
    state as it is when the version is stale or the rules refuse it (nothing changed)."""
    try:
        turn = await service.act(store, session_id, game_id, version, action)
    except StaleVersion as stale:
        message = translator(lang).gettext(
            "The game has changed since that version; here it is now."
        )
        return conflict_answer("stale_version", message, match_state(stale.current, lang))
    except Refused as refused:
        message = refusal_text(refused.error, translator(lang))
        reason = getattr(refused.error, "reason", "not_a_card")
        return conflict_answer(reason, message, match_state(refused.current, lang))
    return match_state(turn.after, lang)


MATCH_OPERATIONS = (
    "hearts_get_match",
    "hearts_pass",
    "hearts_play",
    "hearts_undo",
    "hearts_next_hand",
)


def match_links() -> dict:
    """Links from a state to the match's operations, plus the moves a client can always make
    from a state (if the phase allows them at all)."""
    links = links_to(*MATCH_OPERATIONS)
    links["hearts_pass_the_first_three_cards"] = {
        **links["hearts_pass"],
        "requestBody": {
            "cards": [f"$response.body#/hand/{i}" for i in range(3)],
            "version": "$response.body#/version",
        },
    }
    links["hearts_play_the_first_legal_card"] = {
        **links["hearts_play"],
        "requestBody": {
            "card": "$response.body#/legal/0",
            "version": "$response.body#/version",
        },
    }
    return links


def example_state() -> HeartsState:
    """A real new match, as the documented example."""
    stored = StoredGame("b7Qm2xYpL0sVd9Ke", KIND, 1, {}, 0.0)
    return match_state(Loaded(stored, HeartsMatch.new("HT1-N-AAAAAAA")), "en")


MATCH_LINKS = match_links()


ACTION_RESPONSES = {
    **state_answer(200, "The state after the action and the bots' answer", MATCH_LINKS),
    **error_responses(403, 404, 409, 413, 422, conflict=HeartsConflict),
}


@router.post(
    "/games",
    status_code=201,
    response_model=HeartsState,
    responses={
        **state_answer(201, "The new match", MATCH_LINKS, example_state()),
        **error_responses(403, 413, 422),
    },
    operation_id="hearts_create_match",
    summary="Start a match (it becomes this session's current match)",
)
async def create_match(
    store: StoreDep,
    session_id: SessionId,
    lang: Lang,
    body: Annotated[HeartsNewGame | None, Body()] = None,
):
    if body is None or body.deal is None:
        code = service.random_code("N")
    else:
        try:
            code = parse_match_code(body.deal)
        except DealCodeError as error:
            message = deal_error_message(error, translator(lang))
            return api_error(422, "invalid_deal", message)
    return match_state(await service.new_match(store, session_id, code), lang)


@router.get(
    "/games/{game_id}",
    response_model=HeartsState,
    responses={**state_answer(200, "The state", MATCH_LINKS), **error_responses(404, 422)},
    operation_id="hearts_get_match",
    summary="The state of a match, as the player may see it",
)
async def get_match(game_id: str, store: StoreDep, session_id: SessionId, lang: Lang):
    return match_state(await service.owned(store, session_id, game_id), lang)


@router.post(
    "/games/{game_id}/pass",
    response_model=HeartsState,
    responses=ACTION_RESPONSES,
    operation_id="hearts_pass",
    summary="Pass three cards; the bots then pass and play up to the player's turn",
)
async def pass_three(
    game_id: str, body: HeartsPass, store: StoreDep, session_id: SessionId, lang: Lang
):
    if not all(matches(CARD_PATTERN, text) for text in body.cards):
        return invalid_card(lang)
    mask = 0
    for text in body.cards:
        mask |= 1 << parse_card(text)
    return await act(
        store, session_id, lang, game_id, body.version,
        lambda match: service.pass_cards(match, mask),
    )


@router.post(
    "/games/{game_id}/play",
    response_model=HeartsState,
    responses=ACTION_RESPONSES,
    operation_id="hearts_play",
    summary="Play a card; the bots then play until the player's turn or the hand's end",
)
async def play(
    game_id: str, body: HeartsPlay, store: StoreDep, session_id: SessionId, lang: Lang
):
    if not matches(CARD_PATTERN, body.card):
        return invalid_card(lang)
    card = parse_card(body.card)
    return await act(
        store, session_id, lang, game_id, body.version, lambda match: service.play_card(match, card)
    )


@router.post(
    "/games/{game_id}/undo",
    response_model=HeartsState,
    responses=ACTION_RESPONSES,
    operation_id="hearts_undo",
    summary="Take back the player's last play of this hand (and the bots' plays after it)",
)
async def undo_play(
    game_id: str,
    store: StoreDep,
    session_id: SessionId,
    lang: Lang,
    body: Annotated[VersionBody | None, Body()] = None,
):
    version = None if body is None else body.version
    return await act(store, session_id, lang, game_id, version, service.undo)


@router.post(
    "/games/{game_id}/next-hand",
    response_model=HeartsState,
    responses=ACTION_RESPONSES,
    operation_id="hearts_next_hand",
    summary="Deal the next hand after a hand is over",
)
async def deal_next_hand(
    game_id: str,
    store: StoreDep,
    session_id: SessionId,
    lang: Lang,
    body: Annotated[VersionBody | None, Body()] = None,
):
    version = None if body is None else body.version
    return await act(store, session_id, lang, game_id, version, service.next_hand)
