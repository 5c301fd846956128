"""Hearts as the page and the JSON API share it: this session's match, an action of the player
and the bots' answer (run off the event loop) applied with the version check and a
compare-and-set, and the statistics, counted by the request that ends the match.

A deal code is every hand in the open (anyone can run the shuffle), so a match started without
a code is dealt from the server's own randomness and its code stays secret until the match is
over (:func:`shown_deal`); the stored state says so with the key ``deal_hidden``, beside the
rules' own JSON. A match opened from a code shows it: the player has it anyway. A secret code is
a long one (28 letters, more than 2**131 numbers; app/rules/deal_codes.py), its hands drawn from
SHA-256 of the whole number and the hand number: a seat's cards cannot lead to the code, nor to
any other hand, as a seven-letter code's could by a search of its 26**7 numbers (issue 28, F1).

A visit that finds no match stores nothing (issue 17, app/web/games.py): the page shows the
session's next match, stored at its first action under the id the page knows it by. That id is
:func:`~app.web.games.unstored_id` of the bots' level and the day (``N-20787``), so it carries
no code; the deal comes from an HMAC of the id under the server's secret key
(:func:`secret_deal`), which no page, answer or cookie holds. Knowing the id (or the session id)
tells nothing of the deal; the same id always deals the same cards, and the code the store keeps
from the first action on is the code of those cards, shown when the match is over. The id is good
on the day it was made and the next (UNSTORED_DAYS): an old page's id cannot deal a match again
after the match it became was played out and expired from the store. A deal link's match not
stored yet carries its (public) code in its id instead, as Heart to Heart's do.

Nothing here knows HTTP. A refusal is a game error: :class:`~app.web.games.GameNotFound`,
:class:`~app.web.games.StaleVersion` (with the match as it is now) or :class:`MoveRefused` (the
rules said no; the match unchanged). The page and the API each turn them into their answer.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.bots.driver import pass_for_bots, play_bots
from app.metrics import GAMES_FINISHED, GAMES_STARTED
from app.rules.cards import QUEEN_OF_SPADES, CardError
from app.rules.deal_codes import LONG_CODE_SPACE, DealCode, DealCodeError
from app.rules.hearts import (
    GAME,
    HUMAN,
    HeartsError,
    HeartsMatch,
    HeartsRules,
    HeartsView,
    PlayedCard,
    parse_match_code,
)
from app.store import SECONDS_PER_DAY, GameStore, GameUnreadable, StoredGame, Unreadable
from app.web.games import (
    Loaded,
    StaleVersion,
    is_stored,
    owned_game,
    read_loaded,
    readable_as,
    store_first,
    unstored,
    unstored_id,
    until_applied,
)
from app.web.hearts.autoplay import Helped
from app.web.hearts.thinking import THINKING
from app.web.preferences import PlayHelp
from app.web.profile import record_hearts_match, record_hearts_queen
from app.web.results import (
    CARDS_PLAYED,
    VIA_API,
    daily_of,
    hearts_daily_result,
    hearts_first_hand_result,
    marks_of,
    moon_of,
)
from app.web.results import record as record_result

KIND = "hearts"
HIDDEN = "deal_hidden"
CLAIMED = "claimed"
NOT_FOUND = "This Hearts match does not exist here."

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
    daily: str | None = None  # the daily deal's date ("2026-11-30") the match plays, if any

    @classmethod
    def of(cls, loaded: LoadedMatch) -> Seen:
        stored, match = loaded.stored, loaded.game
        view = match.view(HUMAN)
        day = daily_of(stored.state)
        return cls(
            stored.game_id, stored.version, view, match.undo_available,
            dimmed_refusal(match, view), None if day is None else day.isoformat(),
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
class HeartsTurn:
    """An action applied: what the player saw before it, the match after it and the cards
    played, in order."""

    before: Seen
    after: LoadedMatch
    plays: list[PlayedCard]


class MoveRefused(Exception):
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


def choose_moon(choice: str) -> Action:
    """The player, having shot the moon under the shooter's-choice rule, says what it does."""

    def action(match: HeartsMatch) -> list[PlayedCard]:
        match.choose_moon(HUMAN, choice)
        return []

    return action


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


# The stored match, or None when there is none, it is not a Hearts match or this version
# cannot read it.
readable = readable_as(KIND, load)


