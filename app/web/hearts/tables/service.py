"""Tables as the page and the API share them: who sits where, starting, a seat's actions and
the bots' answer, the turn limit, all stored by compare-and-set on the table's version.

A table's stored state holds the sessions of its seats and the whole match; nothing here
leaves the server as is: :mod:`app.web.hearts.tables.views` makes each seat's view.

Who acts: a seat belongs to the session that took it. Bots play the seats nobody took (at the
table's level) and, with the Normal bot, the seats of players who are away. The bots of empty
seats answer in the request that made the change (and in the table clock,
app/web/hearts/tables/clock.py, when a turn runs past its limit or a player has gone), never
in an event stream; the pages then show their cards one by one at the bots' pace
(app/web/hearts/pace.py).

Away: a player is away after letting two turns in a row run past the limit, or when the page
has had no event stream open for ``Waits.grace`` seconds (long enough for a reload or a network
blip), counted from the start of the match for a seat that never opened one (a script on the
API too): so a table without a turn limit cannot be held by an absent player either. The Normal
bot then plays their seat at the bots' pace, one card per change made by the table clock
(``Table.bot_due``: when the pages have shown the cards before it, and one card's time), so
that "I'm back" (``back``) gives the seat back between any two cards: the next decision is the
player's again. A pass is one decision, made at once. The cards the bot played for them are
kept on the seat (``played_away``) until their own next move, so their page can say what
happened while they were away. Neither "I'm back" nor sitting again moves the turn limit, or
calling them in a loop would stall the table. Any process may apply a change: the
compare-and-set makes sure only one of two at once does, and the other retries on the table as
it then is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from app.bots import choose_moon as bot_moon_choice
from app.bots import choose_pass, choose_play, decision_seed
from app.bots.driver import pass_for_bots, play_bots
from app.metrics import CAS_RETRIES, GAMES_FINISHED, GAMES_STARTED
from app.rules.cards import CardError
from app.rules.hearts import NUM_SEATS, HeartsError, HeartsMatch, HeartsRules, PlayedCard
from app.settings import STALE_HEARTBEATS, Settings
from app.store import GameStore, StoredTable, StreamSeen
from app.web.games import GameNotFound
from app.web.hearts.pace import CARD_SECONDS, shown_seconds
from app.web.hearts.service import moon_of, random_code
from app.web.hearts.tables.watch import WATCH_DELAYS, WATCHER, note_change
from app.web.hearts.thinking import THINKING
from app.web.profile import record_hearts_match

NOT_FOUND = "This table does not exist, or it has expired."
LEVEL_LETTERS = {"easy": "E", "normal": "N", "hard": "H", "expert": "X"}
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 15, 120
# A player whose turn ran out this many times in a row is away: a bot plays for them.
MISSES_BEFORE_AWAY = 2
LOG_LENGTH = 16  # recent changes kept, so a page a few versions behind can replay the cards
ReactionName = Literal["thumbs_up", "laugh", "wow", "sad", "clap"]
REACTIONS: tuple[str, ...] = get_args(ReactionName)
REACTIONS_KEPT = 8
# A seat may send this many reactions in any window of REACTION_WINDOW seconds.
REACTION_BURST, REACTION_WINDOW = 3, 10.0
CAS_ATTEMPTS = 8
TABLE_GAME = "hearts_table"  # the metrics' name of a table's match
STAND_IN_LEVEL = "normal"  # the bot that plays for a player who is away or out of time


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
    autoplayed_card: int | None = None  # the card it chose then (None: it passed)
    # The cards the bot played for the player since they were last found away, in order; kept
    # after they come back, until their own next move.
    played_away: list[int] = field(default_factory=list)

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
    started_at: float = 0.0  # when the match started: a seat's presence counts from here
    # [version, hand, [[seat, card], ...], [hand, phase] before the change (None: no match)]
    log: list[list[Any]] = field(default_factory=list)
    # [version, seat, reaction, when]
    reactions: list[list[Any]] = field(default_factory=list)
    # When the pages will have shown the cards of the last change that played any (pace.py).
    shown_at: float = 0.0
    watch_delay: str = "none"  # how far behind watchers see the match (watch.py)
    # The changes since the match started, as long as a delay may show them (watch.py).
    watch_log: list[list[Any]] = field(default_factory=list)

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
            # A table started before this was kept counts from its last change.
            state.get("started_at", state["changed_at"]),
            state["log"],
            # Reactions stored before they had a time count as long past.
            [r if len(r) == 4 else [*r[:3], 0.0] for r in state["reactions"]],
            state.get("shown_at", 0.0),
            state.get("watch_delay", "none"),
            state.get("watch_log", []),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "bot_level": self.bot_level,
            "turn_seconds": self.turn_seconds,
            "seats": [
                {"session": s.session, "name": s.name, "away": s.away, "misses": s.misses,
                 "autoplayed": s.autoplayed, "autoplayed_card": s.autoplayed_card,
                 "played_away": s.played_away}
                for s in self.seats
            ],
            "match": None if self.match is None else self.match.to_json(),
            "changed_at": self.changed_at,
            "started_at": self.started_at,
            "log": self.log,
            "reactions": self.reactions,
            "shown_at": self.shown_at,
            "watch_delay": self.watch_delay,
            "watch_log": self.watch_log,
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

    def bot_due(self) -> float | None:
        """When the bot of a player who is away plays their turn (None: no such turn now): once
        the pages have shown the cards before it (``shown_at``), and one card's time after the
        change that made it their turn."""
        match = self.match
        if match is None or match.phase != "playing" or match.turn is None:
            return None
        seat = self.seats[match.turn]
        if not (seat.human and seat.away):
            return None
        return max(self.changed_at + CARD_SECONDS, self.shown_at)

    def due(self) -> float | None:
        """The next time the table clock has something to do without anyone asking: the turn
        limit running out, or the bot's turn for a player who is away."""
        times = [t for t in (self.deadline(), self.bot_due()) if t is not None]
        return min(times, default=None)

    def playing(self) -> bool:
        return self.match is not None and self.match.phase != "match_over"

    def _gone_at(self, presence: Presence) -> dict[int, float]:
        """By seat still played by its player: when they count as gone (see Presence)."""
        if not self.playing():
            return {}
        return {
            n: at for n, seat in enumerate(self.seats)
            if seat.human and not seat.away
            and (at := presence.gone_at(n, self.started_at)) is not None
        }

    def gone(self, presence: Presence, now: float) -> list[int]:
        """The players who have had no event stream open for the grace period (since the match
        started, for one who never had one)."""
        return [n for n, at in self._gone_at(presence).items() if at <= now]

    def next_gone(self, presence: Presence) -> float | None:
        """When the next player still seated and without a stream will be gone."""
        return min(self._gone_at(presence).values(), default=None)

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
        if match.phase == "moon" and match.state.moon is not None and match.state.moon not in bots:
            return [match.state.moon]
        if match.phase == "hand_over":
            return [s for s in range(NUM_SEATS) if s not in bots]
        return []


