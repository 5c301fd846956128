"""Settings, statistics, install and offline, through the app's HTTP interface (issue 14)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from app.rules.heart_to_heart import new_game, target_text
from app.rules.heart_to_heart_solver import solve
from app.web.i18n import translator
from app.web.preferences import DEFAULTS, PlayerSettings

WON_DEAL = "HH1-W-AAAAAAM"


async def test_settings_defaults_and_a_change_that_stays(client, new_client):
    defaults = (await client.get("/api/settings")).json()
    assert defaults == DEFAULTS.model_dump()
    assert defaults["sound"] is False and defaults["animation_speed"] is None
    assert defaults["hearts_claim"] is True and defaults["hearts_autoplay_single"] is False

    answer = await client.put("/api/settings", json={"sound": True, "table_colour": "blue"})
    assert answer.status_code == 200
    assert answer.json() == {**defaults, "sound": True, "table_colour": "blue"}
    page = (await client.get("/hearts")).text
    assert re.search(r'<body [^>]*data-sound="on"[^>]*data-table="blue"', page)
    # The session's own settings only: another browser keeps the defaults.
    assert (await new_client().get("/api/settings")).json() == defaults


@pytest.mark.parametrize(
    "body",
    [
        {"sound": "yes"},
        {"sound": None},
        {"card_back": "purple"},
        {"animation_speed": "warp"},
        {"table_colour": 3},
        {"colour": "blue"},
        {"sound": True, "left_handed": "true"},  # one bad value refuses the good one too
        [],
    ],
)
async def test_a_bad_setting_is_refused_and_changes_nothing(client, body):
    before = (await client.get("/api/settings")).json()
    answer = await client.put("/api/settings", json=body)
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid_request"
    assert (await client.get("/api/settings")).json() == before


async def test_the_form_saves_every_setting_without_javascript(client):
    await client.get("/settings")
    form = {
        "animation_speed": "slow", "card_back": "black", "table_colour": "slate",
        "hearts_bot_level": "hard", "left_handed": "on", "h2h_move_errors": "on",
        "announcements": "fewer",
    }
    answer = await client.post("/settings", data=form)
    assert answer.status_code == 303
    saved = PlayerSettings.model_validate((await client.get("/api/settings")).json())
    assert saved.animation_speed == "slow" and saved.left_handed and saved.h2h_move_errors
    assert saved.announcements == "fewer"
    assert not saved.sound and not saved.hearts_claim and not saved.h2h_placement_help
    # Heart to Heart's own options menu reads the same values.
    options = (await client.get("/api/heart-to-heart/options")).json()
    assert options == {"move_errors": True, "placement_help": False}

    bad = await client.post("/settings", data={**form, "card_back": "plaid"})
    assert bad.status_code == 400
    assert (await client.get("/api/settings")).json()["card_back"] == "black"


async def test_a_new_hearts_match_remembers_its_level(client):
    await client.post("/hearts/new", data={"level": "E"})
    assert (await client.get("/api/settings")).json()["hearts_bot_level"] == "easy"
    page = (await client.get("/hearts")).text
    assert re.search(r'value="E" checked', page)


async def win_through_the_api(client) -> None:
    game = (await client.post("/api/heart-to-heart/games", json={"deal": WON_DEAL})).json()
    for target in solve(new_game(WON_DEAL)):
        game = (await client.post(
            f"/api/heart-to-heart/games/{game['game_id']}/tap", json={"target": target_text(target)}
        )).json()
    assert game["status"] == "won"


async def test_statistics_page_and_reset(client):
    await win_through_the_api(client)
    news = (await client.get("/stats/news/heart-to-heart")).text
    assert "data-news" in news and news.count("<span>") == 3  # time, moves and streak

    page = (await client.get("/stats", headers={"accept-language": "en"})).text
    h2h = page[page.index('data-game="heart_to_heart"'):page.index('data-game="hearts"')]
    assert re.search(r'data-stat="played">1<', h2h) and re.search(r'data-stat="won">1<', h2h)
    assert re.search(r'data-stat="win_rate">100%<', h2h)
    assert h2h.count('class="won"') == 1 and "<svg" in h2h

    ask = await client.get("/stats/reset")
    assert ask.status_code == 200 and 'action="/stats/reset"' in ask.text
    assert re.search(r'data-stat="played">1<', (await client.get("/stats")).text)  # asked only
    done = await client.post("/stats/reset")
    assert done.status_code == 303
    assert not re.search(r'data-stat="played">[1-9]', (await client.get("/stats")).text)


async def test_manifest_and_service_worker(client):
    manifest = await client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["display"] == "standalone" and body["short_name"] and body["theme_color"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in body["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in body["icons"]:
        assert (await client.get(icon["src"])).content[:8] == b"\x89PNG\r\n\x1a\n"
    worker = await client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "/offline" in worker.text and re.search(r'"/static/[0-9a-f]+/css/app\.css"', worker.text)
    offline = await client.get("/offline", headers={"accept-language": "en"})
    assert "Your game is safe on the server" in offline.text
    assert 'rel="manifest"' in (await client.get("/")).text


def luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_table_colour_keeps_aa_contrast():
    from app.web.static_files import STATIC_DIR

    base = (STATIC_DIR / "css" / "app.css").read_text()
    room = (STATIC_DIR / "css" / "room.css").read_text()
    text = {name: re.search(rf"--{name}: (#[0-9a-f]{{6}})", base).group(1)
            for name in ("ink", "ink-soft", "gold")}
    tables = {"green": re.search(r":root \{[^}]*", base).group(0)}
    for colour in ("blue", "burgundy", "slate"):
        rule = rf'body\[data-table="{colour}"\][^{{]*\{{([^}}]*)'
        tables[colour] = re.search(rule, room).group(1)
    for colour, rules in tables.items():
        felts = re.findall(r"--felt(?:-dark|-deep)?: (#[0-9a-f]{6})", rules)
        assert len(felts) == 3, colour
        for felt in felts:
            for name, ink in text.items():
                assert contrast(ink, felt) >= 4.5, (colour, felt, name)


def test_places_share_a_place_on_equal_totals():
    from app.web.hearts.table import places_of

    places = places_of((57, 101, 57, 40), ("You", "West", "North", "East"))
    assert [(p.place, p.name, p.total) for p in places] == [
        (1, "East", 40), (2, "You", 57), (2, "North", 57), (4, "West", 101),
    ]


@pytest.mark.parametrize(
    ("totals", "winner", "headline", "second"),
    [
        ((30, 10, 10, 26), None, "Your place: 4 of 4, with 30 points.",
         "A tie for the fewest points."),
        ((10, 10, 50, 60), None, "You share first place.", "Your place: 1 of 4, with 10 points."),
        ((10, 20, 50, 100), 0, "You win the match!", "Your place: 1 of 4, with 10 points."),
        ((40, 20, 50, 100), 1, "Your place: 2 of 4, with 40 points.", "West wins the match."),
    ],
)
def test_the_match_over_headline_is_the_players_own_result(totals, winner, headline, second):
    """Issue 27: a player who came last never reads "A tie for the fewest points." as the
    headline: the dialog says the player's own result first."""
    from types import SimpleNamespace

    from app.web.hearts.table import end_of_hand
    from app.web.hearts.texts import seat_names

    tr = translator("en")
    view = SimpleNamespace(phase="match_over", hand_number=1, hand_scores=[], totals=totals,
                           moon=None, winner=winner, deal="HT1-N-AAAAAAB")
    end = end_of_hand(view, seat_names(tr), tr, "/hearts/deal/HT1-N-AAAAAAB/results")
    assert (end.headline, end.second_line) == (headline, second)


