"""Heart to Heart through its pages, with httpx against the real app and a real SQLite store."""

from __future__ import annotations

import asyncio
import re
import statistics
from functools import cache

import httpx
import pytest

from app.main import create_app
from app.rules.deal_codes import DealCode
from app.rules.heart_to_heart import HEART_SIZE, HeartToHeartGame, new_game, rank_name
from app.rules.heart_to_heart_solver import solve, solve_moves
from app.web.games import LatestGames
from app.web.heart_to_heart.service import random_code
from tests.web.pieces import attr, elements, top_level_ids

WINNABLE = "HH1-W-AAAAAAB"
HEART_IDS = {f"p{pos}" for pos in range(HEART_SIZE)}
PIECE_IDS = HEART_IDS | {
    "h2h-heart", "h2h-stock", "h2h-waste", "h2h-score", "h2h-moves", "h2h-time",
    "h2h-version", "h2h-undo", "h2h-dialog", "h2h-help", "h2h-finish", "h2h-answers",
}  # fmt: skip
HELPED_IDS = HEART_IDS | {"h2h-waste"}
HX = {"hx-request": "true"}


WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def english_name(rank: int) -> str:
    name = rank_name(rank)
    return f"{WORDS.get(name, name)} of hearts"


def target_text(target) -> str:
    return f"heart:{target}" if isinstance(target, int) else target


class Table:
    """One browser at the Heart to Heart page."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.html = ""

    async def load(self, url: str = "/heart-to-heart") -> str:
        response = await self.client.get(url, follow_redirects=True)
        assert response.status_code == 200, response.text
        self.html = response.text
        return self.html

    @property
    def game_id(self) -> str:
        return re.search(r'action="/heart-to-heart/games/([\w-]+)/tap"', self.html).group(1)

    @property
    def version(self) -> int:
        return int(attr(elements(self.html)["h2h-version"], "value"))

    def info(self, name: str) -> str:
        found = re.search(rf'data-info="{name}"[^>]*>([^<]*)<', self.html)
        return found.group(1)

    async def post(self, action: str, data: dict, *, htmx: bool = True) -> httpx.Response:
        return await self.client.post(
            f"/heart-to-heart/games/{self.game_id}/{action}", data=data, headers=HX if htmx else {}
        )

    async def tap(self, target: str, *, version: int | None = None, **extra) -> str:
        """Tap through htmx and check the answer holds exactly the pieces that changed."""
        before = elements(self.html)
        data = {"target": target, "version": self.version if version is None else version}
        response = await self.post("tap", {**data, **extra})
        assert response.status_code == 200, response.text
        assert response.headers["vary"] == "HX-Request"
        await self.load()
        check_only_changed(response.text, before, elements(self.html))
        return response.text

    async def undo(self) -> str:
        before = elements(self.html)
        response = await self.post("undo", {"version": self.version})
        assert response.status_code == 200
        await self.load()
        check_only_changed(response.text, before, elements(self.html))
        return response.text

    async def refused(self, action: str, data: dict) -> str:
        """An action that changes nothing: 409 with every piece as the page now draws it."""
        response = await self.post(action, data)
        assert response.status_code == 409, response.text
        await self.load()
        check_everything(response.text, elements(self.html))
        return response.text


def check_everything(answer: str, page: dict[str, str]) -> None:
    sent = elements(answer)
    assert set(top_level_ids(answer)) - {"status"} >= PIECE_IDS - HEART_IDS
    for ident in PIECE_IDS - {"h2h-heart"}:
        assert sent[ident] == page[ident], ident


def check_only_changed(answer: str, before: dict[str, str], after: dict[str, str]) -> None:
    """The answer's pieces are exactly the changed ones, each as the full page now shows it;
    swapped into the old page, with its placement help applied to the cards that were not
    sent (what static/js/placement-help.js does), they make the full page's board."""
    pieces = [ident for ident in top_level_ids(answer) if ident != "status"]
    sent = elements(answer)
    board = dict(before)
    for ident in pieces:
        assert ident in PIECE_IDS, ident
        assert sent[ident] == after[ident], ident
        swapped = HEART_IDS | {ident} if ident == "h2h-heart" else {ident}
        board.update((name, sent[name]) for name in swapped)
        if ident == "h2h-heart":
            assert any(without_help(before[p]) != without_help(after[p]) for p in HEART_IDS)
        else:
            assert without_help(before[ident]) != without_help(after[ident]), f"{ident} unchanged"
    board = apply_help(board)
    for ident in PIECE_IDS - {"h2h-heart"}:
        assert board[ident] == after[ident], ident


