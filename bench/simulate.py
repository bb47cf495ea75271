"""Simulation speed: iterations per second per core, beside Macondo's published figure.

    python bench/simulate.py [--iterations 16] [--plies 2] [--candidates 10] [--only crossplay] [--profile]
                             [--no-strict]

For every Crossplay, Scrabble and Words With Friends position of bench/positions.json, runs a
simulation of the best K turns by equity on one worker (``workers=1``: per core), ``plies``
plies, a fixed number of iterations and no pruning (so every iteration simulates all K
candidates, as Macondo's iterations do), and prints the milliseconds per iteration and the
iterations per second of the rollout (``flat``: engine.search.best_turn per ply, turns applied
to flat counts) beside the strict one it replaced (``strict``: rank_by_equity per ply with a
leave table built per rack, turns applied by engine.game.apply; ``--no-strict`` skips it),
interleaved position by position; then the median per game and blank count, beside Macondo's
published 1.7 ms per iteration (one thread). Then the cost of one rollout ply's question, the
best turn by equity with exchanges, against the best play by score (``find_moves(limit=1)``),
interleaved: ``best_turn`` (the seam's single best turn: the rack's sub-rack values made in C)
and, as before, ``rank_by_equity(limit=1)`` *warm* (the rack's leave table cached) and *cold*
(the table built for the call, as in a rollout, whose racks are new). ``--profile`` prints where
one simulation's time goes (cProfile). Reports, never asserts.
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
    ap.add_argument("--no-strict", action="store_true", help="skip the strict rollout's timing")
    args = ap.parse_args()
    lex = LexiconStore().get("word-list")
    positions = [p for p in json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]
                 if p["game"] in ("crossplay", "scrabble", "wwf") and (not args.only or p["game"] == args.only)]
    print(f"search: {search.implementation()}; K={args.candidates}, {args.plies} plies, {args.iterations} iterations a "
          f"position, 1 worker, no pruning; load average {os.getloadavg()[0]:.2f}")
    modes = ("flat",) if args.no_strict else ("flat", "strict")
    print(f"{'position':28} " + " ".join(f"{m + ' ms/it':>14} {'it/s':>6}" for m in modes)
          + ("  strict/flat" if len(modes) > 1 else ""))
    by_class: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    params = sim.Params(candidates=args.candidates, plies=args.plies, iterations=args.iterations, seed=1, workers=1,
                        min_samples=10**9)
    for p in positions:
        rules = game_rules(p["game"])
        s = sim.setup(rules, position(rules.ruleset, p["board"], p["rack"]))
        values = shipped(p["game"])
        cands = sim.candidates_for(s, lex, values, args.candidates)
        row = []
        for mode in modes:
            equity._TABLES.clear()
            t0 = time.perf_counter()
            snap = sim.simulate(s, lex, values, params, cands, win=None, strict=mode == "strict")
            dt = time.perf_counter() - t0
            ms = 1000 * dt / max(1, snap.iterations)
            by_class[(p["game"], p["blanks"], mode)].append(ms)
            row.append(ms)
        print(f"{p['id']:28} " + " ".join(f"{ms:14.2f} {1000 / ms:6.0f}" for ms in row)
              + (f"  {row[1] / row[0]:11.2f}" if len(row) > 1 else ""))
    print()
    print(f"{'game, blanks':28} " + " ".join(f"{m + ' ms/it':>14} {'it/s':>6}" for m in modes)
          + f"  (median; Macondo: {MACONDO_MS} ms, {1000 / MACONDO_MS:.0f}/s)")
    classes = sorted({(g, b) for g, b, _ in by_class})
    every: dict[str, list[float]] = defaultdict(list)
    for game, blanks in classes:
        med = [statistics.median(by_class[(game, blanks, m)]) for m in modes]
        for m in modes:
            every[m] += by_class[(game, blanks, m)]
        print(f"{game + ', ' + str(blanks):28} " + " ".join(f"{x:14.2f} {1000 / x:6.0f}" for x in med)
              + f"  flat {med[0] / MACONDO_MS:.2f}x Macondo's time")
    med = [statistics.median(every[m]) for m in modes]
    print(f"{'all':28} " + " ".join(f"{x:14.2f} {1000 / x:6.0f}" for x in med)
          + f"  flat {med[0] / MACONDO_MS:.2f}x Macondo's time" + (f"; strict/flat {med[1] / med[0]:.2f}x"
                                                                  if len(med) > 1 else ""))
    print(f"load average after: {os.getloadavg()[0]:.2f}")

    print()
    print("one rollout ply's question, medians in ms (ratios to the score top-1)")
    print(f"{'position':28} {'score1':>7} {'best_turn':>9} {'eq1warm':>8} {'eq1cold':>8} {'best':>5} {'warm':>5} "
          f"{'cold':>5}")
    sums = [0.0] * 4
    for p in positions:
        rules = game_rules(p["game"])
        s = sim.setup(rules, position(rules.ruleset, p["board"], p["rack"]))
        values = shipped(p["game"])
        equity.best_turn(s.position, lex, values, rules, s.bag_size, s.unseen, True)  # the leaves loaded in C
        ts: list[list[float]] = [[], [], [], []]
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            find_moves(s.position, lex, limit=1, count=False)
            t1 = time.perf_counter()
            equity.best_turn(s.position, lex, values, rules, s.bag_size, s.unseen, True)
            t2 = time.perf_counter()
            equity.rank_by_equity(s.position, lex, values, rules, s.bag_size, s.unseen, 1, True, False, count=False)
            t3 = time.perf_counter()
            equity._TABLES.clear()
            t4 = time.perf_counter()
            equity.rank_by_equity(s.position, lex, values, rules, s.bag_size, s.unseen, 1, True, False, count=False)
            t5 = time.perf_counter()
            ts[0].append(t1 - t0)
            ts[1].append(t2 - t1)
            ts[2].append(t3 - t2)
            ts[3].append(t5 - t4)
        med = [1000 * statistics.median(t) for t in ts]
        sums = [a + b for a, b in zip(sums, med, strict=True)]
        print(f"{p['id']:28} {med[0]:7.3f} {med[1]:9.3f} {med[2]:8.3f} {med[3]:8.3f} {med[1] / med[0]:5.2f} "
              f"{med[2] / med[0]:5.2f} {med[3] / med[0]:5.2f}")
    print(f"{'sum':28} {sums[0]:7.2f} {sums[1]:9.2f} {sums[2]:8.2f} {sums[3]:8.2f} {sums[1] / sums[0]:5.2f} "
          f"{sums[2] / sums[0]:5.2f} {sums[3] / sums[0]:5.2f}")
    print(f"top-1 by equity (best_turn) / top-1 by score: {sums[1] / sums[0]:.2f}x (the issue asks at most 1.3x); "
          f"load average {os.getloadavg()[0]:.2f}")

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
