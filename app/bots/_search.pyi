# Types of the C search core (_search.c); cards and masks as in app/rules/cards.py.
from collections.abc import Sequence

from app.bots.model import Pos
from app.rules.hearts_rules import HeartsRules

Hands = tuple[int, int, int, int]

class SamplingError(RuntimeError): ...

def normal_play(pos: Pos, seat: int, legal: int, /) -> int: ...
def sample_hands(
    pos: Pos, seat: int, need: Sequence[int], unseen: int, rng_state: int, /
) -> tuple[Hands, int]: ...
def play_rollouts(
    pos: Pos,
    seat: int,
    need: Sequence[int],
    unseen: int,
    candidates: Sequence[int],
    totals: Sequence[int],
    rng_state: int,
    worlds: int,
    policy: bytes | None = ...,
    /,
) -> tuple[tuple[list[int], list[int]], int]: ...
def weighted_rollouts(
    pos: Pos,
    seat: int,
    need: Sequence[int],
    unseen: int,
    candidates: Sequence[int],
    totals: Sequence[int],
    rng_state: int,
    worlds: int,
    drawn: int,
    history: Sequence[tuple[int, int]],
    noise: float,
    moon_plan: bool,
    ess: float,
    policy: bytes | None = ...,
    model: bytes | None = ...,
    /,
) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]] | None, int]: ...
def policy_play(pos: Pos, seat: int, legal: int, policy: bytes, /) -> int: ...
def plays_likelihood(
    rules: HeartsRules,
    seat: int,
    hands: Sequence[int],
    history: Sequence[tuple[int, int]],
    noise: float,
    model: bytes | None = ...,
    /,
) -> float: ...
def pass_rollouts(
    deals: Sequence[Sequence[int]],
    passes: Sequence[Sequence[int]],
    seat: int,
    offset: int,
    candidates: Sequence[int],
    totals: Sequence[int],
    rules: HeartsRules = ...,
    shooter: int = ...,
    /,
) -> tuple[list[int], list[int]]: ...
def match_result(
    scores: Sequence[int], seat: int, totals: Sequence[int], rules: HeartsRules = ..., /
) -> int: ...
