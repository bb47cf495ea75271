"""Simulation speed: iterations per second per core, beside Macondo's published figure.

    python bench/simulate.py [--iterations 16] [--plies 2] [--candidates 10] [--only crossplay] [--profile]

For every Crossplay, Scrabble and Words With Friends position of bench/positions.json, runs a
simulation of the best K turns by equity on one worker (``workers=1``: per core), ``plies``
plies, a fixed number of iterations and no pruning (so every iteration simulates all K
candidates, as Macondo's iterations do), and prints the milliseconds per iteration and the
iterations per second, then the median per game and blank count, beside Macondo's published
1.7 ms per iteration (one thread). Then the cost of one rollout ply's question, the best turn
by equity (``rank_by_equity(limit=1)`` with exchanges), against the best play by score
(``find_moves(limit=1)``), interleaved: *warm* (the rack's leave table cached, as when the same
rack is asked again) and *cold* (the table built for the call, as in a rollout, whose racks are
new). ``--profile`` prints where one simulation's time goes (cProfile). Reports, never asserts.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import find_moves, position, search  # noqa: E402
from engine.game import game_rules  # noqa: E402
from engine.lexicons import LexiconStore  # noqa: E402
from engine.strategy import equity  # noqa: E402
from engine.strategy import simulate as sim  # noqa: E402
from engine.strategy.leaves import shipped  # noqa: E402

MACONDO_MS = 1.7  # Macondo's published time per iteration, one thread


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=16)
    ap.add_argument("--plies", type=int, default=2)
    ap.add_argument("--candidates", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=9, help="interleaved runs of the top-1 questions")
    ap.add_argument("--only", help="one game")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    lex = LexiconStore().get("word-list")
    positions = [p for p in json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]
                 if p["game"] in ("crossplay", "scrabble", "wwf") and (not args.only or p["game"] == args.only)]
    print(f"search: {search.implementation()}; K={args.candidates}, {args.plies} plies, {args.iterations} iterations a "
          f"position, 1 worker, no pruning; load average {os.getloadavg()[0]:.2f}")
    print(f"{'position':28} {'ms/iter':>8} {'iter/s':>7} {'ms/ply':>7}")
    by_class: dict[tuple[str, int], list[float]] = defaultdict(list)
    params = sim.Params(candidates=args.candidates, plies=args.plies, iterations=args.iterations, seed=1, workers=1,
                        min_samples=10**9)
    for p in positions:
        rules = game_rules(p["game"])
        s = sim.setup(rules, position(rules.ruleset, p["board"], p["rack"]))
        values = shipped(p["game"])
        cands = sim.candidates_for(s, lex, values, args.candidates)
        t0 = time.perf_counter()
        snap = sim.simulate(s, lex, values, params, cands, win=None)
        dt = time.perf_counter() - t0
        ms = 1000 * dt / max(1, snap.iterations)
        plies = snap.iterations * len(cands) * (1 + args.plies)
        by_class[(p["game"], p["blanks"])].append(ms)
        print(f"{p['id']:28} {ms:8.1f} {1000 / ms:7.1f} {1000 * dt / plies:7.3f}")
    print()
    print(f"{'game, blanks':28} {'ms/iter':>8} {'iter/s':>7}  (median; Macondo: {MACONDO_MS} ms, "
          f"{1000 / MACONDO_MS:.0f}/s)")
    every = []
    for (game, blanks), xs in sorted(by_class.items()):
        m = statistics.median(xs)
        every += xs
        print(f"{game + ', ' + str(blanks):28} {m:8.1f} {1000 / m:7.1f}  {m / MACONDO_MS:5.1f}x Macondo's time")
    m = statistics.median(every)
    print(f"{'all':28} {m:8.1f} {1000 / m:7.1f}  {m / MACONDO_MS:5.1f}x Macondo's time")

    print()
    print("one rollout ply's question, medians in ms (ratios to the score top-1)")
    print(f"{'position':28} {'score1':>7} {'eq1warm':>8} {'eq1cold':>8} {'warm':>5} {'cold':>5}")
    sums = [0.0, 0.0, 0.0]
    for p in positions:
        rules = game_rules(p["game"])
        s = sim.setup(rules, position(rules.ruleset, p["board"], p["rack"]))
        values = shipped(p["game"])
        ts: list[list[float]] = [[], [], []]
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            find_moves(s.position, lex, limit=1, count=False)
            t1 = time.perf_counter()
            equity.rank_by_equity(s.position, lex, values, rules, s.bag_size, s.unseen, 1, True, False, count=False)
            t2 = time.perf_counter()
            equity._TABLES.clear()
            t3 = time.perf_counter()
            equity.rank_by_equity(s.position, lex, values, rules, s.bag_size, s.unseen, 1, True, False, count=False)
            t4 = time.perf_counter()
            ts[0].append(t1 - t0)
            ts[1].append(t2 - t1)
            ts[2].append(t4 - t3)
        med = [1000 * statistics.median(t) for t in ts]
        sums = [a + b for a, b in zip(sums, med, strict=True)]
        print(f"{p['id']:28} {med[0]:7.3f} {med[1]:8.3f} {med[2]:8.3f} {med[1] / med[0]:5.2f} {med[2] / med[0]:5.2f}")
    print(f"{'sum':28} {sums[0]:7.2f} {sums[1]:8.2f} {sums[2]:8.2f} {sums[1] / sums[0]:5.2f} {sums[2] / sums[0]:5.2f}")

    if args.profile:
        p = next(x for x in positions if x["stage"] == "middle" and x["blanks"] == 0)
        rules = game_rules(p["game"])
        s = sim.setup(rules, position(rules.ruleset, p["board"], p["rack"]))
        prof = cProfile.Profile()
        prof.enable()
        sim.simulate(s, lex, shipped(p["game"]), params, win=None)
        prof.disable()
        print(f"\nprofile of one simulation of {p['id']}:")
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
