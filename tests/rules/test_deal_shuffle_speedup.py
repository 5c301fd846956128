"""The all-at-once shuffle deals exactly what the one-by-one SplitMix64 shuffle dealt.

Shared codes must deal the same cards forever, so ``shuffled`` is checked three ways: against
the plain ``SplitMix64.below`` loop for many seeds and deck sizes, against a digest of
thousands of deals taken from the implementation before the speed-up, and through the
generator's first raw outputs.
"""

import hashlib

from app.rules.deal_codes import SplitMix64, _draws, _shuffled_one_by_one, seed_from, shuffled


def plain_shuffle(items, *seed_parts):
    rng = SplitMix64(seed_from(*seed_parts))
    deck = list(items)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_every_deck_size_shuffles_as_the_plain_loop_does():
    for size in range(0, 70):
        for number in (0, 1, size, 26**7 - 1):
            expected = plain_shuffle(range(size), "T", number)
            assert shuffled(range(size), "T", number) == expected
            assert _shuffled_one_by_one(list(range(size)), seed_from("T", number)) == expected


def test_both_games_decks_shuffle_as_the_plain_loop_does():
    hearts_deck, heart_to_heart_deck = range(52), tuple(range(1, 14)) * 4
    for number in range(0, 26**7, 26**7 // 300):
        for sub in (0, 1, 5):
            assert shuffled(hearts_deck, "HT1", number, sub) == plain_shuffle(
                hearts_deck, "HT1", number, sub
            )
            assert shuffled(heart_to_heart_deck, "HH1", number, sub) == plain_shuffle(
                heart_to_heart_deck, "HH1", number, sub
            )


def test_the_deals_match_those_pinned_before_the_speed_up():
    # Digest of 5,982 deals, taken with the one-by-one implementation.
    digest = hashlib.sha256()
    for number in range(0, 26**7, 26**7 // 997):
        for sub in range(3):
            digest.update(bytes(shuffled(range(52), "HT1", number, sub)))
            digest.update(bytes(shuffled(tuple(range(1, 14)) * 4, "HH1", number, sub)))
    assert digest.hexdigest() == "18f0a64e8e60966756fc5c954e8a33a61e20c8afcd8843dd96fd9b38ee01ae8b"


def test_the_packed_draws_are_the_generator_outputs():
    for seed in (0, 1, 1234567, 2**64 - 1, seed_from("HT1", 12, 3)):
        rng = SplitMix64(seed)
        assert _draws(seed, 51) == [rng.next_u64() for _ in range(51)]
    # The published reference sequence, as tests/rules/test_deal_codes.py pins it.
    assert _draws(1234567, 3) == [6457827717110365317, 3203168211198807973, 9817491932198370423]
