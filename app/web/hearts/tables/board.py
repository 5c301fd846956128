"""A table with friends drawn with the solo table's pieces (app/web/hearts/table.py): the
seat's own view turned so that the player sits at the bottom (as seat 0), the other seats'
names from the table. Only that seat's view goes in, so the pieces hold only its cards.

A page that holds an older version catches up with the cards played since, in order (from the
table's log), so every screen shows the same motion as solo play.
"""

from __future__ import annotations

from dataclasses import replace

from markupsafe import Markup

from app.rules.hearts import HeartsView, PlayedCard, Trick
from app.web.hearts.service import Seen
from app.web.hearts.table import TEMPLATE, Step, Urls, everything, steps_of, table_pieces
from app.web.hearts.tables.service import Table
from app.web.hearts.tables.texts import seat_label
from app.web.hearts.tables.views import seat_view
from app.web.i18n import Translator
from app.web.pieces import Piece, Pieces, render_once


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


def board_pieces(table: Table, seat: int | None, urls: Urls, tr: Translator) -> Pieces:
    view = seat_view(table, seat)
    assert view is not None
    shift = seat or 0
    seen = Seen(table.table_id, table.version, turned(view, shift), False)
    return table_pieces(seen, urls, tr, names_from(table, shift, tr))


def steps_since(table: Table, seat: int | None, after: int, tr: Translator) -> list[Step] | None:
    """The cards played since version ``after`` in this hand, as the page's steps; None when
    the log no longer reaches back that far."""
    versions = [entry[0] for entry in table.log]
    if after >= table.version or after + 1 not in versions:
        return None
    assert table.match is not None
    shift = seat or 0
    hand = table.match.hand_number
    plays = [
        PlayedCard((s - shift) % 4, card)
        for version, number, cards in table.log
        if version > after and number == hand
        for s, card in cards
    ]
    view = turned(table.match.view(0), shift)
    played = [p for trick in view.tricks for p in trick.cards] + list(view.trick)
    done = len(played) - len(plays)
    # The table as the page last saw it in this hand: only its counts of cards matter here.
    trick = tuple(played[done - done % 4 : done])
    before = replace(view, tricks=view.tricks[: done // 4], trick=trick)
    return steps_of(before, view, plays, tr)


def catch_up(
    table: Table, seat: int | None, after: int, urls: Urls, tr: Translator, lang: str
) -> Markup:
    """Every piece as it is now, the cards played since ``after`` in place of the trick."""
    pieces = board_pieces(table, seat, urls, tr)
    steps = steps_since(table, seat, after, tr)
    out = []
    if steps:
        steps_piece = Piece.of("steps", steps=tuple(steps), names=pieces["ht-trick"].arg("names"))
        out.append(render_once(TEMPLATE, steps_piece, lang, oob=True))
        pieces = {k: v for k, v in pieces.items() if k != "ht-trick"}
    out.extend(everything(pieces, lang))
    return Markup("\n").join(out)
