"""Self-play batches on a Ray cluster (the optional extra ``wordsolver[cluster]``).

Filled in by the Ray backend; until then asking for a cluster says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from ..errors import EngineError

T = TypeVar("T")


class ClusterUnavailableError(EngineError):
    code = "cluster_unavailable"


def run_ordered_ray(job: Callable[[int], T], start: int, stop: int, address: str) -> Iterator[T]:
    raise ClusterUnavailableError(f"Ray backend asked for ({address}) but not available")
