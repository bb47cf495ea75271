"""The search on the optional compiled core (engine/_fastgen.c): one implementation behind the
seam (:mod:`engine.search`), answering every query the pure-Python reference answers, with the
same plays in the same order.

:func:`generate` generates the plays of a board exactly as :func:`engine.movegen.generate_view`
does on its views (same plays, same scores, same order): the cross-checks, the anchors and
the GADDAG walk all run in C, from the board itself. With ``prune`` it visits the anchors of
both views best-bound-first and stops once no bound can reach the N-th best score (the same
bound as :func:`engine.movegen.view_search`, refined per extent: see ``anchor_bound`` in the C
source), which returns the same top N without enumerating every play. :func:`top_by_score`
and :func:`top_by_equity` rank inside C; :func:`upwords` generates Upwords plays.

By equity every play's key is its score x 1000 plus the value of the tiles it keeps (looked up
in C from the table of the rack's sub-racks), the heap of the best ``limit`` is seeded with the
rivals' keys (exchanges, the pass), and the best-first search stays pruned by score bounds: a
play scoring ``s`` is at most ``s`` x 1000 plus the best leave a play can keep (per extent of
``k`` new tiles, the best leave of ``k`` tiles), so anchors and extents that cannot reach the
heap's minimum are skipped. With ``count`` every play is visited for the count, and only those
that can rank come back.

Where it enumerates instead (Upwords, whose plays are few; a counted query by equity, whose
plays come back unranked; a filter the C filters cannot express), the plays are ranked in
Python (:mod:`engine.search.rank`), as the reference ranks them. ``BUILT`` is False when the
extension was not built (no compiler at install time); the seam then offers only the
reference.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from array import array
from collections import OrderedDict
from dataclasses import fields
from functools import partial

from ..errors import TimeBudgetExceeded
from ..lexicon import Lexicon
from ..plays import (
    BUDGET_MESSAGE,
    END_RULES,
    Found,
    LeaveModel,
    Move,
    MoveFilter,
    Position,
    Query,
    RawPlay,
    SubrackValues,
    TopTurn,
    TurnQuery,
    check_deadline,
    tiles_at,
    tiles_known,
    top_turn,
)
from ..rules import Ruleset
from .rank import beside_rivals, best_turn_with, by_equity, enumerated, nothing, scoring

UNAVAILABLE: str | None = None  # why the core does not load (not built, or a CPU without POPCNT)
try:
    from .. import _fastgen  # type: ignore[attr-defined]
except ImportError as error:  # the seam offers the pure-Python reference only
    _fastgen = None
    UNAVAILABLE = ("engine._fastgen is not built (was there a C compiler at install time?)"
                   if isinstance(error, ModuleNotFoundError) else str(error))

NAME = "compiled"
BUILT: bool = _fastgen is not None
BREAKDOWN = _fastgen.breakdown if _fastgen is not None else None  # engine.breakdowns' writer, via the seam
PAYLOADS = _fastgen.payloads if _fastgen is not None else None  # app.service's writer of the moves, via the seam
INSTANT = True  # a top-N query without count answers in well under a millisecond

ACROSS, DOWN, BOTH = 1, 2, 3

# A play as top_by_score returns it: (score, down, row, col, word, (square << 8 | code, ...)),
# row and col 1-based, squares on the board in order, the word's blanks lowercase.
Ranked = tuple[int, bool, int, int, str, tuple[int, ...]]
# top_by_equity's: the same, then the index of the tiles used (into SubrackValues.values)
RankedEquity = tuple[int, bool, int, int, str, tuple[int, ...], int]

MAX_N = 64  # the C core's largest board side (and so the most tiles a play can use)


# --------------------------------------------------------------------- the seam's side


def every_play(pos: Position, lex: Lexicon, premiums: bool = True, deadline: float | None = None) -> list[RawPlay]:
    """Every legal play, unranked, in the reference's order (engine.search.reference)."""
    if pos.rules.stacking:
        assert pos.heights is not None
        check_deadline(deadline)
        return upwords(pos.rules, lex, pos.cells, pos.heights, list(pos.rack), pos.plural_rule, deadline)
    check_deadline(deadline)
    return generate(pos.rules, lex, pos.cells, pos.rack, -1, premiums=premiums, deadline=deadline)[1]


