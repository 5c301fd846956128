"""Watching a table: the watch link's code, the public part of a match, and the delay.

A watcher has no seat and no way to act: the watch link carries a code of its own that names
the table without giving its id away (the id is the invitation, and lets its holder sit). The
code is the table id's 16 bytes enciphered as one AES block under a key drawn from the server's
key: a permutation of the ids, so the server reads the id back from the code, and without the key
one tells nothing of the other (a single block needs no mode, IV or padding).

What a watcher sees is the table's public part only: :func:`public_moment` copies from the
match what every seat shows (the cards played, the tricks, the points, the cards each seat has
left, whose turn) and :class:`PublicMatch` answers a table's readers from that alone, so a view
built for a watcher has no hand or pass to show, whatever the seat asked for.

The delay (the creator's choice, ``Table.watch_delay``): ``none``, ``trick`` (the table as it
stood four cards ago: one trick behind; the end of the match shows at once) or ``30s`` (as it
stood 30 seconds ago). Each change of a started table is kept in ``Table.watch_log`` with its
time, its cards and, when the public part changed, that part: the watcher's table is the
newest change old enough, read from the stored log, so a stream that resumes on any instance
holds the same delay.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from app.rules.hearts import NUM_SEATS, HeartsMatch, HeartsRules, HeartsView, PlayedCard, Trick

if TYPE_CHECKING:
    from app.web.hearts.tables.service import Table

WatchDelay = Literal["none", "trick", "30s"]
WATCH_DELAYS: tuple[str, ...] = get_args(WatchDelay)
DELAY_SECONDS = 30.0
DELAY_CARDS = 4  # one trick
# The store's seat number for a watcher's event stream (presence counts watchers apart).
WATCHER = NUM_SEATS
# Changes kept in the watch log at most, whatever the delay needs (a bound on the record).
WATCH_LOG_MOST = 240
_ID_BYTES = 16


# -- the watch code ---------------------------------------------------------------------------


def _cipher(secret: str) -> Cipher[modes.ECB]:
    key = hmac.new(secret.encode(), b"cardroom-watch", hashlib.sha256).digest()[:_ID_BYTES]
    return Cipher(algorithms.AES(key), modes.ECB())


def _decoded(text: str) -> bytes | None:
    if len(text) != 22 or not text.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "==")
    except (binascii.Error, ValueError):
        return None
    # Only the canonical spelling: one code per table.
    return raw if len(raw) == _ID_BYTES and _encoded(raw) == text else None


def _encoded(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def watch_code(secret: str, table_id: str) -> str:
    """The watch link's code of the table (which must be a store-made id: 16 bytes)."""
    raw = _decoded(table_id)
    if raw is None:
        raise ValueError("not a table id")
    return _encoded(_cipher(secret).encryptor().update(raw))


def table_of(secret: str, code: str) -> str | None:
    """The table id a watch code names (None: not a code; the table may still not exist)."""
    raw = _decoded(code)
    if raw is None:
        return None
    return _encoded(_cipher(secret).decryptor().update(raw))


# -- the public part of a match ---------------------------------------------------------------


def _plays(cards: tuple[PlayedCard, ...]) -> list[list[int]]:
    return [[p.seat, p.card] for p in cards]


def _played(data: list[list[int]]) -> tuple[PlayedCard, ...]:
    return tuple(PlayedCard(seat, card) for seat, card in data)


def public_moment(match: HeartsMatch) -> dict[str, Any]:
    """What every seat of ``match`` shows now, as JSON: never a card of a hand or a pass."""
    st = match.state
    return {
        "phase": st.phase,
        "hand_number": st.hand_number,
        "pass_direction": match.pass_direction,
        "chosen": [bool(c) for c in st.chosen],  # who has chosen their pass, not what
        "trick": _plays(st.trick),
        "tricks": [[t.leader, _plays(t.cards), t.winner, t.points] for t in st.tricks],
        "turn": st.turn,
        "hearts_broken": st.hearts_broken,
        "hand_points": list(st.hand_points),
        "totals": list(st.totals),
        "hand_scores": [list(s) for s in st.hand_scores],
        "cards_left": [hand.bit_count() for hand in st.hands],
        "moon": st.moon,
        "winner": st.winner,
    }


def cards_played(moment: dict[str, Any]) -> int:
    """The cards played in the match up to ``moment``, counted over its hands."""
    return 52 * moment["hand_number"] + 4 * len(moment["tricks"]) + len(moment["trick"])


