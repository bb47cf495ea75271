"""Learning a win-probability table by self-play (``tools/train_winprob.py``).

Game ``k`` is played between two ``equity`` players with the game's shipped leave values,
seed ``seed + k``, seat ``k % 2`` moving first. Every position of every game where a player
is to move gives one sample: that player's unseen count, their spread, and how the game
ended for them (1 a win, 1/2 a draw, 0 a loss). Samples are counted per (unseen, spread), so
a run's data is small, adds up across runs, and can be refitted without playing again.

:func:`fit_table` fits the model of :mod:`engine.strategy.winprob` to the counts: for each
unseen count ``u`` a logistic curve in spread, by Newton's method on the (slightly ridged)
log-likelihood of the samples in a window of unseen counts around ``u`` that widens until it
holds ``min_samples`` samples with a lead either way (those tell the curve's slope: the first
turn's spread is always 0); decided cells are set, not fitted.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..game import Game, game_rules, replay
from ..lexicon import Lexicon
from .leaves import shipped
from .players import EquityPlayer
from .selfplay import play_game
from .winprob import SCALE, WinTable, decided, full_unseen

MAX_SPREAD = 300
MIN_SAMPLES = 2000
MAX_WINDOW = 12
RIDGE = 0.5  # on the intercept and the slope per 100 points
SPREAD_UNIT = 100.0


@dataclass
class Counts:
    """Samples counted per (unseen, spread): [samples, results summed, draws counting 1/2]."""

    game: str = ""
    seed: int = 0
    games: int = 0
    cells: dict[tuple[int, int], list[float]] = field(default_factory=dict)

    def add(self, unseen: int, spread: int, result: float) -> None:
        c = self.cells.setdefault((unseen, spread), [0, 0.0])
        c[0] += 1
        c[1] += result

    @property
    def samples(self) -> int:
        return int(sum(c[0] for c in self.cells.values()))

    def to_dict(self) -> dict:
        return {"game": self.game, "seed": self.seed, "games": self.games,
                "cells": [[u, s, n, w] for (u, s), (n, w) in sorted(self.cells.items())]}

    @classmethod
    def from_dict(cls, d: dict) -> Counts:
        return cls(str(d.get("game", "")), int(d.get("seed", 0)), int(d["games"]),
                   {(int(u), int(s)): [int(n), float(w)] for u, s, n, w in d["cells"]})


def positions(game: Game) -> list[tuple[int, int, float]]:
    """(unseen, spread, result) for the player to move at each turn of ``game``."""
    final = game.final_scores()
    states = replay(game)
    out = []
    for i, t in enumerate(game.turns):
        if not t.uses_turn:
            continue
        st = states[i]
        p = st.to_move
        q = 1 - p
        result = 1.0 if final[p] > final[q] else 0.5 if final[p] == final[q] else 0.0
        out.append((sum(st.unseen(p)), st.scores[p] - st.scores[q], result))
    return out


@dataclass(frozen=True)
class SelfPlayPositions:
    """Game ``k``'s samples (a picklable job: games are independent, numbered units)."""

    game: str
    lex: Lexicon
    seed: int

    def __call__(self, k: int) -> list[tuple[int, int, float]]:
        rules = game_rules(self.game)
        player = EquityPlayer()
        return positions(play_game(rules, self.lex, [player, player], self.seed + k, first=k % 2))


def collect(game: str, lex: Lexicon, games: int, seed: int, counts: Counts | None = None,
            results: Callable[[int, int], Iterable[list[tuple[int, int, float]]]] | None = None,
            on_chunk: Callable[[Counts], None] | None = None, chunk: int = 250,
            log: Callable[[str], None] = print) -> Counts:
    """Play games ``counts.games`` up to ``games`` (all of them without ``counts``) and add
    their samples in game order, so a run continued from saved counts ends where one run of
    all the games would. ``results(start, stop)``, when given, yields the samples of games
    ``start..stop-1`` in order (e.g. from worker processes); ``on_chunk`` is called every
    ``chunk`` games (to save the counts)."""
    job = SelfPlayPositions(game, lex, seed)
    counts = counts if counts is not None else Counts(game, seed)
    while counts.games < games:
        stop = min(games, counts.games + chunk)
        found = results(counts.games, stop) if results is not None else (job(k) for k in range(counts.games, stop))
        for samples in found:
            for u, s, r in samples:
                counts.add(u, s, r)
        counts.games = stop
        if on_chunk is not None:
            on_chunk(counts)
        log(f"{game}: {stop}/{games} games, {counts.samples} positions")
    return counts