HELP = re.compile(r' data-help="[^"]*"')


def without_help(piece: str) -> str:
    return HELP.sub("", piece, count=1)


def apply_help(board: dict[str, str]) -> dict[str, str]:
    """The board after static/js/placement-help.js has applied the #h2h-help piece."""
    outlined = set(attr(board["h2h-help"], "data-outlined").split())
    dimmed = set(attr(board["h2h-help"], "data-dimmed").split())
    applied = dict(board)
    for ident in HELPED_IDS:
        card = board[ident]
        if not card.startswith("<button"):
            continue
        place = "waste" if ident == "h2h-waste" else ident[1:]
        value = "dimmed" if place in dimmed else "outlined" if place in outlined else None
        card = without_help(card)
        if value:  # data-help is the start tag's last attribute, as the template writes it
            end = card.index(">")
            card = f'{card[:end]} data-help="{value}"{card[end:]}'
        applied[ident] = card
    return applied


def status_text(answer: str) -> str:
    # (A selection's line is marked as the player's own doing: app/web/pieces.py, status.)
    found = re.search(
        r'<p id="status" hx-swap-oob="innerHTML">(?:<span data-detail>)?([^<]*)<', answer)
    return found.group(1) if found else ""


def dialog_heading(html: str) -> str | None:
    found = re.search(r"<dialog open[^>]*>\s*<h2[^>]*>([^<]*)</h2>", html)
    return found.group(1) if found else None


