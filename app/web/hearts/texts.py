"""The Hearts texts the page and the JSON API both say, in the player's language."""

from __future__ import annotations

from app.rules.cards import CardError
from app.rules.deal_codes import DealCodeError
from app.rules.hearts import HeartsError
from app.rules.hearts_rules import HeartsRules, preset_of
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
        "not_moon": tr.gettext("There is no moon to choose for now."),
        "not_shooter": tr.gettext("Only the player who shot the moon chooses."),
        "moon_choice": tr.gettext("Choose: 26 to each of the others, or 26 off your total."),
    }
    return texts.get(error.reason, tr.gettext("That cannot be done now."))


def deal_error_message(error: DealCodeError, tr: Translator) -> str:
    """Why a text is not a Hearts deal code."""
    messages = {
        "game": tr.gettext("This is not a Hearts deal code: Hearts codes start with HT1-."),
        "variant": tr.gettext(
            "The letter after HT1- is the bots' level: E (easy), N (normal), H (hard) or X"
            " (expert)."
        ),
        "number": tr.gettext("The deal number must be exactly seven letters A–Z."),
        "rules": tr.gettext("The house rules at the end of this deal code cannot be read."),
    }
    return messages.get(error.reason) or tr.gettext(
        "This is not a deal code. A Hearts deal code looks like %(example)s."
    ) % {"example": EXAMPLE_CODE}


def preset_names(tr: Translator) -> dict[str, str]:
    """The names of the house-rule presets (app/rules/hearts_rules.py, PRESETS)."""
    return {
        "seed": tr.gettext("Classic"),
        "omnibus": tr.gettext("Omnibus"),
        "no_pass": tr.gettext("No passing"),
        "tournament": tr.gettext("Tournament"),
        "new_moon": tr.gettext("New Moon"),
    }


def moon_rule_names(tr: Translator) -> dict[str, str]:
    return {
        "add_to_others": tr.gettext("Moon: 26 to each of the others"),
        "subtract_from_shooter": tr.gettext("Moon: 26 off the shooter"),
        "shooters_choice": tr.gettext("Moon: the shooter's choice"),
        "safe": tr.gettext("Moon: safe (never hands another the match)"),
    }


def rule_lines(rules: HeartsRules, tr: Translator) -> list[str]:
    """Every rule of the set, one line each, for the full list."""
    return [
        tr.gettext("Passing: left, right, across, none")
        if rules.passing == "cycle" else tr.gettext("No passing"),
        tr.gettext("The Q♠ breaks hearts")
        if rules.queen_breaks_hearts else tr.gettext("Only a heart breaks hearts"),
        tr.gettext("Hearts are led once broken")
        if rules.hearts_must_be_broken else tr.gettext("Hearts may be led at any time"),
        tr.gettext("Points may fall on the first trick")
        if rules.first_trick_points else tr.gettext("No points on the first trick"),
        tr.gettext("J♦: −10 points") if rules.jack_of_diamonds else tr.gettext("J♦: no points"),
        tr.gettext("No trick taken: −5 points")
        if rules.no_tricks_bonus else tr.gettext("No bonus for taking no trick"),
        moon_rule_names(tr)[rules.moon],
        tr.gettext("Match to %(num)d points") % {"num": rules.target},
        tr.gettext("Perfect 100: exactly %(num)d points drops to %(half)d")
        % {"num": rules.target, "half": rules.target // 2}
        if rules.perfect_100 else tr.gettext("No Perfect 100"),
    ]


def rules_differences(rules: HeartsRules, tr: Translator) -> str:
    """What ``rules`` change from the classic rules, in a line (empty for the classic)."""
    seed = HeartsRules()
    return " · ".join(
        line for line, seed_line in zip(rule_lines(rules, tr), rule_lines(seed, tr), strict=True)
        if line != seed_line
    )


def rules_summary(rules: HeartsRules, tr: Translator) -> str:
    """The rule set as a short line: its preset's name, or what differs from the classic
    rules."""
    preset = preset_of(rules)
    return rules_differences(rules, tr) if preset is None else preset_names(tr)[preset]
