"""A table with friends drawn with the solo table's pieces (app/web/hearts/table.py): the
seat's own view turned so that the player sits at the bottom (as seat 0), the other seats'
names from the table. Only that seat's view goes in, so the pieces hold only its cards.

A page that holds an older version catches up with the cards played since, in order (from the
table's log), so every screen shows the same motion as solo play. A page follows the table
through its event stream, which sends the pieces (:class:`PageFeed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from markupsafe import Markup

from app.rules.cards import card_text
from app.rules.hearts import HeartsView, PlayedCard, Trick
from app.web.hearts.service import Seen
from app.web.hearts.table import (
    TEMPLATE,
    Step,
    Urls,
    closing_words,
    everything,
    hand_over_line,
    moon_choosing,
    opening_words,
    steps_of,
    table_pieces,
)
from app.web.hearts.tables.service import Table
from app.web.hearts.tables.streams import logged_since
from app.web.hearts.tables.texts import seat_label
from app.web.hearts.tables.views import TableView, seat_view
from app.web.i18n import Translator, card_name
from app.web.pieces import Piece, Pieces, changed, render_once, status

TABLE_TEMPLATE = "hearts/_table_pieces.html"


def _turned(seat: int | None, shift: int) -> int | None:
    return None if seat is None else (seat - shift) % 4


def _four(values: tuple[int, ...], shift: int) -> tuple[int, int, int, int]:
    a, b, c, d = (values[(n + shift) % 4] for n in range(4))
    return a, b, c, d


def turned(view: HeartsView, shift: int) -> HeartsView:
    """``view`` with the seats renumbered so that seat ``shift`` is 0 (play still goes round
    the same way, so left stays left)."""

    def plays(cards: tuple[PlayedCard, ...]) -> tuple[PlayedCard, ...]:
        return tuple(PlayedCard((p.seat - shift) % 4, p.card) for p in cards)

    return replace(
        view,
        seat=0,
        trick=plays(view.trick),
        tricks=tuple(
            Trick((t.leader - shift) % 4, plays(t.cards), (t.winner - shift) % 4, t.points)
            for t in view.tricks
        ),
        turn=_turned(view.turn, shift),
        hand_points=_four(view.hand_points, shift),
        totals=_four(view.totals, shift),
        hand_scores=tuple(_four(s, shift) for s in view.hand_scores),
        cards_left=_four(view.cards_left, shift),
        moon=_turned(view.moon, shift),
        winner=_turned(view.winner, shift),
    )


def names_from(table: Table, shift: int, tr: Translator) -> tuple[str, str, str, str]:
    a, b, c, d = (seat_label(table, (n + shift) % 4, tr) for n in range(4))
    return a, b, c, d


def spoken_names(table: Table, seat: int | None, tr: Translator) -> tuple[str, str, str, str]:
    """The seats' names in what the page says: a seated player is "you" to themselves, as in
    the solo game (the badges show their name)."""
    names = names_from(table, seat or 0, tr)
    return names if seat is None else (tr.gettext("You"), *names[1:])


# A seat's own pieces: the hand and the bar with its buttons; a watcher's page has none.
SEATED_ONLY = frozenset({"ht-hand", "ht-bar", "ht-undo", "ht-last"})


def board_pieces(table: Table, seat: int | None, urls: Urls, tr: Translator) -> Pieces:
    view = seat_view(table, seat)
    assert view is not None
    shift = seat or 0
    seen = Seen(table.table_id, table.version, turned(view, shift), False)
    pieces = table_pieces(seen, urls, tr, names_from(table, shift, tr), watching=seat is None)
    if seat is None:
        return {name: piece for name, piece in pieces.items() if name not in SEATED_ONLY}
    return pieces


def steps_since(table: Table, seat: int | None, after: int, tr: Translator) -> list[Step] | None:
    """The cards played since version ``after`` in this hand, as the page's steps; None when
    the log no longer reaches back that far."""
    changes = logged_since(table, after)
    if after >= table.version or changes is None:
        return None
    assert table.match is not None
    shift = seat or 0
    hand = table.match.hand_number
    plays = [
        PlayedCard((s - shift) % 4, card)
        for _, number, cards, *_ in changes
        if number == hand
        for s, card in cards
    ]
    view = turned(table.match.view(0), shift)
    played = [p for trick in view.tricks for p in trick.cards] + list(view.trick)
    done = len(played) - len(plays)
    # The table as the page last saw it in this hand: only its counts of cards matter here.
    trick = tuple(played[done - done % 4 : done])
    before = replace(view, tricks=view.tricks[: done // 4], trick=trick)
    return steps_of(before, view, plays, tr, spoken_names(table, seat, tr),
                    seated=seat is not None)


# Phases in which a hand's cards are being played (or its moon chosen): its end is news.
_UNDER_WAY = ("playing", "moon")


def told_since(table: Table, seat: int | None, after: int, tr: Translator) -> tuple[str, str]:
    """What a page that holds version ``after`` has still to be told besides the cards, in its
    player's words, as the solo page says it (app/web/hearts/table.py): what comes before the
    cards (the end of a hand it did not see, a new hand and its passing, the cards received)
    and what comes once they have landed (the hand's result, the match's). From the hand and
    phase the table was in at ``after`` (its log) and the seat's view now; ("", "") when the
    log does not reach back that far."""
    changes = logged_since(table, after)
    if not changes or len(changes[0]) < 4 or changes[0][3] is None:
        return "", ""
    was_hand, was_phase = changes[0][3]
    view_now = seat_view(table, seat)
    assert view_now is not None
    shift = seat or 0
    view, names = turned(view_now, shift), spoken_names(table, seat, tr)
    before: list[str] = []
    if was_hand != view.hand_number:
        if was_phase in _UNDER_WAY and len(view.hand_scores) >= was_hand:
            before.append(hand_over_line(view.hand_scores[was_hand - 1], names, tr))
        before.append(opening_words(replace(view, hand_number=was_hand), view, tr))
        was_phase = "passing"
    if was_phase == "passing" and view.phase != "passing" and seat is not None:
        before.append(opening_words(replace(view, phase="passing"), view, tr))
    after_cards = ""
    if was_hand == view.hand_number and was_phase in _UNDER_WAY:
        if seat is not None:
            after_cards = closing_words(replace(view, phase=was_phase), view, names, tr)
        elif view.phase in ("hand_over", "match_over"):  # a watcher: no "you"
            after_cards = hand_over_line(view.hand_scores[-1], names, tr)
        # Another seat shot the moon (the shooter's own page asks the question instead).
        if was_phase == "playing" and view.phase == "moon" and (seat is None or view.moon):
            after_cards = moon_choosing(view, names, tr)
    return " ".join(filter(None, before)), after_cards


def catch_up(
    table: Table, seat: int | None, after: int, urls: Urls, tr: Translator, lang: str
) -> Markup:
    """Every piece as it is now, the cards played since ``after`` in place of the trick, and
    what else happened since in words: before the cards in the steps' opening, the rest in
    the status line (said once the cards have landed), as the solo page does."""
    pieces = board_pieces(table, seat, urls, tr)
    steps = steps_since(table, seat, after, tr)
    opening, closing = told_since(table, seat, after, tr)
    out = []
    if steps:
        steps_piece = Piece.of("steps", steps=tuple(steps), names=pieces["ht-trick"].arg("names"),
                               opening=opening)
        out.append(render_once(TEMPLATE, steps_piece, lang, oob=True))
        pieces = {k: v for k, v in pieces.items() if k != "ht-trick"}
    else:
        closing = " ".join(filter(None, (opening, closing)))
    out.extend(everything(pieces, lang))
    if closing:
        out.append(status(closing))
    return Markup("\n").join(out)


def page_urls(path_for: Callable[..., str], table_id: str) -> Urls:
    """Where the table's forms post, from a ``url_path_for`` that knows the page routes."""

    def url(name: str) -> str:
        return str(path_for(name, table_id=table_id))

    return Urls(
        play=url("table_play"), pass_=url("table_pass"), undo=url("table_play"),
        next=url("table_next_hand"), last=url("table_last_trick"), moon=url("table_moon"),
    )


