"""How numbered self-play units are cut into batches for workers (local processes or Ray
tasks): shared by ``engine.strategy.parallel`` and ``engine.strategy.cluster``."""

from __future__ import annotations


def batch_size(units: int, workers: int) -> int:
    """Units per batch sent to a worker: a few batches per worker (load balance), at most 16
    units (so progress and checkpoints stay frequent)."""
    return max(1, min(16, units // (4 * max(1, workers))))


def batches(start: int, stop: int, size: int) -> list[list[int]]:
    return [list(range(a, min(stop, a + size))) for a in range(start, stop, size)]
