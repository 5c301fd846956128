"""Heart to Heart as the page and the JSON API share it: this session's game, its options, an
action applied with the version check and a compare-and-set, and the statistics.

Nothing here knows HTTP. A refusal is a game error: :class:`~app.web.games.GameNotFound`,
:class:`~app.web.games.StaleVersion` (with the game as it is now) or :class:`UndoRefused` (the
rules said no; with the game unchanged). The page and the API each turn them into their answer.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from app.metrics import GAMES_FINISHED, GAMES_STARTED
from app.rules.deal_codes import CODE_SPACE, DealCode, parse_deal_code
from app.rules.heart_to_heart import (
    GAME,
    VARIANTS,
    HeartToHeartGame,
    StateError,
    TapResult,
    UndoError,
    new_game,
)
from app.store import GameStore, GameUnreadable, StoredGame, Unreadable
from app.web.games import (
    LatestGames,
    Loaded,
    StaleVersion,
    is_stored,
    owned_game,
    read_loaded,
    readable_as,
    session_number,
    store_first,
    unstored,
    unstored_id,
    until_applied,
)
from app.web.preferences import Options
from app.web.profile import record_heart_to_heart_game, update_profile
from app.web.results import (
    VIA_API,
    daily_of,
    heart_to_heart_result,
    marks_of,
    record,
    without_marks,
)

KIND = "heart_to_heart"
# The clock is the server's (see play_time): a gap between two actions counts at most this
# long (a player who walked away), and a page's report of hidden time leaves at least this much
# of a gap counted, so that reports can pause the clock but never stop it.
IDLE_CAP_SECONDS = 60.0
MIN_STEP_SECONDS = 1.0
NOT_FOUND = "This game does not exist here: it belongs to another browser, or it expired."

LoadedGame = Loaded[HeartToHeartGame]


async def store_options(store: GameStore, session_id: str, options: Options) -> None:
    chosen = asdict(options)
    await update_profile(store, session_id, lambda data: data.__setitem__("h2h_options", chosen))


@dataclass(frozen=True, slots=True)
class HeartToHeartTurn:
    """An action applied: the game before it and after it (the same when nothing changed)."""

    before: LoadedGame
    after: LoadedGame
    result: TapResult


class UndoRefused(Exception):
    """The rules refused the action (say, undo in a won game); ``current`` is unchanged."""

    def __init__(self, error: UndoError, current: LoadedGame) -> None:
        super().__init__(error.reason)
        self.error = error
        self.current = current


def load(stored: StoredGame) -> HeartToHeartGame:
    """The game of ``stored``; GameUnreadable when this version cannot read it (written by a
    newer one, or damaged)."""
    try:
        # Our own store holds only what our to_json() wrote: no need to replay its history.
        return HeartToHeartGame.from_json(without_marks(stored.state), trusted=True)
    except StateError as error:
        raise GameUnreadable(f"game {stored.game_id}: {error}") from error


async def read_current(store: GameStore, session_id: str) -> LoadedGame | Unreadable | None:
    return await read_loaded(store.current(session_id, KIND), KIND, load)


async def readable_current(store: GameStore, session_id: str) -> LoadedGame | None:
    """This session's current game; None when there is none or it cannot be read."""
    found = await read_current(store, session_id)
    return found if isinstance(found, Loaded) else None


def is_unfinished(game: HeartToHeartGame) -> bool:
    """At least one move made and the game not won (a stalemate counts: see pages.py)."""
    return game.moves > 0 and not game.is_won


def is_played_out(game: HeartToHeartGame) -> bool:
    """Won or stalemated: no move is left, so its replay opens (app/web/replays.py)."""
    return game.status != "playing"


async def has_unfinished(store: GameStore, session_id: str) -> bool:
    current = await readable_current(store, session_id)
    return current is not None and is_unfinished(current.game)


def shown_deal(loaded: LoadedGame) -> str | None:
    """The game's code as the player may see it: None in a daily game (its board shows the
    code once the day is over)."""
    return None if daily_of(loaded.stored.state) is not None else loaded.game.deal


def parse_code(text: str) -> str:
    """The deal code ``text`` names, in its standard form; raises DealCodeError."""
    return str(parse_deal_code(text, GAME, VARIANTS, long_ok=True))


