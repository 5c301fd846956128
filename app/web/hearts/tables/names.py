"""One name per person at a table (issue 28, F9): sitting down under a name another seated
player has (the same after NFKC and case folding, app/web/nickname.py) is refused, inside the
compare-and-set of the sit itself, so two people racing for one name cannot both have it."""

from __future__ import annotations

from app.rules.hearts import PlayedCard
from app.web.hearts.tables import service
from app.web.hearts.tables.service import Table, TableRefused
from app.web.nickname import nickname_key


def sit_named(session_id: str, name: str, wanted: int | None) -> service.Change:
    """:func:`service.sit`, refused (409 ``name_taken``) when another seat holds ``name``."""
    sit = service.sit(session_id, name, wanted)
    key = nickname_key(name)

    def apply(table: Table) -> list[PlayedCard]:
        for seat in table.seats:
            if seat.human and seat.session != session_id and seat.name is not None and (
                nickname_key(seat.name) == key
            ):
                raise TableRefused(409, "name_taken", table)
        return sit(table)

    return apply
