"""Hearts assists, all from the player's own view (no hidden card):

- hints, from the Hard bot's search: the three cards it would pass, or the card it would play.
  A hint given marks the match assisted (statistics keep it apart);
- the claim: when the player is to lead and holds only cards above every card of their suit
  still out, every trick left is theirs whatever anyone plays, so the hand plays itself out;
- auto-play of a single legal card, for players who ask for it.

The claim and the auto-play are the player's settings (``hearts_claim``, on by default, and
``hearts_autoplay_single``, off by default, under the profile's ``settings``).
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.concurrency import run_in_threadpool

from app.bots import decision_seed, hard
from app.rules.cards import FULL_DECK, SUIT_MASKS
from app.rules.hearts import HUMAN, HeartsMatch, HeartsView, PlayedCard
from app.store import GameStore
from app.web.games import Loaded, StaleVersion
from app.web.hearts import service
from app.web.hearts.service import LoadedMatch
from app.web.profile import Profile


def hint_cards(view: HeartsView) -> int:
    """The mask of the cards Hard would pass (three) or play (one) in ``view``; 0 when the
    player has nothing to choose now. The seed is the one Hard's own decision would use, so
    the same view always gives the same hint."""
    if view.phase == "passing" and view.legal:
        return hard.choose_pass(view, decision_seed(view, "pass"))
    if view.phase == "playing" and view.legal:
        return 1 << hard.choose_play(view, decision_seed(view))
    return 0


async def ask(
    store: GameStore, session_id: str, game_id: str, version: int | None
) -> tuple[LoadedMatch, int]:
    """The hint for this session's match held at ``version`` (None: as it is), and the match
    after it (stored again, marked assisted, when this is its first hint). The search runs off
    the event loop."""
    loaded = await service.owned(store, session_id, game_id)
    if version is not None and version != loaded.stored.version:
        raise StaleVersion(loaded)
    cards = await run_in_threadpool(hint_cards, loaded.game.view(HUMAN))
    if cards and not loaded.game.assisted:
        match = loaded.game.copy()
        match.mark_assisted()
        state = service.state_of(match, service.is_hidden(loaded.stored))
        saved = await store.compare_and_set(session_id, game_id, loaded.stored.version, state)
        if saved is None:  # another request changed the match first
            raise StaleVersion(await service.owned(store, session_id, game_id))
        loaded = Loaded(saved, match)
    return loaded, cards


@dataclass(frozen=True, slots=True)
class PlayHelp:
    """Which of the play-it-for-me settings the player has on."""

    claim: bool = True
    autoplay_single: bool = False

    @classmethod
    def of(cls, profile: Profile) -> PlayHelp:
        chosen = profile.data.get("settings") or {}
        default = cls()
        claim = chosen.get("hearts_claim", default.claim)
        single = chosen.get("hearts_autoplay_single", default.autoplay_single)
        return cls(
            claim=claim if isinstance(claim, bool) else default.claim,
            autoplay_single=single if isinstance(single, bool) else default.autoplay_single,
        )


def claim_is_certain(view: HeartsView) -> bool:
    """Whether every trick left is the player's whatever anyone plays: the player leads and
    each card in hand is above every card of its suit not yet played (wherever it is)."""
    if view.phase != "playing" or view.turn != view.seat or view.trick or not view.hand:
        return False
    played = 0
    for trick in view.tricks:
        for pc in trick.cards:
            played |= 1 << pc.card
    out = FULL_DECK & ~played & ~view.hand
    for suit_mask in SUIT_MASKS:
        mine, theirs = view.hand & suit_mask, out & suit_mask
        # Cards are ranked upwards within a suit: the lowest of ours must beat their highest.
        if mine and theirs and (mine & -mine).bit_length() < theirs.bit_length():
            return False
    return True


def play_for_player(match: HeartsMatch, help: PlayHelp) -> tuple[list[PlayedCard], bool]:
    """Play the player's cards that the settings say play themselves, with the bots' answers:
    the rest of the hand once a claim is certain, a single legal card. The plays, and whether
    the hand was claimed."""
    plays: list[PlayedCard] = []
    claimed = False
    while match.phase == "playing" and match.turn == HUMAN:
        view = match.view(HUMAN)
        if help.claim and (claimed or claim_is_certain(view)):
            claimed = True
        elif not (help.autoplay_single and view.legal.bit_count() == 1):
            break
        plays += service.play_card(match, (view.legal & -view.legal).bit_length() - 1)
    return plays, claimed


@dataclass(slots=True)
class Helped:
    """A page action followed by the plays the player's settings make for them; ``claimed``
    tells afterwards whether the hand was claimed (the page says so)."""

    action: service.Action
    help: PlayHelp
    claimed: bool = False

    def __call__(self, match: HeartsMatch) -> list[PlayedCard]:
        plays = self.action(match)
        more, self.claimed = play_for_player(match, self.help)
        return plays + more