@dataclass(frozen=True, slots=True)
class Waits:
    """An open event stream tells the store so every ``heartbeat`` seconds; one not heard of
    for ``stale`` seconds went with its process. A seat without an open stream for ``grace``
    seconds (a reload or a network blip takes less) is away; ``grace`` is at least ``stale``
    (app/settings.py checks), so a stream of a process that died counts as closed by then."""

    heartbeat: float
    grace: float

    @classmethod
    def of(cls, settings: Settings) -> Waits:
        return cls(settings.table_heartbeat_seconds, settings.table_away_grace_seconds)

    @property
    def stale(self) -> float:
        return STALE_HEARTBEATS * self.heartbeat


@dataclass(frozen=True, slots=True)
class Presence:
    """Whose event streams are open: ``connected`` by seat, and ``last_seen``, when a seat's
    last stream was last heard of (None: the seat never had one); ``grace`` is Waits.grace;
    ``watchers``: the watchers' streams open (watch.WATCHER's, in the store)."""

    connected: tuple[bool, ...]
    last_seen: tuple[float | None, ...]
    grace: float
    watchers: int = 0

    @classmethod
    def of(cls, streams: Iterable[StreamSeen], now: float, waits: Waits) -> Presence:
        connected = [False] * NUM_SEATS
        last: list[float | None] = [None] * NUM_SEATS
        watchers = 0
        for stream in streams:
            alive = stream.open and stream.seen_at > now - waits.stale
            if stream.seat == WATCHER:
                watchers += alive
            if not 0 <= stream.seat < NUM_SEATS:
                continue
            connected[stream.seat] |= alive
            seen = last[stream.seat]
            last[stream.seat] = stream.seen_at if seen is None else max(seen, stream.seen_at)
        return cls(tuple(connected), tuple(last), waits.grace, watchers)

    def gone_at(self, seat: int, started_at: float) -> float | None:
        """When a seat without an open stream counts as gone (None: it has one): the grace period
        after its last stream was last heard of, and never sooner after the match started."""
        if self.connected[seat]:
            return None
        seen = self.last_seen[seat]
        return max(started_at, seen or started_at) + self.grace


