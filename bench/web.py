"""The web tap cost (issue 5; figures in bench/README.md, "Web tap cost").

One uvicorn worker on loopback with the SQLite store, driven by a few clients (each one browser:
its own cookie, one keep-alive connection). Rounds of three blocks, interleaved so that a busy
machine slows all three alike:

- ``/healthz``: the floor (the framework and the security middleware, no store, no template);
- a Heart to Heart tap: each client plays the solver's line of a winnable (W) deal, so the taps
  are a real game's mix of selections, pairs, draws and redeals (one store read and one
  compare-and-set each, the changed pieces rendered);
- a Hearts play against Normal bots: the player's card, the bots' answers, the changed pieces.

Reported: requests/s, p50 and p99 of each, as ratios to the floor, and the bytes of a tap's
(and a play's) answer against the full page. Games are set up between blocks, untimed.

    nice .venv/bin/python -m bench.web [--clients 8] [--rounds 10] [--taps 25]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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
def serve(store_url: str | None = None, workers: int = 1) -> Iterator[Served]:
    """``uvicorn app.main:app`` on a free loopback port. ``store_url`` None: a fresh SQLite
    file in a temporary directory. Stopped (its whole process group) on exit."""
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as workdir:
        port = free_port()
        env = {
            **os.environ,
            "CARDROOM_STORE_URL": store_url or f"sqlite:///{Path(workdir) / 'bench.sqlite3'}",
            "CARDROOM_SECRET_KEY": SECRET_KEY,
        }
        log_path = Path(workdir) / "server.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                 "--port", str(port), "--workers", str(workers), "--no-access-log",
                 "--log-level", "warning"],
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
            log = log_path.read_text(errors="replace").strip()
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


@dataclass
class Series:
    name: str
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0  # wall time of this series' blocks
    cpu: float = 0.0  # the server's CPU time during them
    waited: float = 0.0  # time the server's loop waited for a CPU during them
    sizes: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / len(self.latencies)

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def block(server: Served, series: Series, clients: int, count: int,
                call: Callable[[int], Awaitable[httpx.Response]]) -> None:
    """Every client makes ``count`` calls back to back; the block's wall time and the server's
    CPU time are added up."""

    async def one(index: int) -> None:
        for _ in range(count):
            start = time.perf_counter()
            response = await call(index)
            series.latencies.append(time.perf_counter() - start)
            series.sizes.append(len(response.content))

    start, cpu, waited = time.perf_counter(), server.cpu_seconds(), server.run_queue_seconds()
    await asyncio.gather(*(one(i) for i in range(clients)))
    series.seconds += time.perf_counter() - start
    series.cpu += server.cpu_seconds() - cpu
    series.waited += server.run_queue_seconds() - waited


async def measure(server: Served, clients: int, rounds: int, taps: int, seed: int) -> str:
    rng = random.Random(seed)
    browsers = [browser(server.base_url) for _ in range(clients)]
    try:
        h2h = [HeartToHeartPlayer(b, random.Random(rng.random())) for b in browsers]
        hearts = [HeartsPlayer(b, random.Random(rng.random())) for b in browsers]
        floor, tap, play = Series("/healthz"), Series("tap"), Series("play")
        h2h_pages, hearts_pages = Series("h2h page"), Series("hearts page")

        async def health(i: int) -> httpx.Response:
            return expect(await browsers[i].get("/healthz"), 200, "healthz")

        async def one_tap(i: int) -> httpx.Response:
            return await h2h[i].tap()

        async def one_play(i: int) -> httpx.Response:
            action, answer = await hearts[i].act()
            assert action == "play"
            return answer

        for round_number in range(rounds + 1):  # round 0 warms up and is dropped
            for player in h2h:
                if len(player.taps) < taps:
                    await player.new_game()
            for player in hearts:  # a fresh hand of 13 plays each
                await player.new_match()
                while player.phase != "playing":
                    await player.act()
            kept = round_number > 0
            measured = [Series(s.name) for s in (floor, tap, play)]
            await block(server, measured[0], clients, taps, health)
            await block(server, measured[1], clients, taps, one_tap)
            await block(server, measured[2], clients, 13, one_play)
            if kept:
                for total, part in zip((floor, tap, play), measured, strict=True):
                    total.latencies += part.latencies
                    total.sizes += part.sizes
                    total.seconds += part.seconds
                    total.cpu += part.cpu
                    total.waited += part.waited
                for h, p in zip(h2h, hearts, strict=True):  # the full pages, mid-game
                    h2h_pages.sizes.append(len((await h.load()).content))
                    hearts_pages.sizes.append(len((await p.load()).content))
        return report(clients, rounds, taps, floor, tap, play, h2h_pages, hearts_pages)
    finally:
        for b in browsers:
            await b.aclose()


def report(clients, rounds, taps, floor, tap, play, h2h_pages, hearts_pages) -> str:
    lines = [
        f"uvicorn, 1 worker, SQLite, loopback; {clients} clients (one keep-alive connection "
        f"each); {rounds} rounds of interleaved blocks ({taps} /healthz, {taps} taps, 13 plays "
        "per client)",
        "",
        "| request | count | req/s | vs floor | p50 ms | p99 ms | p50 vs floor | p99 vs floor "
        "| server CPU µs/req | vs floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in (("`/healthz` (floor)", floor), ("Heart to Heart tap", tap),
                    ("Hearts play (Normal bots)", play)):
        lines.append(
            f"| {name} | {len(s.latencies)} | {s.rate:.0f} | {s.rate / floor.rate:.2f} | "
            f"{s.percentile(0.5) * 1e3:.2f} | {s.percentile(0.99) * 1e3:.2f} | "
            f"{s.percentile(0.5) / floor.percentile(0.5):.1f}× | "
            f"{s.percentile(0.99) / floor.percentile(0.99):.1f}× | "
            f"{s.cpu_per_request * 1e6:.0f} | {s.cpu_per_request / floor.cpu_per_request:.1f}× |"
        )
    tap_size, h2h_page = statistics.median(tap.sizes), statistics.median(h2h_pages.sizes)
    play_size, hearts_page = statistics.median(play.sizes), statistics.median(hearts_pages.sizes)
    waited = sum(s.waited for s in (floor, tap, play)) / sum(s.seconds for s in (floor, tap, play))
    lines += [
        "",
        f"The server's event loop waited for a CPU {waited:.0%} of the measured time (the "
        "machine's other work; the CPU column does not include it).",
        f"Tap answer: median {tap_size:.0f} B (mean {statistics.fmean(tap.sizes):.0f}, max "
        f"{max(tap.sizes)}) against the full Heart to Heart page {h2h_page:.0f} B: "
        f"{tap_size / h2h_page:.1%} (mean {statistics.fmean(tap.sizes) / h2h_page:.1%}).",
        f"Play answer: median {play_size:.0f} B (mean {statistics.fmean(play.sizes):.0f}) "
        f"against the full Hearts page {hearts_page:.0f} B: {play_size / hearts_page:.1%}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8, help="simultaneous clients")
    parser.add_argument("--rounds", type=int, default=10, help="measured rounds")
    parser.add_argument("--taps", type=int, default=25,
                        help="/healthz requests and taps per client per block")
    parser.add_argument("--seed", type=int, default=5)
    arguments = parser.parse_args(argv)
    with serve() as server:
        print(asyncio.run(measure(server, arguments.clients, arguments.rounds,
                                  arguments.taps, arguments.seed)))


if __name__ == "__main__":
    main()
