"""Self-play speed per game: complete greedy-vs-greedy games per minute on one core.

    python bench/selfplay.py [--games 40] [--repeat 3] [--seed 0] [--python]

Each game is played ``--repeat`` times over the same seeds in one warm process; the median
rate is reported with the spread (min-max). One process, one core: the figure is games per
minute per core. ``--python`` also plays them on the pure-Python reference search (engine.search)
to show its rate side by side.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import GAMES, default_lexicon, search  # noqa: E402
from engine.game import GameRules, game_rules  # noqa: E402
from engine.lexicon import Lexicon  # noqa: E402
from engine.strategy.selfplay import play_games  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--python", action="store_true", help="also time without the compiled core")
    args = ap.parse_args()
    lex = default_lexicon()
    backends = [search.implementation()] + (["reference"] if args.python and search.implementation() != "reference" else [])
    print(f"{'game':10} {'search':9} {'games/min':>10} {'spread':>15} {'moves/s':>9} {'turns/game':>10}")
    for game in GAMES:
        rules = game_rules(game)
        for name in backends:
            with search.using(name):
                rates, moves, turns = games_per_minute(rules, lex, args.games, args.seed, args.repeat)
            print(f"{game:10} {name:9} {statistics.median(rates):10.0f} "
                  f"{f'{min(rates):.0f}-{max(rates):.0f}':>15} {statistics.median(moves):9.0f} {turns:10.1f}")
    return 0


def games_per_minute(rules: GameRules, lex: Lexicon, games: int, seed: int, repeat: int
                     ) -> tuple[list[float], list[float], float]:
    """Greedy-vs-greedy games per minute and moves per second, ``repeat`` times the same games."""
    rates, moves = [], []
    turns = 0.0
    for _ in range(repeat):
        t0 = time.perf_counter()
        s = play_games(rules, lex, ["greedy", "greedy"], games, seed)
        dt = time.perf_counter() - t0
        rates.append(60 * games / dt)
        moves.append(s.turns_per_game * games / dt)
        turns = s.turns_per_game
    return rates, moves, turns


if __name__ == "__main__":
    sys.exit(main())
