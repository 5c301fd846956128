"""A copy of a Hearts match run beside the page, with the server's own engine and bots.

The bots decide from the match state alone, so the copy plays exactly what the server plays
when it is given the same actions as the page.
"""

from __future__ import annotations

from app.bots.driver import pass_for_bots, play_bots
from app.rules.cards import card_text, cards_in, parse_card
from app.rules.hearts import HUMAN, HeartsMatch
from app.web.hearts.autoplay import play_for_player
from app.web.hearts.service import play_card
from app.web.preferences import PlayHelp


def pass_choice(match: HeartsMatch) -> list[str]:
    """The three cards the tests pass: the highest ranks of the hand."""
    hand = cards_in(match.view(HUMAN).hand)
    return [card_text(c) for c in sorted(hand, key=lambda c: (c % 13, c), reverse=True)[:3]]


class Mirror:
    """The match as the server must have it, moved by the same actions as the page."""

    def __init__(self, deal: str) -> None:
        self.match = HeartsMatch.new(deal)
        play_bots(self.match)

    def copy(self) -> Mirror:
        """A copy to look ahead with: moving it leaves this one as it is."""
        twin = Mirror.__new__(Mirror)
        twin.match = self.match.copy()
        return twin

    @property
    def view(self):
        return self.match.view(HUMAN)

    def pass_cards(self, cards: list[str]) -> None:
        self.match.choose_pass(HUMAN, sum(1 << parse_card(c) for c in cards))
        pass_for_bots(self.match)
        play_bots(self.match)
        # A claim, as the server makes it by default.
        play_for_player(self.match, PlayHelp(), play_card)

    def play(self, card: str) -> list[tuple[int, str]]:
        """Play ``card``; the cards then on the way to the table, in order, as (seat, card)."""
        self.match.play(parse_card(card), seat=HUMAN)
        bots = play_bots(self.match)
        # A claim, as the server makes it by default.
        bots += play_for_player(self.match, PlayHelp(), play_card)[0]
        return [(HUMAN, card), *((p.seat, card_text(p.card)) for p in bots)]

    def legal(self) -> list[str]:
        return [card_text(c) for c in cards_in(self.view.legal)]

    def dimmed(self) -> list[str]:
        view = self.view
        return [card_text(c) for c in cards_in(view.hand & ~view.legal)]
