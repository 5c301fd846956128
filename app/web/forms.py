"""The fields of the pages' forms, as pydantic types that FastAPI reads and validates.

A page route declares its form as one model, ``form: Annotated[SomeForm, Form()]``: FastAPI
decodes the body, the model checks every field, and anything malformed is a
RequestValidationError, which app/web/errors.py answers with a 4xx page (never a 500).

Numbers are ASCII digits only: ``str.isdigit`` and even ``int`` accept other scripts' digits
("²", "١٢"), which no page sends. An optional field that is empty counts as absent, as an
empty form input does.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

MAX_WHOLE = 10**15  # far more than any version, seat or count a page holds
MAX_ELAPSED_SECONDS = 10**8

_WHOLE = re.compile(r"[0-9]{1,16}")
_DECIMAL = re.compile(r"[0-9]{1,9}(\.[0-9]{1,6})?")


def _matching(pattern: re.Pattern[str]) -> BeforeValidator:
    def check(value: Any) -> Any:
        if isinstance(value, str) and not pattern.fullmatch(value):
            raise ValueError("a number is written with the digits 0-9 only")
        return value

    return BeforeValidator(check)


WholeNumber = Annotated[int, _matching(_WHOLE), Field(ge=0, le=MAX_WHOLE)]
# A game's or a table's version, as the page holds it.
Version = WholeNumber
# A number of seconds: whole or with a decimal point ("12.5").
Seconds = Annotated[float, _matching(_DECIMAL), Field(ge=0, le=MAX_ELAPSED_SECONDS)]


class PageForm(BaseModel):
    # Fields a page sends that a route does not read (htmx adds the trigger's) are ignored.
    model_config = ConfigDict(extra="ignore")


class VersionForm(PageForm):
    """An action on a game held at ``version`` (the page's hidden field)."""

    version: Version