def plays_scoring(pos: Position, lex: Lexicon, at_least: int, premiums: bool = True,
                  deadline: float | None = None) -> tuple[int, list[RawPlay]]:
    """The number of legal plays and those scoring at least ``at_least``: the walk counts every
    play and hands back only those (a tuple for each of a one-blank rack's thousands of plays
    cost several times the walk: all of them 1.0-4.0 ms, counting them 0.14-1.3 ms, on the
    bench positions)."""
    if pos.rules.stacking:
        return scoring(every_play(pos, lex, premiums, deadline), at_least)
    check_deadline(deadline)
    count, plays, _ = generate(pos.rules, lex, pos.cells, pos.rack, -1, [at_least], premiums=premiums,
                               deadline=deadline)
    return count, plays


def ranked(pos: Position, lex: Lexicon, query: Query) -> Found:
    """The seam's question (engine.search.ranked), answered in C: the pruned best-first search
    ranks by score or by equity itself; a counted one enumerates every play in C and hands back
    only those that can rank, by score ranked in C as well (by equity, by engine.search.rank).
    Upwords, and a filter C cannot express, enumerate and rank in Python."""
    rules, flt = pos.rules, query.filters
    if flt is not None and not flt.active():
        flt = None
    if query.limit <= 0 and not query.count:
        return nothing(query)
    if rules.stacking or query.limit <= 0 or (flt is not None and not _expressible(flt, rules.size)):
        return enumerated(pos, every_play(pos, lex, query.premiums, query.deadline), query)
    if query.leaves is not None:
        return _ranked_by_equity(pos, lex, query, query.leaves)
    if not query.count:  # best-first, pruned, ranked in C
        if query.deadline is not None:
            check_deadline(query.deadline)
        best = top_by_score(rules, lex, pos.cells, pos.rack, query.limit, flt, query.premiums, query.deadline)
        return Found(ranked_moves(rules.size, best), None)
    # counted: every play of both views in one call, the best ``limit`` ranked in C as above
    if query.deadline is not None:
        check_deadline(query.deadline)
    total, best, _ = _call(rules, lex, pos.cells, pos.rack, query.limit, None, flt, BOTH, False, query.premiums, True,
                           query.deadline)
    return Found(ranked_moves(rules.size, best), total)


def best_turn(pos: Position, lex: Lexicon, q: TurnQuery) -> TopTurn:
    """The single best turn by equity (engine.search.best_turn): the rack's sub-rack values and
    its best exchange computed in C from the leaves held there (:func:`compiled_leaves`), then
    one pruned search for the top play by equity, its heap seeded with the exchange. Upwords
    and leaves C cannot hold are answered as the reference answers them."""
    rules = pos.rules
    # C keeps a rack of at most MAX_RACK tiles (its buffers are sized so); a longer one, which
    # no game deals, is answered as the reference answers it rather than refused
    model = None if rules.stacking or sum(pos.rack) > MAX_RACK else compiled_leaves(q.leaves)
    if model is None:
        return best_turn_with(pos, lex, q, ranked)
    values = _ruleset_buffers(rules, True)[3]
    leave, strides, drops, exchange = _fastgen.subracks(
        model, array("i", pos.rack), values, q.bag_size, END_RULES.index(q.end_rule), q.unseen_face, q.penalty,
        q.exchange_max)
    check_deadline(q.deadline)
    best = _call(rules, lex, pos.cells, pos.rack, 1, [exchange[0]] if exchange is not None else [], None, BOTH, True,
                 True, True, q.deadline, (leave, strides, drops, 1000))[1]
    milli = memoryview(leave).cast("i")
    play = ranked_moves(rules.size, best[:1])[0] if best else None
    return top_turn(play, milli[best[0][6]] if best else 0, exchange, milli[0])


_TILE_LEVEL = re.compile(r"([A-Z?])([123])")
_VC = re.compile(r"vc(\d+),(\d+)")
MAX_RACK = 64  # the C core's MAX_N: the most tiles its sub-rack buffers hold
VC_MAX = 16  # the C core's vowel and consonant counts (more: no weight)
_compiled: dict[int, tuple[LeaveModel, object]] = {}


