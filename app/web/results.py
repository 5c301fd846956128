"""Results boards: the games the server finished, one board per daily deal and one per deal code.

The services record a game's result when it finishes (a Heart to Heart game won, or given up
for a new one; a Hearts match's first hand, or a whole Hearts daily), from their own stored
state, never from what a client says. A browser has one result per board, its first: the store
keeps no other, so replays (practice) never fill a board, and a browser that gives up a
thousand games takes one row.

A board has two sections, each paged. **Ranked**: games played on the page without help at a
person's pace. **Ranked apart** (shown, marked, never mixed in): a game with an action sent
through the JSON API (a script could play it), with an undo or a hint, or a Heart to Heart game
faster than HUMAN_PACE_SECONDS a move on average (no one taps that fast; a solver's line does).

A daily deal's board is by date and open only to the daily's games (its code is secret until
the day is over); a code's board is open: anyone who knows the code can play it, so it is a
comparison among friends. The Hearts daily is scored as duplicate (matchpoints, below);
every other board is best first by its outcome, earlier games first on a tie.

Games carry marks in their stored state, beside the rules' JSON: ``daily`` (the date of the
daily deal they play), ``practice`` (a daily played again: recorded nowhere) and ``api`` (an
action came through the API).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from app.rules.heart_to_heart import HEART_SIZE, HeartToHeartGame
from app.rules.hearts import HUMAN, TOTAL_POINTS, HeartsMatch
from app.rules.hearts_rules import OMNIBUS_JACK
from app.store import BoardRow, GameStore
from app.web.daily_codes import DAILY_KEEP_DAYS, HEARTS_DAILY_HANDS
from app.web.profile import load_profile, update_profile

# A code's board is kept at least this long after its last row (as long as games, if longer).
KEEP_DAYS = 30
RANKED = "ranked"
APART = "apart"
SECTIONS = (RANKED, APART)
PAGE_SIZE = 50
# A person does not tap faster than this on average over a game (a fast player bursts at 5 or 6
# taps a second, README's rate limits, but does not keep it up while reading the cards).
HUMAN_PACE_SECONDS = 0.35
# Why a row is ranked apart, as rows and the API say it.
VIA_API = "api"
ASSISTED = "assisted"
FAST = "fast"
# A Hearts match played with the "cards played" panel on (the setting hearts_cards_played).
CARDS_PLAYED = "cards_played"
# The marks a game's stored state may carry.
DAILY = "daily"
PRACTICE = "practice"
MARKS = (DAILY, PRACTICE, VIA_API, CARDS_PLAYED)
# The key of a stored row that holds its game's id: kept out of every row shown (Standing).
GAME_ID = "game_id"


def code_board(kind: str, code: str) -> str:
    return f"{kind}:{code}"


def daily_board(kind: str, day: date) -> str:
    return f"{kind}:daily:{day.isoformat()}"


# -- marks ----------------------------------------------------------------------------------


def marks_of(state: dict[str, Any]) -> dict[str, Any]:
    """The marks of a stored state, for the next state written to carry them on."""
    return {mark: state[mark] for mark in MARKS if mark in state}


def without_marks(state: dict[str, Any]) -> dict[str, Any]:
    """The rules' JSON of a stored state (a game that strictly reads its own keys)."""
    if not any(mark in state for mark in MARKS):
        return state
    return {key: value for key, value in state.items() if key not in MARKS}


def daily_of(state: dict[str, Any]) -> date | None:
    """The daily deal's date a stored game plays, or None."""
    day = state.get(DAILY)
    try:
        return date.fromisoformat(day) if isinstance(day, str) else None
    except ValueError:
        return None


