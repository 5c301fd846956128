"""The web tap cost, measured with wrk (issues 5 and 17; figures in bench/README.md, "Web tap
cost").

One uvicorn worker on loopback with the SQLite store, pinned to one core (``taskset``) and
started as ``make run`` starts it (with its access log, unless ``--no-access-log``); wrk, a
load generator written in C, pinned to the other, so the client's own cost does not limit the
server. wrk runs one thread per connection, each connection one player (its own cookie and
games); bench/taps.lua makes its requests. In one run, back to back, ``--rounds`` times (3):

- ``/healthz``: the floor (uvicorn, the framework and the middleware; no store, no template);
- page taps: each player plays the solver's line of its own winnable (W) deals through the
  page's htmx form post, carrying the version from the previous answer;
- ``/healthz`` again;
- API taps: the same through the JSON API, on other games;

and a last ``/healthz``. Each tap block is compared with the floor blocks on either side of it,
so a machine that gets busier or quieter (a shared one does) moves both alike; the summary is
the median of the rounds.

After each tap block every game is read back through the API: the versions must have moved by
exactly the taps answered (each tap of a solver's line changes its game), else the run fails.
Reported: requests/s, p50 and p99 (wrk's), each as a ratio to the floor, and the server's CPU
time per request (from /proc). Then the first-load bytes of each game page (the page and every
file it loads) without and with compression.

    .venv/bin/python -m bench.web [--connections 8] [--seconds 8] [--rounds 3] [--tree DIR]
                                  [--profile FILE] [--no-access-log]

``--tree DIR`` serves another checkout (say ``git worktree add /tmp/before main``) with this
bench, for before/after figures; ``--profile FILE`` records the server under the page and API
taps with py-spy (collapsed stacks). wrk is installed from Debian's packages when missing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.rules.deal_codes import CODE_SPACE, DealCode
from app.rules.heart_to_heart import new_game, target_text
from app.rules.heart_to_heart_solver import solve
from tests.reliability.cardroom_pages import H2H_STALE, HX, HeartsHand, h2h_board, h2h_version

SECRET_KEY = "bench-secret-key-long-enough-for-the-check"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
START_TIMEOUT = 60.0
LOG_TAIL = 3000
# The access log and uvicorn's start-up lines: not what the reader of a run looks for. In the
# app's text or JSON lines (app/logs.py), or uvicorn's own (a checkout from before them: --tree).
ACCESS_LINE = re.compile(
    r'INFO: +(\S+ - "|Started|Waiting|Application|Uvicorn|Shutting|Finished)'
    r'|\S+ \S+ INFO \[[^\]]*\] (app\.access|uvicorn\.error):'
    r'|\{.*"level":"INFO","logger":"(app\.access|uvicorn\.error)"'
)


# --- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Served:
    """A running server: its URL and its process group (uvicorn and any workers)."""

    base_url: str
    pid: int

    def processes(self) -> list[Path]:
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:  # the process ended meanwhile
                continue
            if int(fields[2]) == self.pid:  # its process group is the server's session
                found.append(stat.parent)
        return found

    def cpu_seconds(self) -> float:
        """CPU time the server's processes have used so far, all threads (Linux /proc)."""
        total = 0
        for process in self.processes():
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / CLOCK_TICKS

    def run_queue_seconds(self) -> float:
        """Time the servers' event loops were ready to run but waited for a CPU: what a
        machine shared with other work costs them."""
        return sum(int((process / "schedstat").read_text().split()[1])
                   for process in self.processes()) / 1e9


