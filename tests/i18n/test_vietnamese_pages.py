"""Every page and dialog in Vietnamese, and the API's error answers with ``Accept-Language: vi``,
hold no English word outside an allow-list (game names, key names, API names, deal codes).

"English" is every word the app could leak in English: the words of the English catalogs, of
the English rules page, and of the framework's own messages (Starlette's status texts,
pydantic's validation messages). The states are reached through the page URLs of the contract
and the JSON API, which do not move when the web layer's routes are reshaped.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from babel.messages.pofile import read_po
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, ValidationError

from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import new_game, target_text
from app.rules.heart_to_heart_solver import solve
from app.web.profile import record_hearts_match
from app.web.session import COOKIE_NAME

ROOT = Path(__file__).resolve().parents[2]
VI = {"accept-language": "vi"}
WINNABLE = "HH1-W-AAAAAAM"
HEARTS = "HT1-E-AAAAAAB"  # Easy bots: a whole match plays in moments

# Words that stay as they are in Vietnamese: the games' names (and Pyramid, the family Heart to
# Heart comes from), key names on the keyboard, the JSON API's own names (fields, targets,
# values), file formats; and Vietnamese words spelt like English ones ("tự do", "an toàn").
ALLOWED = {
    "heart", "to", "hearts", "pyramid",
    "enter", "tab", "esc", "ctrl", "space",
    "target", "stock", "waste", "deal", "version", "card", "cards", "move_errors",
    "placement_help", "true", "false", "json", "utf",
    "do", "an", "so",
    "api",  # a name: boards say which games were played through the API
    "javascript",  # a name: the Hearts page says it needs JavaScript
    # Keys and screen readers by their names (the list of keys, templates/_ask.html).
    "home", "end", "insert", "nvda", "jaws", "voiceover", "quick", "nav",
}
# Deal codes and their prefixes ("HH1-"), cards in API notation (10H, QS), positions (heart:7).
CODES = re.compile(r"\bH[HT]1-(?:[A-Z](?:-[A-Z]*)?)?|\b(?:10|[2-9AJQK])[CDHS]\b|heart:\d+")
WORD = re.compile(r"[^\W\d_]+(?:_[^\W\d_]+)*")  # move_errors is one word


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(CODES.sub(" ", text))}


def english_vocabulary() -> set[str]:
    words: set[str] = set()
    for path in (ROOT / "app" / "locales" / "en" / "LC_MESSAGES").glob("*.po"):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="en"):
                for text in message.id if isinstance(message.id, tuple) else (message.id,):
                    words |= _words(re.sub(r"\{\w*\}|%\(\w+\)[sd]", " ", text))
    rules = (ROOT / "templates" / "heart_to_heart" / "rules.en.html").read_text("utf-8")
    words |= _words(re.sub(r"<[^>]+>|\{[%{#].*?[%}#]\}", " ", rules))
    words |= _words("Not Found Method Not Allowed Internal Server Error Forbidden Bad Request")

    class Strict(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        flag: bool
        number: int
        text: str
        items: list[str]

    for bad in ('{"flag": "yes", "number": "2", "text": 5, "items": "x", "more": 1}', "[]", "{"):
        try:
            Strict.model_validate_json(bad)
        except ValidationError as error:
            words |= {w for e in error.errors() for w in _words(e["msg"])}
    # Single letters are ranks, keys (D, W, U, Z) and deal kinds (N, W, E, H).
    return {word for word in words if len(word) > 1} - ALLOWED


ENGLISH = english_vocabulary()


class VisibleText(HTMLParser):
    """What a reader sees or hears: text and the labelling attributes, minus scripts and
    minus elements marked as another language (the "English" language switch)."""

    LABELS = ("aria-label", "title", "alt", "placeholder")
    VOID = frozenset(
        {"meta", "link", "input", "br", "img", "hr", "source", "area", "base", "col", "wbr"}
    )

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.stack: list[bool] = []  # per open element: is its text skipped?

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        skip = (
            bool(self.stack and self.stack[-1])
            or tag in ("script", "style")
            or found.get("lang", "vi") != "vi"
        )
        if not skip:
            self.parts.extend(found[name] or "" for name in self.LABELS if name in found)
        if tag not in self.VOID:
            self.stack.append(skip)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


class Walk:
    """The pages and answers seen so far, and the English found in them."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.seen: list[tuple[str, str]] = []  # (label, text); a label may come back

    def check(self, label: str, text: str) -> None:
        self.seen.append((label, text))

    def text(self, label: str) -> str:
        return " ".join(text for seen, text in self.seen if seen == label)

    async def page(self, url: str, label: str | None = None, **kwargs) -> httpx.Response:
        method = kwargs.pop("method", "GET")
        response = await self.client.request(method, url, **kwargs)
        assert response.headers["content-type"].startswith("text/html"), (url, response.text)
        assert '<html lang="vi">' in response.text, url
        self.check(label or f"{method} {url} → {response.status_code}", visible_text(response.text))
        return response

    async def api(self, method: str, url: str, **kwargs) -> dict:
        response = await self.client.request(method, url, **kwargs)
        answer = response.json()
        if response.status_code >= 400:
            self.check(f"{method} {url} → {response.status_code}", answer["error"]["message"])
        elif answer.get("message"):
            self.check(f"{method} {url.rsplit('/', 1)[-1]} message", answer["message"])
        return answer

    def english(self) -> list[tuple[str, list[str]]]:
        found = [(label, sorted(_words(text) & ENGLISH)) for label, text in self.seen]
        return [(label, words) for label, words in found if words]


