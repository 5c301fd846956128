"""The Hearts page through its endpoints: the real app on a temporary SQLite store, via httpx.

A whole match is played from the pass to the match winner with the page's own forms; every
answer is checked for the other seats' cards, and applied to the page it answers the way htmx and
static/js/hearts-*.js apply it: the result must be the page drawn afresh, and every piece must
change something.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import replace as changed

import httpx
import pytest
from fastapi import FastAPI

from app.rules.cards import card_text, cards_in, parse_card
from app.rules.hearts import HUMAN, HeartsMatch, IllegalPlay
from app.web.hearts.service import Seen
from app.web.hearts.table import Urls, sorted_hand, table_pieces
from app.web.hearts.texts import refusal_text
from app.web.i18n import card_name, cards_in_words, translator
from app.web.session import COOKIE_NAME, SessionMiddleware

HX = {"hx-request": "true"}
CARD_TAG = re.compile(r'<button id="ht-c-(\w+)"[^>]*>')


@dataclass
class Page:
    html: str
    game_id: str
    version: int
    phase: str
    hand: list[str]
    playable: list[str]


def read_page(html: str) -> Page:
    game_id = re.search(r'data-game="([\w-]+)"', html).group(1)
    version = int(re.search(r'id="ht-version" name="version" value="(\d+)"', html).group(1))
    phase = re.search(r'id="ht-hand" class="ht-hand" data-phase="(\w+)"', html).group(1)
    hand, playable = [], []
    for tag in CARD_TAG.finditer(html):
        hand.append(tag.group(1))
        if 'aria-disabled="true"' not in tag.group(0):
            playable.append(tag.group(1))
    return Page(html, game_id, version, phase, hand, playable)


async def get_page(client: httpx.AsyncClient) -> Page:
    response = await client.get("/hearts")
    assert response.status_code == 200
    return read_page(response.text)


def session_of(client: httpx.AsyncClient, app: FastAPI) -> str:
    signer = SessionMiddleware(app, app.state.settings.secret_key, False)
    return signer.session_from(client.cookies[COOKIE_NAME])


async def stored_match(client: httpx.AsyncClient, app: FastAPI, game_id: str):
    stored = await app.state.store.get(session_of(client, app), game_id)
    return stored, HeartsMatch.from_json(stored.state)


def hidden_cards(match: HeartsMatch) -> list[int]:
    """The cards in the bots' hands now: no answer may name one of them."""
    return [c for seat in (1, 2, 3) for c in cards_in(match.state.hands[seat])]


def assert_no_hidden_card(text: str, match: HeartsMatch, lang: str = "en") -> None:
    named = set(re.findall(r'(?:data-card="|value="|ht-c-)(\w+)', text))
    for c in hidden_cards(match):
        assert card_text(c) not in named, f"{card_text(c)} of a bot's hand is in the answer"
        assert f'"{card_name(c, lang)}' not in text, f"{card_name(c, lang)} is in the answer"


def element_at(text: str, start: int) -> str:
    """The element that starts at ``start``, up to its matching end tag."""
    tag = re.match(r"<(\w+)", text[start:]).group(1)
    if tag == "input":
        return text[start : text.index(">", start) + 1]
    depth = 0
    for m in re.compile(rf"<(/?){tag}\b[^>]*>").finditer(text, start):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return text[start : m.end()]
    raise AssertionError(f"unclosed <{tag}> at {start}")


PIECE = re.compile(r'<(\w+)\b[^>]*\bid="([\w-]+)"[^>]*\bhx-swap-oob="(\w+)"[^>]*>')
STEP = re.compile(
    r'<p data-card="(\w+)" data-seat="(\d)"(?: data-ends="(\d)")?'
    r' data-say="[^"]*"(?: data-brief="[^"]*")?>([^<]*)</p>'
)
SLOT = re.compile(r'<div class="ht-slot" data-slot="\d">')


def located(html: str, ident: str) -> tuple[int, int]:
    """Where the element with this id starts and ends in ``html``."""
    start = html.rindex("<", 0, html.index(f' id="{ident}"'))
    return start, start + len(element_at(html, start))


