"""The forms of the Hearts pages, the solo table's and a table's with friends
(app/web/forms.py: how a form is read)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from app.rules.cards import parse_card
from app.rules.hearts_rules import HIGHEST_TARGET, LOWEST_TARGET, PRESETS, HeartsRules, MoonRule
from app.web.forms import PageForm, Version, WholeNumber, form_of

MAX_CARDS_TEXT = 80  # 13 cards, separated


def _card(text: Any) -> Any:
    # CardError is a ValueError: pydantic reports it as the field's error.
    return parse_card(text) if isinstance(text, str) else text


def _cards(text: Any) -> Any:
    """ "2C, 3D 10H" → a mask of those cards."""
    if not isinstance(text, str):
        return text
    if len(text) > MAX_CARDS_TEXT:
        raise ValueError("too many cards")
    mask = 0
    for part in text.replace(",", " ").split()[:13]:
        mask |= 1 << parse_card(part)
    return mask


Card = Annotated[int, BeforeValidator(_card)]
CardMask = Annotated[int, BeforeValidator(_cards)]


class MoveForm(PageForm):
    """A move on a table: the version the page holds. A page without JavaScript posts none
    (the field is outside its form): the move then applies to the game as it is."""

    version: Version | None = None


class PassForm(MoveForm):
    cards: CardMask = 0


class PlayForm(MoveForm):
    card: Card


class MoonForm(MoveForm):
    choice: Literal["add_to_others", "subtract_from_shooter"]


class RulesForm(PageForm):
    """House rules chosen on a page: a preset's name, or "custom" and the rules one by one (a
    box left unticked sends nothing: each box says what differs from the classic rules)."""

    rules: str = "seed"
    passing: Literal["cycle", "none"] = "cycle"
    queen_breaks_hearts: bool = False
    hearts_any_time: bool = False
    first_trick_points: bool = False
    jack_of_diamonds: bool = False
    no_tricks_bonus: bool = False
    moon: MoonRule = "add_to_others"
    target: Annotated[WholeNumber, Field(ge=LOWEST_TARGET, le=HIGHEST_TARGET)] = 100
    perfect_100: bool = False

    def chosen_rules(self) -> HeartsRules | None:
        """The rule set chosen; None when ``rules`` names no preset and is not "custom"."""
        if self.rules != "custom":
            return PRESETS.get(self.rules)
        return HeartsRules(
            passing=self.passing,
            queen_breaks_hearts=self.queen_breaks_hearts,
            hearts_must_be_broken=not self.hearts_any_time,
            first_trick_points=self.first_trick_points,
            jack_of_diamonds=-10 if self.jack_of_diamonds else 0,
            no_tricks_bonus=-5 if self.no_tricks_bonus else 0,
            moon=self.moon,
            target=self.target,
            perfect_100=self.perfect_100,
        )


class NewMatchForm(RulesForm):
    level: str = "N"


# What a route declares: ``form: PlayFormDep`` (app/web/forms.py, form_of).
MoveFormDep = Annotated[MoveForm, form_of(MoveForm)]
PassFormDep = Annotated[PassForm, form_of(PassForm)]
PlayFormDep = Annotated[PlayForm, form_of(PlayForm)]
MoonFormDep = Annotated[MoonForm, form_of(MoonForm)]
NewMatchFormDep = Annotated[NewMatchForm, form_of(NewMatchForm)]