@pytest.fixture
async def walk(new_client: Callable[..., httpx.AsyncClient]) -> AsyncIterator[Walk]:
    yield Walk(new_client(headers=VI))


def stuck_deal() -> str:
    """A deal whose code deals a game with no move from the start (about one in ten)."""
    return next(
        code
        for number in range(200)
        if new_game(code := str(DealCode("HH1", "N", number))).status == "stalemate"
    )


async def play_heart_to_heart(walk: Walk) -> None:
    api = "/api/heart-to-heart"
    for url in ("/", "/heart-to-heart", "/heart-to-heart/rules", "/heart-to-heart/examples",
                "/heart-to-heart/daily", "/stats", "/settings", "/stats/reset", "/offline"):
        await walk.page(url)
    await walk.api("PUT", f"{api}/options", json={"move_errors": True, "placement_help": True})
    game = await walk.api("POST", f"{api}/games", json={"deal": WINNABLE})
    url = f"{api}/games/{game['game_id']}"
    line = solve(new_game(WINNABLE))
    # The tip, a covered card (nothing happens), then the waste of another rank: "must be same
    # rank"; a tap on the selected waste clears the selection, so the solver's line still runs.
    assert game["heart"][24]["rank"] != game["waste_top"]
    for target in ("heart:24", "heart:0", "waste", "waste"):
        await walk.api("POST", f"{url}/tap", json={"target": target})
    # A game in progress: a shared deal's URL asks first (the question dialog).
    for target in line[:4]:
        await walk.api("POST", f"{url}/tap", json={"target": target_text(target)})
    await walk.page("/heart-to-heart/deal/HH1-N-AAAAAAB", "the shared-deal question")
    await walk.page("/heart-to-heart", "a game in progress")
    for target in line[4:]:
        await walk.api("POST", f"{url}/tap", json={"target": target_text(target)})
    await walk.api("POST", f"{url}/undo")  # a won game is final: 409
    await walk.page("/heart-to-heart", "the win dialog")
    await walk.page(f"/heart-to-heart/deal/{WINNABLE}/results")
    stuck = await walk.api("POST", f"{api}/games", json={"deal": stuck_deal()})
    assert stuck["status"] == "stalemate"
    await walk.page("/heart-to-heart", "the no-more-moves dialog")
    await walk.api("POST", f"{api}/games/{stuck['game_id']}/undo")  # nothing to undo: 409
    hint = await walk.client.post(
        f"/heart-to-heart/games/{stuck['game_id']}/hint",
        data={"version": str(stuck["version"])}, headers={"hx-request": "true"},
    )
    walk.check("a hint with no winning line", visible_text(hint.text))
    for bad in ("HH1-N-AAA", "XYZ", "HH1-X-AAAAAAA", "HT1-N-AAAAAAA", "H" * 60, " "):
        await walk.page(f"/heart-to-heart/deal/{bad}")
        await walk.api("POST", f"{api}/games", json={"deal": bad})


async def play_hearts(walk: Walk) -> None:
    api = "/api/hearts"
    for url in ("/hearts", "/hearts/rules", "/hearts/daily"):
        await walk.page(url)
    state = await walk.api("POST", f"{api}/games", json={"deal": HEARTS})
    url = f"{api}/games/{state['game_id']}"
    await walk.api("POST", f"{url}/play", json={"card": "2C"})  # passing first: refused
    await walk.api("POST", f"{url}/pass", json={"cards": state["hand"][:2]})
    await walk.api("POST", f"{url}/play", json={"card": "1X"})
    await walk.page("/hearts", "Hearts, passing")
    hint = await walk.client.post(
        f"/hearts/games/{state['game_id']}/hint", headers={"hx-request": "true"}
    )
    walk.check("a Hearts hint", visible_text(hint.text))
    seen_hand_over = False
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            state = await walk.api("POST", f"{url}/pass", json={"cards": state["hand"][:3]})
            await walk.page("/hearts/deal/HT1-N-AAAAAAC", "the shared-match question")
        elif state["phase"] == "hand_over":
            if not seen_hand_over:
                await walk.page("/hearts", "the hand-over dialog")
                review = await walk.client.get(f"/hearts/games/{state['game_id']}/review")
                walk.check("the review of the hand", visible_text(review.text))
                seen_hand_over = True
            state = await walk.api("POST", f"{url}/next-hand")
        else:
            illegal = [c for c in state["hand"] if c not in state["legal"]]
            if illegal:
                await walk.api("POST", f"{url}/play", json={"card": illegal[0]})
            state = await walk.api("POST", f"{url}/play", json={"card": state["legal"][0]})
    await walk.page("/hearts", "the match-over dialog")
    await walk.page(f"/hearts/deal/{HEARTS}/results")
    await walk.page("/", "home with statistics")
    await walk.page("/stats", "statistics with figures")
    for bad in ("HT1-N-AAA", "XYZ", "HT1-Q-AAAAAAA", "HH1-N-AAAAAAA", "H" * 60):
        await walk.page(f"/hearts/deal/{bad}")
        await walk.api("POST", f"{api}/games", json={"deal": bad})


