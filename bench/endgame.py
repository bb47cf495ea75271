"""Endgame solve times per position class: tiles on the two racks.

    python bench/endgame.py [--positions 8] [--budget 10] [--seed 1] [--classes 1-1,2-2,3-3,4-4,7-7]

Positions come from seeded self-play games (greedy players) at the turn the bag empties: the
racks as dealt (class ``7-7`` means "as dealt": up to 7 tiles each), or cut at random to ``a``
and ``b`` tiles (seeded), and Crossplay's final round as dealt. For each class: how many were
proved within the budget, the median and the largest solve time, the median nodes. Timings
depend on the machine and its load: report them with ``uptime``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import default_lexicon  # noqa: E402
from engine.game import State, game_rules, replay  # noqa: E402
from engine.strategy.endgame import from_state, solve  # noqa: E402
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--budget", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="scrabble")
    ap.add_argument("--classes", default="1-1,2-2,3-3,4-4,7-7")
    args = ap.parse_args()
    lex = default_lexicon()
    print(f"{'class':<22} {'proved':>7} {'median s':>9} {'max s':>7} {'median nodes':>13}")
    rows = [("crossplay final round", "crossplay", None)]
    rows += [(f"{args.game} {c}", args.game, tuple(int(v) for v in c.split("-"))) for c in args.classes.split(",")]
    pools = {g: states(g, range(args.seed, args.seed + args.positions)) for g in {r[1] for r in rows}}
    for label, game, keep in rows:
        rules = game_rules(game)
        rng = random.Random(f"{args.seed}:{label}")
        times, nodes, proved = [], [], 0
        for s in pools[game]:
            if keep is not None and keep != (7, 7):
                s = cut(s, keep, rng)
            t0 = time.monotonic()
            a = solve(from_state(rules, s), lex, deadline=t0 + args.budget)
            times.append(time.monotonic() - t0)
            nodes.append(a.nodes)
            proved += a.proved
        print(f"{label:<22} {proved:>3}/{len(times):<3} {statistics.median(times):>9.3f} {max(times):>7.2f} "
              f"{int(statistics.median(nodes)):>13}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