def replay_steps(page: str, steps: str) -> str:
    """The trick after the played cards, built as static/js/hearts-table.js builds it."""
    start, end = located(page, "ht-trick")
    trick = page[start:end]
    slots = []
    for m in SLOT.finditer(trick):
        slot = element_at(trick, m.start())
        slots.append(slot[len(m.group(0)) : -len("</div>")])
    done = 'data-done="true"' in trick[: trick.index(">")]
    for code, seat, ends, label in STEP.findall(steps):
        if done:
            slots, done = ["", "", "", ""], False
        rank, suit = code[:-1], code[-1].lower()
        slots[int(seat)] = (f'<div class="card {suit}" data-card="{code}" data-seat="{seat}" '
                            f'role="img" aria-label="{label}"><i>{rank}</i><b>{rank}</b></div>')
        if ends:
            slots[int(ends)] = slots[int(ends)].replace(' role=', ' data-won="true" role=')
            done = True
    inner = "".join(f'<div class="ht-slot" data-slot="{s}">{slots[s]}</div>' for s in range(4))
    opening = '<div id="ht-trick" class="ht-trick"' + (' data-done="true"' if done else "") + ">"
    page = page[:start] + opening + inner + "</div>" + page[end:]
    # Each bot's card that lands takes one from its count.
    for seat in re.findall(r'<p data-card="\w+" data-seat="([123])"', steps):
        page = re.sub(rf'(<span id="ht-left-{seat}">)(\d+)<',
                      lambda m: f"{m.group(1)}{int(m.group(2)) - 1}<", page)
    return page


def apply_piece(page: str, tag: str, ident: str, swap: str, piece: str) -> str:
    """The page after one out-of-band piece, as htmx and static/js/hearts-*.js apply it."""
    if tag == "template":
        return replay_steps(page, piece)
    start, end = located(page, ident)
    if swap == "delete":
        return page[:start] + page[end:]
    if swap == "innerHTML":
        open_end = page.index(">", start) + 1
        content = piece[piece.index(">") + 1 : piece.rindex("</")]
        return page[:open_end] + content + page[end - len(f"</{tag}>") :]
    if " data-patch" in piece:  # the card's state attributes, the rest kept
        state = re.compile(r' (aria-disabled|data-received|aria-describedby)="[^"]*"')
        card = state.sub("", page[start:end])
        attributes = "".join(m.group(0) for m in state.finditer(piece))
        card = re.sub(r'( aria-label="[^"]*")', lambda m: m.group(1) + attributes, card, count=1)
        return page[:start] + card + page[end:]
    return page[:start] + piece.replace(' hx-swap-oob="true"', "") + page[end:]


def main_of(page: str) -> str:
    """The game's part of a page, without whitespace between tags or the narration."""
    main = page[page.index("<main") : page.index("</main>")]
    main = re.sub(r'(<p id="status"[^>]*>).*?</p>', r"\1</p>", main, flags=re.S)
    return re.sub(r">\s+<", "><", main)


def assert_answer_makes_page(answer: str, page_before: str, page_after: str) -> None:
    """The answer's pieces, applied to the page they answer, give the page drawn afresh, and
    each one changes something: an answer carries what changed, and only that."""
    page = page_before
    for m in PIECE.finditer(answer):
        tag, ident, swap = m.groups()
        piece = element_at(answer, m.start())
        changed = apply_piece(page, tag, ident, swap, piece)
        if ident != "status":
            assert main_of(changed) != main_of(page), f"{piece[:120]} changes nothing"
        page = changed
    assert main_of(page) == main_of(page_after)


async def post(client: httpx.AsyncClient, url: str, **data) -> httpx.Response:
    return await client.post(url, data=data, headers=HX)


def version_in(text: str) -> int:
    return int(re.search(r'id="ht-version" name="version" value="(\d+)"', text).group(1))