async def presence(store: GameStore, table_id: str, now: float, waits: Waits) -> Presence:
    return Presence.of((await store.table_streams([table_id]))[table_id], now, waits)


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
    restarts_turn: bool = True,
) -> Table:
    """Apply ``apply`` to the table (held at ``version``; None: whatever is current) and
    store it by compare-and-set, retrying on the table as it then is when another change got
    in first and no version was given. ``apply`` raises TableRefused to refuse; ``slow``
    runs it in the bots' threads (app/web/hearts/thinking.py: they may search);
    ``restarts_turn`` False leaves the turn limit running (a reaction is no move). This process
    applies one change of a table at a time, so its own requests do not race each other."""
    async with THINKING.turn_of(f"table:{table_id}"):
        for _ in range(CAS_ATTEMPTS):
            table = await load(store, table_id)
            if version is not None and version != table.version:
                raise TableRefused(409, "stale_version", table)
            was_over = table.match is not None and table.match.phase == "match_over"
            started = table.match is None
            was = None if table.match is None else [table.match.hand_number, table.match.phase]
            try:
                plays = await THINKING.run(apply, table) if slow else apply(table)
            except (HeartsError, CardError) as error:
                raise RulesRefused(error, await load(store, table_id)) from error
            except TableRefused as refused:
                refused.table = await load(store, table_id)
                raise
            if restarts_turn:
                table.changed_at = now()
            if plays:
                table.shown_at = now() + shown_seconds(trick_ends(table.match, len(plays)))
            hand = 0 if table.match is None else table.match.hand_number
            table.log = [
                *table.log[-(LOG_LENGTH - 1) :],
                [table.version + 1, hand, [[p.seat, p.card] for p in plays], was],
            ]
            note_change(table, table.version + 1, plays, now())
            saved = await store.table_compare_and_set(table_id, table.version, table.to_json())
            if saved is None:
                if version is not None:
                    raise TableRefused(409, "stale_version", await load(store, table_id))
                CAS_RETRIES.labels("table").inc()
                continue
            table.version = saved.version
            if started and table.match is not None:
                GAMES_STARTED.labels(TABLE_GAME).inc()
            if table.match is not None and table.match.phase == "match_over" and not was_over:
                await record(store, table)
            return table
        raise TableRefused(409, "busy", await load(store, table_id))


async def record(store: GameStore, table: Table) -> None:
    """Each player's statistics count the match."""
    assert table.match is not None
    GAMES_FINISHED.labels(TABLE_GAME).inc()
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


def settings_valid(bot_level: str, turn_seconds: int | None, watch_delay: str = "none") -> bool:
    return bot_level in LEVEL_LETTERS and watch_delay in WATCH_DELAYS and (
        turn_seconds is None or TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX
    )


def sit(session_id: str, name: str, wanted: int | None) -> Change:
    """A seat for the caller (before the match), or a new name on theirs. Meant to be applied
    with ``restarts_turn`` False: it is no move."""

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


