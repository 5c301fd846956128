"""Heart to Heart patience: the deal, the heart, the stock and waste, taps, undo and the clock.

Pure rules (no I/O, no clock, no web), exactly as ``shared/spec/heart-to-heart.md`` says.
The solver lives in :mod:`app.rules.heart_to_heart_solver`.

Public API
==========
Cards and places
    ``RANK_NAMES`` — ``("A", "2", …, "10", "J", "Q", "K")``; a rank is an int 1..13 and its
    name is ``rank_name(rank) == RANK_NAMES[rank - 1]``.
    ``HEART_SIZE = 25``, ``ROW_SIZES``, ``ROW_OF``, ``COLUMN_OF`` (half-card columns),
    ``COVERED_BY[pos]`` (the positions covering ``pos``), ``COVER_MASKS``, ``UNDO_LIMIT = 100``;
    masks of heart positions are ints with bit ``pos`` set: ``free_mask_of(removed)``,
    ``positions_in(mask)``.
    A **target** (``Target``) is a heart position ``0..24``, ``"stock"`` or ``"waste"``.
    ``parse_target("heart:7" | "stock" | "waste") -> Target`` and ``target_text(target) -> str``
    raise :class:`TargetError` for anything else (``"heart:07"`` and ``"heart:25"`` included).

Deals
    ``deal_ranks(code) -> tuple[int, ...]`` the 52 ranks ``c[0..51]`` of a code;
    ``new_game(code: DealCode | str) -> HeartToHeartGame``. Bad codes raise
    :class:`~app.rules.deal_codes.DealCodeError`.

The game, :class:`HeartToHeartGame`
    ``tap(target) -> TapResult``; ``undo() -> TapResult`` (raises :class:`UndoError`);
    ``legal_moves()`` and ``play(move)`` (raises :class:`IllegalMoveError`) for search and
    replay, with :class:`Move` (``kind``, ``first``, ``second``, ``taps``), ``DRAW``,
    ``REDEAL`` and ``pair_move(a, b)``; ``placement_help() -> (outlined, dimmed)`` and
    ``placement_masks()``, the same as masks of positions and ``WASTE_BIT``;
    ``add_play_time(seconds)``;
    ``to_json() -> dict`` / ``HeartToHeartGame.from_json(dict)`` (raises :class:`StateError`);
    ``copy()``; ``==``. ``pair_log`` (every pair of the game with the number of moves made
    before it, or None for a game saved before the log was kept) and ``rewind(moves)`` (back to
    the position after the first ``moves`` moves, by undo or, beyond the undo history, by
    replaying the game from its deal). Read-only state: ``deal``, ``heart_ranks``,
    ``rank_at(pos)``, ``position_state(pos)`` (``"covered" | "free" | "removed"``),
    ``removed_mask``, ``free_mask``, ``stock_count``, ``waste_count``, ``waste_top``,
    ``stock_ranks``, ``waste_ranks``, ``selected``, ``score``, ``moves``, ``undo_depth``,
    ``status`` (``"playing" | "won" | "stalemate"``), ``is_won``, ``elapsed_seconds``,
    ``play_time``, ``clock_running``.

Rule decisions where the spec is silent
=======================================
- The deck before shuffling is the ranks A..K in order, four times over
  (``[1, 2, …, 13] * 4``); the deal of code number ``n`` is
  ``shuffled(deck, "HH1", n, sub)``. An ``N`` code uses ``sub = 0``; a ``W`` code uses the first
  ``sub = 0, 1, 2, …`` whose deal the solver finds winnable, so ``HH1-W-X`` and ``HH1-N-X``
  are the same deal whenever that deal is winnable. A long code (28 letters: the daily deal's,
  app/web/daily_codes.py) shuffles with ``secret_shuffled`` instead, so that its 25 face-up
  cards cannot be searched for among the codes to learn the stock's order.
- Tapping a covered card, an empty heart position or an empty waste changes nothing, not even
  the selection.
- Stock and waste are never both empty: they start with 27 cards and each can leave only
  with one of the 25 heart cards. So tapping the stock always draws or redeals.
- A draw or a redeal keeps a selected heart card selected and deselects a selected waste card
  (after a draw it is no longer on top; after a redeal the waste is empty).
- A same-rank error is reported only when a second free card (or the waste top) of another
  rank is tapped; that card becomes the selected one.
- Undo also clears the selection. It works in a stalemate; in a won game it raises. When the
  game runs out of undo (100 moves back) older moves are forgotten, not refused.
- Placement help: the stock is never outlined nor dimmed (drawing is always allowed and keeps
  a heart selection). With nothing selected, nothing is dimmed. A won game shows no help.
- The clock: the caller reports on-screen time with ``add_play_time(seconds)``. It counts only
  once the first move (draw, redeal or pair) has been made and only while the status is
  ``"playing"``: not in a stalemate (it runs again after undoing out of it), never once won.
  Undo does not take time back. Callers report the time that passed *before* applying the
  next tap, so no time before the first move or after the last one is counted.
- A won game is final: taps change nothing.
- A deal can be a stalemate from its first look, when the tip's rank has its three other
  cards in the heart (977 of the first 10,000 ``N`` codes); undo then has nothing to take
  back. ``W`` deals never are.

State JSON (``to_json``), compact and exact
===========================================
``{"v": 1, "deal": "HH1-N-AAAAAAM", "heart": <25 rank letters>, "removed": <25-bit int>,
"stock": <ranks in the order they will be turned>, "waste": <ranks bottom to top>,
"selected": null | "heart:7" | "waste", "moves": int, "history": [<move text>, … ≤ 100],
"clock": null (not started) | seconds as a float, "pairs": ["37:7+12", …]}``. Rank letters are
``A23456789TJQK`` (``T`` for 10); moves read ``"d"`` (draw), ``"r"`` (redeal), ``"7+12"``
(heart pair), ``"7+w"`` (pair with the waste top). Undo replays moves backwards, which is exact
for every move kind, so the history needs no snapshots and a full one stays under a kilobyte.

``pairs`` logs every pair made and not undone, each after the number of moves made before it
(at most 25 entries). Between two pairs only the stock is tapped, and a stock tap is a draw or
a redeal as the piles say, so the deal and this log rebuild the whole game however long it ran:
what ``rewind`` needs beyond the 100 moves of the undo history. A state saved before the log
was kept has no ``pairs`` (``pair_log`` None); its games keep none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, TypeAlias

from app.rules.cards import cards_in
from app.rules.deal_codes import (
    CODE_SPACE,
    LONG_CODE_SPACE,
    DealCode,
    DealCodeError,
    parse_deal_code,
    secret_shuffled,
    shuffled,
)

GAME = "HH1"
VARIANTS = "NW"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_LETTERS = "A23456789TJQK"
HEART_SIZE = 25
UNDO_LIMIT = 100
POINTS_PER_CARD = 10
DECK = tuple(range(1, 14)) * 4

# Half-card columns of each row, top to bottom (the table of the spec).
_ROW_COLUMNS = (
    (1, 3, 7, 9),
    (0, 2, 4, 6, 8, 10),
    (1, 3, 5, 7, 9),
    (2, 4, 6, 8),
    (3, 5, 7),
    (4, 6),
    (5,),
)
ROW_SIZES = tuple(len(columns) for columns in _ROW_COLUMNS)
ROW_OF = tuple(row for row, columns in enumerate(_ROW_COLUMNS) for _ in columns)
COLUMN_OF = tuple(column for columns in _ROW_COLUMNS for column in columns)
_PLACE = {(ROW_OF[p], COLUMN_OF[p]): p for p in range(HEART_SIZE)}
COVERED_BY = tuple(
    tuple(
        _PLACE[(ROW_OF[p] + 1, column)]
        for column in (COLUMN_OF[p] - 1, COLUMN_OF[p] + 1)
        if (ROW_OF[p] + 1, column) in _PLACE
    )
    for p in range(HEART_SIZE)
)
COVER_MASKS = tuple(sum(1 << q for q in covering) for covering in COVERED_BY)
ALL_REMOVED = (1 << HEART_SIZE) - 1
# The waste top's bit in a mask of targets (placement_masks), past the heart's positions.
WASTE_BIT = 1 << HEART_SIZE

Target: TypeAlias = int | Literal["stock", "waste"]
Status: TypeAlias = Literal["playing", "won", "stalemate"]
PositionState: TypeAlias = Literal["covered", "free", "removed"]

_TARGET_TEXT = re.compile(r"heart:(0|[1-9][0-9]?)")
_LOGGED_PAIR = re.compile(r"(0|[1-9][0-9]*):([0-9]+\+(?:[0-9]+|w))")
_RANK_OF_LETTER = {letter: rank for rank, letter in enumerate(RANK_LETTERS, start=1)}


class HeartToHeartError(ValueError):
    """Base of the errors this module raises."""


class TargetError(HeartToHeartError):
    """Text or a value that names no place of the table."""


class UndoError(HeartToHeartError):
    """Undo refused; ``reason`` is ``"nothing_to_undo"`` or ``"game_won"``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class IllegalMoveError(HeartToHeartError):
    """``play()`` was given a move the position does not allow."""