def deal_or_random(text: str | None) -> str:
    """The deal ``text`` names, or a random N deal when there is no text."""
    return random_code("N") if text is None else parse_code(text)


def random_code(variant: str) -> str:
    """A random deal of that kind. About one shuffle in ten is stuck from the start (the tip's
    three partners all lie in the heart); a random new game never hands one out, though its
    code, shared or typed, still deals it."""
    while True:
        code = str(DealCode(GAME, variant, secrets.randbelow(CODE_SPACE)))
        if new_game(code).status == "playing":
            return code


async def replace_game(
    store: GameStore, session_id: str, code: str, marks: dict[str, Any] | None = None
) -> LoadedGame:
    """Make ``code`` the current game (with results ``marks``: a daily's, app/web/results.py);
    a game it replaces that was played but not won counts as a game played (and ends the
    winning streak)."""
    current = await readable_current(store, session_id)
    old = None if current is None else current.game
    if old is not None and is_unfinished(old):
        await record_heart_to_heart_game(
            store, session_id, won=False, seconds=old.elapsed_seconds, moves=old.moves,
            assisted=old.assisted,
        )
    game = new_game(code)
    stored = await store.create(session_id, KIND, {**game.to_json(), **(marks or {})})
    GAMES_STARTED.labels(KIND).inc()
    if current is not None and is_unfinished(current.game):
        # Given up: it counts on its deal's results with the cards it left. Its replay opens
        # only if it was stalemated: one given up with moves left stays unfinished.
        played_out = is_played_out(current.game)
        await record(
            store, session_id, KIND, current.game.deal, current.stored.state,
            heart_to_heart_result(current.game), stored.updated_at,
            game_id=current.stored.game_id if played_out else None,
        )
    return Loaded(stored, game)


async def current_game(store: GameStore, session_id: str) -> LoadedGame:
    """This session's current game; when there is none, its next game, not stored until its
    first action (app/web/games.py); a new random one when it cannot be read (then marked
    ``replaced_unreadable``, for the page to say so)."""
    found = await read_current(store, session_id)
    if isinstance(found, Loaded):
        return found
    if found is None:
        return unstored_game(session_id, next_code(session_id))
    fresh = await replace_game(store, session_id, random_code("W"))
    return Loaded(fresh.stored, fresh.game, replaced_unreadable=True)


def next_code(session_id: str) -> str:
    """The deal this session gets when it has no game: winnable, like every new game the pages
    start, random, but the same every time."""
    number = session_number(session_id, f"{KIND}:0") % CODE_SPACE
    return str(DealCode(GAME, "W", number))


def unstored_game(session_id: str, code: str, game_id: str | None = None) -> LoadedGame:
    """A new game of ``code`` that is not stored yet (see app/web/games.py)."""
    game_id = game_id or unstored_id(session_id, code)
    return Loaded(unstored(game_id, KIND), new_game(code))


# The stored game, or None when there is none, it is not a Heart to Heart game or it is in a
# format this engine no longer reads.
readable = readable_as(KIND, load)


async def owned(store: GameStore, session_id: str, game_id: str) -> LoadedGame:
    """This session's game of that id (or a page's game not stored yet). Anything else
    (another browser's game, an expired one, this browser's Hearts match, a state this version
    cannot read) does not exist here."""

    async def page_game(code: str) -> LoadedGame:
        return unstored_game(session_id, parse_code(code), game_id)

    return await owned_game(store, session_id, game_id, readable, page_game, NOT_FOUND)


def play_time(gap: float, on_screen: float | None) -> float:
    """The play time of a ``gap`` of server time between two actions: capped at
    IDLE_CAP_SECONDS; when the page reports that only ``on_screen`` seconds of it were visible
    (its clock pauses while the tab is hidden), that much, but never under MIN_STEP_SECONDS
    (or the whole gap, if shorter): a report that the page was always hidden pauses the clock,
    it does not stop it."""
    gap = min(max(gap, 0.0), IDLE_CAP_SECONDS)
    if on_screen is None:
        return gap
    return max(min(on_screen, gap), min(gap, MIN_STEP_SECONDS))


