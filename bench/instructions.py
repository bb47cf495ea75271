"""A fixed amount of search on the bench positions, to count its instructions: the same count
whatever else the machine is doing, where times on a shared 2-core machine drift by 2-3x.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=generate \\
        .venv/bin/python bench/instructions.py --blanks 1 [--rounds 20] [--equity] [--root DIR]

Runs ``--rounds`` times over the Scrabble-family positions of bench/positions.json with
``--blanks`` blanks: the top 20 by score (``find_moves(..., count=False)``), or with
``--equity`` the best 20 turns by equity (``rank_by_equity``, exchanges included, as
``bench/run.py`` asks). ``--toggle-collect=generate`` counts only the compiled search
(engine/_fastgen.c's ``generate`` and what it calls); valgrind prints the total as
"Collected". ``--root DIR`` searches with another checkout's engine (the commit before a
change, say), so the two counts compare the same work. ``--deadline`` searches with one, an
hour away, as the service always does (its checks are then counted).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blanks", type=int, required=True, choices=range(4))
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--equity", action="store_true", help="the best 20 turns by equity, not the top 20 by score")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose engine searches")
    ap.add_argument("--deadline", action="store_true",
                    help="search with a deadline (an hour away), as the service does: its clock checks are counted")
    args = ap.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from engine import default_lexicon, find_moves, get_ruleset, position, search
    from engine.game import game_rules
    from engine.strategy.equity import default_bag_size, rank_by_equity
    from engine.strategy.leaves import shipped
    from engine.tiles import unseen_tiles

    lex = default_lexicon()
    search.prepare(lex)
    far = {"deadline": time.monotonic() + 3600} if args.deadline else {}
    calls: list[Callable[[], Any]] = []
    for p in json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]:
        if p["blanks"] != args.blanks or p["game"] == "upwords":
            continue
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"])
        if not args.equity:
            calls.append(functools.partial(find_moves, pos, lex, limit=20, count=False, **far))
            continue
        seen = unseen_tiles(pos)
        unseen = [seen.counts["?"]] + [seen.counts[chr(65 + i)] for i in range(26)]
        g = game_rules(rules)
        bag, values = default_bag_size(g, seen.total), shipped(p["game"])
        calls.append(functools.partial(rank_by_equity, pos, lex, values, g, bag, unseen, limit=20, exchanges=True,
                                       count=False, **far))
    for _ in range(args.rounds):
        for call in calls:
            call()
    print(f"{len(calls)} positions x {args.rounds} rounds (search: {search.implementation()})")


if __name__ == "__main__":
    main()
