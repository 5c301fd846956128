"""Heart to Heart as the page and the JSON API share it: the options kept in the profile,
storing a changed game by compare-and-set (the request that stores a win counts it), and the
texts of a refused move.
"""

from __future__ import annotations

from app.rules.heart_to_heart import HeartToHeartGame, TapResult, UndoError
from app.store import GameStore, StoredGame
from app.web.i18n import translator
from app.web.profile import Profile, record_heart_to_heart_game, update_profile

DEFAULT_OPTIONS = {"move_errors": False, "placement_help": True}


def options_of(profile: Profile) -> dict[str, bool]:
    saved = profile.data.get("h2h_options", {})
    return {key: bool(saved.get(key, default)) for key, default in DEFAULT_OPTIONS.items()}


async def store_options(store: GameStore, session_id: str, options: dict[str, bool]) -> None:
    chosen = {key: bool(options[key]) for key in DEFAULT_OPTIONS}
    await update_profile(store, session_id, lambda data: data.__setitem__("h2h_options", chosen))


async def commit(
    store: GameStore, session_id: str, stored: StoredGame, game: HeartToHeartGame
) -> StoredGame | None:
    """Store ``game`` (changed from ``stored``); None when another request changed it first.

    A won game is final, so only the request whose change won it gets here with a win.
    """
    saved = await store.compare_and_set(session_id, stored.game_id, stored.version, game.to_json())
    if saved is not None and game.is_won:
        await record_heart_to_heart_game(
            store, session_id, won=True, seconds=game.elapsed_seconds, moves=game.moves
        )
    return saved


def move_error(result: TapResult, options: dict[str, bool], lang: str) -> str | None:
    """The move-error text after a tap, when the player asked for move errors."""
    if result.kind == "reselect" and options["move_errors"]:
        return translator(lang).gettext("Must be same rank")
    return None


def undo_refusal(error: UndoError, lang: str) -> str:
    tr = translator(lang)
    if error.reason == "game_won":
        return tr.gettext("A won game is final.")
    return tr.gettext("There is no move to undo.")
