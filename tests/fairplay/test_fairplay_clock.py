"""Issue 18, finding 8: the server keeps time. Play time is the server's time between actions
(each gap capped); what a page reports about being hidden may pause the clock but never stop
it, so no win is 0:00. The app's clock is the test's (the ``clock`` fixture): no waiting.
"""

from __future__ import annotations

import re

import pytest

from app.rules.heart_to_heart import new_game
from app.rules.heart_to_heart_solver import solve
from app.web.heart_to_heart.service import IDLE_CAP_SECONDS, MIN_STEP_SECONDS
from tests.fairplay.heart_to_heart_play import WINNABLE, Game, target_text


async def test_a_tap_without_a_report_counts_the_servers_time(client, clock):
    game = Game(client)
    await game.open()
    await game.tap("stock")  # the first move starts the clock
    clock.advance(7.5)
    await game.tap("stock")
    assert await game.play_time() == 7.5


async def test_a_win_reported_as_never_on_screen_is_not_0_00(client, clock):
    """The finding: taps that always say no time passed won in 0:00 and set the best time."""
    game = Game(client)
    await game.open()
    line = solve(new_game(WINNABLE))
    for target in line:
        await game.tap(target_text(target), elapsed="0")
        clock.advance(0.25)
    state = await game.state()
    assert state["status"] == "won"
    real = 0.25 * (len(line) - 1)  # from the first move to the winning one
    assert real > 8.7
    assert state["elapsed_seconds"] == int(real)
    home = (await client.get("/")).text
    best = re.search(r"Best time</dt><dd>([^<]*)<", home).group(1)
    assert best == f"0:{int(real):02d}"


async def test_hidden_time_pauses_the_clock_but_never_stops_it(client, clock):
    game = Game(client)
    await game.open()
    await game.tap("stock")
    clock.advance(30)  # on screen for 5 s of it: the page's clock shows 5.0
    await game.tap("stock", elapsed="5.0")
    assert await game.play_time() == 5.0
    clock.advance(30)  # hidden all along, it says: still a step of time counts
    await game.tap("stock", elapsed="5.0")
    assert await game.play_time() == 5.0 + MIN_STEP_SECONDS
    clock.advance(0.4)  # a quick tap counts its whole gap, whatever the report
    await game.tap("stock", elapsed="0")
    assert await game.play_time() == pytest.approx(5.0 + MIN_STEP_SECONDS + 0.4)


@pytest.mark.parametrize("through", ["page", "api"])
async def test_an_idle_gap_is_capped(client, clock, through):
    game = Game(client)
    await game.open()
    await game.tap("stock")
    clock.advance(3 * 3600)  # left the page open and went away
    if through == "page":
        await game.tap("stock")
    else:
        answer = await client.post(f"/api/heart-to-heart/games/{game.game_id}/tap",
                                   json={"target": "stock", "version": game.version})
        assert answer.status_code == 200
    assert await game.play_time() == IDLE_CAP_SECONDS