def compiled_leaves(leaves: LeaveModel) -> object | None:
    """``leaves`` held in C (``_fastgen.leaves``), built once per values object; None when
    they are not the model C knows (a feature other than a tile held once to three times,
    a vowel/consonant count or Q with U, the bingo weight aside, which no leave adds; a table
    entry of more than 12 tiles): the search
    then builds the sub-rack values in Python."""
    hit = _compiled.get(id(leaves))
    if hit is not None and hit[0] is leaves:
        return hit[1]
    tile_w, vc_w, qu = array("i", [0] * 81), array("i", [0] * VC_MAX * VC_MAX), 0
    try:
        for name, w in leaves.weights.items():
            if m := _TILE_LEVEL.fullmatch(name):
                t = 0 if m[1] == "?" else ord(m[1]) - 64
                tile_w[t * 3 + int(m[2]) - 1] = w
            elif (m := _VC.fullmatch(name)) and int(m[1]) < VC_MAX and int(m[2]) < VC_MAX:
                vc_w[int(m[1]) * VC_MAX + int(m[2])] = w
            elif name == "QU":
                qu = w
            elif name == "bingo":
                continue  # a record only: train_leaves folds its term into table entries; no leave adds it
            else:
                return None
        counts = array("i")
        for key in leaves.table:
            if not 1 <= len(key) <= 12 or not all(ch == "?" or "A" <= ch <= "Z" for ch in key):
                return None
            row = [0] * 27
            for ch in key:
                row[0 if ch == "?" else ord(ch) - 64] += 1
            if key != "".join(chr(64 + t) * row[t] for t in range(1, 27)) + "?" * row[0]:
                return None  # not canonical: Python would never find it, C would
            counts.extend(row)
        model = _fastgen.leaves(tile_w, vc_w, qu, counts, array("i", leaves.table.values()))
    except (AttributeError, OverflowError, TypeError, ValueError):
        return None
    if len(_compiled) > 16:
        _compiled.clear()
    _compiled[id(leaves)] = (leaves, model)
    return model


def _expressible(flt: MoveFilter, n: int) -> bool:
    """Whether the C filters mean what engine.plays.matches means: a square on the board and
    only letters to contain (C would take an off-board square for none, and skip other
    characters; matches finds no play then)."""
    on_board = flt.square is None or all(1 <= x <= n for x in flt.square)
    return on_board and all("A" <= ch <= "Z" for ch in flt.contains.upper())


def _ranked_by_equity(pos: Position, lex: Lexicon, query: Query, leaves: SubrackValues) -> Found:
    """One search by equity, its heap seeded with the best rivals' keys."""
    seeds = sorted(query.rivals, reverse=True)[: query.limit]
    args = _leave_args(leaves)
    check_deadline(query.deadline)
    if query.count:  # every play is visited for the count; only those that can rank come back
        total, raws, _ = generate(pos.rules, lex, pos.cells, pos.rack, query.limit, seeds, query.filtered,
                                  premiums=query.premiums, deadline=query.deadline, leaves=args)
        moves, subracks = by_equity(pos, raws, leaves, query.limit, query.rivals)
        return Found(moves, total, subracks)
    best = top_by_equity(pos.rules, lex, pos.cells, pos.rack, query.limit, args, seeds, query.filtered,
                         query.premiums, query.deadline)
    n = pos.rules.size
    moves, subracks = beside_rivals(ranked_moves(n, best), [r[6] for r in best], leaves, query.rivals,
                                    query.limit)
    return Found(moves, None, subracks)


def board_scans(n: int, cells: list[int], lex: Lexicon) -> tuple[list[list[int]], list[list[int]]]:
    """engine.verify's two scans of a board in C (``_fastgen.findings``): the groups of tiles
    joined across or down (each sorted, in order of their first square), and the runs of two or
    more tiles, across then down, that ``lex`` does not hold (each a list of its squares)."""
    assert _fastgen is not None
    groups, unknown = _fastgen.findings(n, bytes(cells), lex.mask, lex.first, lex.child, lex.root)
    return groups, unknown


def ranked_move(n: int, ranked: Ranked | RankedEquity) -> Move:
    """A Move from a play ranked in C (with leave values a seventh item follows, not needed here)."""
    return Move(ranked[2], ranked[3], "down" if ranked[1] else "across", ranked[4], tiles_at(n, ranked[5]), ranked[0])


# The fields _fastgen.moves sets, in this order, from (row, col, direction, word, tiles, score):
# the Move dataclass's own, in its __init__'s order, none with a default or a post-init step that
# __init__ would run. Checked here, so a change to Move cannot make wrong Moves silently.
_MOVE_FIELDS = ("row", "col", "direction", "word", "tiles", "score")
if (tuple(f.name for f in fields(Move)) != _MOVE_FIELDS or not all(f.init for f in fields(Move))
        or hasattr(Move, "__post_init__")):
    raise RuntimeError("engine.plays.Move changed: update _fastgen.moves and _MOVE_FIELDS")


