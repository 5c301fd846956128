"""Issue 34: the words the page says and answers, from the player's own view, in the page's
language (Vietnamese in the glossary's word order: "2, 5, Q chuồn", never a suit symbol)."""

from __future__ import annotations

import re

import pytest

from app.bots.driver import play_bots
from app.rules.cards import cards_in, parse_card
from app.rules.heart_to_heart import new_game
from app.rules.hearts import HUMAN, HeartsMatch, PlayedCard
from app.web.heart_to_heart.board import answers as h2h_answers
from app.web.hearts.table import answers, opening_words, steps_of
from app.web.hearts.texts import seat_names
from app.web.i18n import cards_by_suit, cards_in_words, translator


def test_cards_by_suit_say_each_suit_once_in_each_languages_order():
    cards = [parse_card(c) for c in ("2C", "5C", "QC", "AS")]
    assert cards_by_suit(cards, "CDSH", translator("en")) == "clubs: 2, 5, Queen; spades: Ace"
    assert cards_by_suit(cards, "CDSH", translator("vi")) == "2, 5, Q chuồn; Át bích"


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_answers_of_a_hand_in_play_hold_only_what_the_player_may_know(lang):
    match = HeartsMatch.new("HT1-N-AAAAAAM")
    for seat in range(4):
        view = match.view(seat)
        match.choose_pass(seat, sum(1 << c for c in cards_in(view.hand)[:3]))
    play_bots(match)
    tr = translator(lang)
    view = match.view(HUMAN)
    said = dict(answers(view, seat_names(tr), tr))
    assert set(said) == {"hand", "play", "trick", "last", "scores", "out", "turn"}
    assert not re.search("[♣♦♥♠]", " ".join(said.values()))
    # Every card of the hand once, and what can be played by name.
    assert said["hand"].count(",") + said["hand"].count(";") + 1 == 13
    for c in cards_in(view.legal):
        assert tr.card_name(c) in said["play"]
    # Still out: every card not in the hand and not played, 52 - 13 - the trick's.
    out = said["out"].count(",") + said["out"].count(";") + 1
    assert out == 52 - 13 - len(view.trick)


def test_each_card_is_said_with_hearts_broken_once_and_each_trick_winner():
    match = HeartsMatch.new("HT1-N-AAAAAAM")
    for seat in range(4):
        match.choose_pass(seat, sum(1 << c for c in cards_in(match.view(seat).hand)[:3]))
    tr = translator("en")
    names = seat_names(tr)
    start = match.view(HUMAN)
    plays = []
    while match.phase == "playing":
        seat = match.turn
        card = cards_in(match.view(seat).legal)[-1]  # high cards: hearts break, points fall
        match.play(card, seat=seat)
        plays.append(PlayedCard(seat, card))
    end = match.view(HUMAN)
    steps = steps_of(start, end, plays, tr, names)
    words = " ".join(step.words for step in steps)
    assert len(steps) == 52
    assert words.count("Hearts are broken.") == 1
    assert words.count("took the trick") == 13
    assert [step.winner for step in steps if step.winner is not None] == [
        trick.winner for trick in end.tricks]
    assert all(step.mine == (step.played.seat == HUMAN) for step in steps)
    # Fewer announcements: the player's own card is left out of its line, not the rest of it
    # (hearts broken, the trick's winner).
    mine = [step for step in steps if step.mine]
    assert all(step.brief == step.words.split(". ", 1)[1] if ". " in step.words
               else step.brief == "" for step in mine)
    assert any("took the trick" in step.brief for step in mine)
    assert all(step.brief == "" for step in steps if not step.mine)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "3 of clubs, 2, Queen and Ace of spades, 10 of hearts"),
    ("vi", "3 chuồn, 2, Q, Át bích, 10 cơ"),  # the glossary's card rule
])
def test_cards_in_a_sentence_share_their_suits_word(lang, words):
    cards = [parse_card(c) for c in ("3C", "2S", "QS", "AS", "10H")]
    assert cards_in_words(cards, translator(lang)) == words


def test_heart_to_heart_answers_name_the_free_cards_and_the_piles():
    game = new_game("HH1-W-AAAAAAB")
    said = dict(h2h_answers(game, "vi"))
    assert said["free"].startswith("Lá tự do: ")
    assert f"Chồng bài rút: {game.stock_count} lá." in said["piles"]


@pytest.mark.parametrize(("lang", "words"), [("en", "Hand 2. Passing right."),
                                             ("vi", "Ván 2. Chuyền phải.")])
def test_a_new_hand_is_said_with_its_passing(lang, words):
    match = HeartsMatch.new("HT1-N-AAAAAAM")
    for seat in range(4):
        match.choose_pass(seat, sum(1 << c for c in cards_in(match.view(seat).hand)[:3]))
    while match.phase == "playing":
        match.play(cards_in(match.view(match.turn).legal)[0], seat=match.turn)
    before = match.view(HUMAN)
    match.next_hand()
    assert opening_words(before, match.view(HUMAN), translator(lang)) == words
