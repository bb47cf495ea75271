"""End-of-game rack adjustments, per game.

- Crossplay: none (leftover tiles are not counted against either player).
- Scrabble and Words With Friends: a player who went out (empty rack) gains the sum of the
  other players' rack values, and each of them loses their own rack value. If nobody went
  out (the game ended on passes), each player just loses their own rack value.
- Upwords: every player loses a fixed number of points per unplayed tile (5).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import parse_rack
from .rules import Ruleset


@dataclass(frozen=True)
class Adjustment:
    rack: str
    rack_value: int
    adjustment: int


def end_game(rules: Ruleset, racks: list[str]) -> list[Adjustment]:
    counts = [parse_rack(rules, r) for r in racks]
    values = [sum(n * rules.values[i] for i, n in enumerate(c)) for c in counts]
    if rules.stacking:
        adj = [-rules.end_penalty_per_tile * len(r) for r in racks]
    elif rules.name == "crossplay":
        adj = [0] * len(racks)
    else:
        out = [i for i, r in enumerate(racks) if not r]
        adj = [-v for v in values]
        if len(out) == 1:
            adj[out[0]] = sum(values)
    return [Adjustment(r, v, a) for r, v, a in zip(racks, values, adj, strict=True)]
