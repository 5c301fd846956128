"""Issue 34, play by ear: a whole Hearts hand and a whole Heart to Heart game played with the
keyboard through the accessibility tree alone (roles and names, no CSS selector), in both
languages; the page's announcements (the log that screen readers read, role=log) tell the
whole story in order, each event once: every card by every seat, every trick's winner, hearts
broken, the pass received, the hand's result; every tap of Heart to Heart. The questions answer
by key, the list of keys opens with "?", the focus stays in the game, and axe finds nothing in
the dialog and the settings added."""

from __future__ import annotations

import re

import pytest
from browser_kit import (
    assert_no_axe_violations,
    card_name,
    choose,
    open_table,
    screenshot,
    sit,
    wait_idle,
)
from hearts_mirror import Mirror, pass_choice
from playwright.sync_api import Page, expect
from test_heart_to_heart_browser import ApiGame

from app.rules.cards import card_text, cards_in, mask_of, parse_card
from app.rules.heart_to_heart import new_game, rank_name
from app.rules.heart_to_heart_solver import solve
from app.rules.hearts import HUMAN, HeartsError
from app.web.hearts.table import sorted_hand
from app.web.hearts.texts import refusal_text, seat_names
from app.web.i18n import cards_in_words, heart_name, rank_word, translator

pytestmark = pytest.mark.browser

HEARTS_DEAL = "HT1-N-AAAAAAM"
H2H_DEAL = "HH1-W-AAAAAAB"


def said(page: Page):
    """The announcements, one paragraph each, in the order they were made."""
    return page.get_by_role("log").get_by_role("paragraph")


def wait_for_story(page: Page, story: list[str]) -> None:
    """The log has told exactly ``story`` so far (the page's replay takes its time)."""
    expect(said(page)).to_have_count(len(story))
    assert said(page).all_text_contents() == story


def focused_name(page: Page) -> str | None:
    return page.evaluate("document.activeElement?.getAttribute('aria-label')")


def trick_words(tr, winner: str, points: int) -> str:
    if not points:
        return tr.gettext("%(seat)s took the trick.") % {"seat": winner}
    return tr.ngettext("%(seat)s took the trick: %(num)d point.",
                       "%(seat)s took the trick: %(num)d points.", points) % {
        "seat": winner, "num": points}


