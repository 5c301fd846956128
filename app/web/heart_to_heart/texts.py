"""The Heart to Heart texts the page and the JSON API both say, in the player's language."""

from __future__ import annotations

from app.rules.deal_codes import DealCodeError
from app.rules.heart_to_heart import HeartToHeartGame, UndoError
from app.web.daily_codes import HEART_TO_HEART
from app.web.i18n import translator
from app.web.results import heart_to_heart_row

EXAMPLE_CODE = "HH1-N-AAAAAAM"


def move_error(kind: str, move_errors: bool, lang: str) -> str | None:
    """The move-error text after a tap of ``kind`` (TapResult.kind), when the player asked
    for move errors."""
    if kind == "reselect" and move_errors:
        return translator(lang).gettext("Must be same rank")
    return None


def result_share_text(game: HeartToHeartGame, lang: str) -> str:
    """What the won dialog's "Share result" says before the deal's link: the results board's
    words ("HH1-W-ABCDEFG ♥ won in 2:10, 91 moves"), and ", with hints or undo" when the game
    was assisted, so that a shared time never passes for one played without help."""
    from app.web.daily import share_text  # daily.py imports this game's pages

    said = share_text(HEART_TO_HEART, game.deal, heart_to_heart_row(game), lang)
    if not game.assisted:
        return said
    return translator(lang).gettext("%(result)s, with hints or undo") % {"result": said}


def undo_refusal(error: UndoError, lang: str) -> str:
    tr = translator(lang)
    if error.reason == "game_won":
        return tr.gettext("A won game is final.")
    return tr.gettext("There is no move to undo.")


def deal_error_message(error: DealCodeError, text: str, lang: str) -> str:
    tr = translator(lang)
    cleaned = text.strip().upper()[:40]
    messages = {
        "too_long": tr.gettext("A deal code is short, like %(example)s."),
        "empty": tr.gettext("No deal code was given; a code looks like %(example)s."),
        "format": tr.gettext("“%(code)s” is not a deal code; a code looks like %(example)s."),
        "game": tr.gettext(
            "“%(code)s” is not a Heart to Heart deal; Heart to Heart codes start with HH1-."
        ),
        "variant": tr.gettext(
            "The letter after HH1- must be N (any deal) or W (a deal that can be won)."
        ),
        "number": tr.gettext("The deal number must be exactly seven letters A–Z."),
    }
    text = messages.get(error.reason, error.message)
    return text % {"code": cleaned, "example": EXAMPLE_CODE}