class StateError(HeartToHeartError):
    """``from_json()`` was given data that is not a consistent game state."""


def rank_name(rank: int) -> str:
    return RANK_NAMES[rank - 1]


def _check_target(target: object) -> Target:
    if target in ("stock", "waste"):
        return target
    if type(target) is int and 0 <= target < HEART_SIZE:
        return target
    raise TargetError(f"{target!r} is not a target; use a heart position 0-24, stock or waste.")


def parse_target(text: str) -> Target:
    """``"heart:7"`` → ``7``; ``"stock"`` and ``"waste"`` stand for themselves."""
    if text in ("stock", "waste"):
        return text  # type: ignore[return-value]
    found = _TARGET_TEXT.fullmatch(text) if isinstance(text, str) else None
    if found is None or int(found.group(1)) >= HEART_SIZE:
        raise TargetError(
            f"{text!r} is not a target; use heart:0 … heart:24, stock or waste."
        )
    return int(found.group(1))


def target_text(target: Target) -> str:
    target = _check_target(target)
    return target if isinstance(target, str) else f"heart:{target}"


@dataclass(frozen=True, slots=True)
class Move:
    """A move: a draw, a redeal or a pair.

    A pair holds a heart position first and then either a second, higher heart position or
    ``"waste"``. ``taps`` are the taps that make the move from a position with nothing
    selected; ``str(move)`` is its history text.
    """

    kind: Literal["draw", "redeal", "pair"]
    first: int | None = None
    second: int | Literal["waste"] | None = None

    @property
    def taps(self) -> tuple[Target, ...]:
        if self.kind == "pair":
            return (self.first, self.second)  # type: ignore[return-value]
        return ("stock",)

    def __str__(self) -> str:
        if self.kind == "pair":
            return f"{self.first}+{'w' if self.second == 'waste' else self.second}"
        return self.kind[0]

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move of a history text; :class:`StateError` if there is none."""
        move = _MOVE_BY_TEXT.get(text) if isinstance(text, str) else None
        if move is None:
            raise StateError(f"{text!r} is not a move")
        return move


DRAW = Move("draw")
REDEAL = Move("redeal")


def pair_move(a: int, b: int | Literal["waste"]) -> Move:
    """The pair of heart position ``a`` with heart position ``b`` or the waste top."""
    if b == "waste":
        if not 0 <= a < HEART_SIZE:
            raise IllegalMoveError(f"no heart position {a}")
        return Move("pair", a, "waste")
    low, high = min(a, b), max(a, b)
    if not 0 <= low < high < HEART_SIZE:
        raise IllegalMoveError(f"{a} and {b} are not two heart positions")
    return Move("pair", low, high)


_MOVE_BY_TEXT = {
    str(move): move
    for move in (
        DRAW,
        REDEAL,
        *(Move("pair", p, "waste") for p in range(HEART_SIZE)),
        *(Move("pair", p, q) for p in range(HEART_SIZE) for q in range(p + 1, HEART_SIZE)),
    )
}


@dataclass(frozen=True, slots=True)
class TapResult:
    """What one tap (or undo) did, so a page can redraw only what changed.

    ``kind``: ``"select" | "deselect" | "reselect" | "pair" | "draw" | "redeal" | "undo" |
    "nothing"``. ``hearts``: heart positions whose look changed (removed, freed, covered
    again, selected or deselected). ``stock_changed`` / ``waste_changed``: the pile's cards or
    the waste selection changed. ``same_rank_error``: a card of another rank was tapped as the
    second card (the "Must be same rank" case). Placement help may change anywhere after any
    change: ask :meth:`HeartToHeartGame.placement_help` again.
    """

    kind: str
    hearts: frozenset[int] = frozenset()
    stock_changed: bool = False
    waste_changed: bool = False
    same_rank_error: bool = False

    @property
    def changed(self) -> bool:
        return self.kind != "nothing"

    @property
    def is_move(self) -> bool:
        return self.kind in ("pair", "draw", "redeal")


NOTHING = TapResult("nothing")

# Free cards depend only on which positions are gone; the heart has 623 reachable patterns.
_free_cache: dict[int, int] = {}


def free_mask_of(removed: int) -> int:
    """The free heart positions, as a mask, when the positions of ``removed`` are gone."""
    free = _free_cache.get(removed)
    if free is None:
        free = 0
        for p in range(HEART_SIZE):
            if not removed >> p & 1 and COVER_MASKS[p] & ~removed == 0:
                free |= 1 << p
        _free_cache[removed] = free
    return free


# The closed patterns found so far; only those are kept, so at most the 623 there are.
_closed: set[int] = set()


def _is_closed(removed: int) -> bool:
    """Whether every gone position had its covering cards gone: what play can reach."""
    if removed in _closed:
        return True
    if all(COVER_MASKS[p] & ~removed == 0 for p in positions_in(removed)):
        _closed.add(removed)
        return True
    return False


# The heart positions of a mask, lowest first: the same bit walk as the cards of a card set.
positions_in = cards_in


def targets_in(mask: int) -> frozenset[Target]:
    """The targets of a mask of heart positions and WASTE_BIT."""
    targets: set[Target] = set(positions_in(mask & ALL_REMOVED))
    if mask & WASTE_BIT:
        targets.add("waste")
    return frozenset(targets)


@lru_cache(maxsize=4096)
def rank_masks(heart_ranks: tuple[int, ...]) -> dict[int, int]:
    """By rank, the heart positions dealt that rank (as a mask). Shared: read only."""
    masks: dict[int, int] = {}
    for pos, rank in enumerate(heart_ranks):
        masks[rank] = masks.get(rank, 0) | 1 << pos
    return masks


def _code_of(code: DealCode | str) -> DealCode:
    if isinstance(code, str):
        return parse_deal_code(code, GAME, VARIANTS, long_ok=True)
    if code.game != GAME or code.variant not in VARIANTS:
        raise DealCodeError("game", f"{code.game}-{code.variant} is not a Heart to Heart deal.")
    if not 0 <= code.number < (LONG_CODE_SPACE if code.long else CODE_SPACE):
        raise DealCodeError("number", f"{code.number} is not a deal number.")
    return code


def deal_ranks(code: DealCode | str) -> tuple[int, ...]:
    """The 52 ranks ``c[0..51]`` that ``code`` deals (heart, stock top first, waste)."""
    code = _code_of(code)
    return _deal(code.variant, code.number, code.long)


@lru_cache(maxsize=512)
def _deal(variant: str, number: int, long: bool) -> tuple[int, ...]:
    shuffle = secret_shuffled if long else shuffled
    if variant == "N":
        return tuple(shuffle(DECK, GAME, number, 0))
    # Imported here: the solver builds on this module's geometry.
    from app.rules.heart_to_heart_solver import layout_is_winnable

    # About a quarter of shuffles are winnable, so a few sub-seeds are enough.
    sub = 0
    while True:
        cards = tuple(shuffle(DECK, GAME, number, sub))
        if layout_is_winnable(cards[:HEART_SIZE], 0, cards[HEART_SIZE:]):
            return cards
        sub += 1


def new_game(code: DealCode | str) -> HeartToHeartGame:
    """A fresh game of ``code`` (a :class:`DealCode` or its text, any letter case)."""
    code = _code_of(code)
    return HeartToHeartGame._deal_from(str(code), _deal(code.variant, code.number, code.long))


class HeartToHeartGame:
    """One game. Mutable; ``copy()`` is cheap. See the module docstring for the API."""

    __slots__ = (
        "_clock",
        "_history",
        "_moves",
        "_pairs",
        "_removed",
        "_selected",
        "_status",
        "_stock",
        "_waste",
        "assisted",
        "deal",
        "heart_ranks",
    )

    deal: str
    heart_ranks: tuple[int, ...]
    _removed: int
    _stock: list[int]  # top of the stock last
    _waste: list[int]  # top of the waste last
    _selected: Target | None
    _moves: int
    _history: list[str]  # texts of the moves undo can take back, oldest first
    _clock: float | None  # None until the first move
    _pairs: list[str] | None  # "moves before it:pair" of every pair made (module docstring)
    # ``status`` once worked out (None: not yet); every change of the piles or the heart clears
    # it, as a tap asks for it several times (the rules, the clock, the answer).
    _status: Status | None
    assisted: bool  # an undo (or other help) was used in this game

    @classmethod
    def _deal_from(cls, deal: str, cards: tuple[int, ...]) -> HeartToHeartGame:
        game = cls.__new__(cls)
        game.deal = deal
        game.heart_ranks = cards[:HEART_SIZE]
        game._removed = 0
        game._stock = list(reversed(cards[HEART_SIZE:-1]))
        game._waste = [cards[-1]]
        game._selected = None
        game._moves = 0
        game._history = []
        game._clock = None
        game._pairs = []
        game.assisted = False
        game._status = None
        return game

    def copy(self) -> HeartToHeartGame:
        other = HeartToHeartGame.__new__(HeartToHeartGame)
        other.deal = self.deal
        other.heart_ranks = self.heart_ranks
        other._removed = self._removed
        other._stock = self._stock.copy()
        other._waste = self._waste.copy()
        other._selected = self._selected
        other._moves = self._moves
        other._history = self._history.copy()
        other._clock = self._clock
        other._pairs = None if self._pairs is None else self._pairs.copy()
        other.assisted = self.assisted
        other._status = self._status
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HeartToHeartGame):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def _key(self) -> tuple:
        return (
            self.deal,
            self.heart_ranks,
            self._removed,
            self._stock,
            self._waste,
            self._selected,
            self._moves,
            self._history,
            self._clock,
            self._pairs,
            self.assisted,
        )

    def __repr__(self) -> str:
        return f"<HeartToHeartGame {self.deal} moves={self._moves} {self.status}>"

    # --- reading the position -------------------------------------------------------------

    @property
    def removed_mask(self) -> int:
        return self._removed

    @property
    def free_mask(self) -> int:
        return free_mask_of(self._removed)

    def rank_at(self, pos: int) -> int:
        """The rank dealt at heart position ``pos`` (also once it is removed)."""
        return self.heart_ranks[pos]

    def position_state(self, pos: int) -> PositionState:
        if self._removed >> pos & 1:
            return "removed"
        return "free" if self.free_mask >> pos & 1 else "covered"

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    @property
    def waste_count(self) -> int:
        return len(self._waste)

    @property
    def waste_top(self) -> int | None:
        return self._waste[-1] if self._waste else None

    @property
    def stock_ranks(self) -> tuple[int, ...]:
        """The stock, in the order its cards will be turned."""
        return tuple(reversed(self._stock))

    @property
    def waste_ranks(self) -> tuple[int, ...]:
        """The waste, bottom to top."""
        return tuple(self._waste)

    @property
    def selected(self) -> Target | None:
        return self._selected

    @property
    def score(self) -> int:
        return POINTS_PER_CARD * self._removed.bit_count()

    @property
    def moves(self) -> int:
        return self._moves

    @property
    def undo_depth(self) -> int:
        return len(self._history)

    @property
    def is_won(self) -> bool:
        return self._removed == ALL_REMOVED

    @property
    def status(self) -> Status:
        """``"won"``, ``"stalemate"`` (no free heart card has a partner among the other free
        heart cards or anywhere in stock and waste: no pair can ever be made again) or
        ``"playing"``."""
        if self._status is None:
            self._status = self._work_out_status()
        return self._status

    def _work_out_status(self) -> Status:
        if self._removed == ALL_REMOVED:
            return "won"
        seen = set(self._stock)
        seen.update(self._waste)
        for p in positions_in(self.free_mask):
            rank = self.heart_ranks[p]
            if rank in seen:
                return "playing"
            seen.add(rank)
        return "stalemate"

    @property
    def play_time(self) -> float:
        """Seconds of play counted so far (see ``add_play_time``)."""
        return self._clock or 0.0

    @property
    def elapsed_seconds(self) -> int:
        return int(self.play_time)

    @property
    def clock_running(self) -> bool:
        """Whether reported time is counted now: a first move was made and play goes on."""
        return self._clock is not None and self.status == "playing"

    def add_play_time(self, seconds: float) -> None:
        """Count ``seconds`` of on-screen time, if the clock runs (see the module docstring)."""
        if not isinstance(seconds, int | float) or not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"play time must be a finite number of seconds >= 0, not {seconds!r}")
        if self._clock is not None and self.status == "playing":  # the clock runs
            self._clock += seconds

    def _rank_of(self, target: Target) -> int:
        return self._waste[-1] if target == "waste" else self.heart_ranks[target]  # type: ignore[index]

    def _playable(self, target: Target) -> bool:
        if target == "waste":
            return bool(self._waste)
        return bool(self.free_mask >> target & 1)  # type: ignore[operator]

    # --- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> Iterator[Move]:
        """Every move allowed now: pairs (heart pairs low position first), then the draw or
        the redeal. None once the game is won."""
        if self.is_won:
            return
        free = positions_in(self.free_mask)
        top = self.waste_top
        for i, p in enumerate(free):
            rank = self.heart_ranks[p]
            for q in free[i + 1 :]:
                if self.heart_ranks[q] == rank:
                    yield Move("pair", p, q)
            if rank == top:
                yield Move("pair", p, "waste")
        yield DRAW if self._stock else REDEAL

    def play(self, move: Move) -> TapResult:
        """Make ``move`` as its taps would (a pair clears the selection; a draw or redeal
        deselects only the waste). Raises :class:`IllegalMoveError` if it is not allowed."""
        if self.is_won:
            raise IllegalMoveError("the game is won")
        if move.kind == "pair":
            if type(move.first) is not int or move.second == "stock":
                raise IllegalMoveError(f"{move} is not a pair of a heart card and another card")
            try:
                move = pair_move(move.first, _check_target(move.second))  # type: ignore[arg-type]
            except TargetError as error:
                raise IllegalMoveError(str(error)) from error
            a, b = move.first, move.second  # pair_move sets both
            if not (
                self._playable(a)  # type: ignore[arg-type]
                and self._playable(b)  # type: ignore[arg-type]
                and self._rank_of(a) == self._rank_of(b)  # type: ignore[arg-type]
            ):
                raise IllegalMoveError(f"{move} is not a pair of free cards of one rank")
        elif move.kind == "draw":
            if not self._stock:
                raise IllegalMoveError("the stock is empty")
        elif move.kind == "redeal":
            if self._stock:
                raise IllegalMoveError("a redeal needs an empty stock")
        else:
            raise IllegalMoveError(f"{move.kind!r} is not a kind of move")
        return self._make(move)

    def _make(self, move: Move) -> TapResult:
        """Apply a legal move, count it and remember it for undo."""
        before = self._selected
        self._status = None
        if move.kind == "pair":
            free_before = self.free_mask
            gone = 1 << move.first  # type: ignore[operator]
            if move.second == "waste":
                self._waste.pop()
            else:
                gone |= 1 << move.second  # type: ignore[operator]
            self._removed |= gone
            self._selected = None
            hearts = gone | (free_before ^ self.free_mask)
        else:
            if move.kind == "draw":
                self._waste.append(self._stock.pop())
            else:
                self._stock = self._waste[::-1]
                self._waste = []
            if before == "waste":
                self._selected = None
            hearts = 0
        if isinstance(before, int) and self._selected is None:
            hearts |= 1 << before
        if move.kind == "pair" and self._pairs is not None:
            self._pairs.append(f"{self._moves}:{move}")
        self._moves += 1
        if self._clock is None:
            self._clock = 0.0
        self._history.append(str(move))
        if len(self._history) > UNDO_LIMIT:
            del self._history[0]
        return TapResult(
            move.kind,
            frozenset(positions_in(hearts)),
            stock_changed=move.kind != "pair",
            waste_changed=move.kind != "pair" or move.second == "waste" or before == "waste",
        )

    def tap(self, target: Target) -> TapResult:
        """Tap a heart position, the stock or the waste, with the spec's selection rules.

        Raises :class:`TargetError` for a value that is not a target; any real target is
        accepted and a tap that means nothing returns a result of kind ``"nothing"``.
        """
        target = _check_target(target)
        if self.is_won:
            return NOTHING
        if target == "stock":
            return self._make(DRAW if self._stock else REDEAL)
        if not self._playable(target):
            return NOTHING
        before = self._selected
        if before is None:
            self._selected = target
            return self._selection_result("select", target)
        if before == target:
            self._selected = None
            return self._selection_result("deselect", target)
        if self._rank_of(before) != self._rank_of(target):
            self._selected = target
            return self._selection_result("reselect", before, target, error=True)
        if before == "waste":
            return self._make(pair_move(target, "waste"))  # type: ignore[arg-type]
        return self._make(pair_move(before, target))  # type: ignore[arg-type]

    @staticmethod
    def _selection_result(kind: str, *targets: Target, error: bool = False) -> TapResult:
        return TapResult(
            kind,
            frozenset(t for t in targets if isinstance(t, int)),
            waste_changed="waste" in targets,
            same_rank_error=error,
        )

    def undo(self) -> TapResult:
        """Take back the latest move (draws and redeals included) and clear the selection.

        Raises :class:`UndoError` when the game is won or no move is left to take back.
        """
        if self.is_won:
            raise UndoError("game_won", "A won game is final.")
        if not self._history:
            raise UndoError("nothing_to_undo", "There is no move to undo.")
        move = _MOVE_BY_TEXT[self._history.pop()]
        self._status = None
        hearts = 1 << self._selected if isinstance(self._selected, int) else 0
        if move.kind == "pair":
            free_before = self.free_mask
            back = 1 << move.first  # type: ignore[operator]
            if move.second == "waste":
                self._waste.append(self.heart_ranks[move.first])  # type: ignore[index]
            else:
                back |= 1 << move.second  # type: ignore[operator]
            self._removed &= ~back
            hearts |= back | (free_before ^ self.free_mask)
            if self._pairs:
                self._pairs.pop()
        elif move.kind == "draw":
            self._stock.append(self._waste.pop())
        else:
            self._waste = self._stock[::-1]
            self._stock = []
        waste_changed = move.kind != "pair" or move.second == "waste" or self._selected == "waste"
        self._selected = None
        self._moves -= 1
        self.assisted = True
        return TapResult(
            "undo",
            frozenset(positions_in(hearts)),
            stock_changed=move.kind != "pair",
            waste_changed=waste_changed,
        )

    # --- the whole game: the log of pairs, rewind ------------------------------------------

    @property
    def pair_log(self) -> tuple[tuple[int, Move], ...] | None:
        """Every pair made (and not undone), oldest first, each with the number of moves made
        before it; None for a game saved before the log was kept."""
        if self._pairs is None:
            return None
        log = []
        for entry in self._pairs:
            found = _LOGGED_PAIR.fullmatch(entry)
            move = None if found is None else _MOVE_BY_TEXT.get(found.group(2))
            if move is None or move.kind != "pair":
                raise StateError(f"{entry!r} is not a logged pair")
            log.append((int(found.group(1)), move))  # type: ignore[union-attr]
        return tuple(log)

    def _replayed(self, moves: int) -> HeartToHeartGame:
        """The game after its first ``moves`` moves, played again from the deal by the log of
        pairs (the clock, the selection and ``assisted`` are not part of it)."""
        log = self.pair_log
        if log is None:
            raise StateError("this game was saved before its pairs were logged")
        game = new_game(self.deal)
        for before, move in log:
            if before >= moves:
                break
            game._turn_stock(before - game._moves)
            game.play(move)
        game._turn_stock(moves - game._moves)
        return game

    def _turn_stock(self, taps: int) -> None:
        """Tap the stock ``taps`` times (no pair in between). With n cards in stock and waste,
        n + 1 taps bring both back as they were (n draws and a redeal), so whole rounds are
        skipped, keeping enough taps to fill the undo history as playing them would."""
        if taps < 0:
            raise StateError("the logged pairs are not in the order of the game")
        cycle = len(self._stock) + len(self._waste) + 1
        rounds = max(taps - UNDO_LIMIT, 0) // cycle
        self._moves += rounds * cycle
        for _ in range(taps - rounds * cycle):
            self._make(DRAW if self._stock else REDEAL)

    def _check_pairs(self) -> None:
        """A logged game must replay from its deal to exactly this position and history."""
        if self._pairs is None:
            return
        try:
            again = self._replayed(self._moves)
        except (IllegalMoveError, DealCodeError) as error:
            raise StateError(f"the logged pairs do not replay: {error}") from error
        history = again._history[len(again._history) - len(self._history):]
        if (
            again.heart_ranks != self.heart_ranks
            or (again._removed, again._stock, again._waste) != (self._removed, self._stock,
                                                                  self._waste)
            or history != self._history
            or again._pairs != self._pairs
        ):
            raise StateError("the logged pairs do not lead to this position")

    def rewind(self, moves: int) -> TapResult:
        """Go back to the position after the first ``moves`` moves of the game: by undo when
        the undo history reaches it, else by playing the game again from its deal (its log of
        pairs). Like undo: the selection is cleared, the clock keeps its time and the game
        counts as assisted. Raises :class:`UndoError` as undo does, and when a game without a
        log would have to go beyond its undo history."""
        if self.is_won:
            raise UndoError("game_won", "A won game is final.")
        if not 0 <= moves < self._moves:
            raise UndoError("nothing_to_undo", "There is no such move to go back to.")
        if self._moves - moves <= len(self._history):
            while self._moves > moves:
                self.undo()
        else:
            if self._pairs is None:
                raise UndoError("nothing_to_undo", "This game does not remember that far back.")
            again = self._replayed(moves)
            self._removed, self._stock, self._waste = again._removed, again._stock, again._waste
            self._status = None
            self._moves, self._history, self._pairs = again._moves, again._history, again._pairs
            self._selected = None
            self.assisted = True
        return TapResult(
            "undo", frozenset(range(HEART_SIZE)), stock_changed=True, waste_changed=True
        )

    # --- placement help -------------------------------------------------------------------

    def placement_help(self) -> tuple[frozenset[Target], frozenset[Target]]:
        """``(outlined, dimmed)`` as the spec's placement help shows them now.

        Outlined: each free heart card whose rank is on another free heart card or on the
        waste top, and that waste top. Dimmed (only while a card is selected): every heart
        card still in place and the waste top, except the selected card and the free heart
        cards / waste top of its rank.
        """
        outlined, dimmed = self.placement_masks()
        return targets_in(outlined), targets_in(dimmed)

    def placement_masks(self) -> tuple[int, int]:
        """``placement_help`` as two masks: a bit per heart position, WASTE_BIT for the waste
        top (what a page draws on every tap)."""
        if self._removed == ALL_REMOVED:
            return 0, 0
        free = self.free_mask
        top = self._waste[-1] if self._waste else None
        of_rank = rank_masks(self.heart_ranks)
        outlined = 0
        for rank, places in of_rank.items():
            free_places = places & free
            if free_places and (free_places & (free_places - 1) or rank == top):
                outlined |= free_places  # two or more of the rank, or one and the waste top
        if top is not None and of_rank.get(top, 0) & free:
            outlined |= WASTE_BIT
        dimmed = 0
        selected = self._selected
        if selected is not None:
            rank = self._rank_of(selected)
            in_place = ALL_REMOVED & ~self._removed
            spared = of_rank.get(rank, 0) & free
            if selected != "waste":
                spared |= 1 << selected  # type: ignore[operator]
            dimmed = in_place & ~spared
            if top is not None and selected != "waste" and top != rank:
                dimmed |= WASTE_BIT
        return outlined, dimmed

    # --- JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The whole state as plain JSON data; ``from_json`` restores it exactly."""
        return {
            "v": 1,
            "deal": self.deal,
            "heart": _letters(self.heart_ranks),
            "removed": self._removed,
            "stock": _letters(reversed(self._stock)),
            "waste": _letters(self._waste),
            "selected": None if self._selected is None else target_text(self._selected),
            "moves": self._moves,
            "history": self._history.copy(),
            "clock": self._clock,
            # Written only when set, so an unaided game saves as it always did.
            **({"assisted": True} if self.assisted else {}),
            **({"pairs": self._pairs.copy()} if self._pairs is not None else {}),
        }

    @classmethod
    def from_json(cls, data: object, *, trusted: bool = False) -> HeartToHeartGame:
        """Rebuild a game from ``to_json()`` data. Raises :class:`StateError` for data that is
        malformed or not a position the game can reach.

        ``trusted=True`` is for data this app's own ``to_json()`` wrote (its game store): it
        still checks the shape, every value and the position itself (the cards add up, the
        heart is reachable, the selection and clock fit), but does not replay the undo history
        backwards to prove each remembered move could have been made. That replay is most of
        a load's cost and a page loads the game on every tap, while a history that
        ``to_json()`` wrote is one that play made. Anything from elsewhere (an import, a
        client, a test of bad data) keeps the default full check.
        """
        try:
            return cls._from_json(data, trusted)
        except (KeyError, TypeError, AttributeError, DealCodeError, TargetError) as error:
            raise StateError(f"not a Heart to Heart state: {error}") from error

    @classmethod
    def _from_json(cls, data: Any, trusted: bool) -> HeartToHeartGame:
        if set(data) - _OPTIONAL_KEYS != _JSON_KEYS or data["v"] != 1:
            raise StateError("not a Heart to Heart state of version 1")
        game = cls.__new__(cls)
        game.deal = str(_code_of(data["deal"]))
        game.heart_ranks = _ranks(data["heart"])
        game._stock = list(reversed(_ranks(data["stock"])))
        game._waste = list(_ranks(data["waste"]))
        removed, moves, clock = data["removed"], data["moves"], data["clock"]
        if type(removed) is not int or not 0 <= removed <= ALL_REMOVED:
            raise StateError("removed must be a 25-bit mask")
        if type(moves) is not int or moves < 0:
            raise StateError("moves must be a count")
        if clock is not None and (
            type(clock) not in (int, float) or not math.isfinite(clock) or clock < 0
        ):
            raise StateError("clock must be null or seconds")
        if not isinstance(data["history"], list) or len(data["history"]) > min(moves, UNDO_LIMIT):
            raise StateError("history must list at most the last 100 moves")
        game._removed = removed
        game._status = None
        game._moves = moves
        game._clock = None if clock is None else float(clock)
        game._history = _history_of(data["history"])
        game.assisted = data.get("assisted", False)
        if type(game.assisted) is not bool:
            raise StateError("assisted must be true or false")
        pairs = data.get("pairs")
        if pairs is not None and not (
            isinstance(pairs, list) and len(pairs) <= HEART_SIZE
            and set(map(type, pairs)) <= {str}
        ):
            raise StateError("pairs must list at most 25 logged pairs")
        game._pairs = None if pairs is None else list(pairs)
        selected = data["selected"]
        game._selected = None if selected is None else parse_target(selected)
        game._check_consistent()
        if not trusted:
            game._check_history()
            game._check_pairs()
        return game

    def _check_consistent(self) -> None:
        if len(self.heart_ranks) != HEART_SIZE:
            raise StateError("the heart holds 25 cards")
        if not _is_closed(self._removed):
            raise StateError("a heart card is gone while a card still covers it")
        gone = [0] * 14
        for p in positions_in(self._removed):
            gone[self.heart_ranks[p]] += 1
        # Ranks are 1..13, so bytes hold them and count them in C (every load runs this).
        heart, piles = bytes(self.heart_ranks), bytes(self._stock) + bytes(self._waste)
        for rank in range(1, 14):
            # The waste cards that left the game, each with a heart card of their rank.
            paired_from_piles = 4 - heart.count(rank) - piles.count(rank)
            if not 0 <= paired_from_piles <= gone[rank] or (gone[rank] - paired_from_piles) % 2:
                raise StateError(f"the cards of rank {rank_name(rank)} do not add up")
        if self._selected is not None and not self._playable(self._selected):
            raise StateError("the selected card cannot be played")
        if self._moves and self._clock is None:
            raise StateError("the clock starts with the first move")
        if self.is_won and self._selected is not None:
            raise StateError("a won game has no selection")

    def _check_history(self) -> None:
        """Undo every remembered move on scratch copies, checking each one could have been
        made: undo must never produce an impossible position."""
        removed, stock, waste = self._removed, len(self._stock), len(self._waste)
        for move in map(_MOVE_BY_TEXT.__getitem__, reversed(self._history)):
            if move.kind == "draw":
                if not waste:
                    raise StateError("a draw is remembered but the waste is empty")
                stock, waste = stock + 1, waste - 1
            elif move.kind == "redeal":
                if waste or not stock:
                    raise StateError("a redeal is remembered but the piles do not show one")
                stock, waste = 0, stock
            else:
                back = 1 << move.first  # type: ignore[operator]
                if move.second == "waste":
                    waste += 1
                else:
                    back |= 1 << move.second  # type: ignore[operator]
                    if self.heart_ranks[move.first] != self.heart_ranks[move.second]:  # type: ignore[index]
                        raise StateError(f"pair {move} is of two ranks")
                if back & ~removed:
                    raise StateError(f"pair {move} is remembered but its cards are in place")
                removed &= ~back
                if not _is_closed(removed) or free_mask_of(removed) & back != back:
                    raise StateError(f"pair {move} is remembered but its cards were covered")


