"""Leave values measured per leave (``wordsolver train-leaves --method subleaves``).

The other trainer (``engine.strategy.train_leaves``) credits each turn's outcome to the one
leave the player kept, so a leave of four to six tiles is seen a handful of times in ten
thousand games and its value is mostly the per-tile model's. This one measures what holding a
leave is worth directly, the way strong engines build their tables ("superleaves"):

- self-play between equity players (round 1 with the ``start`` values) records, for every
  turn taken while the bag can still refill a rack, the player's full rack and the equity of
  the best turn it allows (score plus the value of the tiles kept, under the round's values);
- that equity is credited to **every sub-rack** of the rack (up to 127 leaves of 1 to 6
  tiles, and the empty leave, which every rack contains): the mean equity of the racks that
  hold a leave, less the mean over all racks, is what holding that leave is worth before
  the draw, relative to keeping nothing;
- each leave's measured mean is shrunk toward the per-tile model (``engine.strategy.leaves``,
  with the bingo feature when asked) by ``n / (n + shrink)``, the model being fitted by
  weighted ridge least squares to the measured leaves, and the most often seen leaves become
  table entries; the rest keep the model's value.

A rack of seven gives up to 127 samples, so 30,000 Scrabble games measure some 50 million
leave samples: every leave of one to three tiles many thousand times and the common four to
six tile ones hundreds of times (AEINST 677, DERS 5,455). Equity sums are integers (thousandths), so
a round's sums are exact and the same for any number of workers. Each round plays with the
previous round's values; the checkpoint (JSON) is written every ``chunk`` games and
``resume`` continues it, as with the other trainer.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from pathlib import Path

from ..game import GameRules, game_rules
from ..lexicon import Lexicon
from ..rules import get_ruleset
from .bingo import chances_for
from .equity import best_turn
from .leaves import LeaveValues, features, key_counts, tile_char
from .parallel import run_ordered
from .players import Action, PlayerView, action_of
from .selfplay import play_game
from .train_leaves import (
    BINGO,
    BINGO_FLOOR,
    RIDGE,
    ROUND_SEED,
    Rounds,
    bingo_feature,
    solve,
    values_from,
)

SHRINK = 30.0  # samples at which a leave's own mean and the model weigh the same
MIN_COUNT = 10  # leaves seen fewer times keep the model's value
MAX_TABLE = 130_000  # table entries: the leave file stays under 2 MB (tests/test_equity.py)
MODEL_MIN = 50  # leaves seen this often fit the model


@lru_cache(maxsize=200_000)
def subleaves(rack: str) -> tuple[str, ...]:
    """Every sub-rack of ``rack`` (canonical text) of fewer tiles than the rack, canonical,
    the empty one included, each once."""
    counts = key_counts(rack)
    held = [i for i in range(1, 27) if counts[i]] + ([0] if counts[0] else [])
    chars = [tile_char(i) for i in held]
    out = []
    for combo in product(*(range(counts[i] + 1) for i in held)):
        if sum(combo) < len(rack):
            out.append("".join([ch * n for ch, n in zip(chars, combo, strict=True)]))
    return tuple(out)


class RecordingPlayer:
    """The equity player, noting each turn's rack and the best turn's equity (thousandths)."""

    name = "equity"

    def __init__(self, values: LeaveValues) -> None:
        self.values = values
        self.seen: list[tuple[str, int]] = []

    def choose(self, view: PlayerView) -> Action:
        best = best_turn(view.position, view.lexicon, self.values, view.rules, view.bag_size, view.unseen,
                         view.can_exchange)
        self.seen.append((view.rack, best.equity_milli))
        return action_of(best)


@dataclass(frozen=True)
class RackGame:
    """Game ``k`` of round ``r`` (a picklable job for run_ordered): (rack, equity) for each turn
    taken while the bag holds at least a rack's worth of tiles."""

    rules: GameRules
    lex: Lexicon
    values: LeaveValues
    seed: int
    r: int

    def __call__(self, k: int) -> list[tuple[str, int]]:
        player = RecordingPlayer(self.values)
        play_game(self.rules, self.lex, [player, player], self.seed + ROUND_SEED * self.r + k, first=k % 2,
                  until_bag=self.rules.ruleset.rack_size)
        return player.seen