async def test_a_hearts_match_ends_with_places_and_counts_in_statistics(client):
    state = (await client.post("/api/hearts/games", json={"deal": "HT1-E-AAAAAAB"})).json()
    url = f"/api/hearts/games/{state['game_id']}"
    queens = 0
    while state["phase"] != "match_over":
        if state["phase"] == "passing":
            answer = await client.post(f"{url}/pass", json={"cards": state["hand"][:3]})
        elif state["phase"] == "hand_over":
            answer = await client.post(f"{url}/next-hand", json={})
        else:
            answer = await client.post(f"{url}/play", json={"card": state["legal"][0]})
        before, state = state, answer.json()
        if before["phase"] == "playing" and state["phase"] != "playing":
            queens += any(t["winner"] == 0 and "QS" in [p["card"] for p in t["cards"]]
                          for t in state["tricks"])
    assert queens  # this deal, played so, hands the player the Q♠ at least once
    totals = [sum(scores[s] for scores in state["hand_scores"]) for s in range(4)]
    page = (await client.get("/hearts", headers={"accept-language": "en"})).text
    dialog = page[page.index('id="ht-end-dialog"'):]
    mine = 1 + sum(t < totals[0] for t in totals)
    assert f"Your place: {mine} of 4, with {totals[0]} points." in dialog
    seats = re.findall(r'<li data-seat="(\d)" data-place="(\d)">', dialog)
    assert [int(seat) for seat, _ in seats] == sorted(range(4), key=lambda s: (totals[s], s))
    assert dialog.index("Your place") < dialog.index("ht-places") < dialog.index("ht-scores")

    stats = (await client.get("/stats", headers={"accept-language": "en"})).text
    for level in ("all", "easy"):
        assert f'data-level="{level}" data-stat="played">1<' in stats
        assert f'data-level="{level}" data-stat="queens">{queens}<' in stats
    assert 'data-level="normal" data-stat="played">0<' in stats


