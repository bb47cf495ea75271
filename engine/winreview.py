"""Win figures of a graded game (issue 22's review): for each turn, the mover's P(win) after it,
the P(win) the move lost against the best play, and a mistake size.

This is the **static** win table (:mod:`engine.strategy.winprob`) applied to each play's
resulting spread, not a simulation: the figures say what a spread is usually worth with so many
tiles unseen, and nothing about the board or the racks.

- ``after``: the mover's P(win) once the turn is made, ``1 - probability(-spread, unseen)``
  where ``spread`` is the mover's re-scored total minus the opponent's after the turn and
  ``unseen`` the tiles the opponent then cannot see (every tile not on the board minus the
  opponent's own rack: its length from the opponent's next turn in the record, else the rack
  size or the tiles left, whichever is fewer).
- ``lost``: the same P(win) after the analysis's best play (its ``best`` list's first play,
  by score: the spread then is ``points_left`` higher; the unseen count is the turn's own)
  minus ``after``, never below 0; None when the turn was not searched. The unseen count is
  kept because the analysis ranks by score alone, and because neighbouring rows of the table
  differ by a few percent (the parity of the tiles left): moving a row for a play that puts
  down one tile more would count that noise as a mistake.
- ``mistake``: None below ``SMALL``, "small" below ``MEDIUM``, "medium" below ``LARGE``, else
  "large" (``lost`` as a fraction: 0.01 is one percentage point). The thresholds are ours:
  the same shape as Woogles' review (three sizes by the win % lost), not its numbers.

Two-player games with a shipped table only (Crossplay, Scrabble, Words With Friends); Upwords
has none, so its turns carry no win figures (the grade says so in a note).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesetError
from .strategy import winprob

SMALL, MEDIUM, LARGE = 0.02, 0.05, 0.12  # win lost: < 2 points no mistake, 2-5 small, 5-12 medium, >= 12 large


@dataclass(frozen=True)
class WinGrade:
    after: float  # the mover's P(win) after the turn, 0..1
    lost: float | None  # P(win) after the best play minus after, >= 0; None when not searched
    mistake: str | None  # None, "small", "medium", "large"


@dataclass(frozen=True)
class TurnFacts:
    """What the win figures of one turn need, gathered as the game is graded."""

    player: int
    spread_after: int  # the mover's re-scored total minus the opponent's, after the turn
    off_board: int  # tiles not on the board after the turn
    rack: str | None
    points_left: int | None


def mistake_size(lost: float | None) -> str | None:
    if lost is None or lost < SMALL:
        return None
    return "small" if lost < MEDIUM else "medium" if lost < LARGE else "large"


def table_for(game: str) -> winprob.WinTable | None:
    try:
        return winprob.shipped(game)
    except RulesetError:
        return None


def mover_probability(table: winprob.WinTable, spread: float, unseen: int) -> float:
    """P(win) of the player who has just moved: the opponent is to move."""
    return 1.0 - table.probability(-spread, max(unseen, 0))


def win_grades(game: str, players: int, rack_size: int, facts: list[TurnFacts]) -> list[WinGrade | None]:
    """One grade per turn (see the module docstring); all None without a table or two players."""
    table = table_for(game)
    if table is None or players != 2:
        return [None] * len(facts)
    out: list[WinGrade | None] = []
    for i, f in enumerate(facts):
        later = next((g for g in facts[i + 1:] if g.player != f.player), None)
        opp_rack = len(later.rack) if later is not None and later.rack else min(rack_size, f.off_board)
        unseen = f.off_board - opp_rack
        after = mover_probability(table, f.spread_after, unseen)
        lost: float | None = None
        if f.points_left is not None:
            best = mover_probability(table, f.spread_after + f.points_left, unseen)
            lost = round(max(best - after, 0.0), 4)
        out.append(WinGrade(round(after, 4), lost, mistake_size(lost)))
    return out
