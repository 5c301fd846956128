"""The gettext catalogs are complete: ``python tests/i18n/catalog_check.py`` (run by ``make lint``
and, through tests/i18n/test_catalogs.py, by ``make test``) prints each problem and exits 1.

A problem is: a Vietnamese entry without a translation, a fuzzy entry in any language, an area
whose English and Vietnamese catalogs hold different messages, a translation whose placeholders
differ from its msgid's, or a message the code or a template asks for that no catalog holds.
Catalogs are read with Babel, the library behind ``pybabel``, and messages are extracted from
the sources the way ``pybabel extract`` does (Python, and Jinja2 templates with its i18n tags).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "app" / "locales"
TRANSLATED = "vi"  # English msgstrs stay empty: the msgid is the English text
LANGUAGES = ("en", "vi")

# {card}, {0}, %(seat)s, %d: the names a translation must keep.
PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}|%\([a-z_]+\)[sd]|%[sd]")


def _texts(value: str | tuple | list) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


def read_catalog(path: Path, lang: str) -> list[Message]:
    with path.open("rb") as handle:
        return [m for m in read_po(handle, locale=lang, abort_invalid=True) if m.id]


def key(message: Message) -> tuple[str | None, str]:
    return message.context, _texts(message.id)[0]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def catalog_problems(locales: Path = LOCALES) -> Iterator[str]:
    areas: dict[str, dict[str, list[Message]]] = {}
    for lang in LANGUAGES:
        for path in sorted((locales / lang / "LC_MESSAGES").glob("*.po")):
            messages = read_catalog(path, lang)
            areas.setdefault(path.stem, {})[lang] = messages
            where = f"{lang}/{path.name}"
            for message in messages:
                name = _texts(message.id)[0]
                if message.fuzzy:
                    yield f"{where}: fuzzy: {name!r}"
                if lang != TRANSLATED:
                    continue
                strings = _texts(message.string)
                if not all(strings):
                    yield f"{where}: untranslated: {name!r}"
                    continue
                wanted = set().union(*(placeholders(i) for i in _texts(message.id)))
                for text in strings:
                    if placeholders(text) != wanted:
                        yield f"{where}: placeholders {sorted(placeholders(text))} in {text!r}"
    for area, by_lang in sorted(areas.items()):
        keys = {lang: {key(m) for m in by_lang.get(lang, [])} for lang in LANGUAGES}
        for lang in LANGUAGES:
            for other in LANGUAGES:
                for missing in sorted(keys[other] - keys[lang], key=str):
                    yield f"{lang}/{area}.po: missing {missing[1]!r} (it is in {other})"


def used_messages(root: Path = ROOT) -> set[tuple[str | None, str]]:
    """Every literal message of the app's code and templates, as ``pybabel extract`` finds it."""
    found = set()
    method_map = [("**.py", "python")]
    for directory in (root / "app",):
        for _file, _line, message, _comments, context in extract_from_dir(
            directory, method_map
        ):
            found.add((context, _texts(message)[0]))
    options = {"**.html": {"extensions": "jinja2.ext.i18n"}}
    for _file, _line, message, _comments, context in extract_from_dir(
        root / "templates", [("**.html", "jinja2.ext:babel_extract")], options_map=options
    ):
        found.add((context, _texts(message)[0]))
    return found


def unknown_messages(locales: Path = LOCALES, root: Path = ROOT) -> Iterator[str]:
    known = set()
    for path in (locales / TRANSLATED / "LC_MESSAGES").glob("*.po"):
        known.update(key(m) for m in read_catalog(path, TRANSLATED))
    for context, message in sorted(used_messages(root) - known, key=str):
        label = f"{context}: {message!r}" if context else repr(message)
        yield f"no catalog holds the message {label}"


def main(argv: list[str]) -> int:
    """``catalog_check.py [LOCALES_DIR]``: the app's own catalogs when no directory is given."""
    locales = Path(argv[0]) if argv else LOCALES
    problems = [*catalog_problems(locales), *unknown_messages(locales)]
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} catalog problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
