"""Real uvicorn processes for the reliability tests, and a spare Redis database.

``start_server(store_url)`` runs ``uvicorn app.main:app`` as a subprocess on a free loopback
port (its own process group, stopped at the end of the test even when the test fails) and
returns a :class:`Server`; all sign cookies with ``SECRET_KEY``. ``deployments`` holds, for the
whole session, one instance on SQLite and two instances on one Redis (the run's own server,
tests/conftest.py).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from cardroom_pages import SECRET_KEY

START_TIMEOUT = 30.0
# No access log, warnings only: a test that reads the logs gives its own flags.
QUIET = ("--no-access-log", "--log-level", "warning")
# The servers run in a temporary directory; they import the app of this checkout, not whichever
# one the virtual environment's editable install names (a worktree shares it).
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, store_url: str, workdir: Path, *, uvicorn_args: tuple[str, ...] = QUIET,
                 env: dict[str, str] | None = None, **settings: str) -> None:
        self.store_url = store_url
        self.workdir = workdir
        self.settings = settings
        self.uvicorn_args = uvicorn_args
        self.env = env or {}
        self.process: subprocess.Popen | None = None
        self.base_url = ""

    def start(self) -> Server:
        port = free_port()
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "CARDROOM_STORE_URL": self.store_url,
            "CARDROOM_SECRET_KEY": SECRET_KEY,
            # Races at machine speed from one address: no rate limits unless a test asks.
            "CARDROOM_RATE_LIMIT_SCALE": "0",
            **{f"CARDROOM_{key.upper()}": value for key, value in self.settings.items()},
            **self.env,
        }
        command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                   "--port", str(port), *self.uvicorn_args]
        self.process = subprocess.Popen(
            command, cwd=self.workdir, env=env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        self.base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited: {self.process.stderr.read().decode()}")
            try:
                if httpx.get(self.base_url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not answer /healthz in time")
            time.sleep(0.1)

    def url(self, path: str) -> str:
        return self.base_url + path

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, exactly as when the machine's OOM killer strikes."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        self._signal(signal.SIGTERM)

    def stopped_logs(self) -> str:
        """Stops the server; what it wrote to stderr."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGTERM)
        _, stderr = self.process.communicate(timeout=15)
        return stderr.decode()

    def _signal(self, signum: int) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signum)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process.stderr.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(store_url: str, **options) -> Server:
        server = Server(store_url, tmp_path, **options)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def redis_db(redis_server) -> Iterator[str]:
    """The reliability tests' Redis database, empty before and after the module."""
    url = redis_server.url("reliability")
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


@pytest.fixture(scope="session")
def deployments(tmp_path_factory, redis_server) -> Iterator[dict[str, list[Server]]]:
    """Started once for the session (under pytest-xdist, once per worker), not once per module:
    every test that uses them plays in sessions and games of its own. Their Redis database is
    theirs alone, so the modules that empty ``redis_db`` leave it be."""
    workdir = tmp_path_factory.mktemp("deployments")
    sqlite = f"sqlite:///{workdir / 'cardroom.sqlite3'}"
    redis_url = redis_server.url("deployments")
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    servers = {"sqlite": [Server(sqlite, workdir)],
               "redis": [Server(redis_url, workdir), Server(redis_url, workdir)]}
    try:
        for group in servers.values():
            for server in group:
                server.start()
        yield servers
    finally:
        for group in servers.values():
            for server in group:
                server.stop()
        client.flushdb()
        client.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
