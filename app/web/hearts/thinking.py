"""Where the Hearts bots think, so that they cannot starve the room.

A turn (the player's action and the bots' answer, app/web/hearts/service.py) runs:

- in a thread pool of its own, not the event loop's (which also reads static files and runs
  sync dependencies), with one thread per core: more threads would only wait for the same cores;
- with Hard's and Expert's searches in a pool of processes, one per core, at a lower priority
  than the server's own process, so that the event loop answers /healthz and static files first
  while bots think, and one search does not hold the server's GIL;
- one at a time per session (:meth:`Thinking.turn_of`): a second request of the same session
  waits for the first, then finds its version stale and costs nothing;
- behind a queue bounded by waiting time, not by count: a turn is refused, the room
  :class:`~app.web.errors.Busy` (503 with Retry-After), only when the work already admitted
  would make it wait more than ``MAX_WAIT_SECONDS`` (the work ahead of it, times the recent cost
  of one piece of work as measured here, over the threads), instead of answering ever later.
  Turns of a cheap bot admit many at once; searches that take long admit few.

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
import time
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
from app.metrics import THINKING_REFUSED, THINKING_WAIT_SECONDS
from app.web.errors import Busy

T = TypeVar("T")

logger = logging.getLogger(__name__)

CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
MAX_WAIT_SECONDS = 1.0  # the longest expected wait for a thread a turn is admitted with
# The cost of one piece of work (seconds in a thread or a search process) before any was
# measured: about a searching bot's turn (Hard, Expert), the dearest, so a cold start does not
# admit a flood.
FIRST_COST_SECONDS = 0.05
COST_WEIGHT = 0.1  # how much the last piece of work moves the recent cost (a moving average)
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


def timed(submitted: float, work: Callable[..., T], *args: object) -> tuple[T, float, float]:
    """``work(*args)``, the seconds it took (where it ran: a thread or a search process), and
    the seconds it waited to start since ``submitted`` (``time.monotonic()``: the same clock
    in every process of the machine)."""
    start = time.monotonic()
    result = work(*args)
    return result, time.monotonic() - start, start - submitted


class Thinking:
    """The pools the bots think in, the per-session turns and the bounded queue.

    The pools start on first use (a process pool's workers when the first Hard search comes),
    and :meth:`close` stops them; a later use starts them again.
    """

    def __init__(self, workers: int = CORES, max_wait: float = MAX_WAIT_SECONDS) -> None:
        self.workers = workers
        self.max_wait = max_wait
        self.admitted = 0  # pieces of work running or waiting for a thread
        self.cost = FIRST_COST_SECONDS  # the recent cost of one, measured where it ran
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

    def expected_wait(self) -> float:
        """How long a piece of work admitted now would wait for a thread: the work ahead of
        it, less the threads free, at the recent cost of one, over the threads."""
        ahead = self.admitted + 1 - self.workers
        return max(0, ahead) * self.cost / self.workers

    def check_room(self) -> None:
        """Busy when the expected wait is past ``max_wait``: a request may ask before it
        spends anything."""
        if self.expected_wait() > self.max_wait:
            THINKING_REFUSED.inc()
            raise Busy(RETRY_AFTER_SECONDS)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in the bots' threads; Busy at once when the queue is full."""
        self.check_room()
        threads = self._thread_pool()
        return await self._admitted(threads.submit(timed, time.monotonic(), work, *args))

    async def search(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` (a module's function, its arguments picklable) in the search
        processes, admitted by the same queue as the bots' turns; Busy when it is full."""
        self.check_room()
        self._thread_pool()
        assert self._processes is not None
        try:
            searched = self._processes.submit(timed, time.monotonic(), work, *args)
            return await self._admitted(searched)
        except BrokenExecutor:  # its process died (killed, out of memory): here instead
            return await self.run(work, *args)

    async def _admitted(self, future: Future[tuple[T, float, float]]) -> T:
        """Counts ``future`` in the queue until it is done; its cost goes into the recent
        cost."""
        loop = asyncio.get_running_loop()
        self.admitted += 1
        self.turns += 1

        def release(_: object) -> None:
            # When the work ends (or is cancelled before it starts), not when the request stops
            # waiting for it: a thread still busy counts.
            with contextlib.suppress(RuntimeError):  # the loop is closed: the app stopped
                loop.call_soon_threadsafe(self._release)

        future.add_done_callback(release)
        result, seconds, waited = await asyncio.wrap_future(future)
        self.cost += COST_WEIGHT * (seconds - self.cost)
        THINKING_WAIT_SECONDS.observe(waited)
        return result

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
        self.cost = FIRST_COST_SECONDS


THINKING = Thinking()