@dataclass(frozen=True, slots=True)
class Dealer:
    """What deals a page's match that is not stored yet: the server's secret key (a random
    match's secret deal comes from it) and the time now (its id is good for UNSTORED_DAYS)."""

    secret: str
    now: float

    @property
    def day(self) -> int:
        return int(self.now // SECONDS_PER_DAY)


# The day an id was made and the next: a page left open overnight still plays.
UNSTORED_DAYS = 2
_SECRET_TAIL = re.compile(r"([ENH])-(\d{1,9})")


def secret_deal(dealer: Dealer, session_id: str, game_id: str, level: str) -> DealCode:
    """The deal of the page's random match ``game_id``: a long code, from an HMAC under the
    server's key (256 bits, reduced to the code's 131: the bias is below 2**-124)."""
    message = f"{KIND}:{session_id}:{game_id}".encode()
    digest = hmac.new(dealer.secret.encode(), message, hashlib.sha256).digest()
    return DealCode(GAME, level, int.from_bytes(digest, "big") % LONG_CODE_SPACE, long=True)


def next_match_id(session_id: str, level: str, dealer: Dealer) -> str:
    """The id of this session's next random match with bots of ``level`` (a letter), today."""
    return unstored_id(session_id, f"{level}-{dealer.day}")


def unstored_match(session_id: str, game_id: str, tail: str, dealer: Dealer) -> LoadedMatch:
    """The page's match of ``game_id`` before it is stored; ``tail`` is what the id carries
    (app/web/games.py, unstored_code): a level and a day, or a deal link's code. DealCodeError
    when it names no match (say, a day too old)."""
    secret = _SECRET_TAIL.fullmatch(tail)
    if secret is None:
        code = parse_match_code(tail)
        match = HeartsMatch.new(code)
    else:
        if not 0 <= dealer.day - int(secret[2]) < UNSTORED_DAYS:
            raise DealCodeError("expired", "This match was never played and its day is over.")
        match = HeartsMatch.new(secret_deal(dealer, session_id, game_id, secret[1]))
    # A match's first hand always passes (hearts.md), so no bot plays before the player: the
    # bots have nothing to do until the first action (new_match's play_bots does nothing).
    return Loaded(unstored(game_id, KIND, {HIDDEN: True} if secret else None), match)


async def owned(
    store: GameStore, session_id: str, game_id: str, dealer: Dealer | None = None
) -> LoadedMatch:
    """This session's match of that id; with a ``dealer``, also a page's match not stored yet.
    Anything else (another browser's, expired, unreadable) does not exist here."""

    async def page_match(tail: str) -> LoadedMatch:
        if dealer is None:
            raise DealCodeError("stored", "Only a stored match is asked for.")
        return unstored_match(session_id, game_id, tail, dealer)

    return await owned_game(store, session_id, game_id, readable, page_match, NOT_FOUND)


async def owned_stored(
    store: GameStore, session_id: str, game_id: str, dealer: Dealer
) -> LoadedMatch:
    """This session's match of that id, stored: a page's match not stored yet is stored now
    (its first action), under the id the page knows it by."""
    loaded = await owned(store, session_id, game_id, dealer)
    if is_stored(loaded.stored):
        return loaded
    state = state_of(loaded.game, is_hidden(loaded.stored))
    return await store_first(store, session_id, loaded, state, readable, NOT_FOUND)


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
    """A secret match's code (a random match, a table): long, so that no one who holds some of
    its cards can search for it (issue 28, F1); shown once the match is over, it replays it."""
    return DealCode(GAME, level, secrets.randbelow(LONG_CODE_SPACE), long=True)


def state_of(
    match: HeartsMatch, hidden: bool, claimed: bool = False, marks: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What the store keeps of ``match``: the rules' JSON, whether its code is secret,
    whether the action that stored it ended in a claim, and its results marks
    (app/web/results.py)."""
    state = match.to_json()
    state.update(marks or {})
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
    """The match's code as the player may see it: None while a secret one is being played,
    and always in a daily match (its board shows it once the day is over)."""
    if daily_of(loaded.stored.state) is not None:
        return None
    if is_hidden(loaded.stored) and loaded.game.phase != "match_over":
        return None
    return loaded.game.deal


async def new_match(
    store: GameStore, session_id: str, code: DealCode, *, last_hand: int | None = None,
    hidden: bool = False, marks: dict[str, Any] | None = None, rules: HeartsRules | None = None,
) -> LoadedMatch:
    """Store a new match as this session's current one (the bots lead when they must); a
    ``last_hand`` match is over after that hand (a daily deal); ``hidden``: its code stays
    secret until the match is over; ``marks``: its results marks (a daily's); ``rules``: house
    rules in place of the code's. A daily match it replaces unfinished is given up: recorded on
    its board as it stands."""
    current = await readable_current(store, session_id)
    if current is not None and is_unfinished(current) and daily_of(current.stored.state):
        # Given up: no replay of it ever opens, so its row keeps no game.
        await record_result(
            store, session_id, KIND, current.game.deal, current.stored.state,
            hearts_daily_result(current.game), current.stored.updated_at, game_id=None,
        )
    match = HeartsMatch.new(code, last_hand=last_hand, rules=rules)
    async with THINKING.turn_of(session_id):
        await THINKING.run(play_bots, match)
    stored = await store.create(session_id, KIND, state_of(match, hidden, marks=marks))
    GAMES_STARTED.labels(KIND).inc()
    return Loaded(stored, match)


async def new_random_match(
    store: GameStore, session_id: str, level: str = "N", rules: HeartsRules | None = None
) -> LoadedMatch:
    """A new match with bots of ``level`` (a letter), dealt at random, its code secret, under
    ``rules`` (the seed's when None)."""
    return await new_match(store, session_id, random_code(level), hidden=True, rules=rules)


async def current_match(
    store: GameStore, session_id: str, dealer: Dealer, level: str = "N",
    handed: str | None = None,
) -> LoadedMatch:
    """This session's current match. When there is none, its next one, not stored until its
    first action: the deal a deal link handed over (``handed``: its code, app/web/first_visit.py)
    or else a secret random deal with bots of ``level`` (a letter). When the current match cannot
    be read, a new random one, stored and marked ``replaced_unreadable`` for the page to say so."""
    found = await read_current(store, session_id)
    if isinstance(found, Loaded):
        return found
    if found is None:
        if handed is not None:
            try:
                return unstored_match(session_id, unstored_id(session_id, handed), handed, dealer)
            except DealCodeError:
                pass  # a Heart to Heart deal's
        game_id = next_match_id(session_id, level, dealer)
        return unstored_match(session_id, game_id, f"{level}-{dealer.day}", dealer)
    fresh = await new_random_match(store, session_id, level)
    return Loaded(fresh.stored, fresh.game, replaced_unreadable=True)


async def apply_action(
    store: GameStore, session_id: str, game_id: str, version: int | None, action: Action,
    dealer: Dealer, help: PlayHelp | None = None, via_api: bool = False,
) -> HeartsTurn:
    """Apply ``action`` (and the bots' answer) to this session's match held at ``version``
    and store it by compare-and-set; a page's match not stored yet is stored first.

    ``version`` None (an API client that did not say) means the match as it is when this
    action's turn comes: when another request changes it first, the action (and the bots'
    answer) is applied again to what that request stored (app/web/games.py, until_applied).
    ``help``: the player's play-it-for-me settings, for the actions they follow
    (app/web/hearts/autoplay.py). ``via_api``: the action came through the JSON API (its
    result is ranked apart, app/web/results.py).

    The version is checked before the bots think, and again after waiting for this session's
    turn in progress, if any (app/web/hearts/thinking.py): a stale request costs no search.
    """
    THINKING.check_room()  # a full queue answers before the match is even read

    async def attempt() -> HeartsTurn | None:
        loaded = await owned_stored(store, session_id, game_id, dealer)
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
            helped = None if help is None else Helped(action, help, play_card)
            try:
                plays = await THINKING.run(action if helped is None else helped, match)
            except (HeartsError, CardError) as error:
                raise MoveRefused(error, loaded) from error
            claimed = helped is not None and helped.claimed
            marks = marks_of(loaded.stored.state) | ({VIA_API: True} if via_api else {})
            if help is not None and help.cards_played:  # it helps, as a hint does
                marks[CARDS_PLAYED] = True
            saved = await store.compare_and_set(
                session_id, game_id, loaded.stored.version,
                state_of(match, is_hidden(loaded.stored), claimed, marks),
            )
        if saved is None:  # another request or process changed the match first
            return None
        await record_turn(store, session_id, before, match, saved)
        return HeartsTurn(before, Loaded(saved, match), plays)

    return await until_applied(version, attempt, lambda: owned(store, session_id, game_id))


async def record_turn(
    store: GameStore, session_id: str, before: Seen, match: HeartsMatch, saved: StoredGame
) -> None:
    """Count what the stored action ended: a hand, the match, and a result: a daily's whole
    match, or else the deal's first hand (a code's board)."""
    was_over = before.view.phase == "match_over"
    # A hand ends after a play, or after the moon's choice under the shooter's-choice rule.
    was_playing = before.view.phase in ("playing", "moon")
    if was_playing and match.phase in ("hand_over", "match_over"):
        await record_hand(store, session_id, match)
    if match.phase == "match_over" and not was_over:
        await record(store, session_id, match)
        if daily_of(saved.state) is not None:
            result = hearts_daily_result(match)
            await record_result(
                store, session_id, KIND, match.deal, saved.state, result, saved.updated_at,
                game_id=saved.game_id,
            )
    if daily_of(saved.state) is None and not before.view.hand_scores and match.phase in (
        "hand_over", "match_over"
    ):
        result = hearts_first_hand_result(match)
        await record_result(
            store, session_id, KIND, match.deal, saved.state, result, saved.updated_at,
            game_id=saved.game_id,
        )


async def record_hand(store: GameStore, session_id: str, match: HeartsMatch) -> None:
    """A hand has just ended: count the Q♠ when the player took it."""
    view = match.view(HUMAN)
    if any(t.winner == HUMAN and QUEEN_OF_SPADES in (p.card for p in t.cards)
           for t in view.tricks):
        await record_hearts_queen(
            store, session_id, level=match.bot_level, assisted=match.assisted,
            rules=match.rules.short,
        )


async def record(store: GameStore, session_id: str, match: HeartsMatch) -> None:
    """Count a finished match; one the player was helped in (``assisted``) apart."""
    GAMES_FINISHED.labels(KIND).inc()
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
        rules=match.rules.short,
    )
