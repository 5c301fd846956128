"""Tables as the page and the API share them: who sits where, starting, a seat's actions and
the bots' answer, the turn limit, all stored by compare-and-set on the table's version.

A table's stored state holds the sessions of its seats and the whole match; nothing here
leaves the server as is: :mod:`app.web.hearts.tables.views` makes each seat's view.

Who acts: a seat belongs to the session that took it. Bots play the seats nobody took and the
seats of players who are away; they answer in the request that made the change (and in the
table clock, app/web/hearts/tables/clock.py, when a turn runs past its limit), never in an
event stream. Any process may apply a change: the compare-and-set makes sure only one of two
at once does, and the other retries on the table as it then is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import CardError
from app.rules.hearts import NUM_SEATS, HeartsError, HeartsMatch, PlayedCard
from app.store import GameStore, StoredTable
from app.web.games import GameNotFound
from app.web.hearts.service import moon_of, random_code
from app.web.hearts.thinking import THINKING
from app.web.profile import record_hearts_match

NOT_FOUND = "This table does not exist, or it has expired."
LEVEL_LETTERS = {"easy": "E", "normal": "N", "hard": "H"}
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 15, 120
# A player whose turn ran out this many times in a row is away: a bot plays for them.
MISSES_BEFORE_AWAY = 2
LOG_LENGTH = 16  # recent changes kept, so a page a few versions behind can replay the cards
REACTIONS = ("thumbs_up", "laugh", "wow", "sad", "clap")
CAS_ATTEMPTS = 8


class TableRefused(Exception):
    """The table refuses the request. ``status`` is 403 (not this browser's seat) or 409;
    ``reason`` a stable key; ``table`` the table as it is now, unchanged."""

    def __init__(self, status: int, reason: str, table: Table) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.table = table


class RulesRefused(TableRefused):
    """The rules refused the action (409); ``error`` says why."""

    def __init__(self, error: HeartsError | CardError, table: Table) -> None:
        super().__init__(409, getattr(error, "reason", "not_a_card"), table)
        self.error = error


@dataclass(slots=True)
class Seat:
    session: str | None = None
    name: str | None = None
    away: bool = False
    misses: int = 0
    autoplayed: bool = False  # the seat's last card or pass was chosen by the turn limit

    @property
    def human(self) -> bool:
        return self.session is not None

    @property
    def bot_plays(self) -> bool:
        return self.session is None or self.away


@dataclass(slots=True)
class Table:
    """A table as stored, loaded: ``version`` is the store's."""

    table_id: str
    version: int
    bot_level: str
    turn_seconds: int | None
    seats: list[Seat]
    match: HeartsMatch | None = None
    changed_at: float = 0.0  # when the table last changed: the turn limit counts from here
    log: list[list[Any]] = field(default_factory=list)  # [version, hand, [[seat, card], ...]]
    reactions: list[list[Any]] = field(default_factory=list)  # [version, seat, reaction]

    CREATOR = 0  # the creator sits South

    @classmethod
    def load(cls, stored: StoredTable) -> Table:
        state = stored.state
        match = state.get("match")
        return cls(
            stored.table_id,
            stored.version,
            state["bot_level"],
            state["turn_seconds"],
            [Seat(**seat) for seat in state["seats"]],
            None if match is None else HeartsMatch.from_json(match),
            state["changed_at"],
            state["log"],
            state["reactions"],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "bot_level": self.bot_level,
            "turn_seconds": self.turn_seconds,
            "seats": [
                {"session": s.session, "name": s.name, "away": s.away, "misses": s.misses,
                 "autoplayed": s.autoplayed}
                for s in self.seats
            ],
            "match": None if self.match is None else self.match.to_json(),
            "changed_at": self.changed_at,
            "log": self.log,
            "reactions": self.reactions,
        }

    def seat_of(self, session_id: str) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.session == session_id:
                return number
        return None

    @property
    def humans(self) -> int:
        return sum(seat.human for seat in self.seats)

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset(n for n, seat in enumerate(self.seats) if seat.bot_plays)

    def deadline(self) -> float | None:
        """When the present wait for a player runs out (None: no limit, or nobody awaited)."""
        match = self.match
        if match is None or self.turn_seconds is None or not self.waiting_for():
            return None
        return self.changed_at + self.turn_seconds

    def waiting_for(self) -> list[int]:
        """The seats of players the match waits for now."""
        match = self.match
        if match is None:
            return []
        bots = self.bot_seats
        if match.phase == "passing":
            return [s for s in range(NUM_SEATS) if s not in bots and not match.view(s).pass_chosen]
        if match.phase == "playing" and match.turn is not None and match.turn not in bots:
            return [match.turn]
        if match.phase == "hand_over":
            return [s for s in range(NUM_SEATS) if s not in bots]
        return []


# -- loading and saving -----------------------------------------------------------------------


async def load(store: GameStore, table_id: str) -> Table:
    stored = await store.get_table(table_id) if len(table_id) < 64 else None
    if stored is None:
        raise GameNotFound(NOT_FOUND)
    try:
        return Table.load(stored)
    except (KeyError, TypeError, HeartsError) as error:  # a state this version cannot read
        raise GameNotFound(NOT_FOUND) from error


Change = Callable[[Table], list[PlayedCard]]


async def change(
    store: GameStore,
    table_id: str,
    version: int | None,
    apply: Change,
    now: Callable[[], float],
    *,
    slow: bool = False,
) -> Table:
    """Apply ``apply`` to the table (held at ``version``; None: whatever is current) and
    store it by compare-and-set, retrying on the table as it then is when another change got
    in first and no version was given. ``apply`` raises TableRefused to refuse; ``slow``
    runs it in the bots' threads (app/web/hearts/thinking.py: they may search). This process
    applies one change of a table at a time, so its own requests do not race each other."""
    async with THINKING.turn_of(f"table:{table_id}"):
        for _ in range(CAS_ATTEMPTS):
            table = await load(store, table_id)
            if version is not None and version != table.version:
                raise TableRefused(409, "stale_version", table)
            was_over = table.match is not None and table.match.phase == "match_over"
            try:
                plays = await THINKING.run(apply, table) if slow else apply(table)
            except (HeartsError, CardError) as error:
                raise RulesRefused(error, await load(store, table_id)) from error
            except TableRefused as refused:
                refused.table = await load(store, table_id)
                raise
            table.changed_at = now()
            hand = 0 if table.match is None else table.match.hand_number
            table.log = [
                *table.log[-(LOG_LENGTH - 1) :],
                [table.version + 1, hand, [[p.seat, p.card] for p in plays]],
            ]
            saved = await store.table_compare_and_set(table_id, table.version, table.to_json())
            if saved is None:
                if version is not None:
                    raise TableRefused(409, "stale_version", await load(store, table_id))
                continue
            table.version = saved.version
            if table.match is not None and table.match.phase == "match_over" and not was_over:
                await record(store, table)
            return table
        raise TableRefused(409, "busy", await load(store, table_id))


async def record(store: GameStore, table: Table) -> None:
    """Each player's statistics count the match."""
    assert table.match is not None
    scores = table.match.view(0).hand_scores
    winner = table.match.view(0).winner
    for number, seat in enumerate(table.seats):
        if seat.session is not None:
            await record_hearts_match(
                store, seat.session, won=winner == number,
                hand_points=[hand[number] for hand in scores],
                moons=sum(moon_of(hand) == number for hand in scores),
            )


# -- what tables do ---------------------------------------------------------------------------


async def create(
    store: GameStore, session_id: str, name: str | None, bot_level: str, turn_seconds: int | None,
    now: float,
) -> Table:
    seats = [Seat(session_id, name), Seat(), Seat(), Seat()]
    table = Table("", 0, bot_level, turn_seconds, seats, changed_at=now)
    stored = await store.create_table(table.to_json())
    return Table.load(stored)


def settings_valid(bot_level: str, turn_seconds: int | None) -> bool:
    return bot_level in LEVEL_LETTERS and (
        turn_seconds is None or TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX
    )


def sit(session_id: str, name: str, wanted: int | None) -> Change:
    def apply(table: Table) -> list[PlayedCard]:
        mine = table.seat_of(session_id)
        if mine is not None:
            if wanted is not None and wanted != mine:
                raise TableRefused(409, "already_seated", table)
            table.seats[mine].name = name
            return []
        if table.match is not None:
            raise TableRefused(409, "started", table)
        free = [n for n, seat in enumerate(table.seats) if not seat.human]
        if not free:
            raise TableRefused(409, "full", table)
        seat = free[0] if wanted is None else wanted
        if seat not in free:
            raise TableRefused(409, "taken", table)
        table.seats[seat] = Seat(session_id, name)
        return []

    return apply


def start(session_id: str, bot_level: str | None, turn_seconds: int | bool | None) -> Change:
    """``turn_seconds``: False keeps the table's setting."""

    def apply(table: Table) -> list[PlayedCard]:
        if table.seat_of(session_id) != Table.CREATOR:
            raise TableRefused(403, "not_creator", table)
        if table.match is not None:
            raise TableRefused(409, "started", table)
        if bot_level is not None:
            table.bot_level = bot_level
        if turn_seconds is not False:
            table.turn_seconds = turn_seconds if isinstance(turn_seconds, int) else None
        table.match = HeartsMatch.new(random_code(LEVEL_LETTERS[table.bot_level]))
        return bots_answer(table)

    return apply


def seat_action(session_id: str, action: Callable[[HeartsMatch, int], None]) -> Change:
    """One of the caller's seat's moves (pass, play, next hand), then the bots' answer."""

    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        if table.match is None:
            raise TableRefused(409, "not_started", table)
        me = table.seats[seat]
        me.misses, me.autoplayed, me.away = 0, False, False
        before = len(played_this_hand(table.match))
        hand = table.match.hand_number
        action(table.match, seat)
        mine = []
        if table.match.hand_number == hand:
            mine = played_this_hand(table.match)[before:]
        return [*mine, *bots_answer(table)]

    return apply


def played_this_hand(match: HeartsMatch) -> list[PlayedCard]:
    view = match.view(0)
    return [p for trick in view.tricks for p in trick.cards] + list(view.trick)


def pass_cards(match: HeartsMatch, seat: int, cards: int) -> None:
    match.choose_pass(seat, cards)


def play_card(match: HeartsMatch, seat: int, card: int) -> None:
    match.play(card, seat=seat)


def next_hand(match: HeartsMatch, seat: int) -> None:
    match.next_hand()


def back(session_id: str) -> Change:
    """A player who was away takes the seat back from the bot."""

    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        table.seats[seat].away = False
        table.seats[seat].misses = 0
        return []

    return apply


def react(session_id: str, reaction: str) -> Change:
    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        table.reactions = [*table.reactions[-7:], [table.version + 1, seat, reaction]]
        return []

    return apply


def bots_answer(table: Table) -> list[PlayedCard]:
    """The bots pass and play for every seat they hold, up to a player's turn."""
    match = table.match
    assert match is not None
    bots = table.bot_seats
    pass_for_bots(match, bots)
    return play_bots(match, bots)


def time_out(now: float) -> Change:
    """The turn limit ran out: the Normal bot passes or plays for the players awaited (a hand
    that is over is dealt on), and a player who missed two turns in a row is away."""

    def apply(table: Table) -> list[PlayedCard]:
        match = table.match
        deadline = table.deadline()
        if match is None or deadline is None or now < deadline:
            raise TableRefused(409, "not_due", table)
        plays: list[PlayedCard] = []
        if match.phase == "hand_over":
            match.next_hand()
        else:
            for seat in table.waiting_for():
                view = match.view(seat)
                if match.phase == "passing":
                    cards = choose_pass("normal", view, decision_seed(view, "pass"))
                    match.choose_pass(seat, cards)
                else:
                    card = choose_play("normal", view, decision_seed(view))
                    match.play(card, seat=seat)
                    plays.append(PlayedCard(seat, card))
                missed = table.seats[seat]
                missed.autoplayed = True
                missed.misses += 1
                missed.away = missed.misses >= MISSES_BEFORE_AWAY
        return [*plays, *bots_answer(table)]

    return apply
