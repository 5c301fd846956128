"""Translations: gettext catalogs read from the .po files at start-up, and card names.

Every area keeps its own ``app/locales/<lang>/LC_MESSAGES/<area>.po``; all of them are merged
into one catalog per language and compiled in memory, so editing a .po file needs no build step.
Message ids are the English text, so an English msgstr may stay empty.
"""

from __future__ import annotations

import gettext
import itertools
from contextvars import ContextVar
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from app.rules.cards import RANKS, SUITS, card, rank_of, suit_of

LANGUAGES = ("vi", "en")
DEFAULT_LANGUAGE = "vi"
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"

# Card names come from the catalogs too: "Queen" → "Q", "%(rank)s of %(suit)s"
# → "%(rank)s %(suit)s".
_RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def load_catalog(lang: str, locales_dir: Path = LOCALES_DIR) -> gettext.GNUTranslations:
    """All the .po files of ``lang`` merged into one catalog, compiled in memory."""
    merged = Catalog(locale=lang)  # Babel knows each locale's plural rule
    for po_file in sorted((locales_dir / lang / "LC_MESSAGES").glob("*.po")):
        with po_file.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and message.string and not message.fuzzy:
                    merged[message.id] = message
    buffer = BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


class Translator:
    """One language: gettext, ngettext and the 52 card names, looked up once."""

    def __init__(self, lang: str, catalog: gettext.GNUTranslations) -> None:
        self.lang = lang
        self.gettext = catalog.gettext
        self.ngettext = catalog.ngettext
        self.pgettext = catalog.pgettext  # msgctxt: one English text, two games' words
        pattern = catalog.gettext("%(rank)s of %(suit)s")
        self.card_names = tuple(
            pattern
            % {
                "rank": catalog.gettext(_RANK_WORDS.get(RANKS[rank_of(c)], RANKS[rank_of(c)])),
                "suit": catalog.gettext(_SUIT_WORDS[SUITS[suit_of(c)]]),
            }
            for c in range(52)
        )

    def card_name(self, c: int) -> str:
        return self.card_names[c]


@cache
def translator(lang: str) -> Translator:
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    return Translator(lang, load_catalog(lang))


def load_all() -> None:
    """Read every catalog now, so a broken .po file stops start-up instead of a page."""
    for lang in LANGUAGES:
        translator(lang)


def card_name(c: int, lang: str) -> str:
    """``card_name(QUEEN_OF_SPADES, "en")`` → "Queen of spades"; in Vietnamese "Q bích"."""
    return translator(lang).card_names[c]


def rank_word(rank: str, lang: str) -> str:
    """A rank as players say it: "Ace", "7", "Queen" / "Át", "7", "Q"."""
    return translator(lang).gettext(_RANK_WORDS.get(rank, rank))


def cards_by_suit(cards: list[int], suits: str, tr: Translator) -> str:
    """Cards said suit by suit, in the order of ``suits`` ("CDSH"), each suit's word once:
    "clubs: 2, 5, Queen; spades: Ace" / "2, 5, Q chuồn; Át bích"."""
    groups = []
    for suit in suits:
        ranks = [RANKS[rank_of(c)] for c in cards if SUITS[suit_of(c)] == suit]
        if ranks:
            groups.append(tr.gettext("%(suit)s: %(ranks)s") % {
                "suit": tr.gettext(_SUIT_WORDS[suit]),
                "ranks": ", ".join(tr.gettext(_RANK_WORDS.get(r, r)) for r in ranks),
            })
    return "; ".join(groups)


def cards_in_words(cards: list[int], tr: Translator) -> str:
    """Cards in a sentence, in the order given, as players say them: the cards of one suit
    next to each other share its word. "3 of clubs, Queen and Ace of spades" /
    "3 chuồn, Q, Át bích"."""
    def word(c: int) -> str:
        rank = RANKS[rank_of(c)]
        return tr.gettext(_RANK_WORDS.get(rank, rank))

    parts = []
    for _, same_suit in itertools.groupby(cards, key=suit_of):
        *ranks, last = same_suit
        if not ranks:
            parts.append(tr.card_name(last))
            continue
        parts.append(tr.gettext("%(ranks)s and %(last)s of %(suit)s") % {
            "ranks": ", ".join(map(word, ranks)), "last": word(last),
            "suit": tr.gettext(_SUIT_WORDS[SUITS[suit_of(last)]]),
        })
    return ", ".join(parts)


@cache
def heart_name(rank: str, lang: str) -> str:
    """The name of a Heart to Heart card (all hearts) of rank text "A", "2" … "K"."""
    return translator(lang).card_names[card(SUITS.index("H"), RANKS.index(rank))]


def pick_language(accept_language: str | None) -> str:
    """The supported language the browser prefers most; Vietnamese when it names neither."""
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for item in (accept_language or "")[:400].split(","):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in LANGUAGES:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > best_q:
            best, best_q = primary, q
    return best


# The language of the page being rendered; the Jinja2 i18n callables read it.
current_language: ContextVar[str] = ContextVar("current_language", default=DEFAULT_LANGUAGE)


def jinja_gettext(message: str) -> str:
    return translator(current_language.get()).gettext(message)


def jinja_ngettext(singular: str, plural: str, n: int) -> str:
    return translator(current_language.get()).ngettext(singular, plural, n)


def jinja_pgettext(context: str, message: str) -> str:
    return translator(current_language.get()).pgettext(context, message)


def format_number(value: float, lang: str, decimals: int = 1) -> str:
    """A figure as the language writes it: "6,5" in Vietnamese, "6.5" in English."""
    pattern = "#,##0." + "#" * decimals if decimals else "#,##0"
    return format_decimal(value, format=pattern, locale=lang)


def jinja_number(value: float, decimals: int = 1) -> str:
    return format_number(value, current_language.get(), decimals)
