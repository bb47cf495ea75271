"""One tile in the bag: every first move weighed against every possible draw.

With one tile in the bag the unseen tiles are the opponent's rack and that tile; which one is
in the bag is the only thing hidden. For each letter the bag may hold (weighted by how many of
the unseen tiles are that letter), the rest of the game is solved (:mod:`engine.strategy.endgame`,
the bag's tile drawn by whoever plays tiles first): every first move, plays and the pass, is
valued exactly in each of those endgames. Candidates rank by expected final spread change and,
given the scores, by the share of draws they win (a draw counts one half).

The simplification, as pre-endgame solvers make it: each draw is solved as if both players
knew which tile is in the bag. Exchanges are not candidates (Scrabble and WWF need 7 tiles in
the bag; Upwords' one-tile exchange is left out).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..game import GameRules, tiles_text
from ..lexicon import Lexicon
from .endgame import Endgame, solve


@dataclass(frozen=True)
class Candidate:
    notation: str  # "pass" or "8H WORD"
    score: int
    expected: float  # expected final spread change for the side to move, over the draws
    wins: float | None  # share of the draws won (draws counted one half); None without scores
    by_draw: dict[str, int]  # the value with each letter in the bag ("?" a blank)
    proved: bool  # every draw's endgame was proved


@dataclass(frozen=True)
class PreEndgame:
    candidates: list[Candidate]  # best first
    draws: dict[str, int]  # letter -> how many of the unseen tiles it is (its weight)
    proved: bool
    seconds: float


def solve_preendgame(rules: GameRules, lex: Lexicon, cells: tuple[int, ...], rack: tuple[int, ...],
                     unseen: tuple[int, ...], heights: tuple[int, ...] | None = None, scoreless: int = 0,
                     deadline: float | None = None, spread: int | None = None, plural_rule: bool = True,
                     table_entries: int = 200_000, candidates: int = 20) -> PreEndgame:
    """Every first move of ``rack`` valued against every tile the bag may hold; ``unseen`` is
    the opponent's rack and the bag together (``rack_size + 1`` tiles). ``spread``: own score
    minus the opponent's now, for the win shares. ``candidates``: the plays weighed, the best by
    score, and the pass. The deadline is shared out among the draws;
    a draw's endgame cut short by it leaves ``proved`` false."""
    t0 = time.monotonic()
    letters = [t for t, n in enumerate(unseen) if n]
    total = sum(unseen)
    values: dict[str, dict[str, int]] = {}
    scores: dict[str, int] = {}
    proved_by: dict[str, bool] = {}
    all_proved = True
    for k, t in enumerate(letters):
        opp = list(unseen)
        opp[t] -= 1
        eg = Endgame(rules, cells, (rack, tuple(opp)), heights, scoreless, None, plural_rule, bag=t)
        share = None if deadline is None else time.monotonic() + (deadline - time.monotonic()) / (len(letters) - k)
        a = solve(eg, lex, deadline=share, first_moves=candidates + 1, table_entries=table_entries,
                  root_limit=candidates)
        all_proved &= a.proved
        letter = tiles_text([1 if i == t else 0 for i in range(27)])
        for f in a.first_moves:
            values.setdefault(f.notation, {})[letter] = f.value
            scores[f.notation] = f.move.score if f.move is not None else 0
            proved_by[f.notation] = proved_by.get(f.notation, True) and a.proved
    draws = {tiles_text([1 if i == t else 0 for i in range(27)]): unseen[t] for t in letters}
    out = []
    for notation, by in values.items():
        if len(by) != len(draws):  # not valued under every draw before the deadline
            continue
        expected = sum(draws[ch] * v for ch, v in by.items()) / total
        wins = None
        if spread is not None:
            wins = sum(draws[ch] * (1.0 if spread + v > 0 else 0.5 if spread + v == 0 else 0.0)
                       for ch, v in by.items()) / total
        out.append(Candidate(notation, scores[notation], expected, wins, by, proved_by[notation]))
    out.sort(key=lambda c: (-(c.wins or 0.0), -c.expected, -c.score, c.notation) if spread is not None
             else (-c.expected, -c.score, c.notation))
    return PreEndgame(out, draws, all_proved, time.monotonic() - t0)
