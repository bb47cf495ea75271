"""Learning leave values by self-play (``wordsolver train-leaves``).

Each round plays ``games`` self-play games between two ``equity`` players using the previous
round's values (round 1 starts from zero values: equity = score, exchanges weighed at 0).
For every play or exchange after which tiles remain in the bag, the tiles kept (the leave)
are credited with what followed: the score of the same player's next turn plus the value,
under the round's values, of the leave that turn kept (0 when the bag is then empty). The
round's samples are fitted by ridge least squares to the model of ``engine.strategy.leaves``
(features: tiles held once/twice/three times, vowel/consonant balance, QU; an intercept that
is dropped, so the empty leave is worth 0); then every leave seen at least ``min_count``
times (and every single tile) gets a table entry: the model's value plus its own mean
residual shrunk by ``n / (n + shrink)``.

Reproducible: game ``k`` of round ``r`` (1-based) uses seed ``seed + 1_000_000 * r + k``, and
the players are deterministic, so a seed, a game count and a round count give the same
values on any machine (with the same lexicon). A checkpoint (JSON) is written every
``chunk`` games and at the end of each round; ``resume`` continues from one, so several
short runs add up to the same result as one long one, and asking for more rounds later
continues from the last round's values.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game import EXCHANGE, PLAY, Game, GameRules, game_rules, replay, subtract, tile_counts, tiles_of_move
from ..lexicon import Lexicon
from ..rules import get_ruleset
from .bingo import chances_for
from .leaves import LeaveValues, features, key_counts, leave_key, tile_char, zero
from .parallel import run_ordered
from .players import EquityPlayer
from .selfplay import play_game

RIDGE = 5.0
MIN_COUNT = 20
SHRINK = 20.0
MAX_TABLE = 60_000
ROUND_SEED = 1_000_000
BINGO = "bingo"  # the model's weight on bingo_feature (thousandths of a point per unit)
BINGO_FLOOR = 0.05  # chances below this count as none (those leaves need no table entry)


def bingo_feature(chance: float) -> float:
    """The leave's bingo feature: its chance of a bingo on the next draw above the floor
    (engine.strategy.bingo), so a leave under the floor has none and keeps the model's value."""
    return max(0.0, chance - BINGO_FLOOR)


@dataclass
class Stats:
    """One round's samples, accumulated (sums only, so chunks and runs add up)."""

    games: int = 0
    n: int = 0
    xtx: dict[str, float] = field(default_factory=dict)  # "f|g" (f <= g) -> sum of products
    xty: dict[str, float] = field(default_factory=dict)
    exact: dict[str, list[float]] = field(default_factory=dict)  # leave -> [n, sum of y]

    def add(self, leave: list[int], y: float, bingo: float = 0.0) -> None:
        """One sample; ``bingo`` is the leave's bingo feature (0 without it)."""
        feats = [(f, 1.0) for f in ("1", *features(leave))]
        if bingo:
            feats.append((BINGO, bingo))
        feats.sort()
        for a, (f, vf) in enumerate(feats):
            self.xty[f] = self.xty.get(f, 0.0) + vf * y
            for g, vg in feats[a:]:
                k = f"{f}|{g}"
                self.xtx[k] = self.xtx.get(k, 0.0) + vf * vg
        key = leave_key(leave)
        entry = self.exact.setdefault(key, [0, 0.0])
        entry[0] += 1
        entry[1] += y
        self.n += 1

    def to_dict(self) -> dict:
        return {"games": self.games, "n": self.n, "xtx": self.xtx, "xty": self.xty, "exact": self.exact}

    @classmethod
    def from_dict(cls, d: dict) -> Stats:
        return cls(int(d["games"]), int(d["n"]), dict(d["xtx"]), dict(d["xty"]), {k: list(v) for k, v in d["exact"].items()})