async def start(client: httpx.AsyncClient, code: str = "HT1-E-AAAAAAB") -> Page:
    response = await client.get(f"/hearts/deal/{code}")
    assert response.status_code == 303
    return await get_page(client)


async def play_first_trick_card(client: httpx.AsyncClient) -> tuple[Page, httpx.Response]:
    page = await start(client)
    response = await post(
        client, f"/hearts/games/{page.game_id}/pass", cards=",".join(page.hand[:3]),
        version=str(page.version),
    )
    assert response.status_code == 200
    return await get_page(client), response


async def known_browser_start(client: httpx.AsyncClient) -> Page:
    """A browser that has been here (it has a session cookie): its deal link stores the match
    at once. (A first visit's stores it at its first action: tests/web/test_server_cost.py.)"""
    await client.get("/")
    return await start(client)


async def test_whole_match_through_the_page(client: httpx.AsyncClient, app: FastAPI) -> None:
    page = await known_browser_start(client)
    assert page.phase == "passing"
    assert 'aria-pressed="false"' in page.html and "Pass left" in page.html
    plays = hands = 0
    while page.phase != "match_over":
        stored, match = await stored_match(client, app, page.game_id)
        assert stored.version == page.version
        base = f"/hearts/games/{page.game_id}"
        if page.phase == "passing":
            assert page.playable == page.hand  # nothing is disabled while passing
            response = await post(
                client, f"{base}/pass", cards=",".join(page.hand[:3]), version=str(page.version)
            )
        elif page.phase == "playing":
            # The page's playable cards are exactly the rules' legal plays.
            assert {parse_card(c) for c in page.playable} == set(cards_in(match.legal_plays()))
            response = await post(
                client, f"{base}/play", card=page.playable[-1], version=str(page.version)
            )
            plays += 1
            if "The rest of the tricks are yours." in response.text:  # a claim (on by default)
                plays += len(page.hand) - 1
        else:
            assert page.phase == "hand_over"
            assert "<dialog" in page.html and "is over" in page.html
            response = await post(client, f"{base}/next-hand", version=str(page.version))
            hands += 1
        assert response.status_code == 200, response.text
        assert version_in(response.text) == page.version + 1
        _, after = await stored_match(client, app, page.game_id)
        assert_no_hidden_card(response.text, after)
        fresh = await get_page(client)
        assert_answer_makes_page(response.text, page.html, fresh.html)
        page = fresh
        assert_no_hidden_card(page.html, after)
    view = after.view(HUMAN)
    assert plays == 13 * (hands + 1)  # the player played every one of its cards, no bot did
    assert max(view.totals) >= 100
    assert view.winner is not None
    winner_line = "You win the match!" if view.winner == HUMAN else "wins the match."
    assert winner_line in page.html
    # The match is counted once in this browser's statistics.
    _, profile = await app.state.store.get_profile(session_of(client, app))
    assert profile["stats"]["hearts"]["played"] == 1
    assert profile["stats"]["hearts"]["hands"] == len(view.hand_scores)
    # A match that is over takes no more cards.
    response = await post(client, f"/hearts/games/{page.game_id}/play", card="2C",
                          version=str(page.version))
    assert response.status_code == 409


async def test_illegal_play_changes_nothing(client: httpx.AsyncClient, app: FastAPI) -> None:
    page, _ = await play_first_trick_card(client)
    assert page.phase == "playing"
    stored_before, match = await stored_match(client, app, page.game_id)
    unplayable = [c for c in page.hand if c not in page.playable]
    assert unplayable, "the first trick leaves some cards unplayable"
    why = IllegalPlay("", "")
    try:
        match.copy().play(parse_card(unplayable[0]), seat=HUMAN)
    except IllegalPlay as exc:
        why = exc
    expected = [refusal_text(why, translator("en")), "cannot use", "not in your hand"]
    # The rules refuse a card that cannot be played now (409); a text that is no card is a
    # malformed form (400).
    for card, says, code in zip(
        (unplayable[0], "ZZ", next(card_text(c) for c in hidden_cards(match))), expected,
        (409, 400, 409), strict=True,
    ):
        response = await post(
            client, f"/hearts/games/{page.game_id}/play", card=card, version=str(page.version)
        )
        assert response.status_code == code
        assert says in response.text
        assert_no_hidden_card(response.text, match)
        stored_after, _ = await stored_match(client, app, page.game_id)
        assert stored_after.version == stored_before.version
        assert stored_after.state == stored_before.state


