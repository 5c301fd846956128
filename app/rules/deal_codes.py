"""Deal codes and the machine-independent shuffle both games deal from.

A code reads ``GAME-V-ABCDEFG``: ``GAME`` names the rule set (``HH1`` Heart to Heart,
``HT1`` Hearts), ``V`` is one letter whose meaning belongs to the game, and the seven
letters are a base-26 number (A = 0).

The shuffle must give the same cards on every machine and every Python version, forever,
so it does not use :mod:`random`: the generator (SplitMix64), the seeding (FNV-1a over a
text key) and the Fisher–Yates loop are all written out here.

A seven-letter code is 26**7 ≈ 2**33 numbers: anyone who knows some cards of its deal can
search them all in minutes (issue 28, F1). So a deal the server draws in secret has a *long*
code: ``LONG_CODE_LETTERS`` (28) letters, 26**28 > 2**131 numbers, which only a game that
accepts them parses (``long_ok``). A long code's deals are shuffled by :func:`secret_shuffled`,
whose draws come from SHA-256 of the whole number and the deal's key (a Hearts hand number),
never through a 64-bit seed: the cards of one deal leave every number that could have dealt
them possible, and tell nothing of the code's other deals.
"""

from __future__ import annotations

import hashlib
import operator
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

CODE_LETTERS = 7
CODE_SPACE = 26**CODE_LETTERS
LONG_CODE_LETTERS = 28
LONG_CODE_SPACE = 26**LONG_CODE_LETTERS
# Longer input is refused before any parsing: codes arrive from URLs and request bodies.
MAX_CODE_INPUT = 48

_MASK64 = (1 << 64) - 1
_CODE_SHAPE = re.compile(r"([A-Z0-9]+)-([A-Z])-([A-Z]+)(?:-([A-Z0-9]+))?")