def start(
    session_id: str, bot_level: str | None, turn_seconds: int | bool | None, now: float,
    rules: HeartsRules | None = None, watch_delay: str | None = None,
) -> Change:
    """``turn_seconds``: False keeps the table's setting; ``rules``: the match's house rules
    (the seed's when None); ``watch_delay``: how far behind watchers see it (watch.py; None
    keeps the table's)."""

    def apply(table: Table) -> list[PlayedCard]:
        if table.seat_of(session_id) != Table.CREATOR:
            raise TableRefused(403, "not_creator", table)
        if table.match is not None:
            raise TableRefused(409, "started", table)
        if bot_level is not None:
            table.bot_level = bot_level
        if turn_seconds is not False:
            table.turn_seconds = turn_seconds if isinstance(turn_seconds, int) else None
        if watch_delay is not None:
            table.watch_delay = watch_delay
        table.match = HeartsMatch.new(random_code(LEVEL_LETTERS[table.bot_level]), rules=rules)
        table.started_at = now
        return bots_answer(table)

    return apply


Move = Callable[[HeartsMatch, int], None]  # one of a seat's moves, for the seat given


def seat_action(session_id: str, move: Move) -> Change:
    """One of the caller's seat's moves, then the bots' answer."""

    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        if table.match is None:
            raise TableRefused(409, "not_started", table)
        me = table.seats[seat]
        me.misses, me.autoplayed, me.autoplayed_card, me.away = 0, False, None, False
        me.played_away = []
        before = len(played_this_hand(table.match))
        hand = table.match.hand_number
        move(table.match, seat)
        mine = []
        if table.match.hand_number == hand:
            mine = played_this_hand(table.match)[before:]
        return [*mine, *bots_answer(table)]

    return apply


def trick_ends(match: HeartsMatch | None, count: int) -> list[bool]:
    """For the last ``count`` cards played (a change's), whether each ended a trick."""
    played = 0 if match is None else len(played_this_hand(match))
    return [n % 4 == 3 for n in range(played - count, played)]


def played_this_hand(match: HeartsMatch) -> list[PlayedCard]:
    view = match.view(0)
    return [p for trick in view.tricks for p in trick.cards] + list(view.trick)


def pass_cards(cards: int) -> Move:
    def move(match: HeartsMatch, seat: int) -> None:
        match.choose_pass(seat, cards)

    return move


def play_card(card: int) -> Move:
    def move(match: HeartsMatch, seat: int) -> None:
        match.play(card, seat=seat)

    return move


def next_hand(match: HeartsMatch, seat: int) -> None:
    match.next_hand()


def choose_moon(choice: str) -> Move:
    """The seat that shot the moon under the shooter's-choice rule says what it does (the
    rules refuse any other seat, and any other phase)."""

    def move(match: HeartsMatch, seat: int) -> None:
        match.choose_moon(seat, choice)

    return move


def back(session_id: str, now: float) -> Change:
    """A player who was away takes the seat back from the bot; refused (not_away) when the
    seat is not away. Meant to be applied with ``restarts_turn`` False: a wait that is running
    keeps its deadline, and only a table that awaited nobody starts one."""

    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        if not table.seats[seat].away:
            raise TableRefused(409, "not_away", table)
        awaited = table.deadline() is not None
        table.seats[seat].away = False
        table.seats[seat].misses = 0
        if not awaited:
            table.changed_at = now
        return []

    return apply


async def seen_back(store: GameStore, table_id: str, session_id: str) -> None:
    """A player taking their seat back counts as seen now, before the seat is theirs again:
    they then have the grace period to open the event stream (a page does at once) before the
    clock finds them gone again. Only a seat that is away: a present one calling ``back``
    must not put off being found gone."""
    table = await load(store, table_id)
    seat = table.seat_of(session_id)
    if seat is not None and table.seats[seat].away:
        await store.table_stream_closed(table_id, seat, "")


