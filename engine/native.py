"""The optional compiled move generator (engine/_fastgen.c) behind a Python interface.

:func:`search` generates the plays of one :class:`~engine.movegen.View` exactly as
:func:`engine.movegen.generate_view` does (same plays, same scores, same order), computing the
cross-checks and anchors with engine.movegen's own functions and running the GADDAG walk in C.

``available`` is False when the extension was not built (no compiler at install time) or when
the environment variable ``WORDSOLVER_PURE_PYTHON`` is set to a non-empty value; callers then
use the pure-Python generator.
"""

from __future__ import annotations

import os
from array import array
from typing import TYPE_CHECKING

from .lexicon import Lexicon
from .movegen import RawPlay, View, anchors, cross_checks
from .rules import Ruleset

if TYPE_CHECKING:
    from .solver import MoveFilter

try:
    from . import _fastgen  # type: ignore[attr-defined]
except ImportError:  # not built: the pure-Python generator is used
    _fastgen = None

available: bool = _fastgen is not None and not os.environ.get("WORDSOLVER_PURE_PYTHON")

# Per-ruleset / per-board constant buffers, keyed by the (immutable) tuples they pack.
_values_cache: dict[tuple[int, ...], array] = {}
_mult_cache: dict[tuple[int, ...], bytes] = {}


def _values(values: tuple[int, ...]) -> array:
    buf = _values_cache.get(values)
    if buf is None:
        buf = _values_cache[values] = array("i", values)
    return buf


def _mult(mult: tuple[int, ...]) -> bytes:
    buf = _mult_cache.get(mult)
    if buf is None:
        if len(_mult_cache) > 64:
            _mult_cache.clear()
        buf = _mult_cache[mult] = bytes(mult)
    return buf


def search(
    rules: Ruleset,
    lex: Lexicon,
    view: View,
    rack: list[int],
    keep: int,
    scores: list[int],
    flt: MoveFilter | None = None,
) -> tuple[int, list[RawPlay], list[int]]:
    """The plays whose main word runs across ``view``: (number of plays, plays, scores).

    ``keep``: -1 returns every play; 0 none (count only); N > 0 keeps a min-heap of the best N
    scores, seeded with ``scores`` (at most N, carried over from another view), and returns
    every play found while the heap is not full and, once it is, every play scoring at least
    its minimum; the returned scores are the heap's contents. The count is of all plays that
    pass ``flt`` (filters are applied inside the search, before a play is counted or kept).
    """
    if _fastgen is None:
        raise RuntimeError("engine._fastgen is not built")
    n = view.n
    xmask, xsum = cross_checks(view, lex, rules.values)
    anchor_list = anchors(rules, view)
    is_anchor = bytearray(n * n)
    for a in anchor_list:
        is_anchor[a] = 1
    g = lex.gaddag
    return _fastgen.generate(
        n,
        bytes(view.cells),
        _mult(view.letter_mult),
        _mult(view.word_mult),
        array("I", xmask),
        array("i", xsum),
        array("i", anchor_list),
        bytes(is_anchor),
        _values(rules.values),
        array("i", rack),
        rules.rack_size,
        rules.bonus_points,
        view.down,
        g.mask,
        g.first,
        g.child,
        g.root,
        keep,
        list(scores),
        *_filter_args(view, flt),
    )


def _filter_args(view: View, flt: MoveFilter | None) -> tuple:
    if flt is None or not flt.active():
        return ()
    n = view.n
    square = -1
    if flt.square is not None:
        r, c = flt.square[0] - 1, flt.square[1] - 1
        square = c * n + r if view.down else r * n + c
    need = array("i", [0] * 27)
    for ch in flt.contains.upper():
        if "A" <= ch <= "Z":
            need[ord(ch) - 64] += 1
    return (flt.min_length, flt.no_blanks, square, need if any(need) else b"")
