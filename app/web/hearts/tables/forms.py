"""The forms of a table's pages that are not a seat's move (app/web/hearts/forms.py)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from app.web.forms import PageForm, WholeNumber, form_of
from app.web.hearts.tables.service import TURN_SECONDS_MAX

NAME_FIELD_MAX = 200  # what the form takes; the nickname's own rules are app/web/nickname.py


class NameForm(PageForm):
    name: str = Field("", max_length=NAME_FIELD_MAX)


class SitForm(NameForm):
    seat: Annotated[WholeNumber, Field(le=3)] | None = None  # None: any free seat


def _no_limit(value: Any) -> Any:
    return None if value == "none" else value


class StartForm(PageForm):
    level: str = Field("normal", max_length=10)
    rules: str = Field("seed", max_length=20)  # a preset's name (app/rules/hearts_rules.py)
    watch_delay: str = Field("none", max_length=10)  # watch.WATCH_DELAYS
    # "none": no turn limit.
    seconds: Annotated[
        Annotated[WholeNumber, Field(le=TURN_SECONDS_MAX)] | None, BeforeValidator(_no_limit)
    ] = 30


class ReactForm(PageForm):
    reaction: str = Field("", max_length=20)


# What a route declares: ``form: TapFormDep`` (app/web/forms.py, form_of).
NameFormDep = Annotated[NameForm, form_of(NameForm)]
SitFormDep = Annotated[SitForm, form_of(SitForm)]
StartFormDep = Annotated[StartForm, form_of(StartForm)]
ReactFormDep = Annotated[ReactForm, form_of(ReactForm)]