def samples(game: Game, values: LeaveValues) -> list[tuple[list[int], float]]:
    """(leave, value of what followed) for each play or exchange of ``game`` (see the module
    docstring)."""
    states = replay(game)
    turns = game.turns
    out = []
    for i, t in enumerate(turns):
        if t.kind not in (PLAY, EXCHANGE) or states[i + 1].bag_size == 0:
            continue
        nxt = next((j for j in range(i + 1, len(turns)) if turns[j].player == t.player and turns[j].uses_turn), None)
        if nxt is None:
            continue
        u = turns[nxt]
        y = float(u.score)
        if u.kind in (PLAY, EXCHANGE) and states[nxt + 1].bag_size > 0:
            y += values.milli(leave_of(u.kind, u.rack, u)) / 1000
        out.append((leave_of(t.kind, t.rack, t), y))
    return out


def leave_of(kind: str, rack: str, turn: object) -> list[int]:
    gone = tiles_of_move(turn.move) if kind == PLAY else turn.tiles  # type: ignore[attr-defined]
    left = subtract(tile_counts(rack), tile_counts(gone))
    assert left is not None
    return left


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the matrix is small and regularised)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        if abs(piv) < 1e-12:
            continue
        for r in range(c + 1, n):
            f = m[r][c] / piv
            if f:
                row, top = m[r], m[c]
                for k in range(c, n + 1):
                    row[k] -= f * top[k]
    x = [0.0] * n
    for c in range(n - 1, -1, -1):
        if abs(m[c][c]) < 1e-12:
            continue
        x[c] = (m[c][n] - sum(m[c][k] * x[k] for k in range(c + 1, n))) / m[c][c]
    return x


def fit(stats: Stats, game: str, lexicon: str, provenance: dict, min_count: int = MIN_COUNT,
        shrink: float = SHRINK, chances: dict[str, float] | None = None) -> LeaveValues:
    """The model fitted to ``stats`` and the table: the leaves seen ``min_count`` times (their
    own mean shrunk toward the model), every single tile and, with ``chances`` (leave ->
    bingo chance), every leave whose bingo feature is above 0 (the model has no other way
    to know it)."""
    chances = chances or {}
    names = sorted(stats.xty)
    index = {f: i for i, f in enumerate(names)}
    a = [[0.0] * len(names) for _ in names]
    for k, v in stats.xtx.items():
        f, g = k.split("|")
        a[index[f]][index[g]] += v
        if f != g:
            a[index[g]][index[f]] += v
    for f, i in index.items():
        if f != "1":
            a[i][i] += RIDGE
    w = solve(a, [stats.xty[f] for f in names])
    weights = {f: round(1000 * w[index[f]]) for f in names if f not in ("1", BINGO)}
    w_bingo = 1000 * w[index[BINGO]] if BINGO in index else 0.0
    intercept = w[index["1"]] if "1" in index else 0.0
    model = LeaveValues(game, lexicon, weights, {})

    def base_milli(key: str) -> float:
        return model.model_milli(key_counts(key)) + w_bingo * bingo_feature(chances.get(key, 0.0))

    rs = get_ruleset(game)
    singles = {tile_char(i) for i, n in enumerate(rs.counts) if n}
    keep = [(k, e) for k, e in stats.exact.items() if e[0] >= min_count or k in singles]
    keep.sort(key=lambda ke: (-ke[1][0], ke[0]))
    table: dict[str, int] = {}
    for key, (n, total) in keep[:MAX_TABLE]:
        if not 1 <= len(key) < rs.rack_size:
            continue
        base = base_milli(key)
        resid = 1000 * (total / n - intercept) - base
        table[key] = round(base + n / (n + shrink) * resid)
    for ch in singles - set(table):
        table[ch] = round(base_milli(ch))
    if w_bingo:
        rs_counts = rs.counts
        for key, chance in chances.items():
            counts = key_counts(key)
            if (key not in table and bingo_feature(chance) > 0 and 1 <= len(key) < rs.rack_size
                    and all(c <= have for c, have in zip(counts, rs_counts, strict=True))):
                table[key] = round(base_milli(key))
        weights[BINGO] = round(w_bingo)
    return LeaveValues(game, lexicon, weights, table, provenance)


