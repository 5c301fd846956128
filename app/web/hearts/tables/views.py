"""What one browser may see of a table: the JSON view (the API and every event) and the seat
names. Built from that seat's :class:`HeartsView` only, so no card of another hand can reach
it; a watcher gets a view with no hand at all. The deal code would give every hand away (anyone
can run the shuffle), so it stays null until the match is over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, Field

from app.rules.cards import card_text, cards_in
from app.rules.hearts import HeartsView, PlayedCard
from app.web.api_models import HT_DEAL_PATTERN, FinishedTrick, Play, Seat, ShownCard
from app.web.hearts.tables.service import Table


class TableSeat(BaseModel):
    seat: Seat
    name: str | None = Field(description="The player's nickname; null for an empty seat.")
    human: bool = Field(description="A player took this seat (false: a bot plays it).")
    connected: bool = Field(description="The player plays it now (false: away, a bot plays).")
    autoplayed: bool = Field(description="The turn limit made the bot play this seat's last turn.")
    cards_left: int = Field(ge=0, le=13)
    hand_points: int = Field(ge=0, le=26)
    total: int = Field(ge=0)


class Reaction(BaseModel):
    seat: Seat
    reaction: str
    version: int


class TableView(BaseModel):
    table_id: str
    game_id: str = Field(description="The table's id again, as in a game's state.")
    deal: str | None = Field(pattern=HT_DEAL_PATTERN, description="Null until the match is over.")
    version: int = Field(ge=1)
    my_seat: Seat | None = Field(description="The caller's seat; null for a watcher.")
    creator_seat: Seat
    bot_level: Literal["easy", "normal", "hard"]
    turn_seconds: int | None
    turn_deadline: float | None = Field(description="Seconds left for the awaited player(s).")
    started: bool
    phase: Literal["waiting", "passing", "playing", "hand_over", "match_over"]
    hand_number: int = Field(ge=0)
    pass_direction: Literal["left", "right", "across", "none"]
    seats: list[TableSeat] = Field(min_length=4, max_length=4)
    hand: list[ShownCard] = Field(max_length=13)
    legal: list[ShownCard] = Field(max_length=13)
    pass_chosen: bool
    turn: Seat | None
    trick: list[Play] = Field(max_length=3)
    tricks: list[FinishedTrick] = Field(max_length=13)
    hearts_broken: bool
    passed: list[ShownCard] | None
    received: list[ShownCard] | None
    hand_scores: list[list[int]]
    moon: Seat | None
    winner: Seat | None
    undo_available: bool = Field(description="Always false: there is no undo at a table.")
    reactions: list[Reaction]


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def _plays(plays: tuple[PlayedCard, ...]) -> list[Play]:
    return [Play(seat=p.seat, card=card_text(p.card)) for p in plays]


def seat_view(table: Table, seat: int | None) -> HeartsView | None:
    """The match as ``seat`` may see it; a watcher sees South's view without its hand."""
    if table.match is None:
        return None
    view = table.match.view(0 if seat is None else seat)
    if seat is None:
        view = replace(
            view, hand=0, legal=0, passed=None, received=None, pass_choice=0, pass_chosen=False
        )
    return view


def table_view(table: Table, session_id: str, now: float) -> TableView:
    seat = table.seat_of(session_id)
    view = seat_view(table, seat)
    deadline = table.deadline()
    over = view is not None and view.phase == "match_over"
    seats = [
        TableSeat(
            seat=n, name=s.name, human=s.human, connected=s.human and not s.away,
            autoplayed=s.autoplayed,
            cards_left=view.cards_left[n] if view else 0,
            hand_points=view.hand_points[n] if view else 0,
            total=view.totals[n] if view else 0,
        )
        for n, s in enumerate(table.seats)
    ]
    return TableView(
        table_id=table.table_id,
        game_id=table.table_id,
        deal=view.deal if over and view else None,
        version=table.version,
        my_seat=seat,
        creator_seat=Table.CREATOR,
        bot_level=table.bot_level,  # type: ignore[arg-type]
        turn_seconds=table.turn_seconds,
        turn_deadline=None if deadline is None else round(max(0.0, deadline - now), 1),
        started=view is not None,
        phase="waiting" if view is None else view.phase,
        hand_number=0 if view is None else view.hand_number,
        pass_direction="left" if view is None else view.pass_direction,
        seats=seats,
        hand=_cards(view.hand) if view else [],
        legal=_cards(view.legal) if view and view.phase == "playing" else [],
        pass_chosen=bool(view and view.pass_chosen),
        turn=view.turn if view else None,
        trick=_plays(view.trick) if view else [],
        tricks=[
            FinishedTrick(leader=t.leader, cards=_plays(t.cards), winner=t.winner, points=t.points)
            for t in (view.tricks if view else ())
        ],
        hearts_broken=bool(view and view.hearts_broken),
        passed=None if view is None or view.passed is None else _cards(view.passed),
        received=None if view is None or view.received is None else _cards(view.received),
        hand_scores=[list(s) for s in view.hand_scores] if view else [],
        moon=view.moon if view else None,
        winner=view.winner if view else None,
        undo_available=False,
        reactions=[Reaction(version=v, seat=s, reaction=r) for v, s, r in table.reactions],
    )