@contextmanager
def serve(store_url: str | None = None, workers: int = 1, tree: Path | None = None,
          cpus: str | None = None, access_log: bool = False) -> Iterator[Served]:
    """``uvicorn app.main:app`` on a free loopback port. ``store_url`` None: a fresh SQLite
    file in a temporary directory; ``tree``: the app of that checkout; ``cpus``: the cores it
    may run on (``taskset -c``); ``access_log``: as ``make run`` and the Docker image run it
    (a line per request, uvicorn's default), else only warnings. Stopped (its whole process
    group) on exit."""
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as workdir:
        port = free_port()
        env = {
            **os.environ,
            "CARDROOM_STORE_URL": store_url or f"sqlite:///{Path(workdir) / 'bench.sqlite3'}",
            "CARDROOM_SECRET_KEY": SECRET_KEY,
            # Many players from one address: the rate limits run (their cost counts) but
            # never refuse.
            "CARDROOM_RATE_LIMIT_SCALE": "1000",
            **({"PYTHONPATH": str(tree.resolve())} if tree else {}),
        }
        log_path = Path(workdir) / "server.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [*(["taskset", "-c", cpus] if cpus else []), sys.executable, "-m", "uvicorn",
                 "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--workers",
                 str(workers),
                 *([] if access_log else ["--no-access-log", "--log-level", "warning"])],
                cwd=workdir, env=env, stdout=log, stderr=log, start_new_session=True,
            )
        base_url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(process, base_url, log_path)
            yield Served(base_url, process.pid)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
            # Warnings and tracebacks of the run, where the benchmark's reader sees them.
            log = "\n".join(line for line in log_path.read_text(errors="replace").splitlines()
                            if not ACCESS_LINE.match(line) and line.strip())
            if log:
                print(f"--- server log (last lines):\n{log[-LOG_TAIL:]}", file=sys.stderr)