class Rounds:
    """What both trainers' checkpoints share (this module's and engine.strategy.subleaves'): the
    finished rounds, the values the next round plays with, and saving."""

    history: list[dict]
    values: dict | None
    rounds_done: int
    current: Any  # the round being played: its sums, with a ``games`` count

    def to_dict(self) -> dict:
        raise NotImplementedError

    def save(self, path: Path) -> None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict()), encoding="utf-8")
        tmp.replace(path)

    def close_round(self, r: int, fitted: LeaveValues, counts: dict, path: Path,
                    on_round: Callable[[int, LeaveValues], None] | None, log: Callable[[str], None]) -> None:
        """Round ``r`` is fitted: record it, play the next round with its values, and save."""
        self.history.append(round_record(r, self.current.games, counts, fitted))
        self.values = fitted.to_dict()
        self.rounds_done = r
        self.current = type(self.current)()
        self.save(path)
        if on_round is not None:
            on_round(r, fitted)
        log(fitted_message(r, fitted))


@dataclass
class Checkpoint(Rounds):
    game: str
    lexicon: str
    seed: int
    games: int  # per round
    values: dict | None = None  # the last finished round's values (LeaveValues.to_dict)
    rounds_done: int = 0
    current: Stats = field(default_factory=Stats)
    history: list[dict] = field(default_factory=list)  # per finished round: games, samples, a few values
    bingo: bool = False  # the model has the bingo feature
    start: str = ""  # the values round 1 played with, when not zero (a file name, for the provenance)

    def to_dict(self) -> dict:
        return {"game": self.game, "lexicon": self.lexicon, "seed": self.seed, "games": self.games,
                "values": self.values, "rounds_done": self.rounds_done, "current": self.current.to_dict(),
                "history": self.history, "bingo": self.bingo, "start": self.start}

    @classmethod
    def from_dict(cls, d: dict) -> Checkpoint:
        return cls(d["game"], d["lexicon"], int(d["seed"]), int(d["games"]), d.get("values"),
                   int(d["rounds_done"]), Stats.from_dict(d["current"]), list(d.get("history", [])),
                   bool(d.get("bingo", False)), str(d.get("start", "")))


def values_of(ck: Checkpoint) -> LeaveValues:
    return values_from(ck.values, ck.game, ck.lexicon)


def values_from(d: dict | None, game: str, lexicon: str) -> LeaveValues:
    """A checkpoint's values (LeaveValues.to_dict), or zero values before the first round."""
    if d is None:
        return zero(game, lexicon)
    return LeaveValues(d["game"], d["lexicon"], dict(d["weights"]), dict(d["table"]), dict(d.get("provenance", {})))


@dataclass(frozen=True)
class RoundGame:
    """Game ``k`` of training round ``r`` (a picklable job for
    :func:`engine.strategy.parallel.run_ordered`): its samples under the round's values."""

    rules: GameRules
    lex: Lexicon
    values: LeaveValues
    seed: int
    r: int

    def __call__(self, k: int) -> list[tuple[list[int], float]]:
        player = EquityPlayer(self.values)
        g = play_game(self.rules, self.lex, [player, player], self.seed + ROUND_SEED * self.r + k, first=k % 2)
        return samples(g, self.values)


