"""What one request costs in instructions: a measure that a noisy machine does not move (issue
17; figures in bench/README.md, "Web tap cost").

The app runs in-process on a real SQLite file, called over ASGI with no server and no network:
8 players set up through the API with their own winnable (W) deals, then (warm-up) taps of the
solvers' lines in turn, as bench/web.py's players tap. Then ``--taps`` more requests of one
kind are counted by callgrind, whose instrumentation is switched on for them only. A count
includes start-up costs of the instrumentation, so the figure is the difference of two runs,
one of 300 requests and one of 900, over 600: guest instructions per request, the same to
about 0.2 % from run to run. It leaves out uvicorn, the kernel and the CPU's caches, so it ranks
changes to the code; wrk (bench/web.py) says what a server does.

    .venv/bin/python -m bench.instructions [--what page|api|healthz ...] [--tree DIR]

``--tree DIR`` measures another checkout (with its own ``.venv`` or this one's). valgrind is
installed from Debian's packages when missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

KINDS = ("page", "api", "healthz")
PLAYERS = 8
GAMES_PER_PLAYER = 20
WARM_UP = 3000
COUNTS = (300, 900)
SECRET_KEY = "bench-secret-key-long-enough-for-the-check"


# --- the child: runs inside valgrind, in the checkout measured ----------------------------


def scope_for(method: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
            "root_path": "", "headers": [(b"host", b"bench"), *headers],
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {}}


async def child(kind: str, count: int, lines: dict[str, list[str]]) -> None:
    import httpx

    from app.main import create_app
    from app.settings import Settings
    from tests.reliability.cardroom_pages import h2h_board

    store = Path(tempfile.mkdtemp(prefix="cardroom-instructions-")) / "store.sqlite3"
    # Many players from one address: the rate limits run (their cost counts), never refuse
    # (set in the environment, which a checkout from before them ignores: --tree).
    os.environ["CARDROOM_RATE_LIMIT_SCALE"] = "1000"
    app = create_app(Settings(store_url=f"sqlite:///{store}", secret_key=SECRET_KEY))
    codes = iter(lines)

    async def call(method: str, path: str, headers: list, body: bytes = b"") -> bytes:
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(scope_for(method, path, headers), receive, send)
        assert sent[0]["status"] == 200, (path, sent)
        return b"".join(message.get("body", b"") for message in sent[1:])

    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        players = []  # [headers, games (id, version, taps), game index, tap index]
        for _ in range(PLAYERS):
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                games = []
                for _ in range(GAMES_PER_PLAYER):
                    code = next(codes)
                    await client.post(f"/heart-to-heart/deal/{code}")
                    game_id, version = h2h_board((await client.get("/heart-to-heart")).text)
                    games.append([game_id, version, lines[code]])
                cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            players.append([[(b"cookie", cookie.encode()), (b"accept-language", b"en")],
                            games, 0, 0])

        async def tap(player: list, mode: str) -> None:
            headers, games, game_index, tap_index = player
            game = games[game_index]
            target = game[2][tap_index]
            path = f"/heart-to-heart/games/{game[0]}/tap"
            if mode == "page":
                body = f"target={target.replace(':', '%3A')}&version={game[1]}".encode()
                await call("POST", path, [*headers, (b"hx-request", b"true"), (
                    b"content-type", b"application/x-www-form-urlencoded")], body)
            else:
                body = json.dumps({"target": target, "version": game[1]}).encode()
                await call("POST", "/api" + path,
                           [*headers, (b"content-type", b"application/json")], body)
            game[1] += 1  # each tap of a solver's line changes its game
            player[3] += 1
            if player[3] == len(game[2]):
                player[2], player[3] = game_index + 1, 0

        async def requests(number: int, mode: str) -> None:
            done = 0
            while done < number:
                for player in players:
                    if done < number:
                        if mode == "healthz":
                            await call("GET", "/healthz", [])
                        else:
                            await tap(player, mode)
                        done += 1

        await requests(WARM_UP, "page" if kind == "healthz" else kind)
        subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True,
                       capture_output=True)
        await requests(count, kind)


# --- the parent ----------------------------------------------------------------------------


def solver_lines(players: int) -> dict[str, list[str]]:
    """The W deals the players get and their solvers' lines (worked out once, outside
    valgrind)."""
    from app.rules.deal_codes import CODE_SPACE, DealCode
    from app.rules.heart_to_heart import new_game, target_text
    from app.rules.heart_to_heart_solver import solve

    rng = random.Random(1)
    lines = {}
    while len(lines) < players * GAMES_PER_PLAYER:
        code = str(DealCode("HH1", "W", rng.randrange(CODE_SPACE)))
        lines[code] = [target_text(t) for t in solve(new_game(code))]
    return lines


def counted(valgrind: str, tree: Path, kind: str, count: int, *, lines_file: Path) -> int:
    python = tree / ".venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "callgrind.out"
        subprocess.run([valgrind, "--tool=callgrind", "--instr-atstart=no",
                        f"--callgrind-out-file={out}", str(python), str(Path(__file__).resolve()),
                        "--child", kind, str(count), str(lines_file)],
                       cwd=tree, check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(tree)})
        summary = next(line for line in out.read_text().splitlines()
                       if line.startswith(("summary:", "totals:")))
        return int(summary.split()[1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--tree", type=Path, default=Path.cwd(),
                        help="measure this checkout instead of this one")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.child:
        kind, count, lines_file = arguments.child
        asyncio.run(child(kind, int(count), json.loads(Path(lines_file).read_text())))
        return
    from bench.web import ensure_debian_tool  # here: the child runs in another checkout

    valgrind = ensure_debian_tool("valgrind")
    with tempfile.TemporaryDirectory() as work:
        lines_file = Path(work) / "lines.json"
        lines_file.write_text(json.dumps(solver_lines(PLAYERS)))
        print(f"{arguments.tree}: guest instructions per request (callgrind, in-process, "
              f"({COUNTS[1]} requests - {COUNTS[0]}) / {COUNTS[1] - COUNTS[0]})")
        for kind in arguments.what:
            run = partial(counted, valgrind, arguments.tree.resolve(), kind, lines_file=lines_file)
            with ThreadPoolExecutor(len(COUNTS)) as pool:  # the two runs side by side
                few, many = pool.map(run, COUNTS)
            print(f"{kind}: {(many - few) / (COUNTS[1] - COUNTS[0]):,.0f}")


if __name__ == "__main__":
    main()