def fit_logistic(data: list[tuple[float, int, float]]) -> tuple[float, float]:
    """(a, b) maximising sum w log p + (n - w) log(1 - p) - RIDGE (a^2 + b^2), p = σ(a + b x),
    for data (x, n, w) (x in units of SPREAD_UNIT)."""
    a = b = 0.0
    for _ in range(50):
        ga, gb = -2 * RIDGE * a, -2 * RIDGE * b
        haa, hab, hbb = 2 * RIDGE, 0.0, 2 * RIDGE
        for x, n, w in data:
            z = a + b * x
            p = 1 / (1 + math.exp(-z)) if z > -40 else 0.0
            ga += w - n * p
            gb += (w - n * p) * x
            v = n * p * (1 - p)
            haa += v
            hab += v * x
            hbb += v * x * x
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


def fit_table(game: str, counts: Counts, provenance: dict, max_spread: int = MAX_SPREAD,
              min_samples: int = MIN_SAMPLES) -> WinTable:
    top = full_unseen(game)
    by_u: dict[int, list[tuple[float, int, float]]] = {}
    for (u, s), (n, w) in counts.cells.items():
        by_u.setdefault(min(u, top), []).append((s / SPREAD_UNIT, int(n), w))
    # the samples that tell a curve's slope: those with a lead either way (every first turn has
    # spread 0, so the top row's window reaches down to the turns that follow it)
    n_at = {u: sum(n for s, n, _ in d if s) for u, d in by_u.items()}
    rows = []
    model: dict[str, list[float]] = {"a": [], "b_per_100": [], "window": []}
    for u in range(top + 1):
        lo = hi = u
        while sum(n_at.get(v, 0) for v in range(lo, hi + 1)) < min_samples and hi - lo < 2 * MAX_WINDOW:
            lo, hi = max(lo - 1, 0), min(hi + 1, top)
            if lo == 0 and hi == top:
                break
        data = [d for v in range(lo, hi + 1) for d in by_u.get(v, [])]
        a, b = fit_logistic(data) if data else (0.0, 1.0)
        b = max(b, 1e-3)  # monotone in spread
        model["a"].append(round(a, 5))
        model["b_per_100"].append(round(b, 5))
        model["window"].append(hi - lo + 1)
        row = []
        for s in range(-max_spread, max_spread + 1):
            want = decided(game, s, u)
            if want is None:
                z = a + b * s / SPREAD_UNIT
                want = 1 / (1 + math.exp(-z)) if z > -40 else 0.0
            row.append(round(want * SCALE))
        for i in range(1, len(row)):  # decided cells next to fitted ones keep the row monotone
            row[i] = max(row[i], row[i - 1])
        rows.append(tuple(row))
    table = WinTable(game, max_spread, tuple(rows), provenance, model)
    return table


def calibration(table: WinTable, counts: Counts) -> dict:
    """Mean log loss and Brier score of the table on the samples, beside a coin's (0.693, 0.25)."""
    ll = brier = 0.0
    n_all = 0
    for (u, s), (n, w) in counts.cells.items():
        p = min(max(table.probability(s, u), 1e-6), 1 - 1e-6)
        ll -= w * math.log(p) + (n - w) * math.log(1 - p)
        brier += w * (1 - p) ** 2 + (n - w) * p * p
        n_all += int(n)
    n_all = max(n_all, 1)
    return {"samples": n_all, "log_loss": round(ll / n_all, 4), "brier": round(brier / n_all, 4)}


def provenance(game: str, lexicon: str, games: int, seed: int, samples: int, command: str) -> dict:
    return {
        "games": games, "seed": seed, "samples": samples, "lexicon": lexicon,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "players": "equity vs equity, the game's shipped leave values",
        "leaves_sha256": shipped(game).to_dict()["sha256"],  # which leave file those were
        "method": ("engine.strategy.train_winprob: every position of self-play games (unseen, spread, result of the "
                   f"player to move); per unseen count a logistic curve in spread fitted by maximum likelihood over a "
                   f"window of unseen counts holding at least {MIN_SAMPLES} samples with a lead either way; decided cells set"),
        "command": command,
    }
