"""Endgame solve times per position class: tiles on the two racks.

    python bench/endgame.py [--positions 8] [--budget 10] [--seed 1] [--classes 1-1,2-2,3-3,4-4,7-7]
                            [--baseline REV]

Positions come from seeded self-play games (greedy players) at the turn the bag empties: the
racks as dealt (class ``7-7`` means "as dealt": up to 7 tiles each), or cut at random to ``a``
and ``b`` tiles (seeded), and Crossplay's final round as dealt. For each class: how many were
proved within the budget, the median and the largest solve time, the median nodes. Timings
depend on the machine and its load: report them with ``uptime``.

``--baseline REV``: also solve every position, in the same run, with the solver as it was at
the git revision REV (engine/strategy/endgame.py read with ``git show``; the rest of the engine
is today's), and print both side by side with the ratio of the medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import default_lexicon  # noqa: E402
from engine.game import State, game_rules, replay  # noqa: E402
from engine.strategy import endgame  # noqa: E402
from engine.strategy.players import make_player  # noqa: E402
from engine.strategy.selfplay import play_game  # noqa: E402


def states(game: str, seeds: range) -> list[State]:
    lex = default_lexicon()
    rules = game_rules(game)
    out = []
    for seed in seeds:
        g = play_game(rules, lex, [make_player("greedy"), make_player("greedy")], seed)
        s = next((s for s in replay(g) if s.bag_size == 0 and not s.over), None)
        if s is not None:
            out.append(s)
    return out


def cut(state: State, keep: tuple[int, int], rng: random.Random) -> State:
    racks = list(state.racks)
    for k, p in enumerate((state.to_move, 1 - state.to_move)):
        tiles = list(racks[p])
        rng.shuffle(tiles)
        racks[p] = "".join(sorted(tiles[: keep[k]]))
    return State(cells=state.cells, heights=state.heights, racks=tuple(racks), bag=state.bag, scores=state.scores,
                 to_move=state.to_move, scoreless=state.scoreless, final_left=state.final_left)


def solver_at(rev: str) -> types.ModuleType:
    """engine/strategy/endgame.py as it was at ``rev``, loaded beside today's."""
    root = Path(__file__).resolve().parent.parent
    src = subprocess.run(["git", "show", f"{rev}:engine/strategy/endgame.py"], cwd=root, check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType("engine.strategy.endgame_at_" + rev.replace("~", "_").replace("^", "_"))
    mod.__package__ = "engine.strategy"
    sys.modules[mod.__name__] = mod  # dataclasses look their module up
    exec(compile(src, f"{rev}:engine/strategy/endgame.py", "exec"), mod.__dict__)
    return mod


def timed(mod: types.ModuleType, rules: object, s: State, budget: float) -> tuple[float, int, bool, int]:
    lex = default_lexicon()
    t0 = time.monotonic()
    a = mod.solve(mod.from_state(rules, s), lex, deadline=t0 + budget)
    return time.monotonic() - t0, a.nodes, a.proved, a.value


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="scrabble")
    ap.add_argument("--classes", default="1-1,2-2,3-3,4-4,7-7")
    ap.add_argument("--baseline", help="a git revision: its solver too, side by side")
    args = ap.parse_args()
    solvers = [("now", endgame)] + ([(args.baseline, solver_at(args.baseline))] if args.baseline else [])
    head = f"{'class':<22}" + "".join(f" {'proved':>7} {'median s':>9} {'max s':>7} {'nodes':>7}" for _ in solvers)
    print(head + (f"  {'x faster':>8}" if args.baseline else ""))
    print(f"{'':<22}" + "".join(f" {name:>33}" for name, _ in solvers))
    rows = [("crossplay final round", "crossplay", None)]
    rows += [(f"{args.game} {c}", args.game, tuple(int(v) for v in c.split("-"))) for c in args.classes.split(",")]
    pools = {g: states(g, range(args.seed, args.seed + args.positions)) for g in {r[1] for r in rows}}
    for _, mod in solvers:  # the first solve loads the lexicon's buffers: not timed
        timed(mod, game_rules(rows[0][1]), pools[rows[0][1]][0], args.budget)
    for label, game, keep in rows:
        rules = game_rules(game)
        rng = random.Random(f"{args.seed}:{label}")
        positions = [s if keep is None or keep == (7, 7) else cut(s, keep, rng) for s in pools[game]]
        line, medians, results = f"{label:<22}", [], []
        for _, mod in solvers:
            runs = [timed(mod, rules, s, args.budget) for s in positions]
            results.append(runs)
            times = [r[0] for r in runs]
            medians.append(statistics.median(times))
            line += (f" {sum(r[2] for r in runs):>3}/{len(runs):<3} {medians[-1]:>9.3f} {max(times):>7.2f} "
                     f"{int(statistics.median(r[1] for r in runs)):>7}")
        if args.baseline:  # where both proved, the same value (or one of them is wrong)
            assert all(a[3] == b[3] for a, b in zip(*results, strict=True) if a[2] and b[2]), label
            line += f"  {medians[1] / medians[0]:>8.1f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
