"""The JSON API of Hearts: ``/api/hearts/...`` (contract.md, "JSON API").

Same service as the page (:mod:`app.web.hearts.service`), so a match moves freely between the
two. The state is built from the player's
:class:`HeartsView` only, so no card of another hand can reach it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from app.rules.cards import card_text, cards_in, parse_card
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import HUMAN, HeartsMatch, HeartsRules, PlayedCard, parse_match_code
from app.rules.hearts_rules import RulesError
from app.store import StoredGame
from app.web.api_models import (
    CARD_PATTERN,
    FinishedTrick,
    HeartsConflict,
    HeartsMoon,
    HeartsNewGame,
    HeartsPass,
    HeartsPlay,
    HeartsRulesBody,
    HeartsRulesState,
    HeartsState,
    Play,
    SeatState,
    StateRoutes,
    VersionBody,
    api_conflict,
    api_stale,
    assist_answer,
    game_fields,
    links_to,
    matches,
    state_response,
    version_of,
)
from app.web.deps import Visit, VisitDep
from app.web.errors import api_error
from app.web.games import Loaded, StaleVersion
from app.web.hearts import assists, service
from app.web.hearts.dealer import dealer
from app.web.hearts.service import KIND, LoadedMatch, MoveRefused
from app.web.hearts.texts import deal_error_message, refusal_text, seat_names
from app.web.i18n import translator
from app.web.preferences import PlayHelp

router = APIRouter(prefix="/api/hearts", tags=["Hearts"])


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def _plays(plays: tuple[PlayedCard, ...]) -> list[Play]:
    return [Play(seat=p.seat, card=card_text(p.card)) for p in plays]


def match_state(loaded: LoadedMatch, lang: str) -> HeartsState:
    stored, match = loaded.stored, loaded.game
    view = match.view(HUMAN)
    names = seat_names(translator(lang))
    return HeartsState(
        **game_fields(stored, service.shown_deal(loaded)),
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
        rules=HeartsRulesState(**view.rules.to_json()),
        claimed=service.was_claimed(stored),
    )


def rules_of(body: HeartsRulesBody | None) -> HeartsRules | JSONResponse | None:
    """The house rules a body asks for (None: the seed's), or the 422 that refuses them."""
    if body is None:
        return None
    try:
        return HeartsRules(**body.model_dump())
    except RulesError as error:  # the body's model checks every value first
        return api_error(422, "invalid_rules", error.message)


def invalid_card(lang: str) -> JSONResponse:
    message = translator(lang).gettext("A card is its rank and suit, like 10H, QS or 2C.")
    return api_error(422, "invalid_card", message)


async def api_action(
    request: Request, visit: Visit, game_id: str, version: int | None, action: service.Action,
    help: PlayHelp | None = None,
) -> Response:
    """The API's side of an action: the state after it and the bots' answer, or 409 with the
    state as it is when the version is stale or the rules refuse it (nothing changed).
    Without a version, the action applies to the match as it is when its turn comes.
    ``help``: the player's play-it-for-me settings, as on the pages, for the actions they
    follow."""
    lang = visit.lang
    try:
        turn = await service.apply_action(
            visit.store, visit.session_id, game_id, version, action,
            dealer(request, visit.clock()), help, via_api=True,
        )
    except StaleVersion as stale:
        return api_stale(match_state(stale.current, lang), lang)
    except MoveRefused as refused:
        message = refusal_text(refused.error, translator(lang))
        reason = getattr(refused.error, "reason", "not_a_card")
        return api_conflict(reason, message, match_state(refused.current, lang))
    return state_response(match_state(turn.after, lang))


def match_links() -> dict:
    """Links from a state to the match's operations, plus the moves a client can always make
    from a state (if the phase allows them at all)."""
    links = links_to(
        "hearts_get_match", "hearts_pass", "hearts_play", "hearts_undo", "hearts_next_hand",
        "hearts_moon",
    )
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


ROUTES = StateRoutes(router, HeartsState, match_links(), HeartsConflict)
ACTED = "The state after the action and the bots' answer"


@ROUTES.create(
    "hearts_create_match",
    "Start a match (it becomes this session's current match)",
    "The new match",
    example_state(),
)
async def create_match(visit: VisitDep, body: Annotated[HeartsNewGame | None, Body()] = None):
    store, session_id = visit.store, visit.session_id
    rules = rules_of(None if body is None else body.rules)
    if isinstance(rules, JSONResponse):
        return rules
    if body is None or body.deal is None:
        loaded = await service.new_random_match(store, session_id, rules=rules)
        return state_response(match_state(loaded, visit.lang), 201)
    try:
        code = parse_match_code(body.deal)
    except DealCodeError as error:
        return api_error(422, "invalid_deal", deal_error_message(error, translator(visit.lang)))
    loaded = await service.new_match(store, session_id, code, rules=rules)
    return state_response(match_state(loaded, visit.lang), 201)


@ROUTES.read("hearts_get_match", "The state of a match, as the player may see it")
async def get_match(game_id: str, request: Request, visit: VisitDep):
    loaded = await service.owned(
        visit.store, visit.session_id, game_id, dealer(request, visit.clock())
    )
    return state_response(match_state(loaded, visit.lang))


@ROUTES.action(
    "pass",
    ACTED,
    "hearts_pass",
    "Pass three cards; the bots then pass and play up to the player's turn",
    None,
)
async def pass_three(game_id: str, body: HeartsPass, request: Request, visit: VisitDep):
    if not all(matches(CARD_PATTERN, text) for text in body.cards):
        return invalid_card(visit.lang)
    mask = sum({1 << parse_card(text) for text in body.cards})
    return await api_action(
        request, visit, game_id, body.version, lambda match: service.pass_cards(match, mask),
        PlayHelp.of(visit.profile),
    )


@ROUTES.action(
    "play",
    ACTED,
    "hearts_play",
    "Play a card; the bots then play until the player's turn or the hand's end",
    "With the player's settings (GET /api/settings) the hand may then go on by itself, as on "
    "the page: claimed (hearts_claim, on by default: the player holds every trick left; the "
    "answer says claimed) or a single legal card played for the player "
    "(hearts_autoplay_single, off by default).",
)
async def play(game_id: str, body: HeartsPlay, request: Request, visit: VisitDep):
    if not matches(CARD_PATTERN, body.card):
        return invalid_card(visit.lang)
    card = parse_card(body.card)
    return await api_action(
        request, visit, game_id, body.version, lambda match: service.play_card(match, card),
        PlayHelp.of(visit.profile),
    )


@ROUTES.action(
    "undo",
    ACTED,
    "hearts_undo",
    "Take back the player's last play of this hand (and the bots' plays after it)",
    None,
)
async def undo_play(
    game_id: str, request: Request, visit: VisitDep,
    body: Annotated[VersionBody | None, Body()] = None,
):
    return await api_action(request, visit, game_id, version_of(body), service.undo)


@ROUTES.action(
    "next-hand", ACTED, "hearts_next_hand", "Deal the next hand after a hand is over", None
)
async def deal_next_hand(
    game_id: str, request: Request, visit: VisitDep,
    body: Annotated[VersionBody | None, Body()] = None,
):
    help = PlayHelp.of(visit.profile)
    return await api_action(request, visit, game_id, version_of(body), service.next_hand, help)


@ROUTES.action(
    "moon",
    ACTED,
    "hearts_moon",
    "Say what the player's moon does, under the shooter's-choice rule",
    "In the phase moon, when the player shot the moon (moon is 0) and the match's rules are "
    "moon: shooters_choice: add_to_others gives each other seat 26, subtract_from_shooter "
    "takes 26 off the player's total. The hand is then scored.",
)
async def choose_moon(game_id: str, body: HeartsMoon, request: Request, visit: VisitDep):
    return await api_action(
        request, visit, game_id, body.version, service.choose_moon(body.choice)
    )


class HeartsHint(BaseModel):
    """The Hard bot's choice from the player's view (contract.md, "Added in the second
    round")."""

    cards: list[str] = Field(
        description="Three cards while passing, one while playing, empty otherwise."
    )
    version: int = Field(description="The match's version now: a hint marks it assisted.")


@ROUTES.assist(
    "hint",
    HeartsHint,
    "hearts_hint",
    "A hint: the cards the Hard bot would pass or play (the match counts as assisted)",
)
async def hint(game_id: str, request: Request, visit: VisitDep):
    def answer(found: tuple[LoadedMatch, int]) -> HeartsHint:
        loaded, cards = found
        return HeartsHint(cards=_cards(cards), version=loaded.stored.version)

    async def asked() -> tuple[LoadedMatch, int]:
        # A hint marks the match assisted: a page's match not stored yet is stored first.
        await service.owned_stored(
            visit.store, visit.session_id, game_id, dealer(request, visit.clock())
        )
        return await assists.ask(visit.store, visit.session_id, game_id, None)

    return await assist_answer(
        asked(), answer, lambda current: match_state(current, visit.lang), visit.lang
    )