async def refusals_and_errors(walk: Walk) -> None:
    evil = {"origin": "https://evil.example"}
    await walk.page("/lang", method="POST", data={"lang": "en"}, headers=evil)
    await walk.page("/lang", method="POST", content=b"lang=en&" + b"x" * 17_000)
    await walk.page("/no-such-page")
    await walk.page("/heart-to-heart/rules", method="POST")
    await walk.api("POST", "/api/heart-to-heart/games", json={}, headers=evil)
    await walk.api("POST", "/api/heart-to-heart/games", content=b"{}" + b" " * 17_000)
    await walk.api("GET", "/api/heart-to-heart/games/none")
    await walk.api("GET", "/api/hearts/games/none")
    await walk.api("GET", "/api/no-such-thing")
    await walk.api("DELETE", "/api/heart-to-heart/options")
    game = await walk.api("POST", "/api/heart-to-heart/games", json={})
    tap = f"/api/heart-to-heart/games/{game['game_id']}/tap"
    # An unknown field is named as the client sent it: "zzz", not an English word.
    for body in ({}, {"target": 5}, {"target": "stock", "zzz": 1}, [], {"target": "x" * 50},
                 {"target": "stock", "version": "2"}, {"target": "stock", "version": -1},
                 {"target": "heart:25"}):
        await walk.api("POST", tap, json=body)
    for raw in (b'{"target": "stock"', b"\xff="):
        await walk.api("POST", tap, content=raw, headers={"content-type": "application/json"})
    await walk.api("PUT", "/api/heart-to-heart/options", json={"move_errors": "yes"})
    await walk.api("PUT", "/api/settings", json={"card_back": "plaid"})
    await walk.api("POST", "/api/hearts/games", json={"deal": "HT1-E-AAAAAAB", "x": [1]})


async def test_every_page_dialog_and_error_answer_is_in_vietnamese(walk: Walk):
    await play_heart_to_heart(walk)
    await play_hearts(walk)
    await refusals_and_errors(walk)
    labels = {label for label, _ in walk.seen}
    for dialog in ("the win dialog", "the no-more-moves dialog", "the shared-deal question",
                   "the hand-over dialog", "the match-over dialog", "the shared-match question"):
        assert dialog in labels
    errors = {label.rsplit("→ ", 1)[-1] for label in labels if "→" in label}
    assert {"403", "404", "405", "409", "413", "422"} <= errors
    # One English title, two games' words: a Hearts code is a whole match.
    assert "Chơi thế bài được chia sẻ?" in walk.text("the shared-deal question")
    assert "Chơi trận được chia sẻ?" in walk.text("the shared-match question")
    # Hearts is named as the seed names it, on the home page and its rules.
    assert "Bài tránh cơ" in walk.text("GET / → 200")
    assert "Hearts (Bài tránh cơ)" in walk.text("GET /hearts/rules → 200")
    # The move-error message of the API's state.
    assert "Phải cùng hạng" in walk.text("POST tap message")
    assert walk.english() == []


async def test_the_check_finds_english(walk: Walk):
    """The walk would see English: an English page, read as if it were Vietnamese, is full of it."""
    response = await walk.client.get("/hearts/rules", headers={"accept-language": "en"})
    html = response.text.replace('<html lang="en">', '<html lang="vi">')
    assert len(_words(visible_text(html)) & ENGLISH) > 50
    assert _words("Field required; Extra inputs are not permitted") <= ENGLISH


async def test_a_server_error_is_answered_in_vietnamese(app: FastAPI):
    async def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/api/broken", broken)
    app.add_api_route("/broken", broken)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        walk = Walk(client)
        walk.client.headers.update(VI)
        page = await walk.page("/broken")
        answer = await client.get("/api/broken")
    assert page.status_code == answer.status_code == 500
    assert answer.json()["error"]["code"] == "server_error"
    walk.check("api 500", answer.json()["error"]["message"])
    assert "Phòng bài gặp lỗi" in walk.text("api 500")
    assert walk.english() == []


async def test_figures_with_decimals_use_a_decimal_comma(app: FastAPI, new_client):
    client = new_client(headers=VI)
    await client.get("/")
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    await record_hearts_match(app.state.store, session_id, won=True, hand_points=[3, 26, 0],
                              moons=1)
    average = re.compile(r"Điểm trung bình mỗi ván</dt><dd>([^<]*)</dd>")
    assert average.search((await client.get("/")).text).group(1) == "9,7"
    english = (await client.get("/", headers={"accept-language": "en"})).text
    assert "<dd>9.7</dd>" in english
