"""Readiness across the workers of one service.

With several workers (app.server's Supervisor), each loads the default word list on its own,
and the kernel hands each new connection to any of them. A worker's own "loaded" is not the
service's: a readiness probe answered 200 by the first worker to finish would let a load
balancer send traffic that the other workers answer 503 not_ready for a moment. So each worker
marks its slot in a directory the supervisor made for them, once its default list is loaded,
and ``/readyz`` is 200 only when every slot is marked. The supervisor clears a slot before a
replacement worker starts in it. Without a supervisor (one worker, tests, an app embedded
elsewhere) there are no peers and nothing to wait for.
"""

from __future__ import annotations

import os
from pathlib import Path

DIR_ENV = "WORDSOLVER_PEERS_DIR"  # the directory of marks (set by the supervisor)
COUNT_ENV = "WORDSOLVER_PEERS"  # how many workers the service runs
SLOT_ENV = "WORDSOLVER_WORKER_SLOT"  # this worker's slot, 0..COUNT-1


def active() -> bool:
    """This process is one of a supervisor's workers."""
    return bool(os.environ.get(DIR_ENV)) and os.environ.get(SLOT_ENV) is not None


def still_loading() -> int:
    """How many of the service's workers have not loaded the default list (0 without peers)."""
    where = os.environ.get(DIR_ENV)
    if not where:
        return 0
    try:
        marked = len(os.listdir(where))
    except OSError:  # the directory is gone (the service is stopping): nothing to wait for
        return 0
    return max(0, int(os.environ.get(COUNT_ENV, "0")) - marked)


def mark_loaded() -> None:
    """This worker's default list is loaded."""
    where, slot = os.environ.get(DIR_ENV), os.environ.get(SLOT_ENV)
    if where and slot is not None:
        try:
            (Path(where) / slot).touch()
        except OSError:
            pass


def clear(where: str, slot: int) -> None:
    """The supervisor's: slot ``slot`` gets a new worker, which has loaded nothing yet."""
    (Path(where) / str(slot)).unlink(missing_ok=True)
