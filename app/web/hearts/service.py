"""Hearts as the page and the JSON API share it: this session's match, an action of the player
and the bots' answer (run off the event loop) applied with the version check and a
compare-and-set, and the statistics, counted by the request that ends the match.

A deal code is every hand in the open (anyone can run the shuffle), so a match started without
a code is dealt from the server's own randomness and its code stays secret until the match is
over (:func:`shown_deal`); the stored state says so with the key ``deal_hidden``, beside the
rules' own JSON. A match opened from a code shows it: the player has it anyway.

Nothing here knows HTTP. A refusal is a game error: :class:`~app.web.games.GameNotFound`,
:class:`~app.web.games.StaleVersion` (with the match as it is now) or :class:`Refused` (the
rules said no; the match unchanged). The page and the API each turn them into their answer.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import QUEEN_OF_SPADES, CardError
from app.rules.deal_codes import CODE_SPACE, DealCode
from app.rules.hearts import (
    GAME,
    HUMAN,
    HeartsError,
    HeartsMatch,
    HeartsView,
    PlayedCard,
)
from app.store import GameStore, GameUnreadable, StoredGame, Unreadable
from app.web.games import GameNotFound, Loaded, StaleVersion, read_loaded
from app.web.hearts.autoplay import Helped
from app.web.hearts.thinking import THINKING
from app.web.preferences import PlayHelp
from app.web.profile import record_hearts_match, record_hearts_queen
from app.web.results import record as record_result

KIND = "hearts"
HIDDEN = "deal_hidden"
CLAIMED = "claimed"
NOT_FOUND = "This Hearts match does not exist here."
MOON_SCORE = 26

LoadedMatch = Loaded[HeartsMatch]

# An action is a function of the match that returns the cards played, in order (the player's
# and the bots'). It raises HeartsError (or CardError) before changing anything when the rules
# refuse it.
Action = Callable[[HeartsMatch], list[PlayedCard]]


@dataclass(frozen=True, slots=True)
class Seen:
    """What the player saw of a stored match: the page draws its table from this alone."""

    game_id: str
    version: int
    view: HeartsView
    undo_available: bool
    dimmed_refusal: HeartsError | None = None  # why the dimmed cards of the hand cannot be played

    @classmethod
    def of(cls, loaded: LoadedMatch) -> Seen:
        stored, match = loaded.stored, loaded.game
        view = match.view(HUMAN)
        return cls(
            stored.game_id, stored.version, view, match.undo_available, dimmed_refusal(match, view)
        )


def dimmed_refusal(match: HeartsMatch, view: HeartsView) -> HeartsError | None:
    """The rules' refusal of the player's dimmed cards now (None when none is dimmed), for the
    page to explain a tap on one without asking the server. One reason holds for all of them,
    so the rules are asked about one: a refused play changes nothing."""
    dimmed = view.hand & ~view.legal
    if view.phase != "playing" or not dimmed:
        return None
    try:
        match.play((dimmed & -dimmed).bit_length() - 1, seat=HUMAN)
    except HeartsError as error:
        return error
    raise AssertionError("a dimmed card was playable")


@dataclass(frozen=True, slots=True)
class Turn:
    """An action applied: what the player saw before it, the match after it and the cards
    played, in order."""

    before: Seen
    after: LoadedMatch
    plays: list[PlayedCard]


class Refused(Exception):
    """The rules refused the action; ``current`` is the match, unchanged."""

    def __init__(self, error: HeartsError | CardError, current: LoadedMatch) -> None:
        super().__init__(str(error))
        self.error = error
        self.current = current


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


def load(stored: StoredGame) -> HeartsMatch:
    """The match of ``stored``; GameUnreadable when this version cannot read it (written by a
    newer one, or damaged)."""
    try:
        return HeartsMatch.from_json(stored.state)
    except HeartsError as error:
        raise GameUnreadable(f"match {stored.game_id}: {error}") from error


async def read_current(store: GameStore, session_id: str) -> LoadedMatch | Unreadable | None:
    return await read_loaded(store.current(session_id, KIND), KIND, load)


async def readable_current(store: GameStore, session_id: str) -> LoadedMatch | None:
    """This session's current match; None when there is none or it cannot be read."""
    found = await read_current(store, session_id)
    return found if isinstance(found, Loaded) else None


async def owned(store: GameStore, session_id: str, game_id: str) -> LoadedMatch:
    """This session's match of that id; anything else (another browser's, expired, unreadable)
    does not exist here."""
    found = await read_loaded(store.get(session_id, game_id), KIND, load)
    if isinstance(found, Loaded):
        return found
    raise GameNotFound(NOT_FOUND)


def is_unfinished(loaded: LoadedMatch) -> bool:
    """At least one card passed or played, and the match not over (the contract's test)."""
    view = loaded.game.view(HUMAN)
    if view.phase == "match_over":
        return False
    return bool(
        view.hand_number > 1 or view.pass_chosen or view.passed or view.tricks or view.trick
    )


async def has_unfinished(store: GameStore, session_id: str) -> bool:
    current = await readable_current(store, session_id)
    return current is not None and is_unfinished(current)


def random_code(level: str) -> DealCode:
    return DealCode(GAME, level, secrets.randbelow(CODE_SPACE))


def state_of(match: HeartsMatch, hidden: bool, claimed: bool = False) -> dict[str, Any]:
    """What the store keeps of ``match``: the rules' JSON, whether its code is secret, and
    whether the action that stored it ended in a claim."""
    state = match.to_json()
    if hidden:
        state[HIDDEN] = True
    if claimed:
        state[CLAIMED] = True
    return state