def watch_urls(path_for: Callable[..., str], code: str) -> Urls:
    """A watcher's page has no form to send: only the last trick to open."""
    return Urls(play="", pass_="", undo="", next="",
                last=str(path_for("watch_last_trick", watch_code=code)))


@dataclass(frozen=True, slots=True)
class SeatMarks:
    """What a seat's badge shows beside the Hearts pieces, ``seat`` as the page numbers it."""

    seat: int
    human: bool
    connected: bool
    away: bool
    autoplayed: bool
    autoplayed_card: str | None
    clock: float | None  # the turn limit's seconds left, at an awaited seat


@dataclass(frozen=True, slots=True)
class ReactionMark:
    seat: int  # as the page numbers it
    reaction: str
    version: int


def back_piece(table: Table, seat: int | None, back_url: str, lang: str) -> Piece:
    """``tb-back``: for a player who is away, the "I'm back" form and the cards their bot has
    played so far; once they are back, until their next move, what it played while they were
    away (their own seat's only)."""
    me = None if seat is None else table.seats[seat]
    played = () if me is None else tuple(
        (card_text(c), card_name(c, lang)) for c in me.played_away
    )
    return Piece.of("back", url=back_url, seated=me is not None, away=me is not None and me.away,
                    played=played)


def live_pieces(table: Table, view: TableView, back_url: str, lang: str, *,
                oob: bool = False) -> Markup:
    """The table's own pieces (templates/hearts/_table_pieces.html): ``tb-live``, the marks of
    what changes without a move (presence, the clock, the bot's turns, reactions), which
    static/js/hearts-live.js puts on the seats; ``tb-back`` (:func:`back_piece`); and for a
    seated player ``tb-watchers``, how many watch."""
    shift = view.my_seat or 0
    seats = tuple(
        SeatMarks(
            seat=(s.seat - shift) % 4, human=s.human, connected=s.connected, away=s.away,
            autoplayed=s.autoplayed, autoplayed_card=s.autoplayed_card,
            clock=view.turn_deadline if s.seat in view.awaited else None,
        )
        for s in view.seats
    )
    reactions = tuple(
        ReactionMark((r.seat - shift) % 4, r.reaction, r.version) for r in view.reactions
    )
    live = Piece.of("live", seats=seats, reactions=reactions)
    back = back_piece(table, view.my_seat, back_url, lang)
    out = render_once(TABLE_TEMPLATE, live, lang, oob=oob) + render_once(
        TABLE_TEMPLATE, back, lang, oob=oob
    )
    if view.my_seat is not None:  # the players see how many watch
        watchers = Piece.of("watchers_count", watchers=view.watchers)
        out += render_once(TABLE_TEMPLATE, watchers, lang, oob=oob)
    return out