@dataclass
class SubStats:
    """One round's sums per leave: samples and equity (thousandths; "" is every rack)."""

    games: int = 0
    n: dict[str, int] = field(default_factory=dict)
    s: dict[str, int] = field(default_factory=dict)
    sq: int = 0  # sum of squared equities over racks (points^2), for the noise estimate

    def add(self, rack: str, milli: int) -> None:
        n, s = self.n, self.s
        for key in subleaves(rack):
            n[key] = n.get(key, 0) + 1
            s[key] = s.get(key, 0) + milli
        self.sq += (milli // 1000) ** 2

    def to_dict(self) -> dict:
        return {"games": self.games, "n": self.n, "s": self.s, "sq": self.sq}

    @classmethod
    def from_dict(cls, d: dict) -> SubStats:
        return cls(int(d["games"]), dict(d["n"]), dict(d["s"]), int(d["sq"]))


def fit_subleaves(st: SubStats, game: str, lexicon: str, provenance: dict, chances: dict[str, float] | None = None,
                  shrink: float = SHRINK, min_count: int = MIN_COUNT, max_table: int = MAX_TABLE,
                  log: Callable[[str], None] = print) -> LeaveValues:
    """The values a round's sums measure (see the module docstring)."""
    chances = chances or {}
    total_n = st.n.get("", 0)
    if not total_n:
        raise ValueError("no racks recorded")
    base = st.s[""] / total_n  # thousandths
    mean = {k: st.s[k] / n - base for k, n in st.n.items() if k}
    # the model: ridge least squares over the leaves seen MODEL_MIN times, each weighted by its reliability
    xtx: dict[tuple[str, str], float] = {}
    xty: dict[str, float] = {}
    for key, m in mean.items():
        n = st.n[key]
        if n < MODEL_MIN:
            continue
        rel = n / (n + shrink)
        feats = [(f, 1.0) for f in features(key_counts(key))]
        b = bingo_feature(chances.get(key, 0.0))
        if b:
            feats.append((BINGO, b))
        for f, vf in feats:
            xty[f] = xty.get(f, 0.0) + rel * vf * m
            for g, vg in feats:
                xtx[f, g] = xtx.get((f, g), 0.0) + rel * vf * vg
    names = sorted(xty)
    index = {f: i for i, f in enumerate(names)}
    a = [[0.0] * len(names) for _ in names]
    for (f, g), v in xtx.items():
        a[index[f]][index[g]] += v
    for i in range(len(names)):
        a[i][i] += RIDGE
    w = solve(a, [xty[f] for f in names])
    weights = {f: round(w[index[f]]) for f in names if f != BINGO}
    w_bingo = w[index[BINGO]] if BINGO in index else 0.0
    model = LeaveValues(game, lexicon, weights, {})

    def model_milli(key: str) -> float:
        return model.model_milli(key_counts(key)) + w_bingo * bingo_feature(chances.get(key, 0.0))

    rs = get_ruleset(game)
    singles = {tile_char(i) for i, c in enumerate(rs.counts) if c}
    keep = sorted((k for k, n in st.n.items() if k and (n >= min_count or k in singles)),
                  key=lambda k: (-st.n[k], k))
    table: dict[str, int] = {}
    for key in keep[:max_table]:
        n = st.n[key]
        base_m = model_milli(key)
        table[key] = round(base_m + n / (n + shrink) * (mean[key] - base_m))
    for ch in singles - set(table):
        table[ch] = round(model_milli(ch))
    if w_bingo:  # unmeasured leaves with a bingo chance: the model's term needs a table entry
        extra = sorted(((c, k) for k, c in chances.items() if k not in table and bingo_feature(c) > 0
                        and 1 <= len(k) < rs.rack_size
                        and all(x <= have for x, have in zip(key_counts(k), rs.counts, strict=True))), reverse=True)
        for _, key in extra[: max(0, max_table - len(table))]:
            table[key] = round(model_milli(key))
        weights[BINGO] = round(w_bingo)
    log(f"{total_n} racks, mean best equity {base / 1000:.2f}; {len(mean)} leaves seen, "
        f"{sum(1 for n in st.n.values() if n >= min_count) - 1} at least {min_count} times; table {len(table)}")
    return LeaveValues(game, lexicon, weights, table, provenance)


@dataclass
class SubCheckpoint(Rounds):
    game: str
    lexicon: str
    seed: int
    games: int
    values: dict | None = None
    rounds_done: int = 0
    current: SubStats = field(default_factory=SubStats)
    history: list[dict] = field(default_factory=list)
    bingo: bool = False
    start: str = ""

    def to_dict(self) -> dict:
        return {"method": "subleaves", "game": self.game, "lexicon": self.lexicon, "seed": self.seed,
                "games": self.games, "values": self.values, "rounds_done": self.rounds_done,
                "current": self.current.to_dict(), "history": self.history, "bingo": self.bingo, "start": self.start}

    @classmethod
    def from_dict(cls, d: dict) -> SubCheckpoint:
        return cls(d["game"], d["lexicon"], int(d["seed"]), int(d["games"]), d.get("values"), int(d["rounds_done"]),
                   SubStats.from_dict(d["current"]), list(d.get("history", [])), bool(d.get("bingo", False)),
                   str(d.get("start", "")))


def train_subleaves(
    game: str, lex: Lexicon, games: int, rounds: int, seed: int, checkpoint: Path, resume: bool = False,
    chunk: int = 2000, log: Callable[[str], None] = print, on_round: Callable[[int, LeaveValues], None] | None = None,
    workers: int | None = 1, ray: str | None = None, bingo: bool = False, start: LeaveValues | None = None,
    start_name: str = "",
) -> LeaveValues:
    """Train (or continue) to ``rounds`` rounds of ``games`` games (see the module docstring);
    arguments as :func:`engine.strategy.train_leaves.train`."""
    rules = game_rules(game)
    if resume and checkpoint.is_file():
        ck = SubCheckpoint.from_dict(json.loads(checkpoint.read_text(encoding="utf-8")))
        if (ck.game, ck.seed, ck.lexicon, ck.games, ck.bingo) != (rules.name, seed, lex.name, games, bingo):
            raise ValueError(f"checkpoint {checkpoint} is for {ck.game} seed {ck.seed} lexicon {ck.lexicon}, "
                             f"{ck.games} games a round, bingo {ck.bingo}")
    else:
        ck = SubCheckpoint(rules.name, lex.name, seed, games, bingo=bingo)
        if start is not None:
            ck.values, ck.start = start.to_dict(), start_name or "given values"
    chances = chances_for(lex, rules.name, BINGO_FLOOR) if ck.bingo else {}
    while ck.rounds_done < rounds:
        r = ck.rounds_done + 1
        job = RackGame(rules, lex, values_from(ck.values, ck.game, ck.lexicon), seed, r)
        while ck.current.games < games:
            upto = min(games, ck.current.games + chunk)
            for seen in run_ordered(job, ck.current.games, upto, workers, ray):
                for rack, milli in seen:
                    ck.current.add(rack, milli)
            ck.current.games = upto
            ck.save(checkpoint)
            log(f"round {r}: {upto}/{games} games, {ck.current.n.get('', 0)} racks")
        fitted = fit_subleaves(ck.current, rules.name, lex.name, provenance(ck, r), chances, log=log)
        ck.close_round(r, fitted, {"racks": ck.current.n.get("", 0)}, checkpoint, on_round, log)
    return values_from(ck.values, ck.game, ck.lexicon)


def provenance(ck: SubCheckpoint, r: int) -> dict:
    extra = (" --bingo" if ck.bingo else "") + (f" --start {ck.start}" if ck.start else "")
    return {"method": "engine.strategy.subleaves: every sub-rack of each rack credited with the best turn's equity "
                      "(mean less the mean of all racks), shrunk toward the per-tile model",
            "bingo_feature": ck.bingo, "start": ck.start or "zero values", "games_per_round": ck.games, "rounds": r,
            "games": ck.games * r, "seed": ck.seed, "racks_last_round": ck.current.n.get("", 0),
            "lexicon": ck.lexicon, "shrink": SHRINK, "min_count": MIN_COUNT,
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
            "command": f"wordsolver train-leaves --method subleaves --game {ck.game} --games {ck.games} --rounds {r} "
                       f"--seed {ck.seed}{extra}"}