class DealCodeError(ValueError):
    """A deal code that cannot be used. ``reason`` is a stable key for translations."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True, slots=True)
class DealCode:
    game: str
    variant: str
    number: int
    # A long code (LONG_CODE_LETTERS letters): a secret deal's, shuffled by secret_shuffled.
    long: bool = False
    # House rules in their short form (a game that has them; app/rules/hearts_rules.py), after
    # the number: ``HT1-N-ABCDEFG-JB``. Empty for the game's own rules, so the codes made
    # before there were house rules read as they always did. They do not change the deal.
    rules: str = ""

    def __str__(self) -> str:
        size = LONG_CODE_LETTERS if self.long else CODE_LETTERS
        code = f"{self.game}-{self.variant}-{number_to_letters(self.number, size)}"
        return f"{code}-{self.rules}" if self.rules else code


def number_to_letters(number: int, size: int = CODE_LETTERS) -> str:
    if not 0 <= number < 26**size:
        raise ValueError(f"deal number out of range: {number}")
    letters = []
    for _ in range(size):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def letters_to_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + (ord(letter) - ord("A"))
    return number


def parse_deal_code(
    text: str, game: str, variants: str, *, long_ok: bool = False, rules_ok: bool = False
) -> DealCode:
    """Parse ``text`` as a code of ``game`` whose variant letter is one of ``variants``;
    ``long_ok``: a long code (a secret deal's, shown once its game is over) is one too;
    ``rules_ok``: the code may end with house rules (``-`` and letters or digits, which the
    game checks).

    Letter case and surrounding white space do not matter; anything else raises
    :class:`DealCodeError` with a message saying what is wrong.
    """
    example = f"{game}-{variants[0]}-AAAAAAM"
    if not isinstance(text, str) or len(text) > MAX_CODE_INPUT:
        raise DealCodeError("too_long", f"A deal code is short, like {example}.")
    cleaned = text.strip().upper()
    if not cleaned:
        raise DealCodeError("empty", f"No deal code given; a code looks like {example}.")
    shape = _CODE_SHAPE.fullmatch(cleaned)
    if shape is None or (shape[4] is not None and not rules_ok):
        raise DealCodeError(
            "format", f"'{cleaned}' is not a deal code; a code looks like {example}."
        )
    prefix, variant, letters, rules = shape.groups()
    if prefix != game:
        raise DealCodeError(
            "game", f"'{cleaned}' is not a code for this game; its codes start with {game}-."
        )
    if variant not in variants:
        allowed = " or ".join(variants)
        raise DealCodeError(
            "variant", f"'{variant}' is not a deal kind of this game; use {allowed}."
        )
    long = long_ok and len(letters) == LONG_CODE_LETTERS
    if len(letters) != CODE_LETTERS and not long:
        raise DealCodeError(
            "number", f"The deal number must be exactly {CODE_LETTERS} letters A–Z."
        )
    return DealCode(game, variant, letters_to_number(letters), long, rules or "")


_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class _Generator(ABC):
    """A source of 64-bit words, and uniform draws below a bound from them."""

    __slots__ = ()

    @abstractmethod
    def next_u64(self) -> int:
        """The next word."""

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, without modulo bias (rejection)."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound


class SplitMix64(_Generator):
    """Steele, Lea and Flood's SplitMix64: tiny, fast and fully specified."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)


class Sha256Words(_Generator):
    """64-bit words of SHA-256 in counter mode: block ``i`` is SHA-256 of the key's text,
    ``|`` and ``i``, read as four big-endian words. Its state is the whole key."""

    __slots__ = ("_block", "_key", "_words")

    def __init__(self, *key_parts: object) -> None:
        self._key = "|".join(str(part) for part in key_parts).encode()
        self._block = 0
        self._words: list[int] = []

    def next_u64(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._key + b"|%d" % self._block).digest()
            self._block += 1
            self._words = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()


def seed_from(*parts: object) -> int:
    """A 64-bit seed from a key such as ``("HH1", "N", 12, 0)`` (FNV-1a over its text)."""
    key = "|".join(str(part) for part in parts).encode()
    h = 0xCBF29CE484222325
    for byte in key:
        h = ((h ^ byte) * 0x100000001B3) & _MASK64
    return h


def shuffled(items: Sequence[T], *seed_parts: object) -> list[T]:
    """A Fisher–Yates shuffle of ``items`` driven by SplitMix64 seeded from ``seed_parts``.

    Swap i (from the end down to 1) with ``j = SplitMix64.below(i + 1)``. Every deal of both
    games runs this, so the draws are computed all at once (:func:`_draws`); the one-by-one
    reference, :func:`_shuffled_one_by_one`, gives the same list and takes over whenever a
    draw would have been rejected.
    """
    deck = list(items)
    last = len(deck) - 1
    if last < 1:
        return deck
    seed = seed_from(*seed_parts)
    draws = _draws(seed, last)
    bounds, lowest_limit = _bounds(last)
    if max(draws) >= lowest_limit:
        # ``below`` would reject a draw here (odds about 2**-58 a deal): replay it exactly.
        return _shuffled_one_by_one(deck, seed)
    i = last
    for j in map(_mod, draws, bounds):
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck


def secret_shuffled(items: Sequence[T], *key_parts: object) -> list[T]:
    """The Fisher–Yates shuffle of :func:`shuffled`, its draws from ``Sha256Words(*key_parts)``:
    a long code's deals, with the code's whole number in the key."""
    return _shuffled_one_by_one(list(items), Sha256Words(*key_parts))


def _shuffled_one_by_one(deck: list[T], seed: int | _Generator) -> list[T]:
    """:func:`shuffled` written plainly, one ``below`` call per swap (of SplitMix64 seeded
    with ``seed``, or of the generator given)."""
    rng = SplitMix64(seed) if isinstance(seed, int) else seed
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_mod = operator.mod
_LANE = 128  # bits per value in the packed ints: room for a 64 × 64-bit product


@lru_cache(maxsize=8)
def _bounds(count: int) -> tuple[list[int], int]:
    """The bounds of ``count`` draws (count + 1 down to 2) and the lowest rejection limit."""
    bounds = list(range(count + 1, 1, -1))
    return bounds, min((1 << 64) - ((1 << 64) % bound) for bound in bounds)


@lru_cache(maxsize=8)
def _lanes(count: int) -> tuple[int, int, int]:
    """For ``count`` packed values: ones in every lane, the SplitMix64 steps 1..count, and a
    mask of each lane's low 64 bits."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum(((k + 1) * _GOLDEN) << (_LANE * k) for k in range(count))
    return ones, steps, ones * _MASK64


def _draws(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of ``SplitMix64(seed)``, computed side by side.

    The generator's k-th state is ``seed + k * golden`` (mod 2**64), so all of them are known
    up front. They are packed into one int, one 128-bit lane each, and each step of the
    output mix runs once for all lanes; masking after every shift and product keeps the lanes
    apart. Python's big-int operations then do in C what 51 method calls did one at a time.
    """
    ones, steps, low = _lanes(count)
    z = (seed * ones + steps) & low
    z = ((z ^ (z >> 30)) & low) * _MIX1 & low
    z = ((z ^ (z >> 27)) & low) * _MIX2 & low
    z = (z ^ (z >> 31)) & low
    words = memoryview(z.to_bytes(count * _LANE // 8, sys.byteorder)).cast("Q")
    return words[:: _LANE // 64].tolist()