async def test_win_a_winnable_deal_by_following_the_solver(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    assert table.info("deal") == WINNABLE
    line = solve(new_game(WINNABLE))
    assert line
    answers, pages = [], []
    for step, target in enumerate(line):
        answers.append(len((await table.tap(target_text(target))).encode()))
        pages.append(len(table.html.encode()))
        if step < len(line) - 1:
            assert dialog_heading(table.html) is None
    # What changed only: on average a tap's answer is under a tenth of the page it updates.
    assert statistics.fmean(answers) < statistics.fmean(pages) / 10
    assert table.info("score") == "250"
    assert dialog_heading(table.html) == "You won!"
    assert dialog_primary_kind(table.html) == "W"
    assert 'value="N">Any deal (may not be winnable)<' in table.html
    moves = int(table.info("moves"))
    assert moves == sum(1 for t in line if t == "stock") + (len(line) - line.count("stock")) // 2
    # A won game is final: taps change nothing and undo says so.
    version = table.version
    assert await table.tap("stock") == ""
    answer = await table.refused("undo", {"version": version})
    assert "A won game is final." in status_text(answer)
    assert table.version == version
    home = (await client.get("/")).text
    assert re.search(r"Games played</dt><dd>1<", home)
    assert re.search(r"Games won</dt><dd>1<", home)
    assert re.search(rf"Fewest moves</dt><dd>{moves}<", home)
    assert re.search(r"Win rate</dt><dd>100%<", home)


@cache
def greedy_stalemate() -> tuple[str, list]:
    """A deal and the moves by which "pair when you can, else turn a card" gets stuck: of the
    first 200 deals, the one that gets stuck in the fewest taps (three moves at least), as each
    tap is a page's answer to the tests."""
    found = []
    for number in range(200):
        code = str(DealCode("HH1", "N", number))
        game = new_game(code)
        moves = []
        while game.status == "playing" and len(moves) < 2000:
            move = next(iter(game.legal_moves()))
            moves.append(move)
            game.play(move)
        if game.status == "stalemate" and game.moves >= 3:
            found.append((sum(len(move.taps) for move in moves), number, code, tuple(moves)))
    assert found, "no greedy stalemate among 200 deals"
    _, _, code, moves = min(found)
    return code, list(moves)


async def test_stalemate_dialog_and_undo_out_of_it(client):
    code, moves = greedy_stalemate()
    taps = [target for move in moves for target in move.taps]
    last = list(moves[-1].taps)
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{code}")
    for target in taps[: -len(last)]:
        await table.tap(target_text(target))
    for target in last[:-1]:
        await table.tap(target_text(target))
    assert dialog_heading(table.html) is None
    answer = await table.tap(target_text(last[-1]))
    assert status_text(answer) == "No more moves"
    assert dialog_heading(table.html) == "No more moves"
    assert dialog_primary_kind(table.html) == "W"
    # Undo, in the bar and in the dialog, posts to undo with JavaScript too (htmx ignores
    # the formaction that serves pages without it).
    undo_url = f"/heart-to-heart/games/{table.game_id}/undo"
    buttons = re.findall(r"<button[^>]*>\s*<span aria-hidden=\"true\">↶</span>", table.html)
    assert len(buttons) == 2
    assert all(attr(button, "hx-post") == undo_url for button in buttons)
    assert 'id="h2h-dialog"' in answer
    moves = int(table.info("moves"))
    await table.undo()
    assert dialog_heading(table.html) is None
    assert int(table.info("moves")) == moves - 1
    # And the same last move leads back into it.
    for target in last:
        await table.tap(target_text(target))
    assert dialog_heading(table.html) == "No more moves"


def first_two_free_ranks_differ(code: str) -> bool:
    game = new_game(code)
    return game.waste_top != game.rank_at(24)


async def test_move_errors_option(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    assert first_two_free_ranks_differ(WINNABLE)
    tip = english_name(new_game(WINNABLE).rank_at(24))
    waste = english_name(new_game(WINNABLE).waste_top)
    # Off by default: a card of another rank just becomes the selected one.
    assert status_text(await table.tap("heart:24")) == f"{tip} selected"
    assert status_text(await table.tap("waste")) == f"{waste} selected"
    assert attr(elements(table.html)["h2h-waste"], "aria-pressed") == "true"
    assert attr(elements(table.html)["p24"], "aria-pressed") is None
    response = await client.post(
        "/heart-to-heart/options",
        data={"move_errors": "true", "placement_help": "true", "game": table.game_id},
        headers=HX,
    )
    assert response.status_code == 200
    await table.load()
    assert status_text(await table.tap("heart:24")) == "Must be same rank"
    assert attr(elements(table.html)["p24"], "aria-pressed") == "true"
    # Vietnamese says it the seed's way.
    await client.post("/lang", data={"lang": "vi"})
    await table.load()
    assert status_text(await table.tap("waste")) == "Phải cùng hạng"


async def test_placement_help_option(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    game = new_game(WINNABLE)
    outlined, _ = game.placement_help()
    answer = await table.tap("heart:24")
    game.tap(24)
    outlined, dimmed = game.placement_help()
    # The cards whose help alone changed are not sent: the help piece is, for the page's script.
    sent = set(top_level_ids(answer)) - {"status"}
    assert {"p24", "h2h-help"} <= sent <= PIECE_IDS - {"h2h-heart"}
    assert len(HEART_IDS & sent) == 1
    pieces = elements(table.html)
    for pos in range(HEART_SIZE):
        help_value = attr(pieces[f"p{pos}"], "data-help")
        expected = "dimmed" if pos in dimmed else "outlined" if pos in outlined else None
        assert help_value == expected, pos
    assert dimmed, "a selection dims the cards that cannot pair with it"
    # Turned off: no card carries data-help. The answer is the emptied help sets alone, which
    # the page's script applies to the cards.
    before = elements(table.html)
    response = await client.post(
        "/heart-to-heart/options",
        data={"placement_help": "false", "game": table.game_id},
        headers=HX,
    )
    assert top_level_ids(response.text) == ["h2h-help"]
    await table.load()
    check_only_changed(response.text, before, elements(table.html))
    assert "data-help=" not in table.html
    assert 'name="placement_help" value="true" checked' not in table.html
    # Remembered for later games of this browser.
    await client.post("/heart-to-heart/new", data={"kind": "N"})
    await table.load()
    assert 'name="placement_help" value="true" checked' not in table.html


async def test_taps_that_do_nothing_answer_nothing(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    version = table.version
    answer = await table.tap("heart:0")  # covered
    assert answer == ""
    assert table.version == version
    assert attr(elements(table.html)["p0"], "aria-disabled") == "true"


async def test_a_stale_version_gets_the_current_board(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    old = table.version
    await table.tap("stock")
    moves = table.info("moves")
    answer = await table.refused("tap", {"target": "stock", "version": old})
    assert attr(elements(answer)["h2h-version"], "value") == str(table.version)
    assert "changed" in status_text(answer)
    assert table.info("moves") == moves  # the stale tap was not applied


async def test_two_copies_of_one_tap_apply_once(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    data = {"target": "stock", "version": table.version}
    answers = await asyncio.gather(*(table.post("tap", data) for _ in range(5)))
    assert sorted(answer.status_code for answer in answers) == [200, 409, 409, 409, 409]
    await table.load()
    assert table.info("moves") == "1"
    assert table.version == data["version"] + 1
    assert sum("changed" in status_text(answer.text) for answer in answers) == 4


async def test_full_page_without_javascript(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    response = await table.post("tap", {"target": "stock", "version": table.version}, htmx=False)
    # Back to the game's page, so that a reload does not post the tap again.
    assert response.status_code == 303
    assert response.headers["location"] == "/heart-to-heart"
    page = (await client.get(response.headers["location"])).text
    assert page.startswith("<!doctype html>")
    assert re.search(r'data-info="moves"[^>]*>1<', page)


async def test_page_hooks(client):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    game = new_game(WINNABLE)
    pieces = elements(table.html)
    for pos in range(HEART_SIZE):
        card = pieces[f"p{pos}"]
        assert card.startswith(f'<button id="p{pos}"')
        assert attr(card, "data-pos") == str(pos)
        assert attr(card, "aria-label") == english_name(game.rank_at(pos))
        assert (attr(card, "aria-disabled") == "true") == (pos != 24)
    assert attr(pieces["h2h-stock"], "data-pile") == "stock"
    assert attr(pieces["h2h-stock"], "aria-label") == "Stock, 26 cards"
    assert attr(pieces["h2h-waste"], "data-pile") == "waste"
    assert table.info("time") == "0:00"
    assert table.info("score") == "0"
    assert table.info("moves") == "0"
    # A removed card leaves a place with no button.
    line = solve(game)
    first_pair = next(i for i, t in enumerate(line) if t != "stock")
    for target in line[: first_pair + 2]:
        await table.tap(target_text(target))
    gone = elements(table.html)[f"p{line[first_pair]}"]
    assert gone.startswith("<span") and "data-pos" not in gone
    await client.post("/lang", data={"lang": "vi"})
    await table.load()
    assert 'aria-label="Chồng bài rút, ' in table.html
    assert '<html lang="vi">' in table.html


async def test_clock_counts_reported_time_within_reason(client, clock):
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    await table.tap("stock", elapsed="50")  # before the first move the clock does not run
    assert table.info("time") == "0:00"
    assert attr(elements(table.html)["h2h-time"], "data-running") == "true"
    # A page cannot claim more time than has passed since the game was saved.
    clock.advance(5)
    await table.tap("stock", elapsed="100000")
    assert attr(elements(table.html)["h2h-time"], "data-elapsed") == "5.0"
    # Less than that is counted as the page says.
    clock.advance(60)
    await table.tap("stock", elapsed="19.5")
    assert attr(elements(table.html)["h2h-time"], "data-elapsed") == "19.5"
    assert table.info("time") == "0:19"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("HH1-X-AAAAAAA", "must be N"),
        ("HT1-N-AAAAAAA", "is not a Heart to Heart deal"),
        ("HH1-N-AAA", "seven letters"),
        ("nonsense", "is not a deal code"),
        ("HH1-N-" + "A" * 60, "short"),
    ],
)
async def test_bad_deal_codes_change_nothing(client, code, words):
    table = Table(client)
    await table.load()
    await table.tap("stock")
    game_id, version = table.game_id, table.version
    response = await client.get(f"/heart-to-heart/deal/{code}")
    assert response.status_code == 400
    assert words in response.text
    assert "This deal code cannot be used" in response.text
    await table.load()
    assert (table.game_id, table.version) == (game_id, version)


async def test_deal_codes_accept_any_case_and_spaces(client):
    table = Table(client)
    await table.load("/heart-to-heart/deal/%20hh1-w-aaaaaab%20")
    assert table.info("deal") == WINNABLE


async def test_deal_url_asks_before_replacing_an_unfinished_game(client):
    table = Table(client)
    await table.load("/heart-to-heart/deal/HH1-N-AAAAAAM")
    await table.tap("stock")
    game_id, version = table.game_id, table.version
    response = await client.get(f"/heart-to-heart/deal/{WINNABLE}")
    assert response.status_code == 200
    assert dialog_heading(response.text) == "Play the shared deal?"
    assert f'action="/heart-to-heart/deal/{WINNABLE}"' in response.text
    await table.load()
    assert (table.game_id, table.version) == (game_id, version)  # nothing replaced
    assert dialog_heading(table.html) is None
    # The same deal again just shows it.
    response = await client.get("/heart-to-heart/deal/HH1-N-AAAAAAM")
    assert response.status_code == 303
    # Choosing the shared deal replaces the game; the left game counts as played, not won.
    response = await client.post(f"/heart-to-heart/deal/{WINNABLE}")
    assert response.status_code == 303
    await table.load()
    assert table.info("deal") == WINNABLE
    assert table.game_id != game_id
    home = (await client.get("/")).text
    assert re.search(r"Games played</dt><dd>1<", home)
    assert re.search(r"Games won</dt><dd>0<", home)
    # A game without a move is replaced without a question.
    response = await client.get("/heart-to-heart/deal/HH1-N-AAAAAAM")
    assert response.status_code == 303


async def test_a_stalemated_game_is_unfinished(client):
    """Undo leads out of a stalemate, so a deal URL asks before replacing one, and home offers
    Continue for it."""
    code, moves = greedy_stalemate()
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{code}")
    for target in (target for move in moves for target in move.taps):
        await table.tap(target_text(target))
    assert dialog_heading(table.html) == "No more moves"
    game_id, version = table.game_id, table.version
    response = await client.get(f"/heart-to-heart/deal/{WINNABLE}")
    assert response.status_code == 200
    assert dialog_heading(response.text) == "Play the shared deal?"
    assert response.text.count("<dialog open") == 1
    await table.load()
    assert (table.game_id, table.version) == (game_id, version)
    assert dialog_heading(table.html) == "No more moves"
    assert 'href="/heart-to-heart">Continue<' in (await client.get("/")).text


async def test_new_game_any_or_winnable(client):
    table = Table(client)
    await table.load()
    first = table.game_id
    response = await client.post("/heart-to-heart/new", data={"kind": "W"})
    assert response.status_code == 303
    await table.load()
    assert table.info("deal").startswith("HH1-W-")
    assert table.game_id != first
    response = await client.post("/heart-to-heart/new", data={"kind": "Z"})
    assert response.status_code == 400


def dialog_primary_kind(html: str) -> str:
    """The kind of deal the open dialog's primary "New game" button asks for."""
    dialog = re.search(r"<dialog open.*?</dialog>", html, re.S).group(0)
    found = re.search(r'class="btn primary" form="h2h-new" name="kind" value="(\w)"', dialog)
    return found.group(1)


async def test_new_games_are_winnable_unless_any_deal_is_asked_for(client):
    """The first game, the menu, the home page's button and a new game posted without a kind
    all deal a winnable (W) deal; "any deal" stays a choice that says what it is."""
    table = Table(client)
    await table.load()
    assert table.info("deal").startswith("HH1-W-")
    menu = re.search(r'<details class="menu">\s*<summary class="btn">New game<.*?</details>',
                     table.html, re.S).group(0)
    assert re.findall(r'name="kind" value="(\w)">([^<]*)<', menu) == [
        ("W", "Winnable deal"), ("N", "Any deal (may not be winnable)")]
    await table.tap("stock")  # a game in play: home offers Continue and New game
    home = (await client.get("/")).text
    assert re.search(r'<button class="btn" form="h2h-new" name="kind" value="W">New game<', home)
    first = table.game_id
    response = await client.post("/heart-to-heart/new", data={"confirm": "true"})
    assert response.status_code == 303
    await table.load()
    assert table.game_id != first and table.info("deal").startswith("HH1-W-")


async def test_new_game_asks_before_replacing_an_unfinished_game(client):
    """A new game over a game in play asks first; the old game counts as played and lost only
    once the player confirms."""
    table = Table(client)
    await table.load("/heart-to-heart/deal/HH1-N-AAAAAAM")
    await table.tap("stock")
    game_id, version = table.game_id, table.version
    response = await client.post("/heart-to-heart/new", data={"kind": "W"})
    assert response.status_code == 200
    assert dialog_heading(response.text) == "Start a new game?"
    assert "(HH1-N-AAAAAAM, 1 move) ends" in response.text  # not "1 moves"
    assert 'name="kind" value="W"' in response.text
    await table.load()
    assert (table.game_id, table.version) == (game_id, version)  # nothing replaced
    home = (await client.get("/")).text
    assert not re.search(r"Games played</dt><dd>1<", home), "nothing counted before confirming"
    response = await client.post("/heart-to-heart/new", data={"kind": "W", "confirm": "true"})
    assert response.status_code == 303
    await table.load()
    assert table.game_id != game_id and table.info("deal").startswith("HH1-W-")
    home = (await client.get("/")).text
    assert re.search(r"Games played</dt><dd>1<", home)
    assert re.search(r"Games won</dt><dd>0<", home)


def test_a_random_new_game_never_starts_stuck():
    codes = [random_code("N") for _ in range(200)]
    assert all(new_game(code).status == "playing" for code in codes)
    assert len(set(codes)) == 200
    # Such deals exist (about one in ten) and their codes still deal them.
    stuck = next(
        code
        for number in range(200)
        if new_game(code := str(DealCode("HH1", "N", number))).status == "stalemate"
    )
    assert new_game(stuck).moves == 0


async def test_continue_on_home_page(client):
    home = (await client.get("/")).text
    assert "Continue" not in home.split("tile-hearts")[0]
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    assert 'href="/heart-to-heart">Continue<' not in (await client.get("/")).text
    await table.tap("stock")
    home = (await client.get("/")).text
    assert 'href="/heart-to-heart">Continue<' in home


async def test_another_browsers_game_does_not_exist(client, new_client):
    table = Table(client)
    await table.load()
    other = new_client(headers={"accept-language": "en"})
    response = await other.post(
        f"/heart-to-heart/games/{table.game_id}/tap",
        data={"target": "stock", "version": table.version},
        headers=HX,
    )
    assert response.status_code == 404
    response = await other.post(
        f"/heart-to-heart/games/{table.game_id}/undo", data={"version": table.version}
    )
    assert response.status_code == 404
    assert "another browser" in response.text


async def test_an_id_that_is_not_this_sessions_heart_to_heart_game_is_not_found(client):
    """This browser's Hearts match, or an id nobody has: every route taking a game id answers
    the 404 page and changes nothing (the Hearts match's id used to crash the tap with a 500)."""
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    await table.tap("stock")
    hearts = await client.post("/api/hearts/games", json={})
    hearts_id = hearts.json()["game_id"]
    for game_id in (hearts_id, "no-such-game"):
        for action, data in (
            ("tap", {"target": "stock", "version": 1}),
            ("undo", {"version": 1}),
        ):
            for headers in (HX, {}):
                response = await client.post(
                    f"/heart-to-heart/games/{game_id}/{action}", data=data, headers=headers
                )
                assert response.status_code == 404, (game_id, action, response.text)
                assert "does not exist here" in response.text
        response = await client.post(
            "/heart-to-heart/options",
            data={"placement_help": "true", "game": game_id},
            headers=HX,
        )
        assert response.status_code == 404
    assert (await client.get(f"/api/hearts/games/{hearts_id}")).json()["version"] == 1
    await table.load()
    assert table.info("moves") == "1"


async def test_malformed_actions_are_client_errors(client):
    table = Table(client)
    await table.load()
    for data in (
        {"target": "heart:25", "version": table.version},
        {"target": "pile", "version": table.version},
        {"target": "stock", "version": "x"},
        {"target": "stock"},
        {"target": "stock", "version": table.version, "elapsed": "-3"},
        {"target": "stock", "version": table.version, "elapsed": "nan"},
        {"target": "stock", "version": "²"},
        {"target": "stock", "version": table.version, "elapsed": "²"},
    ):
        response = await table.post("tap", data)
        assert response.status_code == 400, data


async def test_a_tap_trusts_the_store(client, app, monkeypatch):
    """A game read back from the store is what this server wrote: it is not re-proved by
    replaying its history on every tap (each tap here reads it back, as another worker's
    would: nothing is kept from the previous one)."""
    calls = {"replay": 0}
    replay_history = HeartToHeartGame._check_history

    def counted_replay(game):
        calls["replay"] += 1
        return replay_history(game)

    monkeypatch.setattr(HeartToHeartGame, "_check_history", counted_replay)
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    reads = []
    get = app.state.store.get

    async def counted_get(*args):
        reads.append(args)
        return await get(*args)

    monkeypatch.setattr(app.state.store, "get", counted_get)
    for target in solve(new_game(WINNABLE))[:10]:
        app.state.latest_games = LatestGames()
        await table.tap(target_text(target))
    assert len(reads) == 10
    assert calls["replay"] == 0


async def test_a_restart_keeps_the_game(settings):
    cookies = httpx.Cookies()
    first = create_app(settings)
    async with first.router.lifespan_context(first):
        transport = httpx.ASGITransport(app=first)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            table = Table(c)
            await table.load(f"/heart-to-heart/deal/{WINNABLE}")
            for target in solve(new_game(WINNABLE))[:12]:
                await table.tap(target_text(target))
            before = elements(table.html)
            cookies.update(c.cookies)
    second = create_app(settings)
    async with second.router.lifespan_context(second):
        transport = httpx.ASGITransport(app=second)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", cookies=cookies
        ) as c:
            table = Table(c)
            await table.load()
            after = elements(table.html)
    assert {k: before[k] for k in PIECE_IDS} == {k: after[k] for k in PIECE_IDS}


async def test_rules_and_examples_pages(client):
    headings = {"en": "Heart to Heart: how to play", "vi": "Heart to Heart: cách chơi"}
    for lang, heading in headings.items():
        await client.post("/lang", data={"lang": lang})
        response = await client.get("/heart-to-heart/rules")
        assert response.status_code == 200
        assert f"<h1>{heading}</h1>" in response.text
    await client.post("/lang", data={"lang": "en"})
    start = (await client.get("/heart-to-heart/examples")).text
    assert "only the tip is free" in start
    assert f'href="/heart-to-heart/deal/{WINNABLE}"' in start
    last = int(re.search(r"Move 0 of (\d+)", start).group(1))
    assert last == len(solve_moves(new_game(WINNABLE)))
    end = (await client.get(f"/heart-to-heart/examples?step={last}")).text
    assert re.search(r'data-info="score"[^>]*>250<', end)
    assert "data-pos=" not in end and "data-pile=" not in end  # pictures, not controls
    middle = (await client.get("/heart-to-heart/examples?step=8")).text
    assert "Move 8:" in middle
    assert "Next:" in middle
    bad = await client.get("/heart-to-heart/examples?step=-1")
    assert bad.status_code == 400



async def test_a_tap_at_the_version_this_process_stored_reads_nothing_back(client, app):
    """The game this process stored last is applied to without a read (app.state.latest_games);
    a tap at another version reads the store."""
    table = Table(client)
    await table.load(f"/heart-to-heart/deal/{WINNABLE}")
    await table.tap("stock")  # the first tap stores the deal link's game
    store = app.state.store
    reads = []
    get = store.get

    async def counted_get(*args):
        reads.append(args)
        return await get(*args)

    store.get = counted_get
    try:
        for target in ("stock", "stock", "waste"):
            await table.tap(target)
        assert reads == []
        await table.refused("tap", {"target": "stock", "version": table.version - 1})
        assert len(reads) == 1
    finally:
        del store.get