def wait_until_up(process: subprocess.Popen, base_url: str, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"uvicorn exited:\n{log_path.read_text()}")
        try:
            if httpx.get(base_url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("uvicorn did not answer /healthz in time")


ONE_CONNECTION = httpx.Limits(max_connections=1, max_keepalive_connections=1)
# Plain HTTP needs no TLS, but httpx builds a context per client unless given one; building it
# costs milliseconds of CPU, which hundreds of clients would spend at the start of a run.
SHARED_TLS = ssl.create_default_context()


def browser(base_url: str, transport: httpx.AsyncBaseTransport | None = None) -> httpx.AsyncClient:
    """One player's browser: its own cookie jar, one keep-alive connection, English pages."""
    return httpx.AsyncClient(base_url=base_url, limits=ONE_CONNECTION, transport=transport,
                             verify=SHARED_TLS, timeout=60, headers={"accept-language": "en"})


# --- players ---------------------------------------------------------------------------------


class UnexpectedAnswer(Exception):
    def __init__(self, what: str, response: httpx.Response) -> None:
        super().__init__(f"{what}: {response.status_code} {response.text[:200]!r}")


def expect(response: httpx.Response, status: int, what: str) -> httpx.Response:
    if response.status_code != status:
        raise UnexpectedAnswer(what, response)
    return response


class HeartToHeartPlayer:
    """Plays the solver's line of W deals, one tap at a time, as the page's htmx would (with
    the time on the page's clock, so the clock piece changes as in a browser)."""

    def __init__(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        self.client = client
        self.rng = rng
        self.game_id = ""
        self.version = 0
        self.taps: deque[str] = deque()
        self.started = 0.0

    async def new_game(self) -> None:
        code = str(DealCode("HH1", "W", self.rng.randrange(CODE_SPACE)))
        expect(await self.client.post(f"/heart-to-heart/deal/{code}"), 303, "new deal")
        await self.load()
        self.taps = deque(target_text(t) for t in solve(new_game(code)))
        self.started = time.monotonic()

    async def load(self) -> httpx.Response:
        page = expect(await self.client.get("/heart-to-heart"), 200, "page")
        self.game_id, self.version = h2h_board(page.text)
        return page

    async def tap(self) -> httpx.Response:
        answer = await self.client.post(
            f"/heart-to-heart/games/{self.game_id}/tap",
            data={"target": self.taps.popleft(), "version": str(self.version),
                  "elapsed": f"{time.monotonic() - self.started:.1f}"},
            headers=HX,
        )
        expect(answer, 200, "tap")
        if H2H_STALE in answer.text:
            raise UnexpectedAnswer("stale tap", answer)
        self.version = h2h_version(answer.text) or self.version
        return answer


class HeartsPlayer:
    """Plays matches against the bots: passes three cards, plays a random legal card."""

    def __init__(self, client: httpx.AsyncClient, rng: random.Random, level: str = "N") -> None:
        self.client = client
        self.rng = rng
        self.level = level
        self.hand: HeartsHand | None = None

    async def new_match(self) -> None:
        code = str(DealCode("HT1", self.level, self.rng.randrange(CODE_SPACE)))
        expect(await self.client.post(f"/hearts/deal/{code}"), 303, "new match")
        await self.load()

    async def load(self) -> httpx.Response:
        page = expect(await self.client.get("/hearts"), 200, "page")
        self.hand = HeartsHand.from_page(page.text)
        return page

    @property
    def phase(self) -> str:
        return self.hand.phase

    async def act(self) -> tuple[str, httpx.Response]:
        """The next action of the match: pass, play or next hand (the match must not be over)."""
        hand = self.hand
        if hand.phase == "passing":
            action, data = "pass", {"cards": ",".join(self.rng.sample(list(hand.cards), 3))}
        elif hand.phase == "playing":
            action, data = "play", {"card": self.rng.choice(hand.playable)}
        elif hand.phase == "hand_over":
            action, data = "next-hand", {}
        else:
            raise RuntimeError(f"no action in phase {hand.phase}")
        answer = await self.client.post(f"/hearts/games/{hand.game_id}/{action}",
                                        data={**data, "version": str(hand.version)}, headers=HX)
        expect(answer, 200, action)
        hand.apply(answer.text)
        return action, answer


# --- the measurement -------------------------------------------------------------------------

TAPS_SCRIPT = Path(__file__).with_name("taps.lua")
# Taps per second a player may reach, for how many games to set up (a player that runs out is
# reported, never silently counted).
MAX_TAPS_PER_PLAYER_SECOND = 800


def ensure_debian_tool(command: str) -> str:
    """The path of ``command``, installed from Debian's package of that name when missing."""
    found = shutil.which(command)
    if found is None:
        install = ["apt-get", "install", "-y", "-qq", command]
        if subprocess.run(install, check=False).returncode:
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(install, check=True)
        found = shutil.which(command)
    assert found, f"{command} is not installed"
    return found


@dataclass
class Game:
    game_id: str
    version: int
    taps: list[str]


@dataclass
class TapPlayer:
    cookie: str
    games: list[Game]


def set_up_players(base_url: str, count: int, taps_needed: int, rng: random.Random
                   ) -> list[TapPlayer]:
    """``count`` players, each with enough W games (created through the API, untimed) for
    ``taps_needed`` taps of the solver's lines."""
    players = []
    for _ in range(count):
        with httpx.Client(base_url=base_url, timeout=60) as client:
            games: list[Game] = []
            while sum(len(g.taps) for g in games) < taps_needed:
                code = str(DealCode("HH1", "W", rng.randrange(CODE_SPACE)))
                state = expect(client.post("/api/heart-to-heart/games", json={"deal": code}),
                               201, "new game").json()
                taps = [target_text(t) for t in solve(new_game(code))]
                games.append(Game(state["game_id"], state["version"], taps))
            cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        players.append(TapPlayer(cookie, games))
    return players


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_games(players: list[TapPlayer], path: Path) -> None:
    lines = ["players = {"]
    for player in players:
        lines.append(f"{{cookie={lua_string(player.cookie)}, games={{")
        for game in player.games:
            taps = ",".join(lua_string(t) for t in game.taps)
            lines.append(f"{{id={lua_string(game.game_id)}, version={game.version}, "
                         f"taps={{{taps}}}}},")
        lines.append("}},")
    lines.append("}")
    path.write_text("\n".join(lines))


def moves_made(base_url: str, players: list[TapPlayer]) -> int:
    """How far the players' games moved: the sum of their versions' steps since set-up."""
    moved = 0
    for player in players:
        with httpx.Client(base_url=base_url, timeout=60, headers={"cookie": player.cookie}) as c:
            for game in player.games:
                state = expect(c.get(f"/api/heart-to-heart/games/{game.game_id}"), 200,
                               "read").json()
                moved += state["version"] - game.version
    return moved


@dataclass
class Block:
    name: str
    result: dict
    cpu: float  # the server's CPU seconds during the block
    waited: float  # seconds the server waited for a CPU during the block

    @property
    def rate(self) -> float:
        return self.result["requests"] / self.result["seconds"]

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / self.result["requests"]


def run_wrk(wrk: str, server: Served, name: str, mode: str, games: Path | None,
            connections: int, seconds: int, cpu: str) -> Block:
    command = ["taskset", "-c", cpu, wrk, "-t", str(connections), "-c", str(connections),
               "-d", f"{seconds}s", "-s", str(TAPS_SCRIPT), server.base_url, "--",
               str(games or ""), mode]
    before_cpu, before_waited = server.cpu_seconds(), server.run_queue_seconds()
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    cpu_used = server.cpu_seconds() - before_cpu
    waited = server.run_queue_seconds() - before_waited
    line = next(line for line in output.splitlines() if line.startswith("RESULT "))
    return Block(name, json.loads(line.removeprefix("RESULT ")), cpu_used, waited)


def check_taps(block: Block, moved: int, connections: int) -> str:
    """The taps really moved the games: every answered tap once (a tap still in flight when
    wrk stopped may have moved its game unanswered)."""
    r = block.result
    applied = r["answered"] - r["errors"] - r["stale"]
    problems = [f"{r[k]} {k}" for k in ("errors", "stale", "exhausted", "socket_errors")
                if r[k]]
    if not applied <= moved <= applied + connections:
        problems.append(f"{applied} taps answered but the games moved {moved} steps")
    if problems:
        raise RuntimeError(f"{block.name}: " + ", ".join(problems))
    return f"{block.name}: {applied} taps answered, the games moved {moved} steps"


def wire_bytes(client: httpx.Client, path: str) -> int:
    with client.stream("GET", path) as response:
        expect(response, 200, path)
        return sum(len(chunk) for chunk in response.iter_raw())


ASSET = re.compile(r'<(?:script[^>]+src|link[^>]+href)="(/static/[^"]+)"')


def first_load(base_url: str, path: str, encoding: str) -> tuple[int, int]:
    """A first visit's bytes on the wire: the page and the files it loads (no cookie, empty
    cache)."""
    with httpx.Client(base_url=base_url, timeout=60,
                      headers={"accept-encoding": encoding, "accept-language": "en"}) as client:
        page = expect(client.get(path), 200, path)
        assets = sum(wire_bytes(client, asset) for asset in ASSET.findall(page.text))
        return wire_bytes(client, path), assets


def floor_around(blocks: list[Block], index: int) -> tuple[float, float]:
    """The floor for the tap block at ``index``: the mean rate and CPU per request of the
    /healthz blocks just before and just after it."""
    floors = [b for b in (blocks[index - 1], blocks[index + 1]) if b.name.startswith("/healthz")]
    floors = floors or [b for b in blocks if b.name.startswith("/healthz")]
    return (statistics.fmean(b.rate for b in floors),
            statistics.fmean(b.cpu_per_request for b in floors))


def report(connections: int, seconds: int, blocks: list[Block], checks: list[str],
           loads: list[str]) -> str:
    lines = [
        f"uvicorn, 1 worker pinned to one core, SQLite; wrk pinned to the other: {connections} "
        f"connections (one player each), {seconds} s per block, in this order",
        "",
        "| request | requests | req/s | vs floor | p50 ms | p99 ms | server CPU µs/req "
        "| vs floor | server waited for a CPU |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    shares: dict[str, list[float]] = {}
    for index, b in enumerate(blocks):
        r = b.result
        if b.name.startswith("/healthz"):
            rate_ratio, cpu_ratio = "", ""
        else:
            floor_rate, floor_cpu = floor_around(blocks, index)
            shares.setdefault(b.name, []).append(b.rate / floor_rate)
            rate_ratio = f"{b.rate / floor_rate:.2f}"
            cpu_ratio = f"{b.cpu_per_request / floor_cpu:.1f}×"
        lines.append(
            f"| {b.name} | {r['requests']} | {b.rate:.0f} | {rate_ratio} | "
            f"{r['p50_us'] / 1e3:.2f} | {r['p99_us'] / 1e3:.2f} | {b.cpu_per_request * 1e6:.0f} "
            f"| {cpu_ratio} | {b.waited / r['seconds']:.0%} |"
        )
    summary = [f"{name}: {statistics.median(values):.2f} of the floor's rate (median of "
               f"{len(values)}: {', '.join(f'{v:.2f}' for v in values)})"
               for name, values in shares.items()]
    load = os.getloadavg()
    return "\n".join([
        *lines, "", "vs floor: against the mean of the /healthz blocks just before and after.",
        *summary, *checks, f"load average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}",
        "", "| first load, no cookie | page | its files | total |", "|---|---:|---:|---:|",
        *loads,
    ])


@contextmanager
def py_spy(pid: int, output: Path) -> Iterator[None]:
    """py-spy records ``pid`` (collapsed stacks, one line per stack with its sample count)."""
    recorder = subprocess.Popen(
        [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid), "--format",
         "raw", "--rate", "250", "--nonblocking", "--output", str(output)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # py-spy attaches
    try:
        yield
    finally:
        recorder.send_signal(signal.SIGINT)
        recorder.wait()


def resume(base_url: str, players: list[TapPlayer], path: Path) -> None:
    """Each player's games on from where the last block left them, written for wrk."""
    for player in players:
        with httpx.Client(base_url=base_url, headers={"cookie": player.cookie}) as client:
            for game in player.games:
                state = client.get(f"/api/heart-to-heart/games/{game.game_id}").json()
                done = state["version"] - game.version
                game.version, game.taps = state["version"], game.taps[done:]
            player.games = [g for g in player.games if g.taps]
    write_games(players, path)


def measure(server: Served, connections: int, seconds: int, rounds: int, seed: int,
            workdir: Path, wrk_cpu: str, profile: Path | None) -> str:
    wrk = ensure_debian_tool("wrk")
    rng = random.Random(seed)
    taps_needed = MAX_TAPS_PER_PLAYER_SECOND * seconds * rounds
    page_players = set_up_players(server.base_url, connections, taps_needed, rng)
    api_players = set_up_players(server.base_url, connections, taps_needed, rng)
    page_games, api_games = workdir / "page_games.lua", workdir / "api_games.lua"
    write_games(page_players, page_games)
    write_games(api_players, api_games)
    run_wrk(wrk, server, "warm-up", "page", page_games, connections, 1, wrk_cpu)
    resume(server.base_url, page_players, page_games)
    blocks: list[Block] = []
    checks: list[str] = []

    def tap_block(name: str, mode: str, players: list[TapPlayer], games: Path) -> None:
        if profile is None:
            block = run_wrk(wrk, server, name, mode, games, connections, seconds, wrk_cpu)
        else:
            with py_spy(server.pid, profile.with_suffix(f".{mode}.{len(blocks)}.txt")):
                block = run_wrk(wrk, server, name, mode, games, connections, seconds, wrk_cpu)
        blocks.append(block)
        checks.append(check_taps(block, moves_made(server.base_url, players), connections))
        resume(server.base_url, players, games)

    def floor() -> None:
        blocks.append(run_wrk(wrk, server, "/healthz (floor)", "/healthz", None, connections,
                              seconds, wrk_cpu))

    # Interleaved, each tap block between two floors: a machine that gets busier or quieter
    # moves both alike.
    floor()
    for _ in range(rounds):
        tap_block("Heart to Heart page tap", "page", page_players, page_games)
        floor()
        tap_block("Heart to Heart API tap", "api", api_players, api_games)
        floor()
    loads = []
    for path in ("/heart-to-heart", "/hearts"):
        for encoding in ("identity", "gzip, deflate, br"):
            page, assets = first_load(server.base_url, path, encoding)
            loads.append(f"| `{path}`, Accept-Encoding: {encoding} | {page:,} B | {assets:,} B "
                         f"| {page + assets:,} B |")
    return report(connections, seconds, blocks, checks, loads)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (players)")
    parser.add_argument("--seconds", type=int, default=8, help="seconds per wrk block")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of page taps, floor, API taps, floor")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--tree", type=Path, help="serve this checkout instead of this one")
    parser.add_argument("--profile", type=Path, help="py-spy's collapsed stacks go here")
    parser.add_argument("--server-cpu", default="1", help="the core uvicorn is pinned to")
    parser.add_argument("--wrk-cpu", default="0", help="the core wrk is pinned to")
    parser.add_argument("--no-access-log", dest="access_log", action="store_false",
                        help="uvicorn without its access log (make run and Docker keep it)")
    arguments = parser.parse_args(argv)
    with serve(tree=arguments.tree, cpus=arguments.server_cpu,
               access_log=arguments.access_log) as server, \
            tempfile.TemporaryDirectory(prefix="cardroom-wrk-") as workdir:
        print("uvicorn's access log: " + ("on" if arguments.access_log else "off"))
        print(measure(server, arguments.connections, arguments.seconds, arguments.rounds,
                      arguments.seed, Path(workdir), arguments.wrk_cpu, arguments.profile))


if __name__ == "__main__":
    main()