@dataclass(frozen=True, slots=True)
class Timing:
    """When an action came (``now``, the server's time) and how the time spent before it is
    counted (the rules count it only while the game is in play): the server's time since the
    game was last saved, or what a page says was on its screen (``elapsed``)."""

    now: float
    elapsed: float | None = None

    def count(self, game: HeartToHeartGame, stored: StoredGame) -> None:
        on_screen = None if self.elapsed is None else max(self.elapsed - game.play_time, 0.0)
        game.add_play_time(play_time(self.now - stored.updated_at, on_screen))


def screen_time(elapsed: float | None, now: float) -> Timing:
    """A page's action: ``elapsed`` is the play time its clock shows (what it had from the
    server, plus the seconds the page was visible since); None when it sent none."""
    return Timing(now, elapsed)


def wall_time(now: float) -> Timing:
    """An API client's action: it has no screen to hide, so the whole gap counts (capped)."""
    return Timing(now)


Action = Callable[[HeartToHeartGame], TapResult]


async def apply_action(
    store: GameStore,
    session_id: str,
    game_id: str,
    version: int | None,
    action: Action,
    timing: Timing,
    latest: LatestGames | None = None,
    via_api: bool = False,
) -> HeartToHeartTurn:
    """Apply ``action`` to this session's game held at ``version`` and store it by
    compare-and-set. An action that changes nothing stores nothing.

    ``version`` None (an API client that did not say) means the game as it is when this
    action's turn comes: when another request changes it first, the action is applied again to
    what that request stored (app/web/games.py, until_applied). With ``latest``, the game this
    process stored at ``version`` is taken from it instead of read back (see LatestGames).
    ``via_api``: the action came through the JSON API (its result is ranked apart,
    app/web/results.py)."""

    def applied(before: LoadedGame) -> tuple[HeartToHeartGame, TapResult]:
        """The action on a copy of ``before``'s game, its time counted (UndoError: refused)."""
        game = before.game.copy()
        timing.count(game, before.stored)
        return game, action(game)

    async def save(
        before: LoadedGame, game: HeartToHeartGame, result: TapResult
    ) -> HeartToHeartTurn | None:
        saved = await commit(store, session_id, before.stored, game, via_api)
        if saved is None:  # another tab, a double tap or another instance changed it first
            return None
        after = Loaded(saved, game)
        if latest is not None:
            latest.keep(session_id, after)
        return HeartToHeartTurn(before, after, result)

    async def attempt() -> HeartToHeartTurn | None:
        known = None if latest is None else latest.at(session_id, game_id, version, timing.now)
        if known is not None:
            # Only a change is answered from it (its compare-and-set checks the store); a
            # refusal or a tap that changes nothing is answered from what the store holds.
            try:
                game, result = applied(known)
            except UndoError:
                pass
            else:
                if result.changed:
                    return await save(known, game, result)
        before = await owned(store, session_id, game_id)
        if not is_stored(before.stored):
            state = before.game.to_json()
            before = await store_first(store, session_id, before, state, readable, NOT_FOUND)
        if version is not None and version != before.stored.version:
            raise StaleVersion(before)
        try:
            game, result = applied(before)
        except UndoError as error:
            raise UndoRefused(error, before) from error
        if not result.changed:
            return HeartToHeartTurn(before, before, result)
        return await save(before, game, result)

    return await until_applied(version, attempt, lambda: owned(store, session_id, game_id))


async def commit(
    store: GameStore, session_id: str, stored: StoredGame, game: HeartToHeartGame,
    via_api: bool,
) -> StoredGame | None:
    """Store ``game`` (changed from ``stored``, its results marks carried on): what was stored,
    or None when another request changed it first. A won game is final, so only the request
    whose change won it gets here with a win: that one counts it."""
    state = game.to_json() | marks_of(stored.state) | ({VIA_API: True} if via_api else {})
    saved = await store.compare_and_set(session_id, stored.game_id, stored.version, state)
    if saved is not None and game.is_won:
        GAMES_FINISHED.labels(KIND).inc()
        await record_heart_to_heart_game(
            store, session_id, won=True, seconds=game.elapsed_seconds, moves=game.moves,
            assisted=game.assisted,
        )
        await record(
            store, session_id, KIND, game.deal, saved.state, heart_to_heart_result(game),
            saved.updated_at, game_id=saved.game_id,
        )
    return saved