class PageFeed:
    """What a page's event stream sends (``…/events?pieces=1``), one source for the live page:
    each event is the view's version, whether the match has started, and HTML pieces to swap
    as an action's answer is swapped (static/js/pieces.js). ``board`` is every piece of the
    table, with the cards played since ``after`` (the version of the board this feed last sent,
    first the one the page said it holds) in place of the trick, drawn from this seat's view
    only; it is empty when no piece but the version changed (a reaction, a player coming or
    going), and ``after`` then stays where it was, so the next cards are shown from there.
    ``live`` is the table's own pieces, every time."""

    def __init__(self, seat: int | None, after: int, urls: Urls, back_url: str,
                 tr: Translator, lang: str) -> None:
        self.seat, self.urls, self.back_url, self.tr, self.lang = seat, urls, back_url, tr, lang
        self.sent = after  # the version of the board the page was last sent
        self.pieces: Pieces | None = None  # the pieces as of ``sent``, once known

    def event(self, table: Table, view: TableView) -> dict[str, object]:
        out: dict[str, object] = {"version": table.version, "after": self.sent,
                                  "started": table.match is not None, "board": "", "live": ""}
        if table.match is None:
            return out
        pieces = board_pieces(table, self.seat, self.urls, self.tr)
        if self.pieces is None and table.version == self.sent:
            self.pieces = pieces  # the page was drawn at this version
        moved = self.pieces is None or any(
            name != "ht-version" for name in changed(self.pieces, pieces)
        )
        if table.version > self.sent and moved:
            out["board"] = catch_up(table, self.seat, self.sent, self.urls, self.tr, self.lang)
            self.sent, self.pieces = table.version, pieces
        out["live"] = live_pieces(table, view, self.back_url, self.lang, oob=True)
        return out