def ranked_moves(n: int, ranked: list[Ranked] | list[RankedEquity]) -> list[Move]:
    """The Moves of plays ranked in C, as :func:`ranked_move` makes them, made in C: a Move's
    fields set one by one from Python were a third of a no-blank top-20 search's time."""
    return _fastgen.moves(Move, ranked, tiles_known(n), partial(tiles_at, n), _MOVE_FIELDS,  # type: ignore[no-any-return]
                          "across", "down")


# ------------------------------------------------------------------- the C core's calls


# Leave values as the C search takes them: (values, strides, drops, scale).
LeaveArgs = tuple[array, array, array, int]


def _leave_args(leaves: SubrackValues) -> LeaveArgs:
    """The values for the C search (built once per table, kept in ``leaves.prepared``):
    (values, strides, drops, scale), where ``drops[k]`` is how many whole points less than the
    best leave a play of ``k`` tiles keeps at best."""
    if leaves.prepared is None:
        rack, strides, values = leaves.rack, leaves.strides, leaves.values
        best_by_k: dict[int, int] = {}
        for i in range(1, len(values)):
            k = sum((i // strides[t]) % (n + 1) for t, n in enumerate(rack) if n)
            best_by_k[k] = max(best_by_k.get(k, values[i]), values[i])
        best = max(best_by_k.values(), default=0)
        drops = [0] * (MAX_N + 1)
        for k, v in best_by_k.items():
            if k <= MAX_N:
                drops[k] = (best - v) // 1000
        leaves.prepared = (array("i", values), array("i", strides), array("i", drops), 1000)
    return leaves.prepared  # type: ignore[return-value]


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


def prepare(lex: Lexicon) -> None:
    _packed_gaddag(lex)


def _packed_gaddag(lex: Lexicon) -> object:
    """The list's GADDAG packed for the C walk (engine._fastgen.pack: 12 bytes an edge, ~15 MB
    for the default list) with the DAWG's words' letters (~3 MB; where no word can take a whole
    rack) and its long words by their letters (~6 MB; a full rack's whole-rack plays): built on
    first use or by prepare(), kept for the nine lists used last while they live. Nothing here
    holds a list: one replaced (its file changed) takes its packed copy with it."""
    g, d = lex.gaddag, lex.dawg
    key = (id(g), id(d))  # the copy holds both automata's data
    with _packs_lock:
        kept = _packs.get(key)
        if kept is not None:
            _packs.move_to_end(key)
            return kept[0]
    packed = _fastgen.pack(g.mask, g.first, g.child, g.root, d.mask, d.first, d.child, d.root)
    with _packs_lock:
        if key not in _packs:  # another thread may have packed it meanwhile: keep one
            # dropped as either automaton is freed (before its id can be reused)
            ends = tuple(weakref.finalize(a, _forget_pack, key) for a in (g, d))
            for end in ends:
                end.atexit = False
            _packs[key] = (packed, ends)
            while len(_packs) > _PACKS_KEPT:  # a service's default list stays while user lists come and go
                for end in _packs.popitem(last=False)[1][1]:
                    end.detach()
        _packs.move_to_end(key)
        return _packs[key][0]


def _forget_pack(key: tuple[int, int]) -> None:
    with _packs_lock:  # reentrant: a collection inside the locked block above can run this
        kept = _packs.pop(key, None)
    for end in kept[1] if kept else ():
        end.detach()


_PACKS_KEPT = 9
# (id(gaddag), id(dawg)) -> (its packed copy, the finalizers that drop it), the last used last
_packs: OrderedDict[tuple[int, int], tuple[object, tuple[weakref.finalize, ...]]] = OrderedDict()
_packs_lock = threading.RLock()


def generate(
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
    leaves: LeaveArgs | None = None,
) -> tuple[int, list[RawPlay], list[int]]:
    """The plays of the board ``cells`` (row by row) in ``views`` (ACROSS, DOWN or BOTH):
    (number of plays, plays, scores).

    ``keep``: -1 returns every play, in engine.movegen's order (the across view's anchors,
    then the down view's), or with ``scores`` ``[s]`` those scoring at least s (a score, even
    with ``leaves``; every play still counted); 0 none (count only); N > 0 keeps a min-heap
    of the best N scores, seeded with ``scores`` (at most N, carried over from another call),
    and returns every play that scores at least the heap's minimum when it is full (all the
    plays found otherwise); the returned scores are the heap's contents (with ``keep`` -1 or
    0, ``scores`` as given). The count is of all plays that
    pass ``flt`` (filters are applied inside the search, before a play is counted or kept).
    ``prune`` (with keep > 0): best-first over the anchors of the views, stopping once no
    anchor's upper bound reaches the heap's minimum; the plays that can rank in the top N are
    the same, the count is then only of the plays visited. Past ``deadline`` (a
    ``time.monotonic()`` value) the search stops with TimeBudgetExceeded. With ``leaves`` the heap,
    ``scores`` and the plays kept are by equity (``score * 1000 + leave value``) instead
    (``leaves``: :func:`_leave_args`).
    """
    return _call(rules, lex, cells, rack, keep, scores, flt, views, prune, premiums, False,  # type: ignore[no-any-return]
                     deadline, leaves)


def top_by_score(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], limit: int,
    flt: MoveFilter | None = None, premiums: bool = True, deadline: float | None = None,
) -> list[Ranked]:
    """The best ``limit`` plays (``limit`` > 0) by the pruned best-first search, in the ranking
    order of :meth:`engine.plays.Move.sort_key` (ties broken in C exactly as there), each as
    ``(score, down, row, col, word, (board square << 8 | code, ...))`` (see :data:`Ranked`)."""
    return _call(rules, lex, cells, rack, limit, None, flt, BOTH, True, premiums, True,  # type: ignore[no-any-return]
                     deadline)[1]


def top_by_equity(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], limit: int, leaves: LeaveArgs,
    seeds: list[int], flt: MoveFilter | None = None, premiums: bool = True, deadline: float | None = None,
) -> list[RankedEquity]:
    """As :func:`top_by_score`, by equity (``score * 1000 + leave value``, ties in the same order),
    each play followed by the index of the tiles it uses (into ``leaves``); the heap is seeded
    with ``seeds`` (at most ``limit`` equities of other candidates: plays that cannot beat them
    are left out)."""
    return _call(rules, lex, cells, rack, limit, seeds, flt, BOTH, True, premiums, True,  # type: ignore[no-any-return]
                     deadline, leaves)[1]


