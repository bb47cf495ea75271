"""The optional compiled move generator (engine/_fastgen.c) behind a Python interface.

:func:`search` generates the plays of a board exactly as :func:`engine.movegen.generate_view`
does on its views (same plays, same scores, same order): the cross-checks, the anchors and
the GADDAG walk all run in C, from the board itself. With ``prune`` it visits the anchors of
both views best-bound-first and stops once no bound can reach the N-th best score (the same
bound as :func:`engine.movegen.view_search`, refined per extent: see ``anchor_bound`` in the C
source), which returns the same top N without enumerating every play.

``available`` is False when the extension was not built (no compiler at install time) or when
the environment variable ``WORDSOLVER_PURE_PYTHON`` is set to a non-empty value; callers then
use the pure-Python generator.
"""

from __future__ import annotations

import os
import time
from array import array
from typing import TYPE_CHECKING

from .lexicon import Lexicon
from .movegen import RawPlay
from .rules import Ruleset

if TYPE_CHECKING:
    from .solver import MoveFilter

try:
    from . import _fastgen  # type: ignore[attr-defined]
except ImportError:  # not built: the pure-Python generator is used
    _fastgen = None

available: bool = _fastgen is not None and not os.environ.get("WORDSOLVER_PURE_PYTHON")

ACROSS, DOWN, BOTH = 1, 2, 3

# A play as search(rank=True) returns it: (score, down, row, col, word, ((square, code), ...)),
# row and col 1-based, squares on the board in order, the word's blanks lowercase.
Ranked = tuple[int, bool, int, int, str, tuple[tuple[int, int], ...]]
# ranked_by_equity's: the same, then the index of the tiles used (into Leaves' values)
RankedEquity = tuple[int, bool, int, int, str, tuple[tuple[int, int], ...], int]

MAX_N = 64  # the C core's largest board side (and so the most tiles a play can use)


def subrack_strides(rack: list[int]) -> tuple[list[int], int]:
    """The index of a sub-rack in :class:`Leaves`: (strides per tile, number of sub-racks).
    Tiles used ``u`` have index sum of ``u[t] * strides[t]`` (mixed radix over the rack's counts)."""
    strides = [0] * 27
    size = 1
    for t, n in enumerate(rack):
        if n:
            strides[t] = size
            size *= n + 1
    return strides, size


class Leaves:
    """Leave values for ranking by equity in C: ``values[i]`` is the value (in thousandths of
    a point) of keeping what is left after using the tiles with index ``i`` (see
    :func:`subrack_strides`), and ``drops[k]`` how many whole points less than the best leave a
    play of ``k`` tiles keeps at best. A play's key is then ``score * 1000 + values[i]``."""

    SCALE = 1000

    def __init__(self, rack: list[int], values: list[int]) -> None:
        strides, size = subrack_strides(rack)
        if len(values) != size:
            raise ValueError(f"{len(values)} leave values for {size} sub-racks")
        best_by_k: dict[int, int] = {}
        for i in range(1, size):
            k = sum((i // strides[t]) % (n + 1) for t, n in enumerate(rack) if n)
            best_by_k[k] = max(best_by_k.get(k, values[i]), values[i])
        best = max(best_by_k.values(), default=0)
        drops = [0] * (MAX_N + 1)
        for k, v in best_by_k.items():
            if k <= MAX_N:
                drops[k] = (best - v) // self.SCALE
        self.args = (array("i", values), array("i", strides), array("i", drops), self.SCALE)


# Per-ruleset constant buffers, keyed by the ruleset's id (it is kept in the entry, so the id
# is not reused while the entry lives) and the premiums flag.
_consts: dict[tuple[int, bool], tuple[Ruleset, bytes, bytes, array, array]] = {}


def _ruleset_buffers(rules: Ruleset, premiums: bool) -> tuple[bytes, bytes, array, array]:
    """(letter multipliers, word multipliers, start squares, tile values) as C buffers."""
    key = (id(rules), premiums)
    buf = _consts.get(key)
    if buf is None or buf[0] is not rules:
        nn = rules.size * rules.size
        lm = bytes(rules.letter_mult) if premiums else b"\x01" * nn
        wm = bytes(rules.word_mult) if premiums else b"\x01" * nn
        buf = (rules, lm, wm, array("i", rules.start), array("i", rules.values))
        if len(_consts) > 64:
            _consts.clear()
        _consts[key] = buf
    return buf[1:]


# The GADDAG packed for the C walk (engine._fastgen.pack: about 8 bytes an edge, ~10 MB for the
# default list), built on first use, keyed by the automaton's id (kept in the entry).
_packed: dict[int, tuple[object, object]] = {}


def _packed_gaddag(lex: Lexicon) -> object:
    g = lex.gaddag
    entry = _packed.get(id(g))
    if entry is None or entry[0] is not g:
        if len(_packed) > 8:
            _packed.clear()
        entry = _packed[id(g)] = (g, _fastgen.pack(g.mask, g.first, g.child, g.root))
    return entry[1]


def search(
    rules: Ruleset,
    lex: Lexicon,
    cells: list[int],
    rack: list[int],
    keep: int,
    scores: list[int] | None = None,
    flt: MoveFilter | None = None,
    views: int = BOTH,
    prune: bool = False,
    premiums: bool = True,
    deadline: float | None = None,
    leaves: Leaves | None = None,
) -> tuple[int, list[RawPlay], list[int]]:
    """The plays of the board ``cells`` (row by row) in ``views`` (ACROSS, DOWN or BOTH):
    (number of plays, plays, scores).

    ``keep``: -1 returns every play, in engine.movegen's order (the across view's anchors,
    then the down view's); 0 none (count only); N > 0 keeps a min-heap of the best N scores,
    seeded with ``scores`` (at most N, carried over from another call), and returns every
    play that scores at least the heap's minimum when it is full (all the plays found
    otherwise); the returned scores are the heap's contents. The count is of all plays that
    pass ``flt`` (filters are applied inside the search, before a play is counted or kept).
    ``prune`` (with keep > 0): best-first over the anchors of the views, stopping once no
    anchor's upper bound reaches the heap's minimum; the plays that can rank in the top N are
    the same, the count is then only of the plays visited. Past ``deadline`` (a
    ``time.monotonic()`` value) the search stops with TimeoutError. With ``leaves`` the heap,
    ``scores`` and the plays kept are by equity (``score * 1000 + leave value``) instead.
    """
    return _generate(rules, lex, cells, rack, keep, scores, flt, views, prune, premiums, False,  # type: ignore[no-any-return]
                     deadline, leaves)


def ranked(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], limit: int,
    flt: MoveFilter | None = None, premiums: bool = True, deadline: float | None = None,
) -> list[Ranked]:
    """The best ``limit`` plays (``limit`` > 0) by the pruned best-first search, in the ranking
    order of :meth:`engine.solver.Move.sort_key` (ties broken in C exactly as there), each as
    ``(score, down, row, col, word, ((board square, code), ...))`` (see :data:`Ranked`)."""
    return _generate(rules, lex, cells, rack, limit, None, flt, BOTH, True, premiums, True,  # type: ignore[no-any-return]
                     deadline)[1]


def ranked_by_equity(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], limit: int, leaves: Leaves,
    seeds: list[int], flt: MoveFilter | None = None, premiums: bool = True, deadline: float | None = None,
) -> list[RankedEquity]:
    """As :func:`ranked`, by equity (``score * 1000 + leave value``, ties in the same order),
    each play followed by the index of the tiles it uses (into ``leaves``); the heap is seeded
    with ``seeds`` (at most ``limit`` equities of other candidates: plays that cannot beat them
    are left out)."""
    return _generate(rules, lex, cells, rack, limit, seeds, flt, BOTH, True, premiums, True,  # type: ignore[no-any-return]
                     deadline, leaves)[1]