def react(session_id: str, reaction: str, now: float) -> Change:
    """One of the preset reactions, from the caller's seat; REACTION_BURST at most per seat in
    any REACTION_WINDOW seconds (429)."""

    def apply(table: Table) -> list[PlayedCard]:
        seat = table.seat_of(session_id)
        if seat is None:
            raise TableRefused(403, "not_seated", table)
        recent = [r for r in table.reactions if r[1] == seat and r[3] > now - REACTION_WINDOW]
        if len(recent) >= REACTION_BURST:
            raise TableRefused(429, "too_many_reactions", table)
        table.reactions = [
            *table.reactions[-(REACTIONS_KEPT - 1) :], [table.version + 1, seat, reaction, now]
        ]
        return []

    return apply


def stand_in(match: HeartsMatch, seat: int) -> PlayedCard | None:
    """The Normal bot passes, plays or chooses what its moon does once for a player, from that
    seat's own view only; the card it played (None for a pass or a moon's choice)."""
    view = match.view(seat)
    if match.phase == "moon":
        match.choose_moon(seat, bot_moon_choice(view))
        return None
    if match.phase == "passing":
        match.choose_pass(seat, choose_pass(STAND_IN_LEVEL, view, decision_seed(view, "pass")))
        return None
    card = choose_play(STAND_IN_LEVEL, view, decision_seed(view))
    match.play(card, seat=seat)
    return PlayedCard(seat, card)


def bots_answer(table: Table) -> list[PlayedCard]:
    """The bots answer up to a player's turn, or to the turn of a player who is away (the
    clock plays it at the bots' pace, ``Table.bot_due``): the table's bots in the empty seats
    pass, play and choose what their moon does; the Normal bot passes, and chooses for a moon
    (one decision each, made at once), for the players who are away."""
    match = table.match
    assert match is not None
    empty = frozenset(n for n, seat in enumerate(table.seats) if not seat.human)
    pass_for_bots(match, empty)
    if match.phase == "passing":
        for seat in table.bot_seats - empty:
            if not match.view(seat).pass_chosen:
                stand_in(match, seat)
    plays = play_bots(match, empty)
    shooter = match.state.moon
    if match.phase == "moon" and shooter is not None and table.seats[shooter].away:
        stand_in(match, shooter)
    return plays


def went_away(seat: Seat) -> None:
    seat.away = True
    seat.played_away = []


def play_away_turn(table: Table) -> list[PlayedCard]:
    """The Normal bot plays one card for the player who is away and whose turn it is."""
    match = table.match
    assert match is not None and match.turn is not None
    seat = table.seats[match.turn]
    played = stand_in(match, match.turn)
    assert played is not None
    seat.played_away.append(played.card)
    return [played]


def clock_tick(now: float, present: Presence) -> Change:
    """What the table clock does when something is due: the players who have gone are away
    (the Normal bot plays for them from then on, at the bots' pace); the bot's turn of a player
    who is away is played (one card); when the turn limit ran out, the Normal bot passes or
    plays for the players awaited (a hand that is over is dealt on), and a player who missed
    two turns in a row is away. Nothing due: refused (not_due), nothing written."""

    def apply(table: Table) -> list[PlayedCard]:
        match = table.match
        gone = table.gone(present, now)
        deadline = table.deadline()
        timed_out = deadline is not None and deadline <= now
        bot_due = table.bot_due()
        bot_turn = bot_due is not None and bot_due <= now
        if match is None or not (gone or timed_out or bot_turn):
            raise TableRefused(409, "not_due", table)
        if gone:  # the turn limit starts again for whoever is awaited next
            for seat in gone:
                went_away(table.seats[seat])
            return bots_answer(table)
        if bot_turn:
            return [*play_away_turn(table), *bots_answer(table)]
        plays: list[PlayedCard] = []
        if match.phase == "hand_over":
            match.next_hand()
        else:
            for seat in table.waiting_for():
                played = stand_in(match, seat)
                plays += [] if played is None else [played]
                missed = table.seats[seat]
                missed.autoplayed = True
                missed.autoplayed_card = None if played is None else played.card
                missed.misses += 1
                if missed.misses >= MISSES_BEFORE_AWAY:
                    went_away(missed)
                    missed.played_away = [] if played is None else [played.card]
        return [*plays, *bots_answer(table)]

    return apply