def _call(
    rules: Ruleset, lex: Lexicon, cells: list[int], rack: list[int], keep: int, scores: list[int] | None,
    flt: MoveFilter | None, views: int, prune: bool, premiums: bool, rank: bool, deadline: float | None = None,
    leaves: LeaveArgs | None = None,
) -> tuple[int, list, list[int]]:
    if _fastgen is None:
        raise RuntimeError("engine._fastgen is not built")
    lm, wm, starts, values = _ruleset_buffers(rules, premiums)
    try:
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
            _packed_gaddag(lex),
            keep,
            prune,
            rank,
            [] if scores is None else list(scores),
            *_filter_args(rules.size, flt),
            *((time.monotonic, deadline) if deadline is not None else (None, 0.0) if leaves else ()),
            *(leaves or ()),
        )
    except TimeoutError:  # the C search checks the deadline itself, between anchors
        raise TimeBudgetExceeded(BUDGET_MESSAGE) from None


def upwords(
    rules: Ruleset, lex: Lexicon, cells: list[int], heights: list[int], rack: list[int], plural_rule: bool = True,
    deadline: float | None = None,
) -> list[RawPlay]:
    """Every Upwords play, exactly as :func:`engine.upwords.generate` emits them (same plays,
    scores and order), generated in C."""
    if _fastgen is None:
        raise RuntimeError("engine._fastgen is not built")
    d = lex.dawg
    try:
        return _fastgen.upwords(  # type: ignore[no-any-return]
            rules.size, bytes(cells), bytes(heights), array("i", rules.start), array("i", rack),
            rules.rack_size, rules.bonus_points, rules.max_height, rules.qu_bonus, plural_rule,
            d.mask, d.first, d.child, d.root, *((time.monotonic, deadline) if deadline is not None else ()),
        )
    except TimeoutError:  # checked before each start square's walk (issue 21: 174-758 ms over a 50 ms budget)
        raise TimeBudgetExceeded(BUDGET_MESSAGE) from None


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
