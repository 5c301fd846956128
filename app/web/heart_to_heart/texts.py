"""The Heart to Heart texts the page and the JSON API both say, in the player's language."""

from __future__ import annotations

from typing import Any

from app.rules.deal_codes import DealCodeError
from app.rules.heart_to_heart import HeartToHeartGame, UndoError
from app.web.i18n import translator
from app.web.results import heart_to_heart_result

EXAMPLE_CODE = "HH1-N-AAAAAAM"


def move_error(kind: str, move_errors: bool, lang: str) -> str | None:
    """The move-error text after a tap of ``kind`` (TapResult.kind), when the player asked
    for move errors."""
    if kind == "reselect" and move_errors:
        return translator(lang).gettext("Must be same rank")
    return None


def result_words(row: dict[str, Any], lang: str) -> str:
    """A Heart to Heart result as a results board's row holds it, in words: "won in 2:10,
    91 moves", "3 cards left after 4:02, 120 moves"."""
    tr = translator(lang)
    minutes, seconds = divmod(row["seconds"], 60)
    time = f"{minutes}:{seconds:02d}"
    moves = tr.ngettext("%(num)d move", "%(num)d moves", row["moves"]) % {"num": row["moves"]}
    if row["won"]:
        return tr.gettext("won in %(time)s, %(moves)s") % {"time": time, "moves": moves}
    left = tr.ngettext("%(num)d card left", "%(num)d cards left", row["cards_left"])
    return tr.gettext("%(left)s after %(time)s, %(moves)s") % {
        "left": left % {"num": row["cards_left"]}, "time": time, "moves": moves,
    }


def result_share_text(game: HeartToHeartGame, lang: str) -> str:
    """What the won dialog's "Share result" says before the deal's link ("HH1-W-ABCDEFG ♥ won
    in 2:10, 91 moves"), with ", with hints or undo" when the game was assisted, so that a
    shared time never passes for one played without help."""
    said = f"{game.deal} ♥ {result_words(heart_to_heart_result(game).row, lang)}"
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
