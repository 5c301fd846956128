"""Hearts hints, from the player's own view (no hidden card) and the Hard bot's search: the
three cards it would pass, or the card it would play. A hint given marks the match assisted
(statistics keep it apart).

The claim and the auto-play of a single legal card are in app/web/hearts/autoplay.py; the
review of a hand in app/web/hearts/review.py.
"""

from __future__ import annotations

from app.bots import decision_seed, hard
from app.rules.hearts import HUMAN, HeartsView
from app.store import GameStore
from app.web.games import Loaded, StaleVersion
from app.web.hearts import service
from app.web.hearts.service import LoadedMatch
from app.web.hearts.thinking import THINKING
from app.web.results import marks_of


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
    after it (stored again, marked assisted, when this is its first hint). The search waits
    its turn in the bots' queue (app/web/hearts/thinking.py: Busy when it is full)."""
    THINKING.check_room()  # a full queue answers before the match is even read
    loaded = await service.owned(store, session_id, game_id)
    if version is not None and version != loaded.stored.version:
        raise StaleVersion(loaded)
    cards = await THINKING.search(hint_cards, loaded.game.view(HUMAN))
    if cards and not loaded.game.assisted:
        match = loaded.game.copy()
        match.mark_assisted()
        marks = marks_of(loaded.stored.state)
        state = service.state_of(match, service.is_hidden(loaded.stored), marks=marks)
        saved = await store.compare_and_set(session_id, game_id, loaded.stored.version, state)
        if saved is None:  # another request changed the match first
            raise StaleVersion(await service.owned(store, session_id, game_id))
        loaded = Loaded(saved, match)
    return loaded, cards
