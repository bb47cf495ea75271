"""Win probability: P(win) for the player to move, by spread and tiles unseen, per game.

A :class:`WinTable` answers :meth:`WinTable.probability` ``(spread, unseen)``: the chance that
the player **to move** wins (a draw counts one half), given their spread (own score minus the
opponent's) and the number of tiles they cannot see (the bag plus the opponent's rack). For
the player who has just moved, P(win) = ``1 - probability(-spread, unseen as the opponent
sees it)``.

Each game's table ships as ``engine/strategy/leavedata/{game}-winprob.json`` for Crossplay,
Scrabble and Words With Friends (Upwords has none: its engine player is not an equity
player). It is learned by self-play between equity players
(:mod:`engine.strategy.train_winprob`): every position of every game gives one sample
(unseen, spread, result for the player to move). The table is a fitted model, not raw
frequencies: for each unseen count ``u`` a logistic curve in spread,
``P = 1 / (1 + exp(-(a_u + b_u * spread)))`` with ``b_u > 0``, fitted by maximum likelihood to
the samples at ``u`` and, where those are few, at the neighbouring counts too (the window
widens until it holds enough samples), so the curve is smooth where the data is thin and
monotone in spread by construction. Rows hold the probability in ten-thousandths for every
whole spread from ``-max_spread`` to ``+max_spread``; between whole spreads the value is
interpolated linearly, and spreads and unseen counts outside the table are clamped to it.

**Decided** positions are not fitted but set (and checked at load):

- Scrabble and Words With Friends: with nothing unseen the opponent has gone out and the
  game is over, so the spread decides: 1 above 0, 1/2 at 0, 0 below (the spread is the one
  before the end-of-game rack adjustment, which only the player to move can still lose);
- Crossplay: with nothing unseen the opponent has no tiles and can never score again, and
  no rack is counted against anyone, so a player to move who leads has won (1 for any
  spread above 0); trailing, they may still catch up with their final turn, so that part
  is learned.

Validation at load (a file that fails raises :class:`~engine.errors.RulesetError` naming the
file and the reason): format, game, size, the sha256 of the content, the shape of the rows,
every value within 0..1 and non-decreasing in spread, about 1/2 (within 0.1) at spread 0
with the full bag unseen (the first move), and the decided rows above.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import RulesetError
from ..rules import get_ruleset
from .leaves import checksum, read_checked  # the leave files' checksum and envelope

DATA_DIR = Path(__file__).with_name("leavedata")
FORMAT = 1
GAMES = ("crossplay", "scrabble", "wwf")
SCALE = 10_000  # probabilities are stored in ten-thousandths
MAX_FILE_BYTES = 2_000_000
START_TOLERANCE = 0.1  # |P(spread 0, full bag) - 1/2| allowed (the first mover's edge)


def full_unseen(game: str) -> int:
    """Tiles the first mover cannot see: every tile but their own rack."""
    rs = get_ruleset(game)
    return sum(rs.counts) - rs.rack_size


def decided(game: str, spread: int, unseen: int) -> float | None:
    """The result once the game is decided (see the module docstring), else None."""
    if unseen > 0:
        return None
    if game == "crossplay":
        return 1.0 if spread > 0 else None
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


@dataclass(frozen=True)
class WinTable:
    game: str
    max_spread: int
    rows: tuple[tuple[int, ...], ...]  # rows[u][s + max_spread], ten-thousandths
    provenance: dict = field(default_factory=dict, compare=False)
    model: dict = field(default_factory=dict, compare=False)  # per unseen count: a, b (for the record)

    @property
    def max_unseen(self) -> int:
        return len(self.rows) - 1

    def probability(self, spread: float, unseen: int) -> float:
        """P(win) for the player to move, draws counting one half (see the module docstring).
        Monotone non-decreasing in spread; clamps spread and unseen to the table's range."""
        row = self.rows[min(max(int(unseen), 0), self.max_unseen)]
        m = self.max_spread
        x = min(max(float(spread), -m), m) + m
        lo = math.floor(x)
        hi = min(lo + 1, 2 * m)
        f = x - lo
        return ((1 - f) * row[lo] + f * row[hi]) / SCALE

    def to_dict(self) -> dict:
        body = {"format": FORMAT, "game": self.game, "max_spread": self.max_spread, "provenance": self.provenance,
                "model": self.model, "rows": [list(r) for r in self.rows]}
        return {**body, "sha256": checksum(body)}


def dumps(table: WinTable) -> str:
    """The shipped file's text: compact JSON, keys sorted, with its checksum."""
    return json.dumps(table.to_dict(), sort_keys=True, separators=(",", ":")) + "\n"


def validate(table: WinTable) -> None:
    """The checks of the module docstring beyond the file's format; ValueError says which."""
    game, m = table.game, table.max_spread
    if table.max_unseen < full_unseen(game):
        raise ValueError(f"rows for 0..{table.max_unseen} unseen, the game starts with {full_unseen(game)}")
    for u, row in enumerate(table.rows):
        if len(row) != 2 * m + 1:
            raise ValueError(f"row {u} holds {len(row)} values, not {2 * m + 1}")
        if any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= SCALE for v in row):
            raise ValueError(f"row {u} holds a value that is not an integer in 0..{SCALE}")
        if any(b < a for a, b in zip(row, row[1:], strict=False)):
            raise ValueError(f"row {u} decreases as the spread grows")
        for s in range(-m, m + 1):
            want = decided(game, s, u)
            if want is not None and row[s + m] != round(want * SCALE):
                raise ValueError(f"unseen {u}, spread {s} is decided ({want}) but holds {row[s + m] / SCALE}")
    start = table.probability(0, full_unseen(game))
    if abs(start - 0.5) > START_TOLERANCE:
        raise ValueError(f"P(win) at spread 0 with the full bag unseen is {start:.3f}, not about 1/2")


def parse(text: str | bytes, game: str, source: str = "win-probability file") -> WinTable:
    """Read and validate one file (see the module docstring); RulesetError says why not."""

    def bad(why: str) -> RulesetError:
        return RulesetError(f"{source}: {why}", game=game)

    data = read_checked(text, game, source, "win-probability file", MAX_FILE_BYTES)
    m, rows = data.get("max_spread"), data.get("rows")
    if not isinstance(m, int) or not 1 <= m <= 1000 or not isinstance(rows, list) or not 1 <= len(rows) <= 200:
        raise bad("max_spread must be 1..1000 and rows a list of 1..200 rows")
    if not all(isinstance(r, list) for r in rows):
        raise bad("every row must be a list")
    table = WinTable(game, m, tuple(tuple(r) for r in rows), dict(data.get("provenance") or {}),
                     dict(data.get("model") or {}))
    try:
        validate(table)
    except ValueError as exc:
        raise bad(str(exc)) from None
    return table


def path_for(game: str) -> Path:
    return DATA_DIR / f"{game}-winprob.json"


@cache
def shipped(game: str) -> WinTable:
    """The shipped table of ``game``, loaded and validated once per process; RulesetError
    when the game has none (Upwords) or the file fails validation."""
    path = path_for(game)
    if game not in GAMES or not path.is_file():
        raise RulesetError(f"no win-probability table ships for {game} (tables: {', '.join(GAMES)})", game=game)
    return parse(path.read_bytes(), game, str(path))
