"""Real uvicorn processes for the table tests: one on SQLite, two on one Redis, or one with two
workers on SQLite (``--workers 2``: the requests of one player land on either worker); settings
given as keywords reach them as ``CARDROOM_*`` variables."""

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

HERE = Path(__file__).parent
SECRET_KEY = "tables-test-key-tables-test-key-tables-test-key"
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def launch(
    store_url: str, workdir: Path, *args: str, settings: dict[str, str],
    served: str = "app.main:app",
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {
        **os.environ,
        # two_hand_app.py imports its neighbour two_hands.py.
        "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])),
        "CARDROOM_STORE_URL": store_url,
        "CARDROOM_SECRET_KEY": SECRET_KEY,
        **{f"CARDROOM_{key.upper()}": value for key, value in settings.items()},
    }
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        served,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-access-log",
        "--log-level",
        "warning",
        *args,
    ]
    process = subprocess.Popen(
        command,
        cwd=Path(__file__).parents[2],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError("uvicorn exited")
        try:
            if httpx.get(base_url + "/healthz", timeout=1).status_code == 200:
                return process, base_url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not answer /healthz in time")
        time.sleep(0.1)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def servers(tmp_path: Path, redis_server) -> Iterator[Callable[..., list[str]]]:
    """``servers(kind, **settings)``: the base URLs of a fresh deployment of that kind; with
    ``two_hands=True``, its tables' matches end after their second hand (two_hand_app.py)."""
    processes: list[subprocess.Popen] = []

    def start(kind: str, two_hands: bool = False, **settings: str) -> list[str]:
        sqlite = f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
        redis_url = redis_server.url("tables")
        plan = {
            "sqlite": [(sqlite, ())],
            "sqlite-2-workers": [(sqlite, ("--workers", "2"))],
            "redis-2-instances": [(redis_url, ()), (redis_url, ())],
        }[kind]
        if kind.startswith("redis"):
            redis.Redis.from_url(redis_url).flushdb()
        urls = []
        for url, args in plan:
            process, base = launch(
                url, tmp_path, *args, settings=settings,
                served="two_hand_app:app" if two_hands else "app.main:app",
            )
            processes.append(process)
            urls.append(base)
        return urls

    yield start
    for process in processes:
        stop(process)
