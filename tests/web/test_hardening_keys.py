"""Issue 18, finding 5: the secret key that signs session cookies is never weak or empty."""

from __future__ import annotations

import multiprocessing
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.settings import MIN_SECRET_KEY_BYTES, Settings, stored_secret_key
from app.web.templating import ROOT

WORKERS = 8
ROUNDS = 25


def test_a_short_key_is_refused(monkeypatch):
    for key in ("a", "x" * (MIN_SECRET_KEY_BYTES - 1)):
        with pytest.raises(ValidationError, match="at least 32 bytes"):
            Settings(secret_key=key)
        monkeypatch.setenv("CARDROOM_SECRET_KEY", key)
        with pytest.raises(ValidationError, match="CARDROOM_SECRET_KEY"):
            Settings()
    monkeypatch.setenv("CARDROOM_SECRET_KEY", "é" * 16)  # 32 bytes in UTF-8
    assert Settings().secret_key == "é" * 16


def test_the_server_does_not_start_with_a_short_key(tmp_path):
    env = {**os.environ, "CARDROOM_SECRET_KEY": "a",
           "CARDROOM_STORE_URL": f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"}
    run = subprocess.run(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--port", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode != 0
    assert "CARDROOM_SECRET_KEY" in run.stderr and "at least 32 bytes" in run.stderr


def test_the_key_file_is_made_private_and_kept(tmp_path):
    path = tmp_path / "data" / "secret_key"
    key = stored_secret_key(path)
    assert len(key.encode()) >= MIN_SECRET_KEY_BYTES
    assert path.read_text() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stored_secret_key(path) == key
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # no temporary file left


@pytest.mark.parametrize("content", ["", "\n", "short-key"])
def test_a_damaged_key_file_is_refused_not_used(tmp_path, content):
    path = tmp_path / "secret_key"
    path.write_text(content)
    with pytest.raises(ValueError, match="delete it"):
        stored_secret_key(path)
    assert path.read_text() == content


def _make_key(path: str, barrier) -> str:
    barrier.wait()
    return stored_secret_key(Path(path))


def test_workers_starting_together_agree_on_one_key(tmp_path):
    """Several workers start at once on a fresh data directory: one key, in all of them."""
    context = multiprocessing.get_context("fork")
    with context.Manager() as manager, context.Pool(WORKERS) as pool:
        barrier = manager.Barrier(WORKERS)
        for round_ in range(ROUNDS):
            path = tmp_path / str(round_) / "data" / "secret_key"
            keys = pool.starmap(_make_key, [(str(path), barrier)] * WORKERS)
            assert len(set(keys)) == 1, keys
            assert len(keys[0].encode()) >= MIN_SECRET_KEY_BYTES
            assert path.read_text() == keys[0]
