"""The pages' forms: pydantic models, and the dependency that reads a request's form into one.

A page route declares its form as a model: ``form: Annotated[TapForm, form_of(TapForm)]``.
Starlette's form parser decodes the body, the model checks every field, and anything malformed
is a RequestValidationError, which app/web/errors.py answers with a 4xx page (never a 500).
(FastAPI's own ``Annotated[TapForm, Form()]`` does the same, but its per-field handling of a
form model cost a large share of a tap: bench/README.md.)

Numbers are ASCII digits only: ``str.isdigit`` and even ``int`` accept other scripts' digits
("²", "١٢"), which no page sends. An optional field that is empty counts as absent, as an
empty form input does.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

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


Form = TypeVar("Form", bound=PageForm)


def form_of(model: type[Form]) -> Any:
    """The dependency that reads the request's form into ``model``. Empty fields count as
    absent, as FastAPI counts them."""

    async def read(request: Request) -> Form:
        fields = {name: value for name, value in (await request.form()).items() if value != ""}
        try:
            return model.model_validate(fields)
        except ValidationError as error:
            problems = [{**problem, "loc": ("body", *problem["loc"])}
                        for problem in error.errors(include_url=False)]
            raise RequestValidationError(problems) from None

    return Depends(read)
