"""The player's settings: what they are, their defaults, and how a page shows them.

Kept in the profile: most keys under ``settings``; Heart to Heart's two options keep their own
place, ``h2h_options`` (the game's options menu writes them too), and appear here as ``h2h_*``.
The page reads them from ``<body data-…>`` attributes that static/css/room.css and the scripts
act on, so every page is drawn with the settings from its first frame.

The games read the on/off settings they act on as small groups: Heart to Heart's
:class:`Options` and Hearts' :class:`PlayHelp`, each read from the profile by :func:`flag`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.requests import Request

from app.store import GameStore
from app.web.profile import Profile, update_profile

AnimationSpeed = Literal["off", "fast", "normal", "slow"]
CardBack = Literal["red", "blue", "black"]
TableColour = Literal["green", "blue", "burgundy", "slate"]
HeartsBotLevel = Literal["easy", "normal", "hard", "expert"]
# What the page says aloud (static/js/room.js): every event, or "fewer", without the player's
# own doings (the card they played), which they know.
Announcements = Literal["more", "fewer"]

ANIMATION_SPEEDS: tuple[AnimationSpeed, ...] = ("off", "fast", "normal", "slow")
CARD_BACKS: tuple[CardBack, ...] = ("red", "blue", "black")
TABLE_COLOURS: tuple[TableColour, ...] = ("green", "blue", "burgundy", "slate")
HEARTS_BOT_LEVELS: tuple[HeartsBotLevel, ...] = ("easy", "normal", "hard", "expert")
ANNOUNCEMENTS: tuple[Announcements, ...] = ("more", "fewer")
# The Heart to Heart options' names in h2h_options, by their settings key.
H2H_OPTIONS = {"h2h_move_errors": "move_errors", "h2h_placement_help": "placement_help"}


class PlayerSettings(BaseModel):
    """Every setting with its default. ``animation_speed`` None: not chosen, so "off" when the
    system asks for reduced motion and "normal" otherwise (only the browser knows which)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    animation_speed: AnimationSpeed | None = None
    sound: bool = False
    vibration: bool = True
    card_back: CardBack = "red"
    table_colour: TableColour = "green"
    left_handed: bool = False
    hearts_bot_level: HeartsBotLevel = "normal"
    hearts_autoplay_single: bool = False
    hearts_claim: bool = True
    # The "cards played" panel: some players see it as help, so a match played with it is
    # marked assisted (ranked apart on boards, like hints).
    hearts_cards_played: bool = False
    h2h_move_errors: bool = False
    h2h_placement_help: bool = True
    announcements: Announcements = "more"


DEFAULTS = PlayerSettings()


def settings_of(profile: Profile | None) -> PlayerSettings:
    """The profile's settings; a stored value this version cannot use counts as unset."""
    if profile is None:
        return DEFAULTS
    values: dict[str, Any] = dict(profile.data.get("settings") or {})
    options = profile.data.get("h2h_options") or {}
    for key, option in H2H_OPTIONS.items():
        if option in options:
            values[key] = options[option]
    values = {key: value for key, value in values.items() if key in PlayerSettings.model_fields}
    while values:
        try:
            return PlayerSettings.model_validate(values)
        except ValidationError as error:
            bad = {str(problem["loc"][0]) for problem in error.errors() if problem["loc"]}
            if not bad & values.keys():
                break
            values = {key: value for key, value in values.items() if key not in bad}
    return DEFAULTS


def flag(profile: Profile, key: str) -> bool:
    """One on/off setting (``key`` as in PlayerSettings), read alone as ``settings_of`` reads
    it: a stored value that is not true or false counts as unset. The games read theirs on
    every action, where checking every setting costs more than the rest of the read."""
    option = H2H_OPTIONS.get(key)
    chosen = profile.data.get("h2h_options" if option else "settings")
    value = chosen.get(option or key) if isinstance(chosen, dict) else None
    return value if isinstance(value, bool) else getattr(DEFAULTS, key)


@dataclass(frozen=True, slots=True)
class Options:
    """The player's Heart to Heart options (pages and API alike)."""

    move_errors: bool = DEFAULTS.h2h_move_errors
    placement_help: bool = DEFAULTS.h2h_placement_help

    @classmethod
    def of(cls, profile: Profile) -> Options:
        return cls(flag(profile, "h2h_move_errors"), flag(profile, "h2h_placement_help"))


@dataclass(frozen=True, slots=True)
class PlayHelp:
    """Which of Hearts' play-it-for-me settings the player has on: the claim (the rest of the
    hand plays itself once every trick left is the player's) and auto-play of a single legal
    card."""

    claim: bool = DEFAULTS.hearts_claim
    autoplay_single: bool = DEFAULTS.hearts_autoplay_single
    cards_played: bool = DEFAULTS.hearts_cards_played  # the panel is on: the match is assisted

    @classmethod
    def of(cls, profile: Profile) -> PlayHelp:
        return cls(flag(profile, "hearts_claim"), flag(profile, "hearts_autoplay_single"),
                   flag(profile, "hearts_cards_played"))


def request_settings(request: Request) -> PlayerSettings:
    """The settings of the profile the request's dependencies read (app/web/deps.py), or the
    defaults when it read none."""
    return settings_of(getattr(request.state, "profile", None))


async def save_settings(
    store: GameStore, session_id: str, change: dict[str, Any]
) -> PlayerSettings:
    """Apply ``change`` to the stored settings as they are when the write happens, checked
    whole first: a bad value raises ValidationError and nothing is written."""
    result: list[PlayerSettings] = []

    def write(data: dict[str, Any]) -> None:
        current = settings_of(Profile(0, data))
        settings = PlayerSettings.model_validate({**current.model_dump(), **change})
        values = settings.model_dump()
        options = data.setdefault("h2h_options", {})
        for key, option in H2H_OPTIONS.items():
            options[option] = values.pop(key)
        data["settings"] = values
        result[:] = [settings]

    await update_profile(store, session_id, write)
    return result[0]


def html_attributes(settings: PlayerSettings) -> dict[str, str]:
    """The ``data-*`` attributes of ``<body>`` that draw the page with these settings."""
    attributes = {
        "data-sound": "on" if settings.sound else "off",
        "data-vibration": "on" if settings.vibration else "off",
        "data-card-back": settings.card_back,
        "data-table": settings.table_colour,
        "data-hand": "left" if settings.left_handed else "right",
        "data-announce": settings.announcements,
        "data-cards-played": "on" if settings.hearts_cards_played else "off",
    }
    if settings.animation_speed is not None:
        attributes["data-motion"] = settings.animation_speed
    return attributes
