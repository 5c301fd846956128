"""The Hearts actions as the page and the JSON API share them: the player's action and the
bots' answer, run off the event loop, stored by compare-and-set, the match counted in the
statistics by the request that ends it.

An action is a function of the :class:`HeartsMatch` that returns the cards played, in order
(the player's and the bots'). It raises :class:`HeartsError` (or ``CardError``) before
changing anything when the rules refuse it.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from app.bots.driver import pass_for_bots, play_bots
from app.rules.hearts import HUMAN, HeartsError, HeartsMatch, HeartsView, PlayedCard
from app.store import GameStore, StoredGame
from app.web.i18n import Translator
from app.web.profile import record_hearts_match

MOON_SCORE = 26

Action = Callable[[HeartsMatch], list[PlayedCard]]


def pass_cards(match: HeartsMatch, cards: int) -> list[PlayedCard]:
    """The player passes ``cards`` (a mask); the bots pass and play up to the player's turn."""
    match.choose_pass(HUMAN, cards)
    pass_for_bots(match)
    return play_bots(match)


def play_card(match: HeartsMatch, card: int) -> list[PlayedCard]:
    """The player plays ``card``; the bots play until the player's turn or the hand's end."""
    match.play(card, seat=HUMAN)
    return [PlayedCard(HUMAN, card), *play_bots(match)]


def undo(match: HeartsMatch) -> list[PlayedCard]:
    match.undo()
    return []


def next_hand(match: HeartsMatch) -> list[PlayedCard]:
    """Deal the next hand; without passing, a bot holding the 2♣ leads at once."""
    match.next_hand()
    return play_bots(match)


async def start_match(
    store: GameStore, session_id: str, kind: str, match: HeartsMatch
) -> StoredGame:
    """Store a new match as this session's current one (the bots lead when they must)."""
    await run_in_threadpool(play_bots, match)
    return await store.create(session_id, kind, match.to_json())


async def apply(
    store: GameStore, session_id: str, stored: StoredGame, match: HeartsMatch, action: Action
) -> tuple[StoredGame | None, list[PlayedCard]]:
    """Run ``action`` on ``match`` (loaded from ``stored``) and store the result.

    Returns the stored game and the cards played, or ``(None, plays)`` when another request
    changed the match first (nothing is stored then). Rule errors propagate, nothing changed.
    """
    was_over = match.phase == "match_over"
    # Hard bots search for a while: keep the event loop free.
    plays = await run_in_threadpool(action, match)
    saved = await store.compare_and_set(session_id, stored.game_id, stored.version, match.to_json())
    if saved is not None and match.phase == "match_over" and not was_over:
        await record(store, session_id, match.view(HUMAN))
    return saved, plays


def moon_of(scores: tuple[int, ...]) -> int | None:
    """Who shot the moon in a scored hand: the only seat on 0 while the others took 26 each."""
    if sorted(scores) == [0, MOON_SCORE, MOON_SCORE, MOON_SCORE]:
        return scores.index(0)
    return None


async def record(store: GameStore, session_id: str, view: HeartsView) -> None:
    await record_hearts_match(
        store,
        session_id,
        won=view.winner == HUMAN,
        hand_points=[scores[HUMAN] for scores in view.hand_scores],
        moons=sum(moon_of(scores) == HUMAN for scores in view.hand_scores),
    )


def refusal_text(exc: HeartsError, tr: Translator) -> str:
    """Why the rules refused an action, in the player's language (pages and API alike)."""
    texts = {
        "not_your_turn": tr.gettext("It is not your turn."),
        "not_in_hand": tr.gettext("That card is not in your hand."),
        "not_a_card": tr.gettext("That is not a card."),
        "follow_suit": tr.gettext("Follow the suit that was led."),
        "first_trick": tr.gettext("No hearts and no Q♠ on the first trick."),
        "two_of_clubs": tr.gettext("The first trick is led with the 2♣."),
        "hearts_not_broken": tr.gettext("Hearts are not broken yet: lead another suit."),
        "count": tr.gettext("Pick exactly three cards to pass."),
        "already_chosen": tr.gettext("Your cards are already passed."),
        "no_pass": tr.gettext("There is no passing in this hand."),
        "nothing_to_undo": tr.gettext("There is nothing to undo."),
    }
    return texts.get(exc.reason, tr.gettext("That cannot be done now."))
