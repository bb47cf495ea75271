"""What a ``/moves`` answer costs by its shape and the blanks on the rack: the figures app.limits
classes requests by (instant, cheap, expensive).

    python bench/lanes.py [--seeds 8] [--games crossplay,scrabble,wwf]

Greedy games from seeded bags (make_positions.greedy_turns: each turn plays the best play by score): at every turn the rack
(and its first five letters) with its last letters turned into 0..max blanks is answered as
``POST /moves`` would (app.service.best_moves_payload, breakdowns on, without the JSON), in four
shapes: the default top 20 by score, 1 play without breakdowns, ``limit`` 100, and the top 20 by
equity. Each answer is timed twice and the faster kept; the table gives the median, the 99th
percentile and the largest by shape, blanks and rack size. Then racks found slow by hand, on
the boards that gave each game and blank count its slowest answer: six tiles or fewer, so the compiled core walks them
(a full rack's whole-rack plays are looked up instead). Timings depend on the machine and its
load: report them with ``uptime``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from make_positions import greedy_turns  # noqa: E402

from app import service  # noqa: E402
from app.schemas import MovesIn  # noqa: E402
from engine import default_lexicon, get_ruleset, search  # noqa: E402
from engine.errors import TileCountError  # noqa: E402
from engine.rules import Ruleset  # noqa: E402

SHAPES: dict[str, dict[str, Any]] = {
    "top 20": {}, "top 1": {"limit": 1, "breakdowns": False}, "limit 100": {"limit": 100},
    "equity 20": {"rank_by": "equity"},
}
HARD = ["?", "E?", "AES?", "AEIS?", "AEINS?", "AEIOU?", "??", "E??", "ES??", "AES??", "AEIS??", "AEINS??",
        "RSTLN??", "???", "E???", "AEI???"]


def timed(rules: Ruleset, lex: Any, req: MovesIn) -> float:
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        service.best_moves_payload(rules, lex, req, 20)
        best = min(best, time.perf_counter() - t)
    return best * 1000


def games(names: list[str], seeds: int, lex: Any) -> tuple[dict[tuple[str, int, str], list[float]], list]:
    times: dict[tuple[str, int, str], list[float]] = {}
    slowest: dict[tuple[str, int], tuple[float, list[str]]] = {}
    for game in names:
        rules = get_ruleset(game)
        for seed in range(seeds):
            for _, board, rack in greedy_turns(game, random.Random(seed * 7 + 1001)):
                for blanks in range(rules.blanks + 1):
                    for size in {min(len(rack), rules.rack_size), min(len(rack), 5)}:
                        if size < max(blanks, 1):
                            continue
                        r = rack[: size - blanks] + "?" * blanks
                        for shape, kw in SHAPES.items():
                            t = timed(rules, lex, MovesIn(board=board, rack=r, **kw))
                            times.setdefault((shape, blanks, "7+" if size == rules.rack_size else "<7"), []).append(t)
                            if board is not None and t > slowest.get((game, blanks), (0.0, []))[0]:
                                slowest[(game, blanks)] = (t, board)
    return times, [(g, b) for (g, _), (_, b) in slowest.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=8, help="games per game type")
    ap.add_argument("--games", default="crossplay,scrabble,wwf")
    args = ap.parse_args()
    lex = default_lexicon()
    search.prepare(lex)
    times, boards = games(args.games.split(","), args.seeds, lex)
    print(f"{'shape':10} {'blanks':>6} {'rack':>4} {'racks':>6} {'median':>8} {'p99':>8} {'max':>8}  (ms)")
    for (shape, blanks, size), v in sorted(times.items(), key=lambda kv: (list(SHAPES).index(kv[0][0]), kv[0][1:])):
        v.sort()
        print(f"{shape:10} {blanks:6} {size:>4} {len(v):6} {statistics.median(v):8.3f} "
              f"{v[min(len(v) - 1, int(len(v) * 0.99))]:8.3f} {v[-1]:8.3f}")
    print("\nracks made slow on purpose, on the boards above that gave each game and blank count its slowest answer"
          " (the largest over those boards):")
    hard: dict[tuple[str, str], tuple[float, str]] = {}
    for game, board in boards:
        rules = get_ruleset(game)
        for r in HARD:
            if r.count("?") > rules.blanks:
                continue
            for shape, kw in SHAPES.items():
                try:
                    t = timed(rules, lex, MovesIn(board=board, rack=r, **kw))
                except TileCountError:
                    continue
                if t > hard.get((r, shape), (0.0, ""))[0]:
                    hard[(r, shape)] = (t, game)
    print(f"{'rack':8} " + " ".join(f"{s:>16}" for s in SHAPES))
    for r in HARD:
        cells = [hard.get((r, s)) for s in SHAPES]
        print(f"{r:8} " + " ".join(f"{c[0]:7.3f} {c[1]:>8}" if c else f"{'-':>16}" for c in cells))
    print(f"(search: {search.implementation()})")


if __name__ == "__main__":
    main()
