"""A table before its match: the lobby, drawn like the table itself (templates/hearts/_lobby.html).

The four seats sit around the felt, turned as the match will be (the player's own seat at the
bottom; a browser without a seat sees the creator's there), each with its player's name or
"free"; what the table waits for is said in words in the middle. The room's controls (the bots'
level, the turn limit) are a list of :class:`Control`, each drawn as one group of buttons, so a
new setting of the table is one more control here and one more field of the start form
(app/web/hearts/tables/forms.py, service.start).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.web.hearts.tables.service import Table
from app.web.hearts.tables.texts import compass
from app.web.hearts.tables.watch import WATCH_DELAYS
from app.web.hearts.texts import preset_names
from app.web.i18n import Translator

TURN_LIMITS = (15, 30, 60, 120)  # the turn limits offered, in seconds; "none" besides


@dataclass(frozen=True, slots=True)
class LobbySeat:
    seat: int  # the table's seat number
    place: int  # where the page draws it: 0 at the bottom, then round the table as play goes
    where: str  # South, West, …
    name: str | None  # None: nobody sits there
    mine: bool
    creator: bool


@dataclass(frozen=True, slots=True)
class Control:
    """One setting of the room: the form field ``name``, its ``legend``, its ``options``
    (value, label) and the value chosen now."""

    name: str
    legend: str
    options: tuple[tuple[str, str], ...]
    chosen: str


def lobby_seats(table: Table, my_seat: int | None, tr: Translator) -> list[LobbySeat]:
    """The seats in the order the page draws them (top, left, right, bottom, as the table)."""
    shift = my_seat or 0
    words = compass(tr)
    seats = [
        LobbySeat(
            seat=n, place=(n - shift) % 4, where=words[n],
            name=(s.name or words[n]) if s.human else None, mine=n == my_seat,
            creator=n == Table.CREATOR,
        )
        for n, s in enumerate(table.seats)
    ]
    order = (2, 1, 3, 0)
    return sorted(seats, key=lambda s: order.index(s.place))


def waiting_words(table: Table, my_seat: int | None, tr: Translator) -> str:
    """What the table waits for, said in words for the middle of the felt."""
    creator = table.seats[Table.CREATOR]
    host = creator.name or compass(tr)[Table.CREATOR]
    free = sum(not s.human for s in table.seats)
    if my_seat == Table.CREATOR:
        if not free:
            return tr.gettext("Everyone is here: start the match when you are ready.")
        return tr.ngettext(
            "Waiting for friends: %(num)d seat is free.",
            "Waiting for friends: %(num)d seats are free.",
            free,
        ) % {"num": free}
    if my_seat is not None:
        return tr.gettext("Waiting for %(name)s to start the match.") % {"name": host}
    if free:
        return tr.gettext("Pick a free seat to play.")
    return tr.gettext("Every seat is taken: you can watch the match when it starts.")


def room_controls(table: Table, tr: Translator) -> list[Control]:
    """The settings the creator picks before starting, as they are now."""
    levels = (("easy", tr.gettext("Easy")), ("normal", tr.gettext("Normal")),
              ("hard", tr.gettext("Hard")), ("expert", tr.gettext("Expert")))
    # A limit set through the API that the buttons do not offer is offered too, chosen.
    offered = sorted({*TURN_LIMITS, *([] if table.turn_seconds is None else [table.turn_seconds])})
    limits = tuple((str(s), tr.gettext("%(n)s s") % {"n": s}) for s in offered)
    limit = "none" if table.turn_seconds is None else str(table.turn_seconds)
    return [
        Control("level", tr.gettext("Bots"), levels, table.bot_level),
        Control("seconds", tr.gettext("Turn limit"), (*limits, ("none", tr.gettext("None"))),
                limit),
        Control("rules", tr.gettext("House rules"), tuple(preset_names(tr).items()), "seed"),
        Control("watch_delay", tr.gettext("Watchers see"),
                tuple((d, delay_label(d, tr)) for d in WATCH_DELAYS), table.watch_delay),
    ]


def delay_label(delay: str, tr: Translator) -> str:
    """The delay as the lobby's button names it."""
    return {"none": tr.gettext("Live"), "trick": tr.gettext("One trick late"),
            "30s": tr.gettext("30 s late")}[delay]


def delay_words(delay: str, tr: Translator) -> str:
    """What a watcher's page says of the delay (nothing when there is none)."""
    return {"none": "",
            "trick": tr.gettext("You see it one trick behind the players."),
            "30s": tr.gettext("You see it 30 seconds behind the players.")}[delay]