def _four(values: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = values
    return a, b, c, d


class PublicMatch:
    """A match as a watcher may read it, made from a public moment only: it answers what
    reading a table asks (``view``, ``phase``, ``hand_number``, ``turn``, ``rules``, ``deal``)
    and has no move. Every seat's view has an empty hand, no legal card and no pass."""

    def __init__(self, moment: dict[str, Any], rules: HeartsRules, deal: str) -> None:
        self._moment = moment
        self.rules = rules
        # The code would give every hand away: only its level until the match is over.
        self.deal = deal if moment["phase"] == "match_over" else "-".join(deal.split("-")[:2])
        m = moment
        self._view = HeartsView(
            seat=0, deal=self.deal, phase=m["phase"], hand_number=m["hand_number"],
            pass_direction=m["pass_direction"], hand=0, pass_chosen=False, passed=None,
            received=None, trick=_played(m["trick"]),
            tricks=tuple(Trick(lead, _played(cards), won, points)
                         for lead, cards, won, points in m["tricks"]),
            turn=m["turn"], hearts_broken=m["hearts_broken"],
            hand_points=_four(m["hand_points"]), totals=_four(m["totals"]),
            hand_scores=tuple(_four(s) for s in m["hand_scores"]),
            cards_left=_four(m["cards_left"]), legal=0, moon=m["moon"], winner=m["winner"],
            pass_choice=0, rules=rules,
        )

    @property
    def public_view(self) -> HeartsView:
        """What every seat shows, with no seat's own: no hand, no pass chosen."""
        return self._view

    def view(self, seat: int) -> HeartsView:
        """The public view; ``pass_chosen`` says whether ``seat`` has chosen (not what)."""
        return replace(self._view, pass_chosen=self._moment["chosen"][seat])

    @property
    def phase(self) -> str:
        return self._view.phase

    @property
    def hand_number(self) -> int:
        return self._view.hand_number

    @property
    def turn(self) -> int | None:
        return self._view.turn


# -- the log and the delay --------------------------------------------------------------------


def note_change(table: Table, version: int, plays: list[PlayedCard], now: float) -> None:
    """Keep the change that makes ``version`` in the table's watch log: ``[version, time,
    hand, [[seat, card], ...], cards played, public moment or None when it did not change]``.
    The log keeps what the longest delay may still show: from the newest change old enough for
    both delays on."""
    if table.match is None:
        return
    moment = public_moment(table.match)
    last = _last_moment(table.watch_log)
    entry = [version, now, table.match.hand_number, [[p.seat, p.card] for p in plays],
             cards_played(moment), None if moment == last else moment]
    log = [*table.watch_log, entry]
    first = min(_shown_at(log, "30s", now, len(log)), _shown_at(log, "trick", now, len(log)))
    first = max(first, len(log) - WATCH_LOG_MOST)
    # The first entry kept must carry its moment.
    if first > 0 and log[first][5] is None:
        log[first] = [*log[first][:5], _moment_at(log, first)]
    table.watch_log = log[max(first, 0) :]


def _last_moment(log: list[list[Any]]) -> dict[str, Any] | None:
    return _moment_at(log, len(log) - 1) if log else None


def _moment_at(log: list[list[Any]], index: int) -> dict[str, Any] | None:
    for entry in reversed(log[: index + 1]):
        if entry[5] is not None:
            return entry[5]
    return None


def _shown_at(log: list[list[Any]], delay: str, now: float, upto: int) -> int:
    """The index of the newest entry of ``log[:upto]`` a watcher with ``delay`` sees at
    ``now``; -1 when none is old enough."""
    if upto == 0:
        return -1
    if delay == "none":
        return upto - 1
    newest = log[upto - 1]
    if delay == "trick":
        if _moment_at(log, upto - 1)["phase"] == "match_over":  # type: ignore[index]
            return upto - 1
        most = newest[4] - DELAY_CARDS
        return max((n for n in range(upto) if log[n][4] <= most), default=-1)
    return max((n for n in range(upto) if log[n][1] <= now - DELAY_SECONDS), default=-1)


@dataclass(frozen=True, slots=True)
class Shown:
    """Where a watcher's table stands: the version, and the public moment then (None: the
    match had not started)."""

    version: int
    moment: dict[str, Any] | None


def shown(table: Table, now: float) -> Shown:
    if table.match is None:
        return Shown(table.version, None)
    if table.watch_delay == "none" or not table.watch_log:
        return Shown(table.version, public_moment(table.match))
    log = table.watch_log
    index = _shown_at(log, table.watch_delay, now, len(log))
    if index < 0:  # the match started less than the delay ago
        return Shown(log[0][0] - 1, None)
    if index == len(log) - 1:  # the newest change: changes after it were no moves
        return Shown(table.version, _moment_at(log, index))
    return Shown(log[index][0], _moment_at(log, index))


def next_shown_at(table: Table, now: float) -> float | None:
    """When a watcher's table next moves on by itself, with no change of the table (the 30 s
    delay catching up); None: only a change moves it."""
    if table.match is None or table.watch_delay != "30s":
        return None
    later = [entry[1] + DELAY_SECONDS for entry in table.watch_log
             if entry[1] + DELAY_SECONDS > now]
    return min(later, default=None)


def watched(table: Table, now: float) -> Table:
    """The table as a watcher sees it now: at the delayed version, its match the public
    moment only (:class:`PublicMatch`), its log and reactions up to then; without the turn
    limit's countdown and the card the turn limit played when delayed (they would be the
    present's)."""
    at = shown(table, now)
    match = None
    if at.moment is not None and table.match is not None:
        # Read like a match, never moved: see PublicMatch.
        match = cast(HeartsMatch, PublicMatch(at.moment, table.match.rules, table.match.deal))
    delayed = at.version != table.version
    log = table.log
    if delayed:
        log = [[v, hand, plays] for v, _, hand, plays, *_ in table.watch_log if v <= at.version]
    # A seat's notes of the cards its bot played are the player's, and would run ahead of a
    # delayed table: a watcher gets none.
    seats = [replace(s, played_away=[], autoplayed_card=None if delayed else s.autoplayed_card)
             for s in table.seats]
    return replace(
        table,
        version=at.version,
        match=match,
        seats=seats,
        log=log,
        reactions=[r for r in table.reactions if r[0] <= at.version],
        turn_seconds=None if delayed else table.turn_seconds,
        watch_log=[],
    )
