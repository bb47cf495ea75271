"""Where solving runs, and how much of it a worker takes on: lanes with bounded queues.

Every solving request is classed by what it will actually do (:func:`cost_of`):

- **instant**: a search of the compiled core with no ``count``, no filters and ``limit`` up to
  20, by score (any blanks) or by equity with at most one blank, and ``/score`` without a rack
  or with a blank-less one. These take well under a millisecond in the median (``bench/lanes.py``
  in the fifteenth session, load 1.1-1.4, greedy games, every turn's rack with 0..3 blanks,
  breakdowns on: a top 20 by score 0.13-0.16 ms median with no blank, 0.21-0.30 with one,
  0.29-0.43 with two, 0.41-0.62 with three, 3.7 ms at most; one play 0.05-0.16 ms; the top 20
  by equity 0.22-0.28 ms with no blank and 0.36-0.58 with one, 1.5 ms at most)
  and are answered on the event loop when the worker
  has nothing else in progress (:func:`quiet`), where the hop to a thread would cost more than
  the work (0.1-0.15 ms of a lone client's round trip; 0.3-0.4 ms more on a busy machine, when
  the thread waits to be scheduled). The loop gives one ``loop_budget`` (2.5 ms): the rare
  search past it stops there (the compiled walk asks the clock) and is answered again in the
  cheap lane, so no rack holds the loop much longer, whatever its board (three blanks on an
  empty board took 3-11 ms, on game boards 3.7-4.1 ms at most). By equity, only once the
  worker has loaded the game's leave values (app.main loads them in a background thread at
  start; parsing one table takes most of a second). Two blanks joined in the eleventh
  session; three blanks and the top 20 by equity with a blank at most in the fifteenth, with
  the budget (their three-blank one-play answers had missed the 0.5 ms a client may see past
  the engine's time, issue 23, for the hop).
- **cheap**: ``/score`` with a one-blank rack (ranking it walks every legal play and reads
  those scoring at least as much; ``bench/score.py``: the fifth-best play 1.0 ms median over
  the bench positions, 4.6 ms at most; the 200th, 1.7 and 7.3 ms),
  ``/moves`` with ``limit`` 21-100, or by equity with two or three blanks (``bench/lanes.py``
  as above: 0.7-1.5 ms median, 4.8 and 6.6 ms at most), an instant search past the loop's
  budget, and anything instant when the pure-Python engine answers. Two or more blanks were
  expensive until the compiled core found a full rack's whole-rack plays from the words
  (issue 23).
- **expensive**: ``/moves`` with ``count``, a ``limit`` over 100, any filter, or two or more
  blanks when the pure-Python engine answers; ``/score`` with two or more blanks (ranking
  walks every legal play); ``/analyze``; and what new endpoints declare so.

Cheap and expensive work each have a :class:`Lane` per worker process: at most ``slots`` run at
once, each in the lane's own threads (so a flood of one kind never takes the other's threads,
nor the threadpool that serves the small synchronous endpoints); up to ``queue`` more wait *on
the event loop* (no thread is held while waiting) for at most ``wait`` seconds; past either
bound the request is refused at once with 503 ``busy`` and ``Retry-After``. Probes
(``/healthz``, ``/readyz``) never pass through a lane, and the compiled walk releases the
interpreter lock, so the event loop keeps answering while the lanes work.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sized
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from prometheus_client import Counter, Gauge

from engine import search
from engine.strategy import leaves

from .schemas import MovesIn, ScoreIn

EXPENSIVE_IN_FLIGHT = Gauge("wordsolver_expensive_in_flight", "Expensive searches running", multiprocess_mode="livesum")
EXPENSIVE_REJECTED = Counter("wordsolver_expensive_rejected", "Expensive searches refused with 503 busy")
ARRIVED_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("wordsolver_arrived", default=None)
"""When the request being answered reached its worker (time.monotonic), set by app.server's
protocol; None when the app runs under another server."""
PENDING: contextvars.ContextVar[Sized | None] = contextvars.ContextVar("wordsolver_pending", default=None)
"""The requests this worker has read and not answered yet (uvicorn's set of request tasks, the
one being answered included), set by app.server's protocol; None when the app runs under
another server."""
SHED = Counter("wordsolver_shed", "Solving requests refused with 503 busy, by lane and reason", ["lane", "reason"])
SOLVED = Counter("wordsolver_solved", "Solving requests by where they ran: the event loop or a lane", ["where"])

T = TypeVar("T")


class Cost(enum.Enum):
    INSTANT = "instant"
    CHEAP = "cheap"
    EXPENSIVE = "expensive"


class Busy(Exception):
    """A lane of this worker is full: answered 503 ``busy`` with Retry-After."""

    def __init__(self, slots: int, lane: str = "expensive", queued: int = 0, waited: float = 0.0) -> None:
        if lane == "loop":
            message = f"the server is behind (this request waited {waited:.1f} s to be read); retry in a second"
        elif lane == "expensive":
            message = (f"the server is busy with {slots} expensive search(es) per worker and {queued} waiting; retry "
                       "in a second, or ask for less (no count, fewer plays, no filters)")
        else:
            message = f"the server is busy ({slots} searches running per worker and {queued} waiting); retry in a second"
        super().__init__(message)
        self.slots = slots
        self.lane = lane


INSTANT_LIMIT = 20  # the most plays an instant /moves ranks (the default answer)


def cost_of(req: MovesIn | ScoreIn, game: str) -> Cost:
    """What ``req`` to ``game`` will do. By equity it is instant only once the game's leave values
    are loaded (the first such request in a fresh worker would parse them on the event loop)."""
    blanks = (req.rack or "").count("?")
    if isinstance(req, ScoreIn):
        if req.rack is None or blanks == 0:
            return Cost.INSTANT
        return Cost.CHEAP if blanks == 1 else Cost.EXPENSIVE
    if req.count or (req.limit or 0) > 100 or req.filters is not None or (blanks >= 2 and not search.instant()):
        return Cost.EXPENSIVE
    if (req.limit or INSTANT_LIMIT) > INSTANT_LIMIT or (req.rank_by != "score" and
                                                         (blanks >= 2 or not leaves.shipped_loaded(game))):
        return Cost.CHEAP
    return Cost.INSTANT


def _lower_priority(steps: int) -> None:
    """The calling thread runs ``steps`` nice steps below the rest of its process (Linux sets
    nice values per thread): when the CPU is short, the event loop (probes, accepting, instant
    answers) gets it first. With CPU to spare it changes nothing."""
    if steps <= 0 or not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps))
    except OSError:
        pass


class _Waiter:
    __slots__ = ("granted", "wake")

    def __init__(self, wake: Callable[[], None]) -> None:
        self.granted = False
        self.wake = wake


class Lane:
    """At most ``slots`` jobs at once (``0``: no limit), in threads of the lane's own; up to
    ``queue`` more wait for a slot, each at most ``wait`` seconds; beyond that, :class:`Busy`.

    Slots are taken by :meth:`run` (from the event loop: the wait holds no thread) or by
    :meth:`hold` (from a thread); a released slot goes to the longest waiter first.
    """

    def __init__(self, name: str, slots: int, queue: int, wait: float, nice: int = 0) -> None:
        self.name, self.slots, self.queue, self.wait = name, slots, queue, wait
        self.running = 0
        self._waiters: deque[_Waiter] = deque()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max(1, slots) if slots else 32, thread_name_prefix=f"wordsolver-{name}",
                                        initializer=_lower_priority, initargs=(nice,))

    @property
    def queued(self) -> int:
        return len(self._waiters)

    def _take(self, wake: Callable[[], None]) -> _Waiter | None:
        """A slot now (None), a place in the queue (the waiter), or Busy."""
        with self._lock:
            if not self.slots or (self.running < self.slots and not self._waiters):
                self.running += 1
                return None
            if len(self._waiters) >= self.queue or self.wait <= 0:
                self._refuse("queue_full")
            waiter = _Waiter(wake)
            self._waiters.append(waiter)
            return waiter

    def _gave_up(self, waiter: _Waiter) -> None:
        """The waiter's time is up: Busy, unless a slot was handed to it meanwhile."""
        with self._lock:
            if waiter.granted:
                return
            self._waiters.remove(waiter)
            self._refuse("waited")

    def _refuse(self, reason: str) -> None:
        SHED.labels(self.name, reason).inc()
        if self.name == "expensive":
            EXPENSIVE_REJECTED.inc()
        raise Busy(self.slots, self.name, len(self._waiters))

    def _release(self) -> None:
        with self._lock:
            if self._waiters:
                waiter = self._waiters.popleft()
                waiter.granted = True  # the slot passes to it: running stays
                waiter.wake()
            else:
                self.running -= 1

    @contextmanager
    def _running(self) -> Iterator[None]:
        if self.name == "expensive":
            EXPENSIVE_IN_FLIGHT.inc()
        try:
            yield
        finally:
            if self.name == "expensive":
                EXPENSIVE_IN_FLIGHT.dec()
            self._release()

    @contextmanager
    def hold(self) -> Iterator[None]:
        """A slot for the calling thread (blocking up to ``wait``)."""
        event = threading.Event()
        waiter = self._take(event.set)
        if waiter is not None and not event.wait(self.wait):
            self._gave_up(waiter)
        with self._running():
            yield

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in one of the lane's threads once a slot is free (waiting on the event loop)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not future.done():
                future.set_result(None)

        def wake() -> None:
            loop.call_soon_threadsafe(settle)

        waiter = self._take(wake)
        if waiter is not None:
            try:
                await asyncio.wait_for(asyncio.shield(future), self.wait)
            except TimeoutError:
                self._gave_up(waiter)
            except BaseException:  # cancelled while waiting: pass on a slot handed over meanwhile
                with self._lock:
                    if waiter in self._waiters:
                        self._waiters.remove(waiter)
                        raise
                self._release()
                raise
        with self._running():
            context = contextvars.copy_context()
            done: asyncio.Future[T] = loop.create_future()

            def job() -> None:  # in a lane thread: the answer goes straight to the waiting task
                try:
                    result = context.run(fn)
                except StopIteration as exc:  # a future cannot hold StopIteration: the task would wait for good
                    loop.call_soon_threadsafe(_settle, done, None, RuntimeError(f"lane job raised StopIteration: {exc}"))
                except BaseException as exc:  # noqa: BLE001  (raised in the waiting task)
                    loop.call_soon_threadsafe(_settle, done, None, exc)
                else:
                    loop.call_soon_threadsafe(_settle, done, result, None)

            self._pool.submit(job)
            return await done


