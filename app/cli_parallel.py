"""The options every self-play subcommand shares (``selfplay``, ``ab``, ``train-leaves``):
where its games run.

    --workers N     local worker processes (default: every core); the result is the same for any N
    --ray ADDRESS   run the games on a Ray cluster instead (default: $RAY_ADDRESS when set)
"""

from __future__ import annotations

import argparse
import os


def workers_arg(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def add_parallel_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workers", type=workers_arg, default=None,
                   help="local worker processes (default: every core); the same seed gives the same result for any number")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run the games on the Ray cluster at ADDRESS (default: $RAY_ADDRESS when set); "
                        "needs the extra wordsolver[cluster]")


def cluster_address(args: argparse.Namespace) -> str | None:
    """The Ray address asked for: ``--ray``, else ``$RAY_ADDRESS``, else None (local processes)."""
    return args.ray or os.environ.get("RAY_ADDRESS") or None
