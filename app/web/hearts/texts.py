"""The Hearts texts the page and the JSON API both say, in the player's language."""

from __future__ import annotations

from app.rules.cards import CardError
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import HeartsError
from app.web.i18n import Translator

EXAMPLE_CODE = "HT1-N-AAAAAAM"


def seat_names(tr: Translator) -> tuple[str, str, str, str]:
    return (tr.gettext("You"), tr.gettext("West"), tr.gettext("North"), tr.gettext("East"))


def refusal_text(error: HeartsError | CardError, tr: Translator) -> str:
    """Why the rules refused an action."""
    if not isinstance(error, HeartsError):
        return tr.gettext("That is not a card.")
    texts = {
        "not_your_turn": tr.gettext("It is not your turn."),
        "not_in_hand": tr.gettext("That card is not in your hand."),
        "not_a_card": tr.gettext("That is not a card."),
        "follow_suit": tr.gettext("Follow the suit that was led."),
        "first_trick": tr.gettext("No hearts and no Q♠ on the first trick."),
        "two_of_clubs": tr.gettext("The first trick is led with the 2♣."),
        "hearts_not_broken": tr.gettext("Hearts are not broken yet: lead another suit."),
        "count": tr.gettext("Pick exactly three cards to pass."),
        "already_chosen": tr.gettext("Your cards are already passed."),
        "no_pass": tr.gettext("There is no passing in this hand."),
        "nothing_to_undo": tr.gettext("There is nothing to undo."),
    }
    return texts.get(error.reason, tr.gettext("That cannot be done now."))


def deal_error_message(error: DealCodeError, tr: Translator) -> str:
    """Why a text is not a Hearts deal code."""
    messages = {
        "game": tr.gettext("This is not a Hearts deal code: Hearts codes start with HT1-."),
        "variant": tr.gettext(
            "The letter after HT1- is the bots' level: E (easy), N (normal) or H (hard)."
        ),
        "number": tr.gettext("The deal number must be exactly seven letters A–Z."),
    }
    return messages.get(error.reason) or tr.gettext(
        "This is not a deal code. A Hearts deal code looks like %(example)s."
    ) % {"example": EXAMPLE_CODE}
