"""Self-play on several cores: numbered jobs run in worker processes, results in job order.

Every self-play run here is a series of independent, numbered units: game ``k`` of a series,
pair ``p`` of an A/B run, game ``k`` of a training round. Each unit's outcome depends only on
its number (its seed is derived from it) and on the job's fixed inputs (rules, lexicon, leave
values), never on what another unit did. :func:`run_ordered` runs the units on ``workers``
processes and hands the results back **in unit order**, so whatever consumes them (sums of
wins, a training round's floating-point sums, a checkpoint) sees exactly the sequence one
process would have produced: the same seed gives the same result for any number of workers.

A job is any picklable callable ``job(k) -> result`` whose result is picklable. Locally the
worker processes are forked from the caller (Linux), so the job, with its lexicon already in
memory, is inherited rather than sent; only the unit numbers and the results cross between
processes, in batches. ``workers=1`` (or a single unit) runs in the calling process with no
pool at all. Players must not carry state from one unit to the next (``equity`` and
``greedy`` do not; a ``random`` player is seeded per game by ``engine.strategy.selfplay``).

With ``ray`` set (an address such as ``ray://head:10001`` or ``auto``; the CLI also reads
``RAY_ADDRESS``), the same batches run as Ray tasks on a cluster (``engine.strategy.cluster``;
the optional extra ``wordsolver[cluster]``) and are collected in the same order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_JOB: Callable[[int], Any] | None = None  # the job a forked worker runs (set before the fork)


def cpu_count() -> int:
    """Cores this process may use (the affinity mask where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def batch_size(units: int, workers: int) -> int:
    """Units per batch sent to a worker: a few batches per worker (load balance), at most 16
    units (so progress and checkpoints stay frequent)."""
    return max(1, min(16, units // (4 * max(1, workers))))


def _init(job: Callable[[int], Any]) -> None:
    global _JOB
    _JOB = job


def _run_batch(ks: list[int]) -> list[Any]:
    assert _JOB is not None
    return [_JOB(k) for k in ks]


def batches(start: int, stop: int, size: int) -> list[list[int]]:
    return [list(range(a, min(stop, a + size))) for a in range(start, stop, size)]


def run_ordered(
    job: Callable[[int], T], start: int, stop: int, workers: int | None = None, ray: str | None = None,
) -> Iterator[T]:
    """``job(k)`` for ``k`` in ``range(start, stop)``, yielded in that order, computed on
    ``workers`` local processes (default: every core this process may use) or on the Ray
    cluster at ``ray``. Stopping the iteration early ends the workers."""
    if stop <= start:
        return
    if ray:
        from .cluster import run_ordered_ray

        yield from run_ordered_ray(job, start, stop, ray)
        return
    n = workers if workers is not None else cpu_count()
    if n < 1:
        raise ValueError(f"workers must be at least 1, not {n}")
    n = min(n, stop - start)
    if n == 1:
        for k in range(start, stop):
            yield job(k)
        return
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(n, initializer=_init, initargs=(job,)) as pool:
        for results in pool.imap(_run_batch, batches(start, stop, batch_size(stop - start, n))):
            yield from results
