"""House rules of Hearts as data: :class:`HeartsRules`, its named presets and its short form.

A rule set is frozen and compared by value. ``SEED_RULES`` (every field at its default) is the
game as the seed plays it: a match, a stored game or a deal code that names no rules plays it.

The short form is what a deal code carries after its number (``HT1-N-ABCDEFG-JB``): one letter
per rule that differs from the seed, always in this order, and the seed's rules write nothing.

==========  ==========================================================
``N``       ``passing="none"``: no hand has a pass
``Q``       ``queen_breaks_hearts``: playing the Q♠ breaks hearts
``H``       ``hearts_must_be_broken=False``: hearts may be led at any time
``F``       ``first_trick_points``: points may fall on the first trick
``J``       ``jack_of_diamonds=-10``: the J♦ is worth −10
``B``       ``no_tricks_bonus=-5``: −5 for a seat that takes no trick
``S C Y``   ``moon``: subtract from the shooter, the shooter's choice, safe
digits      ``target`` (when not 100)
``P``       ``perfect_100``
==========  ==========================================================
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

Passing = Literal["cycle", "none"]
MoonRule = Literal["add_to_others", "subtract_from_shooter", "shooters_choice", "safe"]
# What a shooter's moon does in the end (shooters_choice and safe resolve to one of these).
MoonChoice = Literal["add_to_others", "subtract_from_shooter"]
PASSINGS: tuple[Passing, ...] = ("cycle", "none")
MOON_RULES: tuple[MoonRule, ...] = (
    "add_to_others", "subtract_from_shooter", "shooters_choice", "safe"
)  # fmt: skip
MOON_CHOICES: tuple[MoonChoice, ...] = ("add_to_others", "subtract_from_shooter")
OMNIBUS_JACK = -10  # what the J♦ scores under Omnibus
JACK_OF_DIAMONDS_VALUES = (0, OMNIBUS_JACK)
NO_TRICKS_BONUS_VALUES = (0, -5)
LOWEST_TARGET = 50
HIGHEST_TARGET = 500
SEED_TARGET = 100


class RulesError(ValueError):
    """A rule set that cannot be: ``field`` names the rule, ``message`` says what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message



@dataclass(frozen=True, slots=True)
class HeartsRules:
    """One table's rules. The defaults are the seed's rules."""

    passing: Passing = "cycle"
    queen_breaks_hearts: bool = False
    hearts_must_be_broken: bool = True
    first_trick_points: bool = False
    jack_of_diamonds: int = 0
    no_tricks_bonus: int = 0
    moon: MoonRule = "add_to_others"
    target: int = SEED_TARGET
    perfect_100: bool = False

    def __post_init__(self) -> None:
        if self.passing not in PASSINGS:
            raise RulesError("passing", "passing is 'cycle' or 'none'.")
        for name in ("queen_breaks_hearts", "hearts_must_be_broken", "first_trick_points",
                     "perfect_100"):  # fmt: skip
            if type(getattr(self, name)) is not bool:
                raise RulesError(name, f"{name} is true or false.")
        jack = self.jack_of_diamonds
        if type(jack) is not int or jack not in JACK_OF_DIAMONDS_VALUES:
            raise RulesError("jack_of_diamonds", "jack_of_diamonds is 0 or -10.")
        if type(self.no_tricks_bonus) is not int or self.no_tricks_bonus not in (0, -5):
            raise RulesError("no_tricks_bonus", "no_tricks_bonus is 0 or -5.")
        if self.moon not in MOON_RULES:
            raise RulesError("moon", f"moon is one of {', '.join(MOON_RULES)}.")
        if type(self.target) is not int or not LOWEST_TARGET <= self.target <= HIGHEST_TARGET:
            raise RulesError(
                "target", f"target is a whole number from {LOWEST_TARGET} to {HIGHEST_TARGET}."
            )

    @property
    def lowest_hand_score(self) -> int:
        """The fewest points one seat can score in a hand under these rules."""
        moon = -26 if self.moon != "add_to_others" else 0
        return min(moon + self.jack_of_diamonds, self.no_tricks_bonus)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> HeartsRules:
        """The rules of a JSON object; absent keys keep the seed's value. Raises RulesError."""
        if data is None:
            return SEED_RULES
        if not isinstance(data, dict):
            raise RulesError("rules", "rules is an object of house rules.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(unknown[0], f"{unknown[0]!r} is not a house rule.")
        return cls(**data)

    @property
    def short(self) -> str:
        """The short form (see the module's docstring); empty for the seed's rules."""
        flags = (
            "N" if self.passing == "none" else "",
            "Q" if self.queen_breaks_hearts else "",
            "" if self.hearts_must_be_broken else "H",
            "F" if self.first_trick_points else "",
            "J" if self.jack_of_diamonds else "",
            "B" if self.no_tricks_bonus else "",
            _MOON_LETTERS[self.moon],
            "" if self.target == SEED_TARGET else str(self.target),
            "P" if self.perfect_100 else "",
        )
        return "".join(flags)

    @classmethod
    def from_short(cls, text: str) -> HeartsRules:
        """The rules of a short form; only the form :attr:`short` writes is accepted."""
        shape = _SHORT.fullmatch(text)
        if shape is None:
            raise RulesError("rules", f"'{text}' is not a short form of house rules.")
        no_pass, queen, hearts, first, jack, bonus, moon, target, perfect = shape.groups()
        rules = cls(
            passing="none" if no_pass else "cycle",
            queen_breaks_hearts=bool(queen),
            hearts_must_be_broken=not hearts,
            first_trick_points=bool(first),
            jack_of_diamonds=OMNIBUS_JACK if jack else 0,
            no_tricks_bonus=-5 if bonus else 0,
            moon=_MOON_BY_LETTER[moon or ""],
            target=int(target) if target else SEED_TARGET,
            perfect_100=bool(perfect),
        )
        if rules.short != text:
            raise RulesError("rules", f"'{text}' is not a short form of house rules.")
        return rules


_MOON_LETTERS: dict[str, str] = {
    "add_to_others": "", "subtract_from_shooter": "S", "shooters_choice": "C", "safe": "Y"
}  # fmt: skip
_MOON_BY_LETTER: dict[str, MoonRule] = {
    "": "add_to_others", "S": "subtract_from_shooter", "C": "shooters_choice", "Y": "safe"
}  # fmt: skip
_SHORT = re.compile(r"(N?)(Q?)(H?)(F?)(J?)(B?)([SCY]?)([1-9][0-9]{1,2})?(P?)")

SEED_RULES = HeartsRules()

# Named rule sets players know. "seed" is the game as Cardroom always played it.
PRESETS: dict[str, HeartsRules] = {
    "seed": SEED_RULES,
    # Omnibus: the J♦ is worth -10 to whoever takes it.
    "omnibus": HeartsRules(jack_of_diamonds=OMNIBUS_JACK),
    # The no-pass game players kept when a large site put its rules to a vote.
    "no_pass": HeartsRules(passing="none"),
    # A "tournament" set: the queen breaks hearts, the moon is safe, a short game to 50.
    "tournament": HeartsRules(queen_breaks_hearts=True, moon="safe", target=50),
    # New Moon and Perfect 100, with Omnibus and the no-tricks bonus.
    "new_moon": HeartsRules(
        jack_of_diamonds=OMNIBUS_JACK, no_tricks_bonus=-5, moon="shooters_choice", perfect_100=True
    ),
}


def preset_of(rules: HeartsRules) -> str | None:
    """The name of the preset that is exactly ``rules``, or None (a custom set)."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
