"""The forms of the Hearts pages, the solo table's and a table's with friends
(app/web/forms.py: how a form is read)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator

from app.rules.cards import parse_card
from app.web.forms import PageForm, Version, form_of

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


# What a route declares: ``form: PlayFormDep`` (app/web/forms.py, form_of).
MoveFormDep = Annotated[MoveForm, form_of(MoveForm)]
PassFormDep = Annotated[PassForm, form_of(PassForm)]
PlayFormDep = Annotated[PlayForm, form_of(PlayForm)]
