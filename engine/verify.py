"""Board findings: what looks wrong with a board a player typed in, without refusing it.

- ``disconnected_tiles``: tiles not joined (through neighbours across or down) to the group
  that covers the start square; when the start square is empty, every group but the largest.
- ``empty_start``: tiles on the board but none on the start square (the first play must
  cover it, so the board cannot come from a real game).
- ``unknown_word``: a run of two or more tiles, across or down, that the lexicon does not
  hold.

Solving answers carry these as ``warnings``; a board with findings is still solved as given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from . import search
from .board import LETTER_MASK
from .lexicon import Lexicon
from .notation import square_name, square_text
from .rules import Ruleset
from .scoring import word_text


@dataclass(frozen=True)
class Finding:
    code: str  # "disconnected_tiles", "empty_start" or "unknown_word"
    message: str
    squares: tuple[tuple[int, int], ...]  # 1-indexed (row, col)
    word: str | None = None


@cache
def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """Each square's neighbours across and down."""
    return tuple(
        tuple(rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n)
        for r in range(n) for c in range(n)
    )


def _groups(n: int, cells: list[int]) -> list[list[int]]:
    """Groups of tiles joined across or down, each sorted, in order of their first square."""
    near = _neighbours(n)
    seen = [False] * (n * n)
    groups = []
    for i, code in enumerate(cells):
        if not code or seen[i]:
            continue
        seen[i] = True
        stack, group = [i], []
        while stack:
            j = stack.pop()
            group.append(j)
            for k in near[j]:
                if cells[k] and not seen[k]:
                    seen[k] = True
                    stack.append(k)
        groups.append(sorted(group))
    return groups


_RUN = re.compile(rb"[^\x00]{2,}")  # two or more squares that are not empty


def _runs(n: int, cells: list[int]) -> list[list[int]]:
    """Every run of two or more tiles, across then down (each line from its start)."""
    board = bytes(cells)  # square codes are below 128; a zero byte ends each line
    rows = b"".join([board[i : i + n] + b"\0" for i in range(0, n * n, n)])
    cols = b"".join([board[c::n] + b"\0" for c in range(n)])
    m = n + 1
    across = [list(range(x.start() - x.start() // m, x.end() - x.start() // m)) for x in _RUN.finditer(rows)]
    down = [list(range((x.start() % m) * n + x.start() // m, (x.end() % m) * n + x.start() // m, n))
            for x in _RUN.finditer(cols)]
    return across + down


def _unknown_runs(n: int, cells: list[int], lex: Lexicon, qu_tile: bool) -> list[list[int]]:
    """The runs whose letters the lexicon does not spell (without a Qu tile a square is one
    letter: the codes are looked up without making the text; with one, every run goes on to be
    read as text)."""
    if qu_tile:
        return _runs(n, cells)
    return [run for run in _runs(n, cells) if not lex.is_word_codes([cells[i] & LETTER_MASK for i in run])]


def board_findings(rules: Ruleset, cells: list[int], lex: Lexicon | None) -> list[Finding]:
    """Findings for a parsed board, in a fixed order (connection, start, then words)."""
    n = rules.size

    def rc(i: int) -> tuple[int, int]:
        return (i // n + 1, i % n + 1)

    out: list[Finding] = []
    scan = search.board_scanner()  # the compiled core's two scans: the same lists, a tenth of the time
    unknown: list[list[int]] = []
    if scan is not None and lex is not None and not rules.qu_tile:
        groups, unknown = scan(n, cells, lex)
    else:
        groups = _groups(n, cells)
        if lex is not None:
            unknown = _unknown_runs(n, cells, lex, rules.qu_tile)
    if groups:
        starts = set(rules.start)
        keep = [g for g in groups if not starts.isdisjoint(g)]
        if not keep:
            names = " or ".join(square_name(r, c) for r, c in map(rc, rules.start))
            out.append(Finding("empty_start", f"no tile on the start square {names}; a game's first play covers it",
                               tuple(map(rc, rules.start))))
            keep = [max(groups, key=len)]
        stray = [i for g in groups if not any(g is k for k in keep) for i in g]
        if stray:
            squares = tuple(map(rc, sorted(stray)))
            out.append(Finding(
                "disconnected_tiles",
                f"{len(stray)} tile(s) not connected to the rest of the board, from {square_name(*squares[0])}",
                squares,
            ))
    if lex is not None:
        for run in unknown:
            word = word_text(rules, cells, run).upper()
            if word not in lex:
                first = rc(run[0])
                out.append(Finding("unknown_word", f"{word} at {square_text(*first, 'down' if len(run) > 1 and run[1] - run[0] > 1 else 'across')} is not in lexicon {lex.name}",
                                   tuple(map(rc, run)), word))
    return out