# -- results --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game as a board keeps it: ``row`` is shown, ``order`` sorts (smaller first),
    ``group`` is its points per hand (the Hearts daily), ``apart`` why it is ranked apart."""

    row: dict[str, Any]
    order: int = 0
    group: str = ""
    apart: tuple[str, ...] = ()


def heart_to_heart_result(game: HeartToHeartGame) -> Result:
    """Best first: a win (no card left), then fewer cards left, less time, fewer moves."""
    cards_left = HEART_SIZE - game.removed_mask.bit_count()
    seconds, moves = game.elapsed_seconds, game.moves
    apart = [ASSISTED] if game.assisted else []
    # The clock runs from the first move: the time between moves is what a person needs.
    if moves > 1 and game.play_time < HUMAN_PACE_SECONDS * (moves - 1):
        apart.append(FAST)
    order = cards_left << 40 | min(seconds, 2**24 - 1) << 16 | min(moves, 2**16 - 1)
    row = {"won": game.is_won, "cards_left": cards_left, "seconds": seconds, "moves": moves}
    return Result(row, order, apart=tuple(apart))


def moon_of(scores: Sequence[int]) -> int | None:
    """Who shot the moon in a scored hand. Added to the others, the moon gives each of them 26
    (16 with the J♦ under Omnibus), which no three seats reach otherwise: the points of a hand
    are 26 in all. Subtracted, it leaves the shooter at −26 or below, and no J♦ or bonus goes
    below −10 otherwise."""
    for seat, score in enumerate(scores):
        if score <= -TOTAL_POINTS:
            return seat
    high = [seat for seat in range(len(scores)) if scores[seat] >= TOTAL_POINTS + OMNIBUS_JACK]
    if len(high) == len(scores) - 1:
        return next(seat for seat in range(len(scores)) if seat not in high)
    return None


def hearts_first_hand_result(match: HeartsMatch) -> Result:
    """A code's board: the first hand's points, fewest first, a moon first among equals."""
    scores = match.view(HUMAN).hand_scores[0]
    points, moon = scores[HUMAN], moon_of(scores) == HUMAN
    apart = (ASSISTED,) if match.assisted else ()
    return Result({"points": points, "moon": moon}, points * 2 + (not moon), apart=apart)


def hearts_daily_result(match: HeartsMatch) -> Result:
    """The Hearts daily: the player's points in each of its hands. A hand not played out
    (a daily given up for another match) counts 26, the most a hand can cost."""
    scored = match.view(HUMAN).hand_scores[:HEARTS_DAILY_HANDS]
    missing = HEARTS_DAILY_HANDS - len(scored)
    points = [scores[HUMAN] for scores in scored] + [TOTAL_POINTS] * missing
    moons = [moon_of(scores) == HUMAN for scores in scored] + [False] * missing
    row = {"points": points, "moons": moons, "hands_played": len(scored)}
    apart = (ASSISTED,) if match.assisted else ()
    return Result(row, group=",".join(map(str, points)), apart=apart)


async def record(
    store: GameStore, session_id: str, kind: str, code: str, state: dict[str, Any],
    result: Result, now: float, *, game_id: str | None,
) -> None:
    """Add a finished game's result to its board (the daily's by date, else its code's), unless
    it is practice; the first result of this browser on a board is its only one there.
    ``game_id``: the game whose replay a daily's board links to once the day is over; None for
    a game given up unfinished, whose replay never opens. A code's board keeps no game: it
    never links to a replay, since its deal stays playable and the replay shows a line."""
    if state.get(PRACTICE) is True:
        return
    day = daily_of(state)
    apart = [*result.apart, *(mark for mark in (VIA_API, CARDS_PLAYED) if state.get(mark) is True)]
    row = {**result.row, "apart": apart, "finished_at": int(now)}
    if game_id is not None and day is not None:
        row[GAME_ID] = game_id
    profile = await load_profile(store, session_id)
    await store.add_result(
        daily_board(kind, day) if day else code_board(kind, code),
        session_id,
        row,
        profile.nickname,
        section=APART if apart else RANKED,
        order=result.order,
        group=result.group,
        keep_days=DAILY_KEEP_DAYS if day else KEEP_DAYS,
    )
    if day is not None:
        played = day.isoformat()
        await update_profile(
            store, session_id, lambda data: data.setdefault(DAILY, {}).__setitem__(kind, played)
        )


def daily_played(profile_data: dict[str, Any], kind: str) -> str | None:
    """The date of the last daily deal of ``kind`` this browser finished ("YYYY-MM-DD")."""
    return profile_data.get(DAILY, {}).get(kind)


# -- reading a board -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a board as shown: its place (rows tied on matchpoints share one), whether it
    is this browser's, and for the Hearts daily each hand's matchpoints and the percentage.
    ``game_id`` is the game played, never in ``row``: game ids stay with their browsers, and a
    board shows the game only as its replay's share link (app/web/daily.py)."""

    place: int
    mine: bool
    nickname: str | None
    row: dict[str, Any]
    matchpoints: tuple[float, ...] | None = None
    percent: float | None = None
    game_id: str | None = None


def standing_of(
    r: BoardRow, place: int, session_id: str, scoring: Matchpoints | None = None
) -> Standing:
    """A stored row as a board shows it (``scoring``: by matchpoints), its game's id set apart."""
    row = {key: value for key, value in r.row.items() if key != GAME_ID}
    game_id = r.row.get(GAME_ID)
    mine = r.session_id == session_id
    if scoring is None:
        return Standing(place, mine, r.nickname, row, game_id=game_id)
    points = tuple(row["points"])
    return Standing(place, mine, r.nickname, row, scoring.of(points), scoring.percent(points),
                    game_id)


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of one section of a board (``page`` from 1), and this browser's row in it."""

    section: str
    page: int
    pages: int
    total: int
    rows: list[Standing]
    mine: Standing | None


