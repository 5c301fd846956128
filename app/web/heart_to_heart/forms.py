"""The forms of Heart to Heart's pages (app/web/forms.py: how a form is read)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.web.forms import PageForm, Seconds, VersionForm, form_of


class ActionForm(VersionForm):
    """An action's form: the version the page holds and the play time its clock shows (what it
    had from the server, plus the seconds the page was visible since; static/js/clock.js)."""

    elapsed: Seconds | None = None


class TapForm(ActionForm):
    target: str = Field(max_length=12)  # heart:0 … heart:24, stock, waste


class OptionsForm(PageForm):
    move_errors: bool = False
    placement_help: bool = False
    game: str | None = Field(None, max_length=40)  # the game the page shows, redrawn with them


# What a route declares: ``form: TapFormDep`` (app/web/forms.py, form_of).
ActionFormDep = Annotated[ActionForm, form_of(ActionForm)]
TapFormDep = Annotated[TapForm, form_of(TapForm)]
OptionsFormDep = Annotated[OptionsForm, form_of(OptionsForm)]
