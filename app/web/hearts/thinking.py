"""Where the Hearts bots think, so that they cannot starve the room.

A turn (the player's action and the bots' answer, app/web/hearts/service.py) runs:

- in a thread pool of its own, not the event loop's (which also reads static files and runs
  sync dependencies), with one thread per core: more threads would only wait for the same cores;
- with Hard's searches in a pool of processes, one per core, at a lower priority than the
  server's own process, so that the event loop answers /healthz and static files first while
  bots think, and one search does not hold the server's GIL;
- one at a time per session (:meth:`Thinking.turn_of`): a second request of the same session
  waits for the first, then finds its version stale and costs nothing;
- behind a bounded queue: past ``waiting`` turns waiting for a thread, the room is
  :class:`~app.web.errors.Busy` (503 with Retry-After) instead of answering ever later.

The assists that search go through the same queue, so many people asking for reviews cannot
slow the room either: a Hearts hint or hand review (Hard's search) in the search processes, at
their lower priority (:meth:`Thinking.search`); a Heart to Heart hint or "where was it lost"
(the solver, a few ms) in the bots' threads (:meth:`Thinking.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar
from weakref import WeakValueDictionary

from app.bots.driver import search_in
from app.web.errors import Busy

T = TypeVar("T")

logger = logging.getLogger(__name__)

CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
WAITING_PER_CORE = 4
RETRY_AFTER_SECONDS = 1
SEARCH_NICENESS = 10


def _lower_priority() -> None:
    os.nice(SEARCH_NICENESS)


class Searches(Executor):
    """The search processes: a pool that is started again when one of its processes died
    (killed, out of memory), which leaves a process pool refusing all work."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # Spawned, not forked: a fork would copy the server's threads and locks.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_lower_priority)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            try:
                return self._pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                logger.warning("a search process died: starting the pool again")
                self._pool = self._start()
                return self._pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._pool.shutdown(wait, cancel_futures=cancel_futures)


class Thinking:
    """The pools the bots think in, the per-session turns and the bounded queue.

    The pools start on first use (a process pool's workers when the first Hard search comes),
    and :meth:`close` stops them; a later use starts them again.
    """

    def __init__(self, workers: int = CORES, waiting: int = WAITING_PER_CORE * CORES) -> None:
        self.workers = workers
        self.limit = workers + waiting  # turns admitted: running or waiting for a thread
        self.admitted = 0
        self.turns = 0  # work admitted so far: turns (the bots' decisions) and searching assists
        self._threads: ThreadPoolExecutor | None = None
        self._processes: Searches | None = None
        self._sessions: WeakValueDictionary[str, asyncio.Lock] = WeakValueDictionary()

    def turn_of(self, session_id: str) -> asyncio.Lock:
        """The lock a session's turns take in turn; it goes away when nobody holds it."""
        lock = self._sessions.get(session_id)
        if lock is None:
            lock = self._sessions[session_id] = asyncio.Lock()
        return lock

    def check_room(self) -> None:
        """Busy when the queue is full: a request may ask before it spends anything."""
        if self.admitted >= self.limit:
            raise Busy(RETRY_AFTER_SECONDS)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in the bots' threads; Busy at once when the queue is full."""
        self.check_room()
        return await self._admitted(self._thread_pool().submit(work, *args))

    async def search(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` (a module's function, its arguments picklable) in the search
        processes, admitted by the same queue as the bots' turns; Busy when it is full."""
        self.check_room()
        self._thread_pool()
        assert self._processes is not None
        try:
            return await self._admitted(self._processes.submit(work, *args))
        except BrokenExecutor:  # its process died (killed, out of memory): here instead
            return await self.run(work, *args)

    async def _admitted(self, future: Future[T]) -> T:
        """Counts ``future`` in the queue until it is done."""
        loop = asyncio.get_running_loop()
        self.admitted += 1
        self.turns += 1

        def release(_: object) -> None:
            # When the work ends (or is cancelled before it starts), not when the request stops
            # waiting for it: a thread still busy counts.
            with contextlib.suppress(RuntimeError):  # the loop is closed: the app stopped
                loop.call_soon_threadsafe(self._release)

        future.add_done_callback(release)
        return await asyncio.wrap_future(future)

    def _release(self) -> None:
        self.admitted -= 1

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="bots")
            self._processes = Searches(self.workers)
            search_in(self._processes)
        return self._threads

    def close(self) -> None:
        search_in(None)
        for pool in (self._threads, self._processes):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._threads = self._processes = None
        self.admitted = 0


THINKING = Thinking()
