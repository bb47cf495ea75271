"""Self-play batches on a Ray cluster (the optional extra ``pip install 'wordsolver[cluster]'``).

:func:`run_ordered_ray` is the Ray backend of :func:`engine.strategy.parallel.run_ordered`:
the job (rules, lexicon, leave values: everything a unit needs) is put in the cluster's object
store once, the units are sent in batches as Ray tasks, and the results are collected batch
by batch **in unit order**, so a run gives exactly the result of a local run with the same
seed, whatever the number of machines. Ray is never needed for serving, and nothing but this
module imports it.

The address is Ray's: ``auto`` (the cluster this machine belongs to), ``ray://HEAD:10001``
(a remote cluster's client port), or ``local`` (start a private runtime on this machine). When
the process has already called ``ray.init`` (a test, a notebook), that runtime is used.
The workers import this package by name, so every node needs ``wordsolver`` installed (the
project's image, or a ``runtime_env``); see ``deploy/ray/`` and docs/engine.md.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..errors import EngineError
from .parallel import batch_size, batches

T = TypeVar("T")
MAX_IN_FLIGHT = 64  # batches submitted ahead of the one being collected


class ClusterUnavailableError(EngineError):
    """A Ray cluster was asked for but Ray is not installed."""

    code = "cluster_unavailable"


def ray_installed() -> bool:
    return importlib.util.find_spec("ray") is not None


def _run_batch(job: Callable[[int], Any], ks: list[int]) -> list[Any]:
    return [job(k) for k in ks]


def connect(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` (see the module docstring)."""
    if not ray_installed():
        raise ClusterUnavailableError(f"a Ray cluster was asked for ({address}) but Ray is not installed: "
                                      "pip install 'wordsolver[cluster]'")
    import ray

    if not ray.is_initialized():
        ray.init(address=None if address == "local" else address, include_dashboard=False, log_to_driver=False)
    return ray


def run_ordered_ray(job: Callable[[int], T], start: int, stop: int, address: str) -> Iterator[T]:
    """``job(k)`` for ``k`` in ``range(start, stop)`` as Ray tasks, yielded in that order."""
    ray = connect(address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1)(_run_batch)
    job_ref = ray.put(job)
    pending = batches(start, stop, batch_size(stop - start, cpus))
    refs: list[Any] = []
    try:
        while pending or refs:
            while pending and len(refs) < MAX_IN_FLIGHT:
                refs.append(remote.remote(job_ref, pending.pop(0)))
            yield from ray.get(refs.pop(0))
    finally:
        for ref in refs:
            ray.cancel(ref)
