import hashlib

import pytest

from app.rules.cards import CardError, card_text, cards_in, mask_of, parse_card
from app.rules.deal_codes import (
    LONG_CODE_LETTERS,
    LONG_CODE_SPACE,
    DealCode,
    DealCodeError,
    Sha256Words,
    SplitMix64,
    number_to_letters,
    parse_deal_code,
    secret_shuffled,
    seed_from,
    shuffled,
)


def test_letters_are_base_26_with_a_as_zero():
    assert number_to_letters(12) == "AAAAAAM"
    assert number_to_letters(26) == "AAAAABA"
    assert str(DealCode("HH1", "N", 12)) == "HH1-N-AAAAAAM"


@pytest.mark.parametrize("text", ["HH1-N-AAAAAAM", "  hh1-n-aaaaaam\t", "Hh1-N-aAaAaAm"])
def test_parse_accepts_any_case_and_surrounding_space(text):
    assert parse_deal_code(text, "HH1", "NW") == DealCode("HH1", "N", 12)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("HH1-N-AAAAAA", "number"),
        ("HH1-N-AAAAAAAA", "number"),
        ("HH1-X-AAAAAAM", "variant"),
        ("HT1-N-AAAAAAM", "game"),
        ("HH1 N AAAAAAM", "format"),
        ("HH1-N-AAAA1AM", "format"),
        ("HH1-N-AAAAAAM" * 4, "too_long"),
        ("<script>", "format"),
    ],
)
def test_parse_rejects_with_a_reason(text, reason):
    with pytest.raises(DealCodeError) as caught:
        parse_deal_code(text, "HH1", "NW")
    assert caught.value.reason == reason
    assert caught.value.message


def test_splitmix64_matches_the_published_reference_sequence():
    # First outputs for seed 1234567 from the reference C implementation.
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_shuffle_is_a_permutation_and_depends_on_every_seed_part():
    deck = list(range(52))
    a = shuffled(deck, "HH1", "N", 12, 0)
    assert sorted(a) == deck
    assert a == shuffled(deck, "HH1", "N", 12, 0)
    assert a != shuffled(deck, "HH1", "N", 13, 0)
    assert seed_from("HT1", 1) != seed_from("HT1", 2)


def test_bounded_draws_cover_the_range_evenly():
    rng = SplitMix64(99)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < n < 1150 for n in counts)


def test_card_text_round_trips_for_the_whole_deck():
    for c in range(52):
        assert parse_card(card_text(c)) == c
    assert card_text(parse_card("10h")) == "10H"
    assert cards_in(mask_of([51, 0, 13])) == [0, 13, 51]


@pytest.mark.parametrize("text", ["", "1H", "10", "QX", "QSS", "11C", None])
def test_parse_card_rejects_non_cards(text):
    with pytest.raises(CardError):
        parse_card(text)


LONG = "HT1-N-" + "QWERTYUIOPASDFGHJKLZXCVBNMQW"


def test_a_long_code_is_parsed_only_where_it_is_allowed_and_prints_back_the_same():
    code = parse_deal_code(LONG.lower(), "HT1", "ENH", long_ok=True)
    assert code.long and str(code) == LONG
    assert code.number >= 26**27  # (Q is not A: no leading zeros to lose)
    with pytest.raises(DealCodeError) as caught:
        parse_deal_code(LONG, "HT1", "ENH")
    assert caught.value.reason == "number"
    # A long code's number that happens to be small still prints as a long code.
    assert str(DealCode("HT1", "N", 12, long=True)) == "HT1-N-" + "A" * 27 + "M"
    assert parse_deal_code("HT1-N-" + "A" * 27 + "M", "HT1", "N", long_ok=True).long
    for letters in (8, 27, 29):
        with pytest.raises(DealCodeError):
            parse_deal_code("HT1-N-" + "A" * letters, "HT1", "N", long_ok=True)


def test_a_long_codes_space_holds_at_least_2_to_the_128():
    assert LONG_CODE_SPACE >= 2**128
    with pytest.raises(ValueError):
        number_to_letters(LONG_CODE_SPACE, LONG_CODE_LETTERS)


def test_sha256_words_are_sha256_in_counter_mode():
    words = Sha256Words("HT1", 5, 1)
    first = hashlib.sha256(b"HT1|5|1|0").digest()
    second = hashlib.sha256(b"HT1|5|1|1").digest()
    expected = [int.from_bytes(block[i : i + 8], "big")
                for block in (first, second) for i in (0, 8, 16, 24)]
    assert [words.next_u64() for _ in range(8)] == expected


def test_a_secret_shuffle_depends_on_every_bit_of_the_number():
    """A 64-bit seed in between would let a search of 2**64 numbers stand for the code's."""
    deck = list(range(52))
    number = parse_deal_code(LONG, "HT1", "N", long_ok=True).number
    base = secret_shuffled(deck, "HT1", number, 1)
    assert sorted(base) == deck and base == secret_shuffled(deck, "HT1", number, 1)
    for bit in (0, 63, 64, 100, 130):
        assert secret_shuffled(deck, "HT1", number ^ (1 << bit), 1) != base
    assert secret_shuffled(deck, "HT1", number, 2) != base