_MOVE_TEXTS = frozenset(_MOVE_BY_TEXT)


def _history_of(texts: list) -> list[str]:
    """The history list of saved move texts; :class:`StateError` if one is no move."""
    # One set test in C checks them all (a page loads up to 100 on every tap).
    if _MOVE_TEXTS.issuperset(texts) and set(map(type, texts)) <= {str}:
        return list(texts)
    return [str(Move.parse(text)) for text in texts]


_JSON_KEYS = {"v", "deal", "heart", "removed", "stock", "waste", "selected", "moves", "history",
              "clock"}
_OPTIONAL_KEYS = {"assisted", "pairs"}


# Rank ints 1..13 <-> rank letters, through bytes.translate (to_json runs on every request).
_TO_LETTERS = bytes.maketrans(bytes(range(1, 14)), RANK_LETTERS.encode())
_FROM_LETTERS = bytes(_RANK_OF_LETTER.get(chr(byte), 0) for byte in range(256))


def _letters(ranks) -> str:
    return bytes(ranks).translate(_TO_LETTERS).decode()


def _ranks(text: str) -> tuple[int, ...]:
    if not isinstance(text, str) or not text.isascii():
        raise StateError("ranks are written as a string of rank letters")
    ranks = text.encode().translate(_FROM_LETTERS)
    if 0 in ranks:
        raise StateError(f"{text!r} holds something that is not a rank letter")
    return tuple(ranks)
