"""Real uvicorn processes for the tests that need a served app (tables, reliability, browser).

``LiveServer(store_url, workdir, secret_key=...).start()`` runs ``uvicorn app.main:app`` on a
free loopback port, in the work directory and in a process group of its own (so that the
workers of ``--workers 2`` stop with it), and waits until it answers ``/healthz``. It imports
the app of this checkout, not whichever one the virtual environment's editable install names (a
worktree shares it). What it writes to stderr goes to a file in the work directory, which
``stopped_logs`` reads and a failed start quotes.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
# A ceiling for a start that hangs, never waited out by one that works. A server with two
# workers imports the app three times, behind the test run's own work on a busy 2-core machine.
START_TIMEOUT = 120.0
# No access log, warnings only: a test that reads the logs gives its own flags.
QUIET = ("--no-access-log", "--log-level", "warning")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """One uvicorn process (and its workers). ``settings`` reach the app as ``CARDROOM_*``
    variables; ``env`` is added as it is; ``pythonpath`` lets ``served`` name a module outside
    the app (tests/tables/two_hand_app.py)."""

    def __init__(
        self, store_url: str, workdir: Path, *, secret_key: str,
        uvicorn_args: tuple[str, ...] = QUIET, served: str = "app.main:app",
        pythonpath: tuple[Path, ...] = (), env: dict[str, str] | None = None, **settings: str,
    ) -> None:
        self.store_url = store_url
        self.workdir = workdir
        self.secret_key = secret_key
        self.uvicorn_args = uvicorn_args
        self.served = served
        self.pythonpath = pythonpath
        self.env = env or {}
        self.settings = settings
        self.process: subprocess.Popen | None = None
        self.base_url = ""
        self.log_path: Path | None = None  # named after the port, once started

    def start(self) -> LiveServer:
        port = free_port()
        log_path = self.log_path = self.workdir / f"uvicorn-{port}.log"
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(str(path) for path in (ROOT, *self.pythonpath)),
            "CARDROOM_STORE_URL": self.store_url,
            "CARDROOM_SECRET_KEY": self.secret_key,
            **{f"CARDROOM_{key.upper()}": value for key, value in self.settings.items()},
            **self.env,
        }
        command = [sys.executable, "-m", "uvicorn", self.served, "--host", "127.0.0.1",
                   "--port", str(port), *self.uvicorn_args]
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, cwd=self.workdir, env=env, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=log,
            )
        self.base_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited:\n{log_path.read_text()}")
            try:
                if httpx.get(self.base_url + "/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"uvicorn did not answer /healthz in {START_TIMEOUT:.0f} s:\n"
                    f"{log_path.read_text()}")
            time.sleep(0.1)  # start-up polling; no test's outcome depends on it

    def url(self, path: str) -> str:
        return self.base_url + path

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, exactly as when the machine's OOM killer strikes."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        self._signal(signal.SIGTERM)

    def stopped_logs(self) -> str:
        """Stops the server; what it wrote to stderr."""
        assert self.log_path is not None, "never started"
        self.stop()
        return self.log_path.read_text()

    def _signal(self, signum: int) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signum)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
