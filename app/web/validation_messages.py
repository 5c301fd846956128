"""What is wrong with a JSON API request, in the player's language.

Pydantic's own messages are English ("Field required"), so the message is chosen by the error's
*type* from the catalogs' msgids below; pydantic's text is never shown. A type not listed gets
the general sentence for its field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.web.i18n import translator

# %(field)s is the JSON name of the field ("target", "cards.1"); the other names come from the
# error's ctx (the limit that was broken).
FIELD_MESSAGES = {
    "missing": "The field “%(field)s” is required.",
    "extra_forbidden": "The field “%(field)s” is not accepted here.",
    "bool_type": "The field “%(field)s” must be true or false.",
    "int_type": "The field “%(field)s” must be a whole number.",
    "string_type": "The field “%(field)s” must be a string.",
    "list_type": "The field “%(field)s” must be a list.",
    "string_too_long": "The field “%(field)s” is too long: at most %(max_length)s characters.",
    "too_long": "The field “%(field)s” has too many items: at most %(max_length)s.",
    "too_short": "The field “%(field)s” has too few items: at least %(min_length)s.",
    "greater_than_equal": "The field “%(field)s” must be %(ge)s or more.",
    "less_than_equal": "The field “%(field)s” must be %(le)s or less.",
    "literal_error": "The field “%(field)s” does not take this value.",
}
FIELD_DEFAULT = "The field “%(field)s” holds a value that cannot be used."

# Errors about the body as a whole (no field to name).
BODY_MESSAGES = {
    "missing": "The request needs a JSON body.",
    "json_invalid": "The body is not valid JSON.",
    "body": "The body is not UTF-8 JSON.",
    "model_type": "The body must be a JSON object.",
    "model_attributes_type": "The body must be a JSON object.",
    "dict_type": "The body must be a JSON object.",
}
BODY_DEFAULT = "The request body cannot be used."


def validation_message(errors: Sequence[Mapping[str, Any]], lang: str) -> str:
    """The first of FastAPI's validation errors as one sentence in ``lang``."""
    gettext = translator(lang).gettext
    if not errors:
        return gettext(BODY_DEFAULT)
    error = errors[0]
    kind = str(error.get("type", ""))
    # loc starts with where the value came from ("body", "query", "path"); the rest is the field.
    # An unknown key is the client's own text: keep a long one short.
    field = ".".join(str(part) for part in tuple(error.get("loc", ()))[1:])[:40]
    if not field or (kind in BODY_MESSAGES and kind != "missing"):
        return gettext(BODY_MESSAGES.get(kind, BODY_DEFAULT))
    context = {k: v for k, v in (error.get("ctx") or {}).items() if isinstance(v, int | str)}
    return gettext(FIELD_MESSAGES.get(kind, FIELD_DEFAULT)) % {**context, "field": field}