class Matchpoints:
    """Duplicate scoring of a section from its groups (points per hand -> how many rows): on
    each hand a result scores 1 for every other result that took more points and ½ for every
    other that took as many; the percentage is of the most it could score, 1 per other result
    on every hand."""

    def __init__(self, groups: dict[str, int]) -> None:
        self.counts = {points_of(group): count for group, count in groups.items()}
        self.total = sum(self.counts.values())
        tallies = [[0] * (TOTAL_POINTS + 1) for _ in range(HEARTS_DAILY_HANDS)]
        for points, count in self.counts.items():
            for hand, taken in enumerate(points):
                tallies[hand][taken] += count
        # By hand and points taken: the matchpoints of such a result on that hand.
        self.scores = []
        for tally in tallies:
            more, scores = 0, [0.0] * (TOTAL_POINTS + 1)
            for taken in range(TOTAL_POINTS, -1, -1):
                scores[taken] = more + (tally[taken] - 1) / 2
                more += tally[taken]
            self.scores.append(scores)
        self.ordered = self._best_first()

    def of(self, points: tuple[int, ...]) -> tuple[float, ...]:
        """Each hand's matchpoints of a result with these points."""
        return tuple(self.scores[hand][taken] for hand, taken in enumerate(points))

    def percent(self, points: tuple[int, ...]) -> float | None:
        """None while the result has no other to be compared with."""
        if self.total < 2:
            return None
        return 100 * sum(self.of(points)) / (HEARTS_DAILY_HANDS * (self.total - 1))

    def _best_first(self) -> list[tuple[tuple[int, ...], int, int]]:
        """Each group as (points, rows, place of its rows), most matchpoints first (fewer
        points first among equals, which share their place). Written for speed: a board of
        100,000 results has thousands of groups, ordered at every change."""
        first, second, third, fourth = self.scores  # the daily's four hands
        scored = sorted(
            (-(first[a] + second[b] + third[c] + fourth[d]), a + b + c + d, (a, b, c, d))
            for a, b, c, d in self.counts
        )
        placed: list[tuple[tuple[int, ...], int, int]] = []
        ahead, last, place = 0, None, 1
        counts = self.counts
        for score, _, points in scored:
            if score != last:
                place, last = ahead + 1, score
            count = counts[points]
            placed.append((points, count, place))
            ahead += count
        return placed


@lru_cache(maxsize=1 << 16)
def points_of(group: str) -> tuple[int, ...]:
    return tuple(int(taken) for taken in group.split(","))


# The scoring of the sections read last, by store and by (board, section, rows): a section
# only grows, so its row count tells whether the scoring still holds.
_SCORINGS: WeakKeyDictionary[Any, OrderedDict[tuple[str, str, int], Matchpoints]] = (
    WeakKeyDictionary()
)
SCORINGS_KEPT = 8


async def scoring_of(store: GameStore, board: str, section: str) -> Matchpoints:
    """The matchpoints of a section, computed again only when rows came."""
    total = await store.results_count(board, section)
    kept = _SCORINGS.setdefault(store, OrderedDict())
    found = kept.get((board, section, total))
    if found is None:
        found = Matchpoints(await store.result_groups(board, section))
        # Under the rows it was computed from (a row may have come since the count).
        kept[board, section, found.total] = found
        while len(kept) > SCORINGS_KEPT:
            kept.popitem(last=False)
    else:
        kept.move_to_end((board, section, total))
    return found


def page_count(total: int) -> int:
    return max(1, -(-total // PAGE_SIZE))


async def board_page(
    store: GameStore, board: str, section: str, page: int, session_id: str, duplicate: bool
) -> BoardPage:
    """Page ``page`` (from 1) of a board's section; ``duplicate``: scored by matchpoints."""
    offset = (page - 1) * PAGE_SIZE
    # The place of a duplicate row comes from its matchpoints, not from the store's order.
    found = await store.result_of(board, session_id, place=not duplicate)
    if not duplicate:
        total = await store.results_count(board, section)
        shown = await store.results_page(board, section, offset, PAGE_SIZE)
        listed = [standing_of(r, offset + i + 1, session_id) for i, r in enumerate(shown)]
        mine = None
        if found is not None and found.section == section:
            mine = standing_of(found, found.place, session_id)
        return BoardPage(section, page, page_count(total), total, listed, mine)
    scoring = await scoring_of(store, board, section)
    ordered = scoring.ordered
    rows: list[Standing] = []
    start = 0  # the first row of the group in the section
    for points, count, place in ordered:
        end = start + count
        if end > offset and start < offset + PAGE_SIZE:
            skip = max(offset - start, 0)
            wanted = min(end, offset + PAGE_SIZE) - start - skip
            group = ",".join(map(str, points))
            shown = await store.group_page(board, section, group, skip, wanted)
            rows.extend(standing_of(r, place, session_id, scoring) for r in shown)
        start = end
        if start >= offset + PAGE_SIZE:
            break
    mine = None
    if found is not None and found.section == section:
        points = tuple(found.row["points"])
        place = next(p for pts, _, p in ordered if pts == points)
        mine = standing_of(found, place, session_id, scoring)
    return BoardPage(section, page, page_count(scoring.total), scoring.total, rows, mine)


async def rename(store: GameStore, board: str, session_id: str, nickname: str) -> None:
    await store.rename_results(board, session_id, nickname)