class Story:
    """What a screen reader must hear of a Hearts hand, built from the match's copy."""

    def __init__(self, lang: str, fewer: bool = False) -> None:
        self.tr = translator(lang)
        self.fewer = fewer  # the player's own cards are left out
        self.lang = lang
        self.names = seat_names(self.tr)
        self.cards = 0  # played this hand
        self.broken = False
        self.hinted = False
        self.lines: list[str] = []

    def card(self, code: str) -> str:
        return card_name(code, self.lang)

    def trick_words(self, trick) -> str:
        return trick_words(self.tr, self.names[trick.winner], trick.points)

    def replay(self, opening: list[str], plays: list[tuple[int, str]], mirror: Mirror) -> None:
        """An answer's words: its opening, then (the first time cards are shown) how to skip
        them, then each card as it lands, with hearts broken and the trick's winner."""
        tr = self.tr
        self.lines += opening
        if plays and not self.hinted:
            self.hinted = True
            self.lines.append(tr.gettext("Click the table to see the bots’ cards at once."))
        for seat, code in plays:
            if seat == HUMAN:
                words = [] if self.fewer else [
                    tr.gettext("You played %(card)s.") % {"card": self.card(code)}]
            else:
                words = [tr.gettext("%(seat)s played %(card)s.")
                         % {"seat": self.names[seat], "card": self.card(code)}]
            if code.endswith("H") and not self.broken:
                self.broken = True
                words.append(tr.gettext("Hearts are broken."))
            self.cards += 1
            if self.cards % 4 == 0:
                words.append(self.trick_words(mirror.view.tricks[self.cards // 4 - 1]))
            if words:
                self.lines.append(" ".join(words))


# The whole hand in English; in Vietnamese, the same until the last trick is asked by key
# (the pass, two tricks, a question): its words to the hand's end are those of the table by
# ear below, where a Vietnamese player hears a whole hand.
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_whole_hearts_hand_by_ear(new_page, axe, lang):
    whole = lang == "en"
    tr = translator(lang)
    page = new_page("desktop", lang)
    page.goto(f"/hearts/deal/{HEARTS_DEAL}")
    mirror = Mirror(HEARTS_DEAL)
    story = Story(lang)
    hand_button = lambda code: page.get_by_role("button", name=story.card(code), exact=True)  # noqa: E731

    # The list of keys opens with "?" and is clean; Escape closes it.
    page.keyboard.press("?")
    keys = page.get_by_role("dialog", name=tr.gettext("Ask about the game"))
    expect(keys).to_be_visible()
    assert_no_axe_violations(axe, page, f"the list of keys ({lang})")
    page.keyboard.press("Escape")
    expect(keys).to_be_hidden()

    # The pass, by keyboard: three cards chosen with Enter, then the Pass button.
    chosen = pass_choice(mirror.match)
    for code in chosen:
        hand_button(code).press("Enter")
        expect(hand_button(code)).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name=tr.gettext("Pass left"), exact=True).press("Enter")
    mirror.pass_cards(chosen)
    view = mirror.view
    received = cards_in_words(sorted_hand(view.received), tr)
    first = [(p.seat, card_text(p.card)) for p in view.trick]
    story.replay([tr.gettext("You received %(cards)s.") % {"cards": received}], first, mirror)
    wait_for_story(page, story.lines)
    # The focus came back to the hand.
    hand_names = {card_name(card_text(c), lang) for c in cards_in(mirror.view.hand)}
    assert focused_name(page) in hand_names

    # A question by key: what can I play (the server's words, said after the story).
    page.keyboard.press("p")
    legal = ", ".join(card_name(card_text(c), lang) for c in sorted_hand(mirror.view.legal))
    story.lines.append(tr.gettext("You can play: %(cards)s.") % {"cards": legal})
    wait_for_story(page, story.lines)

    claimed = asked = False
    while mirror.view.phase == "playing":
        code = mirror.legal()[0]
        hand_button(code).press("Enter")
        plays = mirror.play(code)
        opening = []
        if not claimed and any(seat == HUMAN for seat, _ in plays[1:]):
            claimed = True
            opening.append(tr.gettext("The rest of the tricks are yours."))
        story.replay(opening, plays, mirror)
        if mirror.view.phase == "playing":
            wait_for_story(page, story.lines)
            # The focus stays in the hand, on a card the player still holds.
            assert focused_name(page) in {card_name(card_text(c), lang)
                                          for c in cards_in(mirror.view.hand)}
            if len(mirror.view.tricks) >= 2 and not asked:  # the last trick, asked by key
                asked = True
                page.keyboard.press("l")
                last = mirror.view.tricks[-1]
                cards = "; ".join(f"{story.names[p.seat]}: {card_name(card_text(p.card), lang)}"
                                  for p in last.cards)
                story.lines.append(tr.gettext("Last trick: %(cards)s.") % {"cards": cards}
                                   + " " + story.trick_words(last))
                wait_for_story(page, story.lines)
                if not whole:
                    return

    assert asked
    scores = mirror.view.hand_scores[-1]
    assert mirror.view.moon is None, "the deal is chosen for a hand without a moon"
    story.lines.append(
        tr.gettext("Hand over.") + " "
        + ", ".join(f"{story.names[s]} +{scores[s]}" for s in range(4)) + "."
    )
    wait_for_story(page, story.lines)
    # Every card of the hand was said once, by its seat, and every trick's winner.
    assert story.cards == 52
    assert len(mirror.view.tricks) == 13
    dialog = page.get_by_role("dialog", name=tr.gettext("Hand %(n)s is over") % {"n": 1})
    expect(dialog).to_be_visible()


def choose_fewer_announcements(page: Page, lang: str) -> None:
    page.goto("/settings")
    tr = translator(lang)
    page.get_by_role("radio", name=tr.gettext(
        "Fewer: what the others do and the results, not your own cards")).check()
    expect(said(page).last).to_have_text(tr.gettext("Saved"))


def test_fewer_announcements_leave_out_the_players_own_cards(new_page):
    page = new_page("desktop", "en")
    choose_fewer_announcements(page, "en")
    page.goto(f"/hearts/deal/{HEARTS_DEAL}")
    mirror = Mirror(HEARTS_DEAL)
    story = Story("en", fewer=True)
    chosen = pass_choice(mirror.match)
    for code in chosen:
        page.get_by_role("button", name=card_name(code, "en"), exact=True).press("Enter")
    page.get_by_role("button", name="Pass left", exact=True).press("Enter")
    mirror.pass_cards(chosen)
    view = mirror.view
    received = cards_in_words(sorted_hand(view.received), translator("en"))
    story.replay([f"You received {received}."], [(p.seat, card_text(p.card)) for p in view.trick],
                 mirror)
    wait_for_story(page, story.lines)
    # A card that cannot be played: why, said at once (assertive), not queued behind the rest.
    dimmed = page.get_by_role("button", name=card_name(mirror.dimmed()[0], "en"), exact=True)
    expect(dimmed).to_be_disabled()  # aria-disabled: the pass's answer is in
    dimmed.press("Enter")
    expect(page.get_by_role("alert")).to_have_text(refusal_text(
        HeartsError("follow_suit", ""), translator("en")))
    # Two tricks: the player's own cards are not said, the trick a card of theirs ends is.
    while story.cards < 12:
        code = mirror.legal()[0]
        page.get_by_role("button", name=card_name(code, "en"), exact=True).press("Enter")
        story.replay([], mirror.play(code), mirror)
        wait_for_story(page, story.lines)
    assert not any(line.startswith("You played") for line in story.lines)
    assert sum("took the trick" in line for line in story.lines) == 3


# English plays the whole line by keyboard. Vietnamese plays its first taps so, the middle
# through the API, then the page is loaded again and the last taps (the win) are by keyboard:
# its words for every kind of tap are also those of the level test below (24 taps in it).
BY_EAR_FIRST = 8
BY_EAR_LAST = 8


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_whole_heart_to_heart_game_by_ear(new_page, axe, lang):
    tr = translator(lang)
    page = new_page("desktop", lang)
    page.goto(f"/heart-to-heart/deal/{H2H_DEAL}")
    api = ApiGame.on(page)
    game = new_game(H2H_DEAL)
    line = solve(game.copy())
    assert line and len(line) > BY_EAR_FIRST + BY_EAR_LAST
    by_api = range(BY_EAR_FIRST, len(line) - BY_EAR_LAST) if lang == "vi" else range(0)
    heart = page.get_by_role("group", name=tr.gettext("The heart"))
    # The heart is one Tab stop: a single card of it can be reached with Tab.
    tab_stops = heart.get_by_role("button").evaluate_all(
        "cards => cards.filter((card) => card.tabIndex === 0).length")
    assert tab_stops == 1

    # The questions' dialog, as a touch screen reader opens it (from the Options menu), is
    # clean.
    page.get_by_text(tr.gettext("Options"), exact=True).click()
    page.get_by_role("button", name=tr.gettext("Ask about the game"), exact=True).click()
    ask = page.get_by_role("dialog", name=tr.gettext("Ask about the game"))
    expect(ask).to_be_visible()
    assert_no_axe_violations(axe, page, f"Heart to Heart's questions ({lang})")
    ask.get_by_role("button", name=tr.gettext("Stock and waste")).click()
    expect(ask).to_be_hidden()
    stock_words = tr.ngettext("Stock: %(num)d card.", "Stock: %(num)d cards.", game.stock_count)
    expect(said(page).last).to_contain_text(stock_words % {"num": game.stock_count})
    story = said(page).all_text_contents()

    for step, target in enumerate(line):
        if step in by_api:
            api.tap(game, target)
            if step == by_api[-1]:
                page.reload()
                expect(heart).to_be_visible()
                story = said(page).all_text_contents()
            continue
        if target == "stock":
            count = game.stock_count
            button = page.get_by_role(
                "button", exact=True,
                name=tr.ngettext("Stock, %(num)d card", "Stock, %(num)d cards", count)
                % {"num": count})
        elif target == "waste":
            button = page.get_by_role(
                "button", exact=True,
                name=tr.gettext("Waste: %(card)s")
                % {"card": heart_name(rank_name(game.waste_top), lang)})
        else:
            # The heart's cards in the order of their places, gaps left out.
            left = [pos for pos in range(25) if not game.removed_mask >> pos & 1]
            button = heart.get_by_role("button").nth(left.index(target))
            expect(button).to_have_accessible_name(
                heart_name(rank_name(game.rank_at(target)), lang))
        score = game.score
        rank = rank_name(game.rank_at(target) if isinstance(target, int) else game.waste_top or 1)
        result = game.tap(target)
        button.press("Enter")
        if game.status == "won":
            story.append(tr.gettext("You won! All 25 cards are gone."))
        elif result.kind == "select":
            story.append(tr.gettext("%(card)s selected") % {"card": heart_name(rank, lang)})
        elif result.kind == "pair":
            story.append(tr.gettext("Pair of %(rank)ss removed, +%(points)d")
                         % {"rank": rank_word(rank, lang), "points": game.score - score})
        elif result.kind == "draw":
            story.append(tr.gettext("Turned over %(card)s")
                         % {"card": heart_name(rank_name(game.waste_top), lang)})
        else:
            assert result.kind == "redeal", result.kind
            story.append(tr.gettext("The waste is the stock again"))
        wait_for_story(page, story)
        if game.status == "playing":
            # The focus stayed in the game: on the same control, or the nearest card.
            assert page.evaluate("document.activeElement !== document.body")
    expect(page.get_by_role("dialog", name=tr.gettext("You won!"))).to_be_visible()


# -- a table with friends ------------------------------------------------------------------


class TableStory:
    """What a seated player's screen reader must hear of a table's hand, in their language,
    from the table's state once the hand is over (the API, as that seat sees it)."""

    def __init__(self, lang: str, seat: int, players: dict[int, str]) -> None:
        self.tr = tr = translator(lang)
        self.lang, self.seat = lang, seat
        where = ("South", "West", "North", "East")
        self.names = [players.get(s) or tr.gettext("Bot (%(seat)s)")
                      % {"seat": tr.gettext(where[s])} for s in range(4)]
        self.names[seat] = tr.gettext("You")  # to themselves, as in the solo game

    def lines(self, state: dict) -> list[str]:
        tr, lang = self.tr, self.lang
        received = cards_in_words(sorted_hand(mask_of(map(parse_card, state["received"]))), tr)
        lines = [tr.gettext("You received %(cards)s.") % {"cards": received},
                 tr.gettext("Click the table to see the bots’ cards at once.")]
        broken = False
        for trick in state["tricks"]:
            for n, play in enumerate(trick["cards"]):
                card = card_name(play["card"], lang)
                if play["seat"] == self.seat:
                    words = [tr.gettext("You played %(card)s.") % {"card": card}]
                else:
                    words = [tr.gettext("%(seat)s played %(card)s.")
                             % {"seat": self.names[play["seat"]], "card": card}]
                if play["card"].endswith("H") and not broken:
                    broken = True
                    words.append(tr.gettext("Hearts are broken."))
                if n == 3:
                    words.append(trick_words(tr, self.names[trick["winner"]], trick["points"]))
                lines.append(" ".join(words))
        scores = state["hand_scores"][-1]
        order = [(self.seat + n) % 4 for n in range(4)]  # from the player's seat round
        lines.append(tr.gettext("Hand over.") + " "
                     + ", ".join(f"{self.names[s]} {scores[s]:+d}" for s in order) + ".")
        return lines


# The page hidden (false) or shown (true), as the browser tells it when the phone is put away;
# hidden, the cards still being shown first land at once (as a tap on the table does), and the
# number of lines said then is returned.
SHOWN_JS = """(shown) => {
  if (!shown) window.Cardroom.table.skip();
  Object.defineProperty(document, "hidden", { configurable: true, get: () => !shown });
  document.dispatchEvent(new Event("visibilitychange"));
  return document.querySelectorAll("#announcements > p").length;
}"""


def test_a_table_by_ear_in_two_languages(new_page, axe):
    """Two friends, one reading English and one Vietnamese, play a hand with two bots by
    keyboard; each one's log tells, in order and once, in their language: the cards they
    received, every card of every seat, every trick's winner, the hand's result (one page
    hidden and shown again mid-hand included)."""
    en, vi = new_page("desktop", "en"), new_page("desktop", "vi")
    invite = open_table(en, "An")
    sit(vi, invite, 2, "Lan")
    expect(en.get_by_text("Lan")).not_to_have_count(0)
    choose(en, "seconds", "none")
    en.get_by_role("button", name="Start the match").click()
    api = f"/api/hearts/tables/{invite.rsplit('/', 1)[1]}"
    players = {en: ("en", 0), vi: ("vi", 2)}

    def state_of(page: Page) -> dict:
        return page.request.get(api).json()

    def card(page: Page, code: str):
        return page.get_by_role("button", name=card_name(code, players[page][0]), exact=True)

    def moved_on(page: Page, version: int) -> None:
        """The table has changed since ``version`` (the friends' move, the bots' answer)."""
        page.wait_for_function(
            "async ([url, version]) => (await (await fetch(url)).json()).version > version",
            arg=[api, version], polling=100)

    # The questions, from the header's Ask button as a touch screen reader reaches it: clean;
    # the answer is the first line of the log.
    asked_first = {}
    for page, (lang, _) in players.items():
        tr = translator(lang)
        page.get_by_role("banner").get_by_role("button", name=tr.gettext("Ask")).click()
        asked = page.get_by_role("dialog", name=tr.gettext("Ask about the game"))
        expect(asked).to_be_visible()
        assert_no_axe_violations(axe, page, f"the questions at a table ({lang})")
        asked.get_by_role("button", name=tr.gettext("The scores")).click()
        expect(asked).to_be_hidden()
        expect(said(page)).to_have_count(1)
        asked_first[page] = said(page).first.text_content()

    for page in (en, vi):  # the last to pass gets the cards first, then so does the other
        state = state_of(page)
        for code in state["hand"][:3]:
            expect(card(page, code)).to_be_enabled()
            card(page, code).press("Enter")
            expect(card(page, code)).to_have_attribute("aria-pressed", "true")
        page.get_by_role("button", name=translator(players[page][0]).gettext("Pass left"),
                         exact=True).press("Enter")
        moved_on(page, state["version"])

    resumed = doubled = False
    while (state := state_of(en))["phase"] == "playing":
        page = en if state["turn"] == 0 else vi
        assert state["turn"] in (0, 2), "the bots play in the same change as the friends"
        code = state_of(page)["legal"][0]
        expect(card(page, code)).to_be_enabled()  # the page has caught up
        # Once, mid-hand, the Vietnamese page is hidden while cards are played (its stream
        # closes) and shown again: it catches up from the version it holds, nothing twice.
        hide = not resumed and page is en and len(state["tricks"]) >= 3
        if hide:
            told_before = vi.evaluate(SHOWN_JS, False)
        card(page, code).press("Enter")
        if not doubled and page is en:
            # A double tap (Enter twice at once): nothing is said twice (the story below).
            en.keyboard.press("Enter")
            doubled = True
        moved_on(page, state["version"])
        wait_idle(page)
        if hide:
            assert said(vi).count() == told_before  # its stream is closed: nothing came
            vi.evaluate(SHOWN_JS, True)
            resumed = True
    assert resumed

    for page, (lang, seat) in players.items():
        story = TableStory(lang, seat, {0: "An", 2: "Lan"}).lines(state_of(page))
        wait_for_story(page, [asked_first[page], *story])
        assert len(story) == 2 + 52 + 1



# The screens the Ask button of a table must fit, the narrow landscape phone among them.
ASK_SIZES = [(360, 640), (390, 844), (844, 390), (740, 360), (1280, 800)]

# The header's parts that could crowd each other: each whole, none over another.
HEADER_JS = """() => {
  const out = [];
  const header = document.querySelector("header");
  const nav = header.querySelector("nav");
  if (nav && nav.scrollWidth > nav.clientWidth + 1) out.push("the header's links are cut");
  const parts = Array.from(header.querySelectorAll(":scope > :is(a, button, nav), .lang"))
    .filter((el) => el.checkVisibility())
    .map((el) => [el.className || el.localName, el.getBoundingClientRect()]);
  for (const [name, r] of parts) {
    if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${name} is off the screen`);
  }
  for (let i = 1; i < parts.length; i++) {
    if (parts[i][1].left < parts[i - 1][1].right - 0.5) out.push(`${parts[i][0]} overlaps`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_tables_ask_button_fits_every_screen(new_page, axe, lang):
    from test_tables_browser import SIDEWAYS_JS

    tr = translator(lang)
    page = new_page("phone", lang)
    open_table(page, "An")
    choose(page, "seconds", "none")
    page.get_by_role("button", name=tr.gettext("Start the match")).click()
    ask = page.get_by_role("banner").get_by_role("button", name=tr.gettext("Ask"))
    expect(ask).to_be_visible()
    for width, height in ASK_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        where = f"{width}x{height} ({lang})"
        assert page.evaluate(SIDEWAYS_JS) == [], where
        assert page.evaluate(HEADER_JS) == [], where
        box = ask.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, where  # a thumb's target
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, where
        assert ask.evaluate("b => b.scrollWidth <= b.clientWidth"), where  # "?" inside it
        screenshot(page, f"tables/ask-{lang}-{width}x{height}.png")
    # A tap opens the questions (the page at the phone's size again).
    page.set_viewport_size({"width": 360, "height": 640})
    ask.tap()
    dialog = page.get_by_role("dialog", name=tr.gettext("Ask about the game"))
    expect(dialog).to_be_visible()
    screenshot(page, f"tables/ask-dialog-{lang}-360x640.png")
    assert_no_axe_violations(axe, page, f"the questions at a table on a phone ({lang})")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


@pytest.mark.parametrize("level", ["more", "fewer"])
def test_heart_to_heart_at_each_level_of_announcements(new_page, level):
    """More: every tap is said. Fewer: the card the player chooses or lets go is not (its
    button says it is pressed), and the rest is: pairs, the stock's cards, the redeal."""
    page = new_page("desktop", "vi")
    tr = translator("vi")
    if level == "fewer":
        choose_fewer_announcements(page, "vi")
    page.goto(f"/heart-to-heart/deal/{H2H_DEAL}")
    game = new_game(H2H_DEAL)
    heart = page.get_by_role("group", name=tr.gettext("The heart"))
    story: list[str] = []
    kinds = set()
    for target in solve(game.copy())[:24]:
        if target == "stock":
            button = page.get_by_role("button", name=re.compile(
                "^" + re.escape(tr.ngettext("Stock, %(num)d card", "Stock, %(num)d cards",
                                            game.stock_count) % {"num": game.stock_count})))
        elif target == "waste":
            button = page.get_by_role("button", name=tr.gettext("Waste: %(card)s")
                                      % {"card": heart_name(rank_name(game.waste_top), "vi")})
        else:
            left = [pos for pos in range(25) if not game.removed_mask >> pos & 1]
            button = heart.get_by_role("button").nth(left.index(target))
        score = game.score
        rank = rank_name(game.rank_at(target) if isinstance(target, int) else game.waste_top or 1)
        result = game.tap(target)
        kinds.add(result.kind)
        button.press("Enter")
        if result.kind == "select":
            if level == "more":
                story.append(tr.gettext("%(card)s selected") % {"card": heart_name(rank, "vi")})
            else:  # nothing said: the card says it is pressed
                expect(button).to_have_attribute("aria-pressed", "true")
        elif result.kind == "pair":
            story.append(tr.gettext("Pair of %(rank)ss removed, +%(points)d")
                         % {"rank": rank_word(rank, "vi"), "points": game.score - score})
        elif result.kind == "draw":
            story.append(tr.gettext("Turned over %(card)s")
                         % {"card": heart_name(rank_name(game.waste_top), "vi")})
        else:
            assert result.kind == "redeal", result.kind
            story.append(tr.gettext("The waste is the stock again"))
        wait_for_story(page, story)
    assert {"select", "pair", "draw"} <= kinds
