"""Reading pages and htmx answers in tests: elements by id, and the out-of-band pieces."""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "area", "base", "col"}
OOB = re.compile(r' hx-swap-oob="[^"]*"')


class _Elements(HTMLParser):
    """Collect the outer HTML of every element that has an id."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0]
        for match in re.finditer("\n", text):
            self.line_starts.append(match.end())
        self.stack: list[tuple[str, str | None, int]] = []
        self.found: dict[str, str] = {}
        self.feed(text)

    def _position(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag, attrs):
        start = self._position()
        ident = dict(attrs).get("id")
        if tag in VOID:
            if ident:
                end = self.text.index(">", start) + 1
                self.found[ident] = self.text[start:end]
            return
        self.stack.append((tag, ident, start))

    def handle_endtag(self, tag):
        end = self.text.index(">", self._position()) + 1
        while self.stack:
            open_tag, ident, start = self.stack.pop()
            if ident:
                self.found[ident] = self.text[start:end]
            if open_tag == tag:
                break


def elements(html: str) -> dict[str, str]:
    """id → outer HTML, with any hx-swap-oob attribute taken out."""
    return {ident: OOB.sub("", outer) for ident, outer in _Elements(html).found.items()}


def top_level_ids(fragment: str) -> list[str]:
    """The ids of the fragment's outermost elements, in order (the pieces of an htmx answer)."""
    parser = _Elements(fragment)
    ids, depth_end = [], -1
    for ident, outer in sorted(parser.found.items(), key=lambda item: fragment.index(item[1])):
        start = fragment.index(outer)
        if start >= depth_end:
            ids.append(ident)
            depth_end = start + len(outer)
    return ids


def attr(html: str, name: str) -> str | None:
    found = re.search(rf'\s{re.escape(name)}="([^"]*)"', html)
    return found.group(1) if found else None