def was_claimed(stored: StoredGame) -> bool:
    """Whether the rest of the hand played itself out after the action that stored this
    version (app/web/hearts/autoplay.py): the page and the API say so until the next one."""
    return stored.state.get(CLAIMED) is True


def is_hidden(stored: StoredGame) -> bool:
    return stored.state.get(HIDDEN) is True


def shown_deal(loaded: LoadedMatch) -> str | None:
    """The match's code as the player may see it: None while a secret one is being played."""
    if is_hidden(loaded.stored) and loaded.game.phase != "match_over":
        return None
    return loaded.game.deal


async def new_match(
    store: GameStore, session_id: str, code: DealCode, *, one_hand: bool = False,
    hidden: bool = False,
) -> LoadedMatch:
    """Store a new match as this session's current one (the bots lead when they must); a
    ``one_hand`` match is over after its first hand (a daily deal); ``hidden``: its code stays
    secret until the match is over."""
    match = HeartsMatch.new(code, one_hand=one_hand)
    async with THINKING.turn_of(session_id):
        await THINKING.run(play_bots, match)
    return Loaded(await store.create(session_id, KIND, state_of(match, hidden)), match)


async def new_random_match(store: GameStore, session_id: str, level: str = "N") -> LoadedMatch:
    """A new match with bots of ``level`` (a letter), dealt at random, its code secret."""
    return await new_match(store, session_id, random_code(level), hidden=True)


async def current_match(store: GameStore, session_id: str) -> LoadedMatch:
    """This session's current match; a new one with Normal bots when there is none, or when
    it cannot be read (then marked ``replaced_unreadable``, for the page to say so)."""
    found = await read_current(store, session_id)
    if isinstance(found, Loaded):
        return found
    fresh = await new_random_match(store, session_id)
    return Loaded(fresh.stored, fresh.game, replaced_unreadable=found is not None)


async def act(
    store: GameStore, session_id: str, game_id: str, version: int | None, action: Action,
    help: PlayHelp | None = None,
) -> Turn:
    """Apply ``action`` (and the bots' answer) to this session's match held at ``version``
    (None: whatever is current) and store it by compare-and-set. ``help``: the player's
    play-it-for-me settings, for the actions they follow (app/web/hearts/autoplay.py).

    The version is checked before the bots think, and again after waiting for this session's
    turn in progress, if any (app/web/hearts/thinking.py): a stale request costs no search.
    """
    THINKING.check_room()  # a full queue answers before the match is even read
    helped = None if help is None else Helped(action, help, play_card)
    loaded = await owned(store, session_id, game_id)
    if version is not None and version != loaded.stored.version:
        raise StaleVersion(loaded)
    turn = THINKING.turn_of(session_id)
    waited = turn.locked()
    async with turn:
        if waited:
            loaded = await owned(store, session_id, game_id)
            if version is not None and version != loaded.stored.version:
                raise StaleVersion(loaded)
        before = Seen.of(loaded)
        match = loaded.game
        was_over = match.phase == "match_over"
        was_playing = match.phase == "playing"
        try:
            plays = await THINKING.run(action if helped is None else helped, match)
        except (HeartsError, CardError) as error:
            raise Refused(error, loaded) from error
        claimed = helped is not None and helped.claimed
        state = state_of(match, is_hidden(loaded.stored), claimed)
        saved = await store.compare_and_set(session_id, game_id, loaded.stored.version, state)
    if saved is None:  # another process changed the match first
        raise StaleVersion(await owned(store, session_id, game_id))
    if was_playing and match.phase in ("hand_over", "match_over"):
        await record_hand(store, session_id, match)
    if match.phase == "match_over" and not was_over:
        await record(store, session_id, match)
    if not before.view.hand_scores and match.phase in ("hand_over", "match_over"):
        # A deal's result in Hearts is its first hand.
        row = first_hand_row(match)
        await record_result(store, session_id, KIND, match.deal, row, saved.updated_at)
    return Turn(before, Loaded(saved, match), plays)


def moon_of(scores: tuple[int, ...]) -> int | None:
    """Who shot the moon in a scored hand: the only seat on 0 while the others took 26 each."""
    if sorted(scores) == [0, MOON_SCORE, MOON_SCORE, MOON_SCORE]:
        return scores.index(0)
    return None


def first_hand_row(match: HeartsMatch) -> dict[str, Any]:
    """The first hand's result, for the deal's results board."""
    scores = match.view(HUMAN).hand_scores[0]
    return {"points": scores[HUMAN], "moon": moon_of(scores) == HUMAN, "assisted": match.assisted}


async def record_hand(store: GameStore, session_id: str, match: HeartsMatch) -> None:
    """A hand has just ended: count the Q♠ when the player took it."""
    view = match.view(HUMAN)
    if any(t.winner == HUMAN and QUEEN_OF_SPADES in (p.card for p in t.cards)
           for t in view.tricks):
        await record_hearts_queen(
            store, session_id, level=match.bot_level, assisted=match.assisted
        )


async def record(store: GameStore, session_id: str, match: HeartsMatch) -> None:
    """Count a finished match; one the player was helped in (``assisted``) apart."""
    view = match.view(HUMAN)
    moons = [moon_of(scores) for scores in view.hand_scores]
    await record_hearts_match(
        store,
        session_id,
        won=view.winner == HUMAN,
        hand_points=[scores[HUMAN] for scores in view.hand_scores],
        moons=moons.count(HUMAN),
        moons_suffered=sum(seat is not None and seat != HUMAN for seat in moons),
        level=match.bot_level,
        assisted=match.assisted,
    )