def train(
    game: str, lex: Lexicon, games: int, rounds: int, seed: int, checkpoint: Path,
    resume: bool = False, chunk: int = 100, log: Callable[[str], None] = print,
    on_round: Callable[[int, LeaveValues], None] | None = None, workers: int | None = 1,
    ray: str | None = None, bingo: bool = False, start: LeaveValues | None = None, start_name: str = "",
) -> LeaveValues:
    """Train (or continue training) to ``rounds`` rounds of ``games`` games each;
    ``on_round(r, values)`` is called as each round's values are fitted (to keep them, e.g.
    for an A/B run of each round against the previous one). The games run on ``workers``
    processes (``None``: every core; or on the Ray cluster at ``ray``) and their samples are
    added in game order, so the values are the same for any number of workers.

    ``bingo`` adds the bingo feature (engine.strategy.bingo: the leave's chance of a
    seven-letter word on the next draw, computed once from ``lex``) to the model, and a table
    entry for every leave that has it. ``start`` gives the values round 1 plays with (default:
    zero values), e.g. the shipped ones, named ``start_name`` in the provenance."""
    rules = game_rules(game)
    if resume and checkpoint.is_file():
        ck = Checkpoint.from_dict(json.loads(checkpoint.read_text(encoding="utf-8")))
        if (ck.game, ck.seed, ck.lexicon) != (rules.name, seed, lex.name):
            raise ValueError(f"checkpoint {checkpoint} is for {ck.game} seed {ck.seed} lexicon {ck.lexicon}")
        if ck.games != games:
            raise ValueError(f"checkpoint {checkpoint} plays {ck.games} games per round, not {games}")
        if ck.bingo != bingo:
            raise ValueError(f"checkpoint {checkpoint} was trained {'with' if ck.bingo else 'without'} the bingo feature")
    else:
        ck = Checkpoint(rules.name, lex.name, seed, games, bingo=bingo)
        if start is not None:
            ck.values, ck.start = start.to_dict(), start_name or "given values"
    chances: dict[str, float] = {}
    if ck.bingo:
        log(f"bingo chances of {rules.name}'s leaves from the lexicon's seven-letter words...")
        chances = chances_for(lex, rules.name, BINGO_FLOOR)
        log(f"{len(chances)} leaves have a bingo chance of {BINGO_FLOOR:.0%} or more")
    while ck.rounds_done < rounds:
        r = ck.rounds_done + 1
        values = values_of(ck)
        job = RoundGame(rules, lex, values, seed, r)
        while ck.current.games < games:
            upto = min(games, ck.current.games + chunk)
            for found in run_ordered(job, ck.current.games, upto, workers, ray):
                for leave, y in found:
                    ck.current.add(leave, y, bingo_feature(chances.get(leave_key(leave), 0.0)))
            ck.current.games = upto
            ck.save(checkpoint)
            log(f"round {r}: {upto}/{games} games, {ck.current.n} samples")
        prov = provenance(ck, r, rounds)
        fitted = fit(ck.current, rules.name, lex.name, prov, chances=chances)
        ck.close_round(r, fitted, {"samples": ck.current.n}, checkpoint, on_round, log)
    return values_of(ck)


def round_record(r: int, games: int, counts: dict, fitted: LeaveValues) -> dict:
    """A finished round's entry in a checkpoint's history: its size and a few values."""
    return {"round": r, "games": games, **counts, "table": len(fitted.table), "S": fitted.table.get("S"),
            "?": fitted.table.get("?"), "Q": fitted.table.get("Q")}


def fitted_message(r: int, fitted: LeaveValues) -> str:
    return (f"round {r} fitted: {len(fitted.table)} leaves in the table; S {fitted.value('S'):+.2f}, "
            f"? {fitted.value('?'):+.2f}, Q {fitted.value('Q'):+.2f}")


def provenance(ck: Checkpoint, r: int, rounds: int) -> dict:
    extra = (" --bingo" if ck.bingo else "") + (f" --start {ck.start}" if ck.start else "")
    return {"bingo_feature": ck.bingo, "start": ck.start or "zero values",
        **({"bingo_floor": BINGO_FLOOR} if ck.bingo else {}),
        "games_per_round": ck.games, "rounds": r, "games": ck.games * r, "seed": ck.seed,
        "samples_last_round": ck.current.n, "lexicon": ck.lexicon,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "method": "engine.strategy.train_leaves: self-play between equity players, each round using the previous round's values",
        "command": f"wordsolver train-leaves --game {ck.game} --games {ck.games} --rounds {r} --seed {ck.seed}{extra}",
    }
