"""Settings: the page ``/settings`` (a form that also works without JavaScript) and the JSON
API's ``GET|PUT /api/settings`` (contract.md, "Added in the second round").

A change is checked whole before it is stored: one bad value refuses the request (422 from the
API, 400 from the form) and changes nothing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, ValidationError

from app.store import GameStore
from app.web.api_models import error_responses
from app.web.deps import Lang, ProfileDep, SessionId, StoreDep
from app.web.preferences import (
    ANIMATION_SPEEDS,
    ANNOUNCEMENTS,
    CARD_BACKS,
    HEARTS_BOT_LEVELS,
    TABLE_COLOURS,
    AnimationSpeed,
    Announcements,
    CardBack,
    HeartsBotLevel,
    PlayerSettings,
    TableColour,
    save_settings,
    settings_of,
)
from app.web.templating import page

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api", tags=["Settings"])

# The form's value for "not chosen" (animation_speed None).
SYSTEM = "system"
SWITCHES = tuple(
    name for name, field in PlayerSettings.model_fields.items() if field.annotation is bool
)


class SettingsChange(BaseModel):
    """Any of the settings' keys; the ones left out keep their value. ``animation_speed``: null
    goes back to the system's choice (off under reduced motion); no other key takes null."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        json_schema_extra={"examples": [{"sound": True, "table_colour": "blue"}]},
    )

    animation_speed: AnimationSpeed | None = None
    sound: bool | None = None
    vibration: bool | None = None
    card_back: CardBack | None = None
    table_colour: TableColour | None = None
    left_handed: bool | None = None
    hearts_bot_level: HeartsBotLevel | None = None
    hearts_autoplay_single: bool | None = None
    hearts_claim: bool | None = None
    hearts_cards_played: bool | None = None
    h2h_move_errors: bool | None = None
    h2h_placement_help: bool | None = None
    announcements: Announcements | None = None


async def save(store: GameStore, session_id: str, change: dict[str, Any]) -> PlayerSettings:
    """Store ``change``; a bad value is the request's validation error (nothing written)."""
    try:
        return await save_settings(store, session_id, change)
    except ValidationError as error:
        raise RequestValidationError(
            [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors()]
        ) from error


# --- the JSON API ----------------------------------------------------------------------------


@api.get("/settings", response_model=PlayerSettings, responses=error_responses())
async def get_settings(profile: ProfileDep) -> PlayerSettings:
    """This browser's settings (every key, defaults included)."""
    return settings_of(profile)


@api.put("/settings", response_model=PlayerSettings, responses=error_responses(403, 413, 422))
async def put_settings(
    body: SettingsChange, store: StoreDep, session_id: SessionId
) -> PlayerSettings:
    """Change any of the settings; a bad value is a 422 and changes nothing."""
    return await save(store, session_id, body.model_dump(exclude_unset=True))


# --- the page --------------------------------------------------------------------------------


@router.get("/settings", response_class=HTMLResponse, name="settings_page")
async def settings_page(request: Request, profile: ProfileDep, lang: Lang) -> HTMLResponse:
    settings = settings_of(profile)
    context = {
        # The form's values: animation_speed None is the "system" choice.
        "chosen": {**settings.model_dump(), "animation_speed": settings.animation_speed or SYSTEM},
        "speeds": (SYSTEM, *ANIMATION_SPEEDS),
        "card_backs": CARD_BACKS,
        "table_colours": TABLE_COLOURS,
        "bot_levels": HEARTS_BOT_LEVELS,
        "announcement_levels": ANNOUNCEMENTS,
        "saved": request.query_params.get("saved") == "1",
    }
    return page(request, "settings.html", context, lang)


@router.post("/settings", name="settings_save")
async def settings_save(request: Request, store: StoreDep, session_id: SessionId) -> Response:
    """The form without JavaScript: every field at once (a switch left out is off)."""
    form = await request.form()
    change: dict[str, Any] = {name: form.get(name) == "on" for name in SWITCHES}
    for name in ("card_back", "table_colour", "hearts_bot_level", "announcements"):
        change[name] = form.get(name)
    speed = form.get("animation_speed")
    change["animation_speed"] = None if speed == SYSTEM else speed
    await save(store, session_id, change)
    return RedirectResponse(request.app.url_path_for("settings_page") + "?saved=1", 303)
