"""Rulesets as data.

Each game is one JSON file in ``engine/rulesets/`` (copies of the verified research data:
coordinates 1-indexed ``[row, col]``, row 1 at the top). :func:`get_ruleset` loads and
validates it once into a frozen :class:`Ruleset`; every number that differs between games is
a field here, never a constant in the generator or the scorer.

Letters are small integers: 1..26 for A..Z, 0 for the blank (see ``engine.board``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .errors import RulesetError, UnknownGameError

RULESET_DIR = Path(__file__).with_name("rulesets")
GAMES = ("crossplay", "scrabble", "wwf", "upwords")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PREMIUMS = {"DL": (2, 1), "TL": (3, 1), "DW": (1, 2), "TW": (1, 3)}
BONUS_NAMES = {"crossplay": "sweep", "scrabble": "bingo", "wwf": "bingo", "upwords": "all seven tiles"}


@dataclass(frozen=True)
class Ruleset:
    """One game's rules. Flat tuples are row-major, 0-indexed ``row * size + col``."""

    name: str
    title: str
    size: int
    premium: tuple[str, ...]  # "", "DL", "TL", "DW" or "TW" per square
    letter_mult: tuple[int, ...]  # 1, 2 or 3 per square
    word_mult: tuple[int, ...]  # 1, 2 or 3 per square
    start: tuple[int, ...]  # squares a first play must cover (one of them)
    start_is_bonus: bool
    values: tuple[int, ...]  # index 0 = blank, 1..26 = A..Z
    counts: tuple[int, ...]  # tiles in the game; index 0 = blanks
    rack_size: int
    bonus_name: str
    bonus_points: int
    stacking: bool = False  # Upwords: tiles stack, height-based scoring
    max_height: int = 1
    qu_tile: bool = False  # Upwords: the Q tile reads "QU"
    qu_bonus: int = 0
    end_penalty_per_tile: int = 0  # Upwords: points lost per unplayed tile

    @property
    def blanks(self) -> int:
        return self.counts[0]

    @property
    def total_tiles(self) -> int:
        return sum(self.counts)

    def squares(self, kind: str) -> list[tuple[int, int]]:
        """1-indexed (row, col) of every square with premium ``kind``."""
        n = self.size
        return [(i // n + 1, i % n + 1) for i, p in enumerate(self.premium) if p == kind]


def _fail(game: str, message: str) -> RulesetError:
    return RulesetError(f"ruleset {game!r}: {message}", game=game)


def _square(game: str, n: int, rc: object) -> int:
    if not (isinstance(rc, list) and len(rc) == 2 and all(isinstance(v, int) for v in rc)):
        raise _fail(game, f"bad coordinate {rc!r}")
    r, c = rc
    if not (1 <= r <= n and 1 <= c <= n):
        raise _fail(game, f"square {r},{c} is outside the {n}x{n} board")
    return (r - 1) * n + (c - 1)


def parse_ruleset(game: str, data: dict) -> Ruleset:
    """Build and validate a ruleset from its JSON data; raise RulesetError on any flaw."""
    try:
        n = int(data["board_size"])
        premium = [""] * (n * n)
        for kind, squares in data["premiums"].items():
            if kind not in PREMIUMS:
                raise _fail(game, f"unknown premium {kind!r}")
            for rc in squares:
                i = _square(game, n, rc)
                if premium[i]:
                    raise _fail(game, f"square {rc} is both {premium[i]} and {kind}")
                premium[i] = kind
            declared = data.get("premium_counts", {}).get(kind)
            if declared is not None and declared != len(squares):
                raise _fail(game, f"{kind}: {len(squares)} squares listed, {declared} declared")
        for r in range(n):  # the boards are symmetric under the 8 symmetries of the square
            for c in range(n):
                p = premium[r * n + c]
                for rr, cc in ((c, r), (r, n - 1 - c), (n - 1 - r, c)):
                    if premium[rr * n + cc] != p:
                        raise _fail(game, f"layout is not symmetric at {r + 1},{c + 1}")
        centre = data["center"]
        starts = centre if isinstance(centre[0], list) else [centre]
        start = tuple(_square(game, n, rc) for rc in starts)
        stacking = game == "upwords"
        values = [0] * 27
        counts = [0] * 27
        tv, tc = data["tile_values"], data["tile_counts"]
        for i, ch in enumerate(LETTERS, start=1):
            key = "Qu" if stacking and ch == "Q" else ch
            values[i] = int(tv[key])
            counts[i] = int(tc[key])
            if values[i] < 0 or counts[i] < 0:
                raise _fail(game, f"negative value or count for {ch}")
        values[0] = int(tv.get("?", 0))
        counts[0] = int(tc.get("?", 0))
        if counts[0] != int(data["blanks"]):
            raise _fail(game, f"{counts[0]} blanks counted, {data['blanks']} declared")
        if sum(counts) != int(data["total_tiles"]):
            raise _fail(game, f"tile counts add up to {sum(counts)}, not {data['total_tiles']}")
        if data.get("center_is_bonus") and not all(premium[s] for s in start):
            raise _fail(game, "centre is declared a bonus but has no premium")
        scoring = data.get("scoring", {})
        return Ruleset(
            name=game,
            title=str(data["name"]),
            size=n,
            premium=tuple(premium),
            letter_mult=tuple(PREMIUMS[p][0] if p else 1 for p in premium),
            word_mult=tuple(PREMIUMS[p][1] if p else 1 for p in premium),
            start=start,
            start_is_bonus=bool(data.get("center_is_bonus")),
            values=tuple(values),
            counts=tuple(counts),
            rack_size=int(data["rack_size"]),
            bonus_name=BONUS_NAMES.get(game, "bingo"),
            bonus_points=int(data["all_tiles_bonus"]),
            stacking=stacking,
            max_height=int(data.get("max_stack_height", 1)),
            qu_tile=stacking,
            qu_bonus=int(scoring.get("qu_flat_bonus", 0)),
            end_penalty_per_tile=-int(scoring.get("end_game_penalty_per_unplayed_tile", 0)),
        )
    except RulesetError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise _fail(game, f"malformed data: {exc!r}") from exc


@cache
def get_ruleset(game: str) -> Ruleset:
    """The named game's ruleset (``crossplay``, ``scrabble``, ``wwf`` or ``upwords``)."""
    if game not in GAMES:
        raise UnknownGameError(f"unknown game {game!r}; games: {', '.join(GAMES)}", game=game)
    data = json.loads((RULESET_DIR / f"{game}.json").read_text(encoding="utf-8"))
    return parse_ruleset(game, data)
