"""Keeping expensive searches from starving cheap ones.

A request is *expensive* when it must enumerate every play or many of them: ``/moves`` with
``count``, a ``limit`` over 100, any filter, or two or more blanks on the rack; ``/score``
with a rack holding two or more blanks (ranking enumerates every play). Each worker process
runs at most ``WORDSOLVER_MAX_EXPENSIVE`` of them at once (default 1); one more is refused at
once with 503 ``busy`` and ``Retry-After``, rather than queueing behind the others and
holding up cheap requests. Cheap requests are never limited here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Counter, Gauge

from .schemas import MovesIn, ScoreIn

EXPENSIVE_IN_FLIGHT = Gauge("wordsolver_expensive_in_flight", "Expensive searches running", multiprocess_mode="livesum")
EXPENSIVE_REJECTED = Counter("wordsolver_expensive_rejected", "Expensive searches refused with 503 busy")


class Busy(Exception):
    """Too many expensive searches in this worker: answered 503 ``busy`` with Retry-After."""

    def __init__(self, slots: int) -> None:
        super().__init__(f"the server is busy with {slots} expensive search(es) per worker; retry in a second, "
                         "or ask for less (no count, fewer plays, no filters)")
        self.slots = slots


def is_expensive(req: MovesIn | ScoreIn) -> bool:
    blanks = (req.rack or "").count("?")
    if isinstance(req, ScoreIn):
        return req.rack is not None and blanks >= 2
    return req.count or (req.limit or 0) > 100 or req.filters is not None or blanks >= 2


class Gate:
    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._sem = threading.BoundedSemaphore(slots) if slots > 0 else None

    @contextmanager
    def admit(self, expensive: bool) -> Iterator[None]:
        if not expensive or self._sem is None:
            yield
            return
        if not self._sem.acquire(blocking=False):
            EXPENSIVE_REJECTED.inc()
            raise Busy(self.slots)
        EXPENSIVE_IN_FLIGHT.inc()
        try:
            yield
        finally:
            EXPENSIVE_IN_FLIGHT.dec()
            self._sem.release()