async def test_undo_takes_back_the_card_and_the_bots_cards(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    page, _ = await play_first_trick_card(client)
    _, before = await stored_match(client, app, page.game_id)
    card = page.playable[0]
    played = await post(client, f"/hearts/games/{page.game_id}/play", card=card,
                        version=str(page.version))
    assert played.status_code == 200
    page_after = await get_page(client)
    assert_answer_makes_page(played.text, page.html, page_after.html)
    assert card not in page_after.hand
    assert re.search(r"<button[^>]*>Undo</button>", page_after.html)
    undone = await post(client, f"/hearts/games/{page.game_id}/undo",
                        version=str(page_after.version))
    assert undone.status_code == 200
    page_back = await get_page(client)
    # Undo plays no card: the table comes back whole.
    assert re.search(r'<div id="ht-trick"[^>]*hx-swap-oob="true"', undone.text)
    assert_answer_makes_page(undone.text, page_after.html, page_back.html)
    assert page_back.hand == page.hand
    assert page_back.version == page_after.version + 1
    # The live region says what the undo did instead of still reading the trick taken back.
    assert re.search(r'<p id="status"[^>]*>Undone: [^<]+ back in your hand\.</p>', undone.text)
    _, restored = await stored_match(client, app, page.game_id)
    assert restored.view(HUMAN) == before.view(HUMAN)
    # Nothing more to undo in this hand: refused, and said so.
    again = await post(client, f"/hearts/games/{page.game_id}/undo", version=str(page_back.version))
    assert again.status_code == 409
    assert "There is nothing to undo." in again.text


async def test_stale_version_and_double_tap_apply_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    page, _ = await play_first_trick_card(client)
    card = page.playable[0]
    first = await post(client, f"/hearts/games/{page.game_id}/play", card=card,
                       version=str(page.version))
    assert first.status_code == 200
    # The same tap again, with the version the page held: refused, the current table answers.
    second = await post(client, f"/hearts/games/{page.game_id}/play", card=card,
                        version=str(page.version))
    assert second.status_code == 409
    for piece in ("ht-hand", "ht-trick", "ht-seat-0", "ht-bar", "ht-version"):
        assert f'id="{piece}"' in second.text
    stored, match = await stored_match(client, app, page.game_id)
    assert_no_hidden_card(second.text, match)
    assert stored.version == page.version + 1
    assert version_in(second.text) == stored.version
    garbage = await post(client, f"/hearts/games/{page.game_id}/play", card=card, version="x")
    assert garbage.status_code == 400
    assert (await stored_match(client, app, page.game_id))[0].version == stored.version


async def test_a_play_answers_with_small_pieces(client: httpx.AsyncClient) -> None:
    page, _ = await play_first_trick_card(client)
    for _ in range(4):
        response = await post(client, f"/hearts/games/{page.game_id}/play", card=page.playable[0],
                              version=str(page.version))
        pieces = {m.group(2): m for m in PIECE.finditer(response.text)}
        # The cards played come once, as steps in place of the trick, the player's first.
        assert next(iter(pieces)) == "ht-trick" and pieces["ht-trick"].group(1) == "template"
        steps = STEP.findall(response.text)
        assert steps[0][:2] == (page.playable[0], "0")
        assert "ht-slot" not in response.text
        # The turn comes back to the player: no badge is redrawn, and the bots' card counts
        # follow from the steps (the page takes one for each card that lands); only points,
        # when a trick had some, come as numbers alone.
        assert not any(ident.startswith(("ht-seat-", "ht-left-")) for ident in pieces)
        assert all(m.group(3) == "innerHTML" for i, m in pieces.items() if i.startswith("ht-hp"))
        # The hand loses the card played; the other cards come as their state alone.
        assert pieces[f"ht-c-{page.playable[0]}"].group(3) == "delete"
        cards = re.findall(r'<button id="ht-c-[^>]*>', response.text)
        assert all(" data-patch" in tag or '"delete"' in tag for tag in cards), cards
        assert "ht-dialog" not in pieces and 'data-info="deal"' not in response.text
        fresh = await get_page(client)
        assert_answer_makes_page(response.text, page.html, fresh.html)
        assert len(response.content) < len(page.html.encode()) / 5
        page = fresh


async def test_another_browser_cannot_touch_the_match(
    client: httpx.AsyncClient, new_client
) -> None:
    page = await start(client)
    other = new_client(headers={"accept-language": "en"})
    response = await post(other, f"/hearts/games/{page.game_id}/pass",
                          cards=",".join(page.hand[:3]), version=str(page.version))
    assert response.status_code == 404
    assert (await other.get(f"/hearts/games/{page.game_id}/last-trick")).status_code == 404


async def test_deal_url_asks_before_replacing_an_unfinished_match(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    page = await start(client, "HT1-N-AAAAAAB")
    # Nothing passed or played yet: a shared deal replaces the match without asking.
    assert (await client.get("/hearts/deal/HT1-N-AAAAAAC")).status_code == 303
    page = await get_page(client)
    assert "HT1-N-AAAAAAC" in page.html
    await post(client, f"/hearts/games/{page.game_id}/pass", cards=",".join(page.hand[:3]),
               version=str(page.version))
    asked = await client.get("/hearts/deal/ht1-h-aaaaaad")
    assert asked.status_code == 200
    question = r"<dialog[^>]*\bopen\b[^>]*>\s*<h2[^>]*>Play the shared deal\?</h2>"
    assert re.search(question, asked.text)
    assert "HT1-H-AAAAAAD" in asked.text
    current = await app.state.store.current(session_of(client, app), "hearts")
    assert current.game_id == page.game_id  # nothing replaced yet
    # The same deal as the current match: no question, the match goes on.
    assert (await client.get("/hearts/deal/HT1-N-AAAAAAC")).status_code == 303
    chosen = await client.post("/hearts/deal/HT1-H-AAAAAAD")
    assert chosen.status_code == 303
    page = await get_page(client)
    assert "HT1-H-AAAAAAD" in page.html and page.phase == "passing"


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("HH1-N-AAAAAAB", "Hearts codes start with HT1-"),
        ("HT1-Q-AAAAAAB", "E (easy), N (normal), H (hard) or X (expert)"),
        ("HT1-N-AAAB", "exactly seven letters"),
        ("not a code", "A Hearts deal code looks like"),
    ],
)
async def test_bad_deal_code_says_what_is_wrong(
    client: httpx.AsyncClient, app: FastAPI, code: str, says: str
) -> None:
    response = await client.get(f"/hearts/deal/{code}")
    assert response.status_code == 400
    assert says in response.text
    assert await app.state.store.current(session_of(client, app), "hearts") is None


