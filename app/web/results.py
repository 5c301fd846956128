"""Results per deal code: every finished game the server played on a code, one board per code.

The services record a row when a game finishes (a Heart to Heart game won, or given up for a
new one; a Hearts match's first hand scored), from their own stored state, never from what a
client says. A board lists each browser once, by its first finished game on the code; later
games on it are practice. Rows carry the nickname the browser had when it finished (a
nickname set later renames its rows on the boards it sees).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.heart_to_heart import HEART_SIZE, HeartToHeartGame
from app.store import GameStore
from app.web.daily_codes import DAILY_KEEP_DAYS, HEART_TO_HEART, daily_date
from app.web.profile import load_profile, update_profile

# A board is kept at least this long after its last row (the store keeps it as long as its
# games when that is longer).
KEEP_DAYS = 30


def board_of(kind: str, code: str) -> str:
    return f"{kind}:{code}"


def heart_to_heart_row(game: HeartToHeartGame) -> dict[str, Any]:
    return {
        "won": game.is_won,
        "cards_left": HEART_SIZE - game.removed_mask.bit_count(),
        "seconds": game.elapsed_seconds,
        "moves": game.moves,
        "assisted": game.assisted,
    }


async def record(
    store: GameStore, session_id: str, kind: str, code: str, row: dict[str, Any], now: float
) -> None:
    """Add a finished game's row to its code's board; a daily deal also counts as played."""
    profile = await load_profile(store, session_id)
    day = daily_date(kind, code, now)
    keep = DAILY_KEEP_DAYS if day is not None else KEEP_DAYS
    full = {**row, "nickname": profile.nickname, "finished_at": int(now)}
    await store.add_result(board_of(kind, code), session_id, full, keep)
    if day is not None:
        played = day.isoformat()
        await update_profile(
            store, session_id, lambda data: data.setdefault("daily", {}).__setitem__(kind, played)
        )


def daily_played(profile_data: dict[str, Any], kind: str) -> str | None:
    """The date of the last daily deal of ``kind`` this browser finished ("YYYY-MM-DD")."""
    return profile_data.get("daily", {}).get(kind)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a board as shown: ``rank`` is None for practice (a replay)."""

    rank: int | None
    mine: bool
    row: dict[str, Any]

    @property
    def nickname(self) -> str | None:
        return self.row.get("nickname")


def _order(kind: str, row: dict[str, Any]) -> tuple:
    """Best first: Heart to Heart wins by time then moves, then the fewest cards left; Hearts
    the fewest points, a moon first among equals; earlier games first on a tie."""
    if kind == HEART_TO_HEART:
        return (not row["won"], row["cards_left"], row["seconds"], row["moves"], row["finished_at"])
    return (row["points"], not row["moon"], row["finished_at"])


async def standings(
    store: GameStore, kind: str, code: str, session_id: str
) -> tuple[list[Standing], list[Standing]]:
    """The board of a code as (ranked rows, practice rows), each best first."""
    counted: list[tuple[str, dict[str, Any]]] = []
    practice: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for owner, row in await store.results(board_of(kind, code)):
        (practice if owner in seen else counted).append((owner, row))
        seen.add(owner)
    ranked = sorted(counted, key=lambda pair: _order(kind, pair[1]))
    replays = sorted(practice, key=lambda pair: _order(kind, pair[1]))
    return (
        [Standing(i + 1, owner == session_id, row) for i, (owner, row) in enumerate(ranked)],
        [Standing(None, owner == session_id, row) for owner, row in replays],
    )


async def rename(store: GameStore, kind: str, code: str, session_id: str, nickname: str) -> None:
    await store.rename_results(board_of(kind, code), session_id, nickname)
