"""A/B self-play: one player against another over mirrored game pairs, with 95% intervals.

Pair ``p`` uses seed ``seed + p`` twice, the players' seats swapped (seat 0 moves first), so
both players get the same bag from each seat (as ``engine.strategy.selfplay.play_games`` with
``mirrored=True``). Each pair gives player A a win share (a win 1, a draw 1/2, a loss 0,
averaged over the two games) and a mean spread (A's score minus B's). The 95% intervals are
the normal approximation over pairs: mean ± 1.96 · sd / √pairs (pairs are independent; the
two games of a pair are not, which is why the pair is the unit).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game import GameRules
from ..lexicon import Lexicon
from .parallel import run_ordered
from .players import Player
from .selfplay import play_game

Z95 = 1.959964


@dataclass(frozen=True)
class ABResult:
    game: str
    a: str
    b: str
    pairs: int
    seed: int
    wins: int  # games A won
    draws: int
    losses: int
    win_rate: float  # A's share of the games, draws half
    win_ci: tuple[float, float]
    spread: float  # A minus B, points per game
    spread_ci: tuple[float, float]
    mean_scores: tuple[float, float]  # A, B
    seconds: float

    def to_dict(self) -> dict:
        return {
            "game": self.game, "a": self.a, "b": self.b, "pairs": self.pairs, "games": 2 * self.pairs,
            "seed": self.seed, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win_rate": self.win_rate, "win_rate_ci95": list(self.win_ci), "spread": self.spread,
            "spread_ci95": list(self.spread_ci), "mean_scores": list(self.mean_scores), "seconds": self.seconds,
        }


def mean_ci(xs: list[float]) -> tuple[float, tuple[float, float]]:
    n = len(xs)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return m, (m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    return m, (m - h, m + h)


@dataclass(frozen=True)
class Pair:
    """Pair ``p`` of an A/B run (a picklable job for :func:`engine.strategy.parallel.run_ordered`):
    the final scores (A's, B's) of its two games, A in seat 0 and then in seat 1."""

    rules: GameRules
    lex: Lexicon
    a: Player
    b: Player
    seed: int

    def __call__(self, p: int) -> list[tuple[int, int]]:
        out = []
        for a_seat in (0, 1):
            players = [self.a, self.b] if a_seat == 0 else [self.b, self.a]
            scores = play_game(self.rules, self.lex, players, self.seed + p, first=0).final_scores()
            out.append((scores[a_seat], scores[1 - a_seat]))
        return out


def ab_test(
    rules: GameRules, lex: Lexicon, a: Player, b: Player, pairs: int, seed: int,
    a_name: str = "", b_name: str = "", on_pair: Callable[[int], None] | None = None,
    workers: int | None = 1, ray: str | None = None,
) -> ABResult:
    """``pairs`` mirrored pairs of A against B. The pairs run on ``workers`` processes
    (``None``: every core; or on the Ray cluster at ``ray``) and are combined in pair order,
    so the result (timing aside) is the same for any number of workers. The players must not
    carry state from one game to the next (``equity`` and ``greedy`` do not)."""
    shares: list[float] = []
    spreads: list[float] = []
    wins = draws = losses = 0
    total_a = total_b = 0
    t0 = time.perf_counter()
    for p, games in enumerate(run_ordered(Pair(rules, lex, a, b, seed), 0, pairs, workers, ray)):
        share = spread = 0.0
        for mine, theirs in games:
            total_a += mine
            total_b += theirs
            spread += (mine - theirs) / 2
            if mine > theirs:
                wins += 1
                share += 0.5
            elif mine == theirs:
                draws += 1
                share += 0.25
            else:
                losses += 1
        shares.append(share)
        spreads.append(spread)
        if on_pair is not None:
            on_pair(p)
    win_rate, win_ci = mean_ci(shares)
    mean_spread, spread_ci = mean_ci(spreads)
    g = max(1, 2 * pairs)
    return ABResult(
        game=rules.name, a=a_name or a.name, b=b_name or b.name, pairs=pairs, seed=seed, wins=wins, draws=draws,
        losses=losses, win_rate=round(win_rate, 4), win_ci=(round(win_ci[0], 4), round(win_ci[1], 4)),
        spread=round(mean_spread, 2), spread_ci=(round(spread_ci[0], 2), round(spread_ci[1], 2)),
        mean_scores=(round(total_a / g, 2), round(total_b / g, 2)), seconds=round(time.perf_counter() - t0, 1),
    )