def test_a_stored_setting_this_version_cannot_use_counts_as_unset():
    from app.web.preferences import settings_of
    from app.web.profile import Profile

    data = {"settings": {"sound": True, "card_back": "plaid", "later_key": 1},
            "h2h_options": {"move_errors": True}}
    settings = settings_of(Profile(1, data))
    assert settings.sound and settings.h2h_move_errors
    assert settings.card_back == DEFAULTS.card_back
    assert settings_of(Profile(1, {})) == DEFAULTS


async def test_an_assisted_win_is_counted_apart_and_announces_no_record(app, client):
    from app.web.profile import record_heart_to_heart_game
    from app.web.session import COOKIE_NAME

    await client.get("/")
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    store = app.state.store
    await record_heart_to_heart_game(store, session_id, won=True, seconds=90, moves=60)
    assert (await client.get("/stats/news/heart-to-heart")).text.count("<span>") == 3
    await record_heart_to_heart_game(
        store, session_id, won=True, seconds=30, moves=40, assisted=True
    )
    assert "data-news" not in (await client.get("/stats/news/heart-to-heart")).text
    page = (await client.get("/stats")).text
    own = page[page.index('data-game="heart_to_heart"'):page.index('data-game="hearts"')]
    assisted = page[page.index('data-game="assisted"'):]
    assert 'data-stat="played">1<' in own and 'data-stat="fewest_moves">60<' in own
    assert 'data-stat="played">1<' in assisted and 'data-stat="fewest_moves">40<' in assisted


