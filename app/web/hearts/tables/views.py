"""What one browser may see of a table: the JSON view (the API and every event) and the seat
names. Built from that seat's :class:`HeartsView` only, so no card of another hand can reach
it; a watcher's is built from the match's public part only (watch.py), with no hand at all.
The deal code would give every hand away (anyone can run the shuffle), so it stays null until
the match is over.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.rules.cards import card_text, cards_in
from app.rules.hearts import SEED_RULES, HeartsView, PlayedCard
from app.web.api_models import (
    HT_DEAL_PATTERN,
    FinishedTrick,
    HeartsRulesState,
    HeartsState,
    Play,
    Seat,
    SeatState,
    ShownCard,
)
from app.web.hearts.tables.service import Presence, ReactionName, Table
from app.web.hearts.tables.watch import PublicMatch, WatchDelay, public_moment


class TableSeat(SeatState):
    name: str | None = Field(  # type: ignore[assignment]
        description="The player's nickname; null for an empty seat or a player who gave none."
    )
    connected: bool = Field(
        description="The player's page has the table's event stream open now (false for a bot)."
    )
    away: bool = Field(
        description="The player has gone (no event stream for a few seconds, or two turns in a "
        "row past the limit): the Normal bot plays the seat, at the bots' pace, until they come "
        "back (…/back)."
    )
    autoplayed: bool = Field(description="The turn limit made the bot play this seat's last turn.")
    autoplayed_card: ShownCard | None = Field(
        description="The card the bot played then (null when it passed, or if it did not play)."
    )
    played_away: list[ShownCard] = Field(
        description="The cards the bot played for the player since they were last away, in "
        "order (at the bots' pace, one card per turn); kept after they come back, until their "
        "own next move."
    )


class Reaction(BaseModel):
    seat: Seat
    reaction: ReactionName
    version: int = Field(description="The version the reaction made.")


class TableView(HeartsState):
    """A game's state (HeartsState) as one seat of the table sees it, and the table."""

    deal: str | None = Field(pattern=HT_DEAL_PATTERN, description="Null until the match is over.")
    phase: Literal["waiting", "passing", "playing", "moon", "hand_over", "match_over"]  # type: ignore[assignment]
    hand_number: int = Field(ge=0)
    seats: list[TableSeat] = Field(min_length=4, max_length=4)  # type: ignore[assignment]
    undo_available: bool = Field(description="Always false: there is no undo at a table.")
    table_id: str
    my_seat: Seat | None = Field(description="The caller's seat; null for a watcher.")
    creator_seat: Seat
    turn_seconds: int | None
    turn_deadline: float | None = Field(description="Seconds left for the awaited player(s).")
    awaited: list[Seat] = Field(
        description="The players the turn limit is running for (empty: none, or no limit)."
    )
    started: bool
    pass_chosen: bool
    reactions: list[Reaction]
    watchers: int = Field(ge=0, description="How many watch the table now (event streams open "
                          "without a seat: the watch link's, or the invite's before sitting).")
    watch_code: str | None = Field(
        default=None,
        description="The code of the table's watch link (`/hearts/w/{watch_code}`, "
        "`GET /api/hearts/watch/{watch_code}`): whoever has it can watch, never sit or act.",
    )
    watch_delay: WatchDelay = Field(
        description="How far behind watchers see the match: none, one trick (the table as it "
        "stood four cards ago; the match's end at once), or 30 seconds."
    )


def _cards(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def _plays(plays: tuple[PlayedCard, ...]) -> list[Play]:
    return [Play(seat=p.seat, card=card_text(p.card)) for p in plays]


def seat_view(table: Table, seat: int | None) -> HeartsView | None:
    """The match as ``seat`` may see it; a watcher (None) sees its public part only, made
    from a public moment that holds no hand (watch.PublicMatch)."""
    match = table.match
    if match is None:
        return None
    if seat is not None:
        return match.view(seat)
    if isinstance(match, PublicMatch):
        return match.public_view
    return PublicMatch(public_moment(match), match.rules, match.deal).public_view


def table_view(table: Table, session_id: str, now: float, presence: Presence) -> TableView:
    seat = table.seat_of(session_id)
    view = seat_view(table, seat)
    deadline = table.deadline()
    over = view is not None and view.phase == "match_over"
    seats = [
        TableSeat(
            seat=n, name=s.name, human=s.human, connected=s.human and presence.connected[n],
            away=s.away, autoplayed=s.autoplayed,
            autoplayed_card=None if s.autoplayed_card is None else card_text(s.autoplayed_card),
            played_away=[card_text(c) for c in s.played_away],
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
        awaited=[] if deadline is None else table.waiting_for(),
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
        rules=HeartsRulesState(**(view.rules if view else SEED_RULES).to_json()),
        reactions=[Reaction(version=v, seat=s, reaction=r) for v, s, r, _ in table.reactions],
        watchers=presence.watchers,
        watch_delay=table.watch_delay,  # type: ignore[arg-type]
    )