async def test_page_hooks_in_vietnamese(new_client) -> None:
    client = new_client(headers={"accept-language": "vi"})
    page = await start(client, "HT1-N-AAAAAAB")
    assert '<html lang="vi"' in page.html
    assert "Chuyền sang trái" in page.html
    names = re.findall(r'<button id="ht-c-\w+"[^>]*aria-label="([^"]+)"', page.html)
    assert len(names) == 13
    assert all(re.fullmatch(r"(Át|[2-9]|10|J|Q|K) (cơ|rô|chuồn|bích)", n) for n in names)
    response = await post(client, f"/hearts/games/{page.game_id}/pass",
                          cards=",".join(page.hand[:3]), version=str(page.version))
    page = await get_page(client)
    assert re.search(r"<button[^>]*>Đi lại</button>", page.html)
    assert response.status_code == 200


async def test_english_page_hooks(client: httpx.AsyncClient) -> None:
    page = await start(client)
    names = re.findall(r'<button id="ht-c-\w+"[^>]*aria-label="([^"]+)"', page.html)
    assert all(re.fullmatch(r"(Ace|[2-9]|10|Jack|Queen|King) of (clubs|diamonds|hearts|spades)",
                            n) for n in names)
    assert re.search(r'<button type="submit" class="btn primary ht-pass-button" disabled>'
                     r"Pass left", page.html)
    page, _ = await play_first_trick_card(client)
    # Cards on the table carry data-card and data-seat.
    assert re.search(r'<div class="card \w" data-card="\w+" data-seat="[0-3]"', page.html)


