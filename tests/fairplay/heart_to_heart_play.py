"""Playing Heart to Heart through the page's routes, for the fair-play tests."""

from __future__ import annotations

import re

WINNABLE = "HH1-W-AAAAAAB"
HX = {"hx-request": "true"}


class Game:
    """One browser's Heart to Heart game, tapped through the page's routes."""

    def __init__(self, client) -> None:
        self.client = client
        self.game_id = ""
        self.version = 0

    async def open(self, code: str = WINNABLE) -> None:
        page = (await self.client.get(f"/heart-to-heart/deal/{code}", follow_redirects=True)).text
        self.game_id = re.search(r"/heart-to-heart/games/([\w-]+)/tap", page).group(1)
        self.version = int(re.search(r'id="h2h-version" name="version" value="(\d+)"',
                                     page).group(1))

    async def tap(self, target: str, **report: str) -> None:
        answer = await self.client.post(
            f"/heart-to-heart/games/{self.game_id}/tap", headers=HX,
            data={"target": target, "version": str(self.version), **report})
        assert answer.status_code == 200, answer.text
        self.version = (await self.state())["version"]

    async def state(self) -> dict:
        return (await self.client.get(f"/api/heart-to-heart/games/{self.game_id}")).json()

    async def play_time(self) -> float:
        page = (await self.client.get("/heart-to-heart")).text
        return float(re.search(r'id="h2h-time"[^>]*data-elapsed="([\d.]+)"', page).group(1))


def target_text(target) -> str:
    return f"heart:{target}" if isinstance(target, int) else target