async def test_an_assisted_hard_match_is_said_to_be_counted_apart(app, client):
    """Issue 27: after a Hard match played with hints the Hard column shows 0 matches; the
    page says why, under the table, in both languages."""
    from app.web.profile import record_hearts_match
    from app.web.session import COOKIE_NAME

    await client.get("/")
    session_id = client.cookies[COOKIE_NAME].rpartition(".")[0]
    page = (await client.get("/stats", headers={"accept-language": "en"})).text
    assert "data-counted-apart" not in page  # nothing apart: nothing to explain
    await record_hearts_match(
        app.state.store, session_id, won=False, hand_points=[26, 0, 13], moons=0,
        level="hard", assisted=True,
    )
    for lang, said in (("en", "1 match played with hints or undo is not counted in this table"),
                       ("vi", "1 trận có dùng gợi ý hoặc “Đi lại” không được tính trong bảng")):
        await client.post("/lang", data={"lang": lang})
        page = (await client.get("/stats")).text
        hearts = page[page.index('data-game="hearts"'):page.index('data-game="assisted"')]
        assert re.search(r'data-level="hard" data-stat="played">0<', hearts)
        assert said in hearts and 'href="#stats-assisted"' in hearts
        assisted = page[page.index('data-game="assisted"'):]
        assert re.search(r'data-stat="played">1<', assisted[assisted.index('data-level="hearts"'):])


@pytest.mark.parametrize("hinted", [False, True])
async def test_the_won_dialog_shares_the_result_and_says_when_hints_helped(client, hinted):
    game = (await client.post("/api/heart-to-heart/games", json={"deal": WON_DEAL})).json()
    url = f"/api/heart-to-heart/games/{game['game_id']}"
    if hinted:
        assert (await client.get(f"{url}/hint")).status_code == 200
    for target in solve(new_game(WON_DEAL)):
        game = (await client.post(f"{url}/tap", json={"target": target_text(target)})).json()
    assert game["status"] == "won"
    for lang, hints in (("en", ", with hints or undo"), ("vi", ", có dùng gợi ý hoặc Đi lại")):
        await client.post("/lang", data={"lang": lang})
        page = (await client.get("/heart-to-heart")).text
        shared = re.search(
            rf'<a class="btn" href="/heart-to-heart/deal/{WON_DEAL}" data-share-result="([^"]*)"',
            page,
        )
        assert shared, "the won dialog has a Share result link to the deal"
        assert shared[1].startswith(f"{WON_DEAL} ♥ ")
        assert shared[1].endswith(hints) == hinted


async def test_pages_name_their_language_for_the_offline_copy(client):
    """The service worker keeps its offline page in the language of the last page shown
    (static/js/sw.js reads Content-Language; tests/browser checks the worker)."""
    for lang in ("vi", "en"):
        await client.post("/lang", data={"lang": lang})
        for path in ("/", "/offline", "/settings"):
            assert (await client.get(path)).headers["content-language"] == lang


async def test_the_claim_setting_says_the_hand_plays_itself(client):
    await client.post("/lang", data={"lang": "en"})
    page = (await client.get("/settings")).text
    assert "the rest of the hand plays itself at once" in page and "Offer" not in page


class _FormsInParagraphs(HTMLParser):
    """Forms opened inside an open paragraph: the HTML parser closes the paragraph there, so
    what follows the form leaves the paragraph's layout."""

    def __init__(self) -> None:
        super().__init__()
        self.open_paragraphs = 0
        self.found: list[tuple[int, int]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "p":
            self.open_paragraphs += 1
        elif tag == "form" and self.open_paragraphs:
            self.found.append(self.getpos())

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self.open_paragraphs:
            self.open_paragraphs -= 1


@pytest.mark.parametrize("path", ["/", "/hearts", "/heart-to-heart", "/stats", "/settings",
                                  "/hearts/rules", "/heart-to-heart/rules"])
async def test_no_page_opens_a_form_inside_a_paragraph(client, path):
    # The home page's "Play with friends" form once sat in the Hearts tile's paragraph of
    # buttons: its button fell into the tile's grid beside the art and widened that column.
    page = await client.get(path)
    assert page.status_code == 200
    parser = _FormsInParagraphs()
    parser.feed(page.text)
    assert not parser.found, f"{path}: a form inside a paragraph at {parser.found}"
