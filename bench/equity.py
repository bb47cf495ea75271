"""Equity ranking against score ranking for a top-20 answer, side by side in one process.

    python bench/equity.py [--repeat 15] [--limit 20] [--exchanges]

For every Crossplay, Scrabble and Words With Friends position of bench/positions.json, times
``find_moves(limit=20, count=False)`` (the score top 20) and ``rank_by_equity(limit=20)``
(bag size from the position), interleaved, and prints the medians and their ratio, then the
ratio of the summed medians. Reports, never asserts (issue 11 asks for at most +20%).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import find_moves, get_ruleset, position, search  # noqa: E402
from engine.game import game_rules  # noqa: E402
from engine.lexicons import LexiconStore  # noqa: E402
from engine.strategy.equity import default_bag_size, rank_by_equity  # noqa: E402
from engine.strategy.leaves import shipped  # noqa: E402
from engine.tiles import unseen_tiles  # noqa: E402

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--exchanges", action="store_true", help="rank exchanges and the pass too")
    args = ap.parse_args()
    lex = LexiconStore().get("word-list")
    positions = json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]
    print(f"search: {search.implementation()}; top {args.limit}; {args.repeat} interleaved runs; medians in ms")
    print(f"{'position':28} {'score':>8} {'equity':>8} {'ratio':>6}")
    sums = [0.0, 0.0]
    for p in positions:
        if p["game"] not in ("crossplay", "scrabble", "wwf"):
            continue
        rs = get_ruleset(p["game"])
        rules = game_rules(rs)
        values = shipped(rs.name)
        pos = position(rs, p["board"], p["rack"])
        seen = unseen_tiles(pos)
        unseen = [seen.counts["?"]] + [seen.counts[ch] for ch in LETTERS]
        bag = default_bag_size(rules, seen.total)
        a: list[float] = []
        b: list[float] = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            find_moves(pos, lex, limit=args.limit, count=False)
            t1 = time.perf_counter()
            rank_by_equity(pos, lex, values, rules, bag, unseen, args.limit, args.exchanges, count=False)
            t2 = time.perf_counter()
            a.append(t1 - t0)
            b.append(t2 - t1)
        ma, mb = statistics.median(a) * 1000, statistics.median(b) * 1000
        sums[0] += ma
        sums[1] += mb
        print(f"{p['id']:28} {ma:8.2f} {mb:8.2f} {mb / ma:6.2f}")
    print(f"{'all (sum of medians)':28} {sums[0]:8.2f} {sums[1]:8.2f} {sums[1] / sums[0]:6.2f}")


if __name__ == "__main__":
    main()
