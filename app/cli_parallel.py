"""The options every self-play subcommand shares (``selfplay``, ``ab``, ``train-leaves``):
where its games run.

    --workers N     local worker processes (default: every core); the result is the same for any N
    --ray ADDRESS   run the games on a Ray cluster instead (default: $RAY_ADDRESS when set);
                    without Ray installed the games run on local processes, and the command says so
"""

from __future__ import annotations

import argparse
import os
import sys

from engine.strategy.cluster import ray_installed


def workers_arg(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def add_parallel_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=workers_arg, default=None,
                   help="local worker processes (default: every core); the same seed gives the same result for any number")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run the games on the Ray cluster at ADDRESS ('auto', 'ray://HEAD:10001', or 'local'; "
                        "default: $RAY_ADDRESS when set); needs the extra wordsolver[cluster]")


def cluster_address(args: argparse.Namespace) -> str | None:
    """The Ray address asked for (``--ray``, else ``$RAY_ADDRESS``), or None for local
    processes; when Ray is not installed, None after saying so on stderr."""
    address = args.ray or os.environ.get("RAY_ADDRESS") or None
    if address and not ray_installed():
        print(f"note: Ray is not installed (pip install 'wordsolver[cluster]'), so the games run on local "
              f"processes, not on {address}", file=sys.stderr)
        return None
    return address