def _generate(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], keep: int, scores: list[int] | None,
    flt: MoveFilter | None, views: int, prune: bool, premiums: bool, rank: bool, deadline: float | None = None,
    leaves: Leaves | None = None,
) -> tuple[int, list, list[int]]:
    if _fastgen is None:
        raise RuntimeError("engine._fastgen is not built")
    lm, wm, starts, values = _ruleset_buffers(rules, premiums)
    d = lex.dawg
    return _fastgen.generate(
        rules.size,
        bytes(cells),
        lm,
        wm,
        starts,
        values,
        array("i", rack),
        rules.rack_size,
        rules.bonus_points,
        views,
        d.mask,
        d.first,
        d.child,
        d.root,
        _packed_gaddag(lex),
        keep,
        prune,
        rank,
        [] if scores is None else list(scores),
        *_filter_args(rules.size, flt),
        *((time.monotonic, deadline) if deadline is not None else (None, 0.0) if leaves else ()),
        *(leaves.args if leaves else ()),
    )


def upwords(
    rules: Ruleset, lex: Lexicon, cells: list[int], heights: list[int], rack: list[int], plural_rule: bool = True,
) -> list[RawPlay]:
    """Every Upwords play, exactly as :func:`engine.upwords.generate` emits them (same plays,
    scores and order), generated in C."""
    if _fastgen is None:
        raise RuntimeError("engine._fastgen is not built")
    d = lex.dawg
    return _fastgen.upwords(  # type: ignore[no-any-return]
        rules.size, bytes(cells), bytes(heights), array("i", rules.start), array("i", rack),
        rules.rack_size, rules.bonus_points, rules.max_height, rules.qu_bonus, plural_rule,
        d.mask, d.first, d.child, d.root,
    )


def _filter_args(n: int, flt: MoveFilter | None) -> tuple:
    if flt is None or not flt.active():
        return (0, False, -1, b"")
    square = -1
    if flt.square is not None:
        r, c = flt.square[0] - 1, flt.square[1] - 1
        square = r * n + c if 0 <= r < n and 0 <= c < n else -1
    need = array("i", [0] * 27)
    for ch in flt.contains.upper():
        if "A" <= ch <= "Z":
            need[ord(ch) - 64] += 1
    return (flt.min_length, flt.no_blanks, square, need if any(need) else b"")