async def test_rules_page_in_both_languages(client: httpx.AsyncClient, new_client) -> None:
    english = await client.get("/hearts/rules")
    assert english.status_code == 200
    assert "Shooting the moon" in english.text
    vietnamese = await new_client(headers={"accept-language": "vi"}).get("/hearts/rules")
    assert "Bắn trăng" in vietnamese.text and '<html lang="vi"' in vietnamese.text


async def test_the_pass_answer_names_the_received_cards_only(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    page = await start(client)
    response = await post(client, f"/hearts/games/{page.game_id}/pass",
                          cards=",".join(page.hand[:3]), version=str(page.version))
    _, match = await stored_match(client, app, page.game_id)
    view = match.view(HUMAN)
    # Said before the bots' first cards when they play some (the steps' opening), else the
    # status line.
    said = re.search(r'(?:<p id="status"[^>]*>|<template[^>]* data-say=")You received (.*?)\.',
                     response.text)
    received = said.group(1)
    assert received == cards_in_words(sorted_hand(view.received), translator("en"))
    # The passed cards are in a bot's hand now: named only once played.
    played = {p.card for p in view.trick}
    for c in cards_in(view.passed):
        if c not in played:
            assert card_name(c, "en") not in response.text
    # Received cards carry their mark until the first trick is over.
    marked = re.findall(r'<button id="ht-c-(\w+)"[^>]*data-received="true"', response.text)
    assert sorted(marked) == sorted(card_text(c) for c in cards_in(view.received))


async def test_a_match_the_engine_cannot_read_is_replaced(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    page = await known_browser_start(client)
    stored, _ = await stored_match(client, app, page.game_id)
    broken = {**stored.state, "v": 999}
    assert await app.state.store.compare_and_set(
        session_of(client, app), page.game_id, stored.version, broken
    )
    response = await post(client, f"/hearts/games/{page.game_id}/play", card="2C", version="2")
    assert response.status_code == 404
    fresh = await get_page(client)
    assert fresh.game_id != page.game_id and fresh.phase == "passing"


async def test_without_htmx_a_play_redirects_to_the_page(client: httpx.AsyncClient) -> None:
    page, _ = await play_first_trick_card(client)
    card = page.playable[0]
    response = await client.post(f"/hearts/games/{page.game_id}/play", data={"card": card})
    assert response.status_code == 303 and response.headers["location"] == "/hearts"
    after = await get_page(client)
    assert card not in after.hand and after.version == page.version + 1


def test_seat_badges_after_a_moon_show_the_scored_points():
    """Once a hand is scored, a badge's points this hand are the scored ones: after a moon the
    shooter shows 0 and the others 26, as the score table does."""
    view = HeartsMatch.new("HT1-N-AAAAAAM").view(0)
    moon = changed(view, phase="hand_over", hand_points=(0, 26, 0, 0),
                   hand_scores=((26, 0, 26, 26),), totals=(26, 0, 26, 26), moon=1)
    urls = Urls("play", "pass", "undo", "next", "last", "review")

    def points(view) -> list[int]:
        pieces = table_pieces(Seen("g", 1, view, False), urls, translator("en"))
        return [pieces[f"ht-hp-{s}"].arg("value") for s in range(4)]

    assert points(moon) == [26, 0, 26, 26]
    assert points(view) == list(view.hand_points)
