"""The statistics of a simulation: running means with standard errors, and the stopping rule.

Each candidate of a simulation (:mod:`engine.strategy.simulate`) gathers one sample per
iteration of two figures: its *value* (the final spread, adjusted by the leaves kept, in
points) and its *win* (1, 1/2 or 0 for a finished game; else the win probability of the
position reached). :class:`Running` keeps the sums; the mean's standard error is
``sd / sqrt(n)`` with the sample standard deviation (``n - 1``).

The stopping rule (:func:`to_prune`), as strong engines use it: a candidate whose upper
confidence bound falls below the leader's lower bound stops being simulated. The bounds are
``mean ± z · se``. The figure compared is the win share when there is one, and the value when
there is none or when both win figures are exact and equal (two candidates that both win
every game are then told apart by spread). No candidate is pruned before ``min_samples``
iterations (a standard error from a handful of samples is not one to trust).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z_DEFAULT = 2.576  # 99%: a wrongly pruned best play costs more than a few iterations


@dataclass
class Running:
    """Sums of one figure's samples (added in iteration order, so the result is exact and
    the same however the work was split)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def se(self) -> float:
        """The standard error of the mean (0 with fewer than two samples)."""
        if self.n < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0) / self.n)

    def bounds(self, z: float) -> tuple[float, float]:
        h = z * self.se
        return self.mean - h, self.mean + h


@dataclass
class Figures:
    """One candidate's figures so far."""

    value: Running = field(default_factory=Running)
    win: Running | None = None  # None when no win probability is known for the game

    def add(self, value: float, win: float | None) -> None:
        self.value.add(value)
        if win is not None:
            if self.win is None:
                self.win = Running()
            self.win.add(win)

    @property
    def n(self) -> int:
        return self.value.n

    def key(self) -> tuple[float, float]:
        """Larger is better: the win share first (when known), then the value."""
        return (self.win.mean if self.win is not None else 0.0, self.value.mean)


def _exact_tie(a: Running, b: Running, eps: float = 1e-12) -> bool:
    return a.se <= eps and b.se <= eps and abs(a.mean - b.mean) <= eps


def dominated(leader: Figures, other: Figures, z: float) -> bool:
    """Whether ``other``'s upper bound falls below ``leader``'s lower bound (on the win share,
    or on the value when there is no win share or both are exact and equal)."""
    if leader.win is not None and other.win is not None and not _exact_tie(leader.win, other.win):
        return other.win.bounds(z)[1] < leader.win.bounds(z)[0]
    return other.value.bounds(z)[1] < leader.value.bounds(z)[0]


def leader_of(figures: dict[int, Figures], active: list[int]) -> int:
    """The active candidate with the best figures (ties: the earlier candidate, i.e. the
    better by equity)."""
    return min(active, key=lambda c: (tuple(-k for k in figures[c].key()), c))


def to_prune(figures: dict[int, Figures], active: list[int], z: float, min_samples: int) -> list[int]:
    """The active candidates the stopping rule drops now (never the leader)."""
    if len(active) < 2:
        return []
    lead = leader_of(figures, active)
    if figures[lead].n < min_samples:
        return []
    return [c for c in active if c != lead and figures[c].n >= min_samples and dominated(figures[lead], figures[c], z)]
