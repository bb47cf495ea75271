"""The search's vocabulary: positions, plays, filters and queries, shared by the search seam
(:mod:`engine.search`), both of its implementations and every caller.

This module sits below all of them and imports none of them, so a caller can name a
:class:`Position` or a :class:`Query` without importing a generator.

Ranking order (:meth:`Move.sort_key`): highest score first; ties are broken by direction
(across before down), then row, then column (of the main word's first square), then the word
text compared character by character (uppercase before lowercase, so a real tile ranks before
a blank standing for the same letter). By equity the key is ``score * 1000 + leave value``
first, then the score, then the same order. Identical input always gives identical output.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from .board import BLANK, LETTER_MASK, check_tile_counts, parse_board, parse_heights, parse_rack
from .errors import InvalidBoardError, TileCountError, TimeBudgetExceeded
from .notation import square_text
from .rules import LETTERS, Ruleset
from .scoring import word_text

# A play as a generator emits it: (score, down, line, start, length, placements): line and
# start are the view row and column of the main word's first square (the view is the board,
# or its transpose for down plays), placements (square index in the view, code). Cheap to
# build; materialised into a Move only for the plays that are returned.
RawPlay = tuple[int, bool, int, int, int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    letter: str  # uppercase letter the tile shows ("Qu" in Upwords)
    blank: bool = False


@dataclass(frozen=True)
class Move:
    row: int
    col: int
    direction: str  # "across" or "down"
    word: str  # whole main word, uppercase, blanks lowercase
    tiles: tuple[Tile, ...]
    score: int

    @property
    def tiles_used(self) -> int:
        return len(self.tiles)

    @property
    def notation(self) -> str:
        """Row number first for across (``8F QUIXOTE``), column letter first for down (``F8``)."""
        return f"{square_text(self.row, self.col, self.direction)} {self.word}"

    def sort_key(self) -> tuple:
        return (-self.score, self.direction != "across", self.row, self.col, self.word)


@dataclass(frozen=True)
class MoveFilter:
    """Server-side filters, applied before the limit."""

    min_length: int = 0  # main word length
    contains: str = ""  # letters the main word must contain (with multiplicity)
    square: tuple[int, int] | None = None  # 1-indexed square a new tile must cover
    no_blanks: bool = False

    def active(self) -> bool:
        return bool(self.min_length or self.contains or self.square or self.no_blanks)


@dataclass(frozen=True)
class Position:
    """A parsed, checked position: what every request is derived from (no state kept)."""

    rules: Ruleset
    cells: list[int]
    rack: list[int]
    heights: list[int] | None = None  # stacking games only
    plural_rule: bool = True  # Upwords: a lone S may not just pluralise a word


def position(
    rules: Ruleset,
    board: list[str] | None,
    rack: str,
    heights: list[str] | None = None,
    plural_rule: bool = True,
) -> Position:
    """Parse and check a board (``None``: empty), a rack and, for stacking games, heights."""
    cells = parse_board(rules, board)
    counts = parse_rack(rules, rack)
    check_tile_counts(rules, cells, counts)  # stacks: only the visible top tiles are known
    if rules.stacking:
        stacks = parse_heights(rules, heights, cells)
        if sum(stacks) + sum(counts) > rules.total_tiles:
            raise TileCountError(
                f"{sum(stacks)} tiles in stacks and {sum(counts)} on the rack; "
                f"{rules.name} has only {rules.total_tiles}",
                board=sum(stacks), rack=sum(counts), available=rules.total_tiles,
            )
        return Position(rules, cells, counts, stacks, plural_rule)
    if heights is not None:
        raise InvalidBoardError(f"{rules.name} has no stacks; leave out heights", field="heights")
    return Position(rules, cells, counts)


# ------------------------------------------------------------------------------- queries


# A tile code's rack slot: 0 for a blank, else its letter (1..26).
TILE_OF_CODE = [0 if code & BLANK else code & LETTER_MASK if (code & LETTER_MASK) < 27 else 0 for code in range(256)]


def subrack_strides(rack: Sequence[int]) -> tuple[list[int], int]:
    """The index of a sub-rack in :class:`SubrackValues`: (strides per tile, number of
    sub-racks). Tiles used ``u`` have the index ``sum(u[t] * strides[t])`` (mixed radix over
    the rack's counts); index 0 uses no tile."""
    strides = [0] * 27
    size = 1
    for t, n in enumerate(rack):
        if n:
            strides[t] = size
            size *= n + 1
    return strides, size


class SubrackValues:
    """What each play is worth beyond its score, by the tiles it uses: ``values[i]`` (in
    thousandths of a point) for the tiles with index ``i`` (:func:`subrack_strides`). A play's
    equity key is ``score * 1000 + values[index]``. ``prepared`` is where an implementation of
    the search keeps its own form of the values (built once per table)."""

    __slots__ = ("rack", "values", "strides", "prepared", "_stride_of_code")

    def __init__(self, rack: Sequence[int], values: Sequence[int]) -> None:
        self.rack = list(rack)
        self.strides, size = subrack_strides(self.rack)
        if len(values) != size:
            raise ValueError(f"{len(values)} leave values for {size} sub-racks")
        self.values = list(values)
        self.prepared: object = None
        self._stride_of_code = [self.strides[t] for t in TILE_OF_CODE]

    def index(self, tiles: Iterable[tuple[int, int]]) -> int:
        """The index of a play's ``(square, code)`` tiles: no sorting (a multiset's sum)."""
        by_code = self._stride_of_code
        return sum([by_code[code] for _, code in tiles])

    @property
    def best_play_leave(self) -> int:
        """The best value a play (one tile or more) can keep."""
        return max(self.values[1:], default=0)


class Query(NamedTuple):
    """What to ask the search (:func:`engine.search.ranked`).

    ``limit``: how many plays, ranked (1: the top play only; 0: none, for a count).
    ``leaves``: rank by equity with these values, else by score. ``rivals``: equity keys of
    turns outside the search (exchanges, the pass) that compete for the same ``limit`` places:
    a play that cannot rank among the best ``limit`` with them may be left out (so only the
    best ``limit`` of plays and rivals merged is defined; engine.strategy.equity merges them). ``count``: also
    count every legal play that passes ``filters``. ``deadline``: a ``time.monotonic()`` value;
    past it the search raises TimeBudgetExceeded. (A tuple: made once a search, it costs a
    third of a frozen dataclass.)
    """

    limit: int = 20
    filters: MoveFilter | None = None
    premiums: bool = True
    count: bool = False  # type: ignore[assignment]  # (hides tuple.count, which nothing asks of a Query)
    deadline: float | None = None
    leaves: SubrackValues | None = None
    rivals: tuple[int, ...] = ()

    @property
    def filtered(self) -> MoveFilter | None:
        """The filters when any is set, else None."""
        return self.filters if self.filters is not None and self.filters.active() else None


class Found(NamedTuple):
    """The search's answer: the best plays, ranked; with ``count`` the number of legal plays
    (after filters), else None; by equity, each play's sub-rack index (into the query's
    ``leaves.values``), else None."""

    moves: list[Move]
    total: int | None
    subracks: list[int] | None = None


BUDGET_MESSAGE = "the search ran past its time budget; ask for fewer plays or drop count/filters"


# ------------------------------------------------------------- the single best turn by equity


class LeaveModel(Protocol):
    """Learned leave values as the search needs them (engine.strategy.leaves.LeaveValues is
    one): ``milli`` values a leave (27 counts, thousandths of a point); a compiled search may
    hold ``weights`` and ``table`` itself instead (the same values, looked up in C)."""

    @property
    def weights(self) -> dict[str, int]: ...

    @property
    def table(self) -> dict[str, int]: ...

    def milli(self, counts: Sequence[int]) -> int: ...


END_RULES = ("none", "going_out", "per_tile")


def end_milli(rule: str, kept: Sequence[int], unseen_face: int, face: Sequence[int], penalty: int) -> int:
    """What tiles ``kept`` are worth once the bag is empty, by the game's end ``rule``
    (engine.strategy.equity explains each): ``going_out``: going out wins twice the unseen
    tiles' face value (``unseen_face``), tiles kept cost twice theirs; ``per_tile``: each tile
    kept costs ``penalty`` points; ``none``: nothing."""
    if rule == "going_out":
        if not any(kept):
            return 2000 * unseen_face
        return -2000 * sum(face[i] * n for i, n in enumerate(kept))
    if rule == "per_tile":
        return -1000 * penalty * sum(kept)
    return 0


class TurnQuery(NamedTuple):
    """The question of a rollout ply and of the equity player (:func:`engine.search.best_turn`):
    the single best turn by equity, a play or (when ``exchange_max`` > 0) an exchange of 1 to
    ``exchange_max`` tiles; the pass when there is neither. While ``bag_size`` > 0 a leave is
    worth ``leaves``' value, once the bag is empty the ``end_rule``'s (:func:`end_milli`)."""

    leaves: LeaveModel
    bag_size: int
    exchange_max: int = 0  # tiles an exchange may throw back now; 0: no exchange
    end_rule: str = "none"  # one of END_RULES
    unseen_face: int = 0  # going_out: the face value of the tiles unseen by the player
    penalty: int = 0  # per_tile: points a tile kept costs
    deadline: float | None = None


class TopTurn(NamedTuple):
    """The best turn by equity: ``kind`` "play" (``move``), "exchange" (``thrown``, canonical
    text) or "pass"; ``leave_milli`` the value of the tiles it keeps. Ties: a play before an
    exchange of the same equity, plays in the ranking order, exchanges by the tiles thrown
    (alphabetical, blanks last)."""

    kind: str
    move: Move | None
    thrown: str
    score: int
    leave_milli: int

    @property
    def equity_milli(self) -> int:
        return self.score * 1000 + self.leave_milli


def subrack_values(rack: Sequence[int], q: TurnQuery, face: Sequence[int]) -> SubrackValues:
    """Every sub-rack's value for ``q`` (the tiles kept valued by the leaves or the end rule),
    in Python: the reference for the compiled search's own."""
    strides, size = subrack_strides(rack)
    held = [t for t in range(27) if rack[t]]
    values = [0] * size
    for i in range(size):
        kept = list(rack)
        for t in held:
            kept[t] -= (i // strides[t]) % (rack[t] + 1)
        values[i] = q.leaves.milli(kept) if q.bag_size > 0 else end_milli(q.end_rule, kept, q.unseen_face, face,
                                                                           q.penalty)
    return SubrackValues(rack, values)


def best_exchange(leaves: SubrackValues, exchange_max: int) -> tuple[int, str] | None:
    """The best exchange of 1 to ``exchange_max`` tiles as (value of the tiles kept, tiles
    thrown), the tiles thrown first alphabetically among equals; None when there is none."""
    rack, strides = leaves.rack, leaves.strides
    best: tuple[int, str] | None = None
    for i in range(1, len(leaves.values)):
        used = [(i // strides[t]) % (rack[t] + 1) if rack[t] else 0 for t in range(27)]
        if not 1 <= sum(used) <= exchange_max:
            continue
        thrown = "".join(LETTERS[t - 1] * used[t] for t in range(1, 27)) + "?" * used[0]
        v = leaves.values[i]
        if best is None or v > best[0] or (v == best[0] and thrown < best[1]):
            best = (v, thrown)
    return best


def top_turn(play: Move | None, play_leave: int, exchange: tuple[int, str] | None, keep_all: int) -> TopTurn:
    """The best of the best play (with the value it keeps) and the best exchange; the pass
    (keeping every tile, worth ``keep_all``) when there is neither."""
    if play is not None and (exchange is None or play.score * 1000 + play_leave >= exchange[0]):
        return TopTurn("play", play, "", play.score, play_leave)
    if exchange is not None:
        return TopTurn("exchange", None, exchange[1], 0, exchange[0])
    return TopTurn("pass", None, "", 0, keep_all)


def check_deadline(deadline: float | None) -> None:
    """Raise TimeBudgetExceeded once ``deadline`` (a ``time.monotonic()`` value) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise TimeBudgetExceeded(BUDGET_MESSAGE)


# ----------------------------------------------------------------- plays as generated


def raw_squares(n: int, raw: RawPlay) -> list[tuple[int, int]]:
    """A raw play's placements as (square index, code) on the real board."""
    _, down, line, _, _, placed = raw
    if not down:
        return [(line * n + off % n, code) for off, code in placed]
    return [((off % n) * n + line, code) for off, code in placed]


# Tiles are immutable: one object per (board size, square, code), shared by every Move: per
# board size, keyed by ``square << 8 | code`` (an int, so a play's tiles are looked up by ``map``
# in C, where plays are made by the thousand). At most n * n * 128 a board size (codes are below
# 128): 28,800 for 15 x 15.
_TILES: dict[int, dict[int, Tile]] = {}
# A tile code's text without a Qu tile (scoring.tile_text): uppercase, a blank lowercase.
_TEXT = ["?"] * 128
for _k, _ch in enumerate(LETTERS, start=1):
    _TEXT[_k], _TEXT[_k | BLANK] = _ch, _ch.lower()


def tiles_known(n: int) -> dict[int, Tile]:
    """The shared Tiles made so far for an ``n`` x ``n`` board, by ``square << 8 | code``."""
    known = _TILES.get(n)
    if known is None:
        known = _TILES[n] = {}
    return known


def tiles_at(n: int, keys: Sequence[int]) -> tuple[Tile, ...]:
    """The shared Tiles of ``square << 8 | code`` keys on an ``n`` x ``n`` board."""
    known = tiles_known(n)
    tiles = tuple(map(known.get, keys))
    if all(tiles):
        return tiles  # type: ignore[return-value]  # all(): no None is left
    for key in keys:
        if key not in known:
            i, code = key >> 8, key & 255
            known[key] = Tile(i // n + 1, i % n + 1, LETTERS[(code & LETTER_MASK) - 1], bool(code & BLANK))
    return tuple(map(known.__getitem__, keys))


def materialise(rules: Ruleset, cells: list[int], raw: RawPlay) -> Move:
    n = rules.size
    score, down, line, start, length, placed = raw
    if down:  # view square off is (row off % n, column line) on the board
        new = {(off % n) * n + line: code for off, code in placed}
        first, step, row, col = start * n + line, n, start + 1, line + 1
    else:
        base = line * n
        new = {base + off % n: code for off, code in placed}
        first, step, row, col = base + start, 1, line + 1, start + 1
    codes = [new.get(i) or cells[i] for i in range(first, first + step * length, step)]
    word = word_text(rules, codes, list(range(length))) if rules.qu_tile else "".join([_TEXT[c] for c in codes])
    return Move(row, col, "down" if down else "across", word, tiles_at(n, [i << 8 | new[i] for i in sorted(new)]), score)


def matches(rules: Ruleset, cells: list[int], raw: RawPlay, flt: MoveFilter) -> bool:
    """Whether a generated play passes the filters."""
    if raw[4] < flt.min_length:
        return False
    squares = raw_squares(rules.size, raw)
    if flt.no_blanks and any(code & BLANK for _, code in squares):
        return False
    if flt.square:
        r, c = flt.square
        if (r - 1) * rules.size + (c - 1) not in {i for i, _ in squares}:
            return False
    if flt.contains:
        word = materialise(rules, cells, raw).word.upper()
        for ch in set(flt.contains.upper()):
            if word.count(ch) < flt.contains.upper().count(ch):
                return False
    return True


def top_moves(pos: Position, raws: list[RawPlay], limit: int) -> list[Move]:
    """The best ``limit`` of ``raws`` by score, ranked, without sorting everything: find the
    limit-th best score, then order the few plays at or above it by the full tie-break key."""
    if not raws or limit <= 0:
        return []
    cutoff = heapq.nlargest(limit, (r[0] for r in raws))[-1]
    best = [materialise(pos.rules, pos.cells, r) for r in raws if r[0] >= cutoff]
    best.sort(key=Move.sort_key)
    return best[:limit]