def _settle(future: asyncio.Future[T], result: T | None, exc: BaseException | None) -> None:
    """On the event loop: a lane job's outcome to the task awaiting it (gone if cancelled).
    (``run_in_executor`` chains two futures through callbacks and locks for the same.)"""
    if future.cancelled():
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)  # type: ignore[arg-type]


def check_loop_wait(budget: float) -> None:
    """Busy (lane ``loop``) when the request waited more than ``budget`` seconds for the event
    loop to reach it: the worker is behind, and answering 503 now costs less than solving a
    request whose client has waited that long already."""
    arrived = ARRIVED_AT.get()
    if budget > 0 and arrived is not None:
        waited = time.monotonic() - arrived
        if waited > budget:
            SHED.labels("loop", "waited").inc()
            raise Busy(0, "loop", 0, waited)


def quiet(most: int) -> bool:
    """Whether at most ``most`` requests are in progress in this worker, the caller's included
    (False when unknown). Counted when the protocol reads a request head, before any of them
    runs: a burst read in one turn of the event loop counts whole."""
    pending = PENDING.get()
    return pending is not None and len(pending) <= most


class Gate:
    """The two lanes of one worker: ``expensive`` (``slots`` at once, default 1) and ``cheap``
    (``cheap_slots``), each with a queue of ``queue`` and a wait of at most ``wait`` seconds."""

    def __init__(self, slots: int, wait: float = 1.0, *, cheap_slots: int = 2, queue: int = 16,
                 cheap_wait: float = 1.0, nice: int = 0) -> None:
        self.slots = slots
        self.wait = wait
        self.expensive = Lane("expensive", slots, queue, wait, nice)
        self.cheap = Lane("cheap", cheap_slots, queue, cheap_wait, nice)

    def lane(self, cost: Cost) -> Lane:
        return self.expensive if cost is Cost.EXPENSIVE else self.cheap

    @contextmanager
    def admit(self, expensive: bool) -> Iterator[None]:
        """A slot of the expensive lane for the calling thread (nothing for cheap work)."""
        if not expensive:
            yield
            return
        with self.expensive.hold():
            yield
