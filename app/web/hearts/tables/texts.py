"""What tables say, in the player's language: why a request was refused, and seat names."""

from __future__ import annotations

from app.web.hearts.tables.service import Table, TableRefused
from app.web.hearts.texts import refusal_text
from app.web.i18n import Translator

REACTION_SYMBOLS = {"thumbs_up": "👍", "laugh": "😄", "wow": "😮", "sad": "😢", "clap": "👏"}


def reaction_label(reaction: str, tr: Translator) -> str:
    return {
        "thumbs_up": tr.gettext("Nice one"),
        "laugh": tr.gettext("Ha ha"),
        "wow": tr.gettext("Wow"),
        "sad": tr.gettext("Oh no"),
        "clap": tr.gettext("Well played"),
    }[reaction]


def compass(tr: Translator) -> tuple[str, str, str, str]:
    return (tr.gettext("South"), tr.gettext("West"), tr.gettext("North"), tr.gettext("East"))


def seat_label(table: Table, seat: int, tr: Translator) -> str:
    """How a seat is named at the table: the player's nickname, or the bot in that seat."""
    s = table.seats[seat]
    where = compass(tr)[seat]
    if s.session is None:
        return tr.gettext("Bot (%(seat)s)") % {"seat": where}
    name = s.name or where
    if s.away:
        return tr.gettext("%(name)s (bot)") % {"name": name}
    return name


def refused_text(refused: TableRefused, tr: Translator) -> str:
    error = getattr(refused, "error", None)
    if error is not None:
        return refusal_text(error, tr)
    texts = {
        "stale_version": tr.gettext("The table had changed; here it is now."),
        "not_seated": tr.gettext("Only the player in that seat can do that."),
        "not_creator": tr.gettext("Only the player who opened the table can start it."),
        "started": tr.gettext("The match at this table has started."),
        "not_started": tr.gettext("The match has not started yet."),
        "full": tr.gettext("Every seat at this table is taken."),
        "taken": tr.gettext("That seat is taken."),
        "already_seated": tr.gettext("You already have a seat at this table."),
        "name_taken": tr.gettext(
            "A player at this table already has that name: choose another one."
        ),
        "busy": tr.gettext("The table is busy; try again."),
        "not_due": tr.gettext("The turn has not run out yet."),
        "too_many_reactions": tr.gettext("That is a lot of reactions: wait a few seconds."),
    }
    return texts.get(refused.reason, tr.gettext("That cannot be done now."))
