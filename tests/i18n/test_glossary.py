"""The Vietnamese catalogs use the glossary's terms (app/locales/GLOSSARY.md) and none of the
variants it rules out; card names follow its card rule."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app.rules.cards import RANKS, SUITS, card
from app.web.i18n import SUIT_SYMBOLS, card_name

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "app" / "locales" / "GLOSSARY.md"
CATALOGS = ROOT / "app" / "locales" / "vi" / "LC_MESSAGES"
RULES_PAGE = ROOT / "templates" / "heart_to_heart" / "rules.vi.html"
AREAS = {"all": None, "Heart to Heart": "heart_to_heart", "Hearts": "hearts"}
PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}|%\([a-z_]+\)[sd]")


@dataclass(frozen=True)
class Term:
    english: str
    vietnamese: str
    area: str
    msgid_words: tuple[str, ...]
    never: tuple[str, ...]


def _words(cell: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in cell.split(";") if word.strip())


def glossary() -> list[Term]:
    terms = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 5 or cells[0] in ("English", "---"):
            continue
        english, vietnamese, area, msgid_words, never = cells
        assert area in AREAS, line
        terms.append(Term(english, vietnamese, area, _words(msgid_words), _words(never)))
    return terms


@dataclass(frozen=True)
class Entry:
    area: str  # the .po file's stem, or "rules page"
    msgid: str
    text: str


def entries() -> list[Entry]:
    found = []
    for path in sorted(CATALOGS.glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="vi"):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                found.extend(Entry(path.stem, ids[0], text) for text in texts)
    # The Heart to Heart rules page is written in Vietnamese, not through the catalogs.
    page = re.sub(r"<[^>]+>|\{[%#].*?[%#]\}", " ", RULES_PAGE.read_text(encoding="utf-8"))
    found.append(Entry("heart_to_heart", "", page))
    return found


def in_area(term: Term, entry: Entry) -> bool:
    return AREAS[term.area] in (None, entry.area)


def has_words(text: str, words: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text, re.IGNORECASE) is not None


TERMS = glossary()


def test_the_glossary_holds_the_seed_terms():
    vietnamese = {term.vietnamese for term in TERMS}
    seed_terms = {
        "chồng bài rút", "chồng bài bỏ", "lá tự do", "thế bài", "mã ván", "trận", "ván",
        "nước", "chuyền", "đứt (một chất)", "cơ đã mở", "bắn trăng", "người máy", "Đi lại",
    }
    assert seed_terms <= vietnamese
    assert len(TERMS) > 40


@pytest.mark.parametrize("term", [t for t in TERMS if t.never], ids=lambda t: t.english)
def test_no_catalog_uses_a_ruled_out_variant(term: Term):
    wrong = [
        (entry.area, variant, entry.text[:80])
        for entry in entries()
        if in_area(term, entry)
        for variant in term.never
        if has_words(entry.text, variant)
    ]
    assert wrong == [], f"write “{term.vietnamese}” for “{term.english}”"


@pytest.mark.parametrize("term", [t for t in TERMS if t.msgid_words], ids=lambda t: t.english)
def test_the_english_word_is_always_given_the_glossary_term(term: Term):
    # "đứt (một chất)": the words before the brackets are what a sentence holds.
    wanted = term.vietnamese.split(" (")[0]
    unmatched = [
        (entry.msgid, entry.text)
        for entry in entries()
        if entry.msgid and in_area(term, entry)
        if any(has_words(PLACEHOLDER.sub(" ", entry.msgid), w) for w in term.msgid_words)
        and not has_words(entry.text, wanted)
    ]
    assert unmatched == [], f"“{term.english}” is “{wanted}”"


def test_the_checked_words_are_in_use():
    """A misspelt word in the table's "msgids with" column would check nothing."""
    msgids = [PLACEHOLDER.sub(" ", e.msgid) for e in entries() if e.msgid]
    in_use = {
        t.english for t in TERMS if any(has_words(m, w) for m in msgids for w in t.msgid_words)
    }
    assert {
        "stock", "waste", "free card", "deal code", "deal code (covers a whole match)", "trick",
        "pass", "hearts broken", "shoot the moon", "bot", "Undo", "rank", "suit", "Cancel",
        "match (to 100 points)", "copy", "link", "winnable deal", "solver",
    } <= in_use


SYMBOL_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def test_card_symbols_only_in_brackets_after_the_spoken_name():
    for entry in entries():
        for match in SYMBOL_CARD.finditer(entry.text):
            rank, symbol = match.group(0)[:-1], match.group(0)[-1]
            name = card_name(card(SUITS.index(SYMBOL_TO_SUIT[symbol]), RANKS.index(rank)), "vi")
            before = entry.text[: match.start()]
            assert before.endswith(f"{name} (") and entry.text[match.end() :].startswith(")"), (
                f"write “{name}”, a symbol only as “{name} ({match.group(0)})”: {entry.text}"
            )
            assert entry.text.count(match.group(0)) == 1, entry.text
