"""Finding, ranking and checking plays: the engine's public entry points.

Ranking: highest score first; ties are broken by direction (across before down), then row,
then column (of the main word's first square), then the word text compared character by
character (uppercase before lowercase, so a real tile ranks before a blank standing for the
same letter). Identical input always gives identical output.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from . import native, upwords
from .board import (
    BLANK,
    LETTER_MASK,
    check_tile_counts,
    parse_board,
    parse_heights,
    parse_rack,
)
from .errors import IllegalPlayError, InvalidBoardError, TileCountError, TimeBudgetExceeded
from .lexicon import Lexicon
from .movegen import RawPlay, view_search, views
from .notation import square_text
from .rules import LETTERS, Ruleset
from .scoring import Breakdown, score_play, tile_text, word_runs, word_text


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


def _raw_squares(n: int, raw: RawPlay) -> list[tuple[int, int]]:
    """A raw play's placements as (square index, code) on the real board."""
    _, down, line, _, _, placed = raw
    if not down:
        return [(line * n + off % n, code) for off, code in placed]
    return [((off % n) * n + line, code) for off, code in placed]


# Tiles are immutable: one object per (board size, square, code), shared by every Move.
_tiles: dict[tuple[int, int, int], Tile] = {}
# A tile code's text without a Qu tile (scoring.tile_text): uppercase, a blank lowercase.
_TEXT = ["?"] * 128
for _k, _ch in enumerate(LETTERS, start=1):
    _TEXT[_k], _TEXT[_k | BLANK] = _ch, _ch.lower()


def _tile(n: int, i: int, code: int) -> Tile:
    key = (n, i, code)
    t = _tiles.get(key)
    if t is None:
        if len(_tiles) > 100_000:
            _tiles.clear()
        t = _tiles[key] = Tile(i // n + 1, i % n + 1, LETTERS[(code & LETTER_MASK) - 1], bool(code & BLANK))
    return t


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
    tiles = tuple([_tiles.get((n, i, new[i])) or _tile(n, i, new[i]) for i in sorted(new)])
    return Move(row, col, "down" if down else "across", word, tiles, score)


def _ranked_move(n: int, ranked: native.Ranked | native.RankedEquity) -> Move:
    """A Move from the compiled core's ranked play (native.search with rank; with leave
    values a seventh item follows, not needed here)."""
    score, down, row, col, word, placed = ranked[0], ranked[1], ranked[2], ranked[3], ranked[4], ranked[5]
    tiles = tuple([_tiles.get((n, i, code)) or _tile(n, i, code) for i, code in placed])
    return Move(row, col, "down" if down else "across", word, tiles, score)


def _raw_matches(rules: Ruleset, cells: list[int], raw: RawPlay, flt: MoveFilter) -> bool:
    if raw[4] < flt.min_length:
        return False
    squares = _raw_squares(rules.size, raw)
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


@dataclass(frozen=True)
class Result:
    moves: list[Move]
    total: int | None  # number of distinct legal plays (after filters), when counted


BUDGET_MESSAGE = "the search ran past its time budget; ask for fewer plays or drop count/filters"


def check_deadline(deadline: float | None) -> None:
    """Raise TimeBudgetExceeded once ``deadline`` (a ``time.monotonic()`` value) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise TimeBudgetExceeded(BUDGET_MESSAGE)


def all_raw_plays(
    pos: Position, lex: Lexicon, premiums: bool = True, deadline: float | None = None
) -> list[RawPlay]:
    """Every legal play, unranked (the generator's output, for tests and counting).
    ``deadline`` (a ``time.monotonic()`` value) is checked between anchors."""
    out: list[RawPlay] = []

    def emit(score: int, down: bool, line: int, start: int, length: int, placed: tuple) -> None:
        out.append((score, down, line, start, length, placed))

    rack = list(pos.rack)
    if pos.rules.stacking:
        assert pos.heights is not None
        if native.available:  # the same plays in the same order, generated in C (0.1-0.3 ms)
            check_deadline(deadline)
            return native.upwords(pos.rules, lex, pos.cells, pos.heights, rack, pos.plural_rule)
        upwords.generate(pos.rules, lex, pos.cells, pos.heights, rack, emit, pos.plural_rule,
                         lambda: check_deadline(deadline))
        return out
    if native.available:
        return _native_plays(pos, lex, premiums, -1, deadline)[1]
    for view in views(pos.rules, pos.cells, premiums):
        bounds, run = view_search(pos.rules, lex, view, rack, emit, [-1])
        for _, anchor in bounds:
            check_deadline(deadline)
            run(anchor)
    return out


@contextmanager
def _compiled_deadline() -> Iterator[None]:
    """The compiled search checks the deadline itself (between anchors) and stops with
    TimeoutError: the same error as the Python checks."""
    try:
        yield
    except TimeoutError:
        raise TimeBudgetExceeded(BUDGET_MESSAGE) from None


def _native_plays(
    pos: Position,
    lex: Lexicon,
    premiums: bool,
    keep: int,
    deadline: float | None,
    flt: MoveFilter | None = None,
    count: bool = True,
) -> tuple[int, list[RawPlay]]:
    """The compiled generator over both views: (number of plays, plays), filtered by ``flt``.
    With keep = N > 0 the plays returned include every play that ranks in the top N (ties
    included). Without ``count`` (and keep > 0) the search is best-first and pruned, and the
    number returned is not the number of legal plays."""
    check_deadline(deadline)
    if keep > 0 and not count:
        with _compiled_deadline():
            _, best, _ = native.search(pos.rules, lex, pos.cells, pos.rack, keep, None, flt, prune=True,
                                       premiums=premiums, deadline=deadline)
        return -1, best
    total = 0
    found: list[RawPlay] = []
    scores: list[int] = []
    for view in (native.ACROSS, native.DOWN):
        check_deadline(deadline)
        with _compiled_deadline():
            n, plays, scores = native.search(pos.rules, lex, pos.cells, pos.rack, keep, scores, flt, view,
                                             premiums=premiums, deadline=deadline)
        total += n
        found += plays
    if keep > 0 and len(scores) == keep:
        floor = min(scores)
        found = [r for r in found if r[0] >= floor]
    return total, found


def find_moves(
    pos: Position,
    lex: Lexicon,
    limit: int = 20,
    premiums: bool = True,
    flt: MoveFilter | None = None,
    count: bool = True,
    deadline: float | None = None,
) -> Result:
    """The best ``limit`` plays, ranked, and (when ``count``) the number of legal plays.

    A search without ``count`` is best-first: anchors are visited in order of an upper bound
    of their plays' scores and the search stops when no bound left can reach the
    ``limit``-th best score found (ties included, so the ranking is exactly the full one's).
    With the compiled core (engine.native) that search, filters included, runs in C, and a
    counted one enumerates every play in C; only plays that can reach the top ``limit`` come
    back to Python. Without it, a filtered or counted search enumerates everything, and so
    does Upwords, whose plays are few. ``deadline`` (``time.monotonic()``) raises TimeBudgetExceeded when passed.
    """
    filtered = flt is not None and flt.active()
    if native.available and not pos.rules.stacking and limit > 0:
        # the compiled generator enumerates everything faster than Python prunes; it applies
        # the filters, counts every play that passes, and hands back only those that can rank
        # in the top ``limit``
        if not count and not pos.rules.qu_tile:  # best-first, pruned, ranked in C
            check_deadline(deadline)
            with _compiled_deadline():
                ranked = native.ranked(pos.rules, lex, pos.cells, pos.rack, limit, flt if filtered else None, premiums,
                                       deadline)
            return Result([_ranked_move(pos.rules.size, r) for r in ranked], None)
        total, raws = _native_plays(pos, lex, premiums, limit, deadline, flt if filtered else None, count)
        return Result(top_moves(pos, raws, limit), total if count else None)
    if count or filtered or pos.rules.stacking:
        raws = all_raw_plays(pos, lex, premiums, deadline)
        if filtered:
            raws = [r for r in raws if _raw_matches(pos.rules, pos.cells, r, flt)]  # type: ignore[arg-type]
        return Result(top_moves(pos, raws, limit), len(raws) if count else None)
    return Result(top_moves(pos, best_raw_plays(pos, lex, limit, premiums, deadline), limit), None)


def best_raw_plays(
    pos: Position, lex: Lexicon, limit: int, premiums: bool = True, deadline: float | None = None
) -> list[RawPlay]:
    """Every play that can rank in the top ``limit`` (and maybe a few more), best-first."""
    found: list[RawPlay] = []
    scores: list[int] = []  # min-heap of the best ``limit`` scores so far
    floor = [-1]

    def emit(score: int, down: bool, line: int, start: int, length: int, placed: tuple) -> None:
        found.append((score, down, line, start, length, placed))
        if len(scores) < limit:
            heapq.heappush(scores, score)
        elif score > scores[0]:
            heapq.heapreplace(scores, score)
        if len(scores) == limit:
            floor[0] = scores[0]

    rack = list(pos.rack)
    tasks = []
    for view in views(pos.rules, pos.cells, premiums):
        bounds, run = view_search(pos.rules, lex, view, rack, emit, floor)
        tasks += [(bound, run, anchor) for bound, anchor in bounds]
    tasks.sort(key=lambda t: -t[0])
    for bound, run, anchor in tasks:
        if bound < floor[0]:
            break
        check_deadline(deadline)
        run(anchor)
    return [r for r in found if r[0] >= floor[0]]


def top_moves(pos: Position, raws: list[RawPlay], limit: int) -> list[Move]:
    """Rank without sorting everything: find the limit-th best score, then order the few
    plays at or above it by the full tie-break key."""
    if not raws or limit <= 0:
        return []
    cutoff = heapq.nlargest(limit, (r[0] for r in raws))[-1]
    best = [materialise(pos.rules, pos.cells, r) for r in raws if r[0] >= cutoff]
    best.sort(key=Move.sort_key)
    return best[:limit]


def breakdown(pos: Position, move: Move, premiums: bool = True) -> Breakdown:
    n = pos.rules.size
    placements = [
        ((t.row - 1) * n + t.col - 1, (ord(t.letter[0]) - 64) | (BLANK if t.blank else 0))
        for t in move.tiles
    ]
    return score_play(pos.rules, pos.cells, placements, premiums, pos.heights)


# ---------------------------------------------------------------- checking a described play


@dataclass(frozen=True)
class PlayCheck:
    move: Move
    breakdown: Breakdown
    words: list[str]
    invalid_words: list[str]

    @property
    def valid(self) -> bool:
        return not self.invalid_words


def placements_from_word(
    rules: Ruleset, cells: list[int], row: int, col: int, direction: str, word: str
) -> list[tuple[int, int]]:
    """Turn ``word`` written from (row, col) into new-tile placements.

    Uppercase letters are tiles, lowercase letters blanks; a letter on a square that already
    holds a tile must match it (either case), and ``.`` stands for whatever tile is there.
    """
    n = rules.size
    if direction not in ("across", "down"):
        raise IllegalPlayError(f"direction must be 'across' or 'down', not {direction!r}")
    if not word:
        raise IllegalPlayError("the word is empty")
    if rules.qu_tile:  # the Qu tile is one square: QUIZ is written Q I Z on the board
        word = word.replace("QU", "Q").replace("qu", "q").replace("Qu", "Q")
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    out = []
    for k, ch in enumerate(word):
        r, c = row + dr * k, col + dc * k
        if not (1 <= r <= n and 1 <= c <= n):
            raise IllegalPlayError(
                f"{word!r} from {row},{col} {direction} runs off the {n}x{n} board at {r},{c}",
                row=r, col=c,
            )
        i = (r - 1) * n + c - 1
        held = cells[i]
        if ch == ".":
            if not held:
                raise IllegalPlayError(f"'.' at {r},{c} stands for a tile on the board, but the square is empty", row=r, col=c)
            continue
        if not ch.isascii() or not ch.isalpha():
            raise IllegalPlayError(f"unexpected character {ch!r} at {r},{c}", row=r, col=c, letter=ch)
        code = ord(ch.upper()) - 64
        if held and rules.stacking and held & LETTER_MASK == code:
            continue  # the stack is kept as it is
        if held and not rules.stacking:
            if held & LETTER_MASK != code:
                raise IllegalPlayError(
                    f"square {r},{c} already holds {tile_text(rules, held)}, not {ch}",
                    row=r, col=c, letter=ch, held=tile_text(rules, held),
                )
            continue
        if ch.islower():
            if rules.stacking:
                raise IllegalPlayError(f"{rules.name} has no blanks (lowercase {ch!r} at {r},{c})", row=r, col=c, letter=ch)
            code |= BLANK
        out.append((i, code))
    return out


def check_geometry(rules: Ruleset, cells: list[int], placements: list[tuple[int, int]]) -> None:
    """Raise IllegalPlayError naming the square for any placement rule the play breaks."""
    n = rules.size

    def rc(i: int) -> str:
        return f"{i // n + 1},{i % n + 1}"

    if not placements:
        raise IllegalPlayError("the play places no new tile")
    seen = set()
    for i, _ in placements:
        if i in seen:
            raise IllegalPlayError(f"two tiles on square {rc(i)}", row=i // n + 1, col=i % n + 1)
        seen.add(i)
        if cells[i] and not rules.stacking:
            raise IllegalPlayError(
                f"square {rc(i)} already holds {tile_text(rules, cells[i])}", row=i // n + 1, col=i % n + 1
            )
    squares = sorted(seen)
    rows = {i // n for i in squares}
    cols = {i % n for i in squares}
    if len(rows) > 1 and len(cols) > 1:
        a, b = squares[0], next(i for i in squares if i // n != squares[0] // n and i % n != squares[0] % n)
        raise IllegalPlayError(
            f"tiles at {rc(a)} and {rc(b)} are not in one row or column", row=b // n + 1, col=b % n + 1
        )
    step = 1 if len(rows) == 1 else n
    for i in range(squares[0], squares[-1], step):
        if i not in seen and not cells[i]:
            raise IllegalPlayError(f"gap at {rc(i)}: the tiles must be contiguous", row=i // n + 1, col=i % n + 1)
    if not any(cells):
        if not seen & set(rules.start):
            names = " or ".join(rc(s) for s in rules.start)
            raise IllegalPlayError(f"the first play must cover the start square {names}", start=names)
        if len(squares) < 2:
            raise IllegalPlayError("the first play must form a word of at least two letters")
        return

    def touches(i: int) -> bool:
        r, c = divmod(i, n)
        return any(
            0 <= rr < n and 0 <= cc < n and cells[rr * n + cc]
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        ) or (rules.stacking and bool(cells[i]))

    if not any(touches(i) for i in squares):
        raise IllegalPlayError(
            f"the play at {rc(squares[0])} is not connected to any tile on the board",
            row=squares[0] // n + 1, col=squares[0] % n + 1,
        )


def check_rack(rules: Ruleset, rack: list[int], placements: list[tuple[int, int]]) -> None:
    left = list(rack)
    n = rules.size
    for i, code in placements:
        need = 0 if code & BLANK else code & LETTER_MASK
        if left[need] <= 0:
            what = "blank" if need == 0 else LETTERS[need - 1]
            raise IllegalPlayError(
                f"the rack has no {what} left for the tile at {i // n + 1},{i % n + 1}",
                row=i // n + 1, col=i % n + 1, letter="?" if need == 0 else what,
            )
        left[need] -= 1


def check_play(
    pos: Position,
    lex: Lexicon,
    placements: list[tuple[int, int]],
    premiums: bool = True,
    use_rack: bool = True,
) -> PlayCheck:
    """Score a described play, list its invalid words (a phony still gets its score), and
    refuse impossible geometry with a reason naming the square."""
    rules, cells = pos.rules, pos.cells
    if rules.stacking:
        assert pos.heights is not None
        upwords.check_stacking(rules, cells, pos.heights, placements, pos.plural_rule)
    check_geometry(rules, cells, placements)
    if use_rack:
        check_rack(rules, pos.rack, placements)
    n = rules.size
    after = list(cells)
    for i, code in placements:
        after[i] = code
    down, main, crosses = word_runs(n, after, [i for i, _ in placements])
    if len(main) < 2 and not crosses:
        i = placements[0][0]
        raise IllegalPlayError(
            f"the tile at {i // n + 1},{i % n + 1} forms no word of two or more letters",
            row=i // n + 1, col=i % n + 1,
        )
    word_squares = [main] + crosses if len(main) >= 2 else crosses
    words = [word_text(rules, after, w) for w in word_squares]
    invalid = [w for w in words if w.upper() not in lex]
    bd = score_play(rules, cells, placements, premiums, pos.heights)
    start = main[0]
    move = Move(
        start // n + 1, start % n + 1, "down" if down else "across", word_text(rules, after, main),
        tuple(
            Tile(i // n + 1, i % n + 1, LETTERS[(code & LETTER_MASK) - 1], bool(code & BLANK))
            for i, code in sorted(placements)
        ),
        bd.total,
    )
    return PlayCheck(move, bd, words, invalid)


@dataclass(frozen=True)
class Ranking:
    rank: int | None  # 1-based place among all legal plays; None when the play is not one
    best: int | None  # best score on offer; None when there is no legal play
    total: int  # number of legal plays
    better: list[Move]  # plays ranked above it, best first (at most the number asked for)


def rank_play(
    pos: Position, lex: Lexicon, move: Move, premiums: bool = True, deadline: float | None = None,
    better: int = 0,
) -> Ranking:
    """Where ``move`` ranks among all legal plays, and up to ``better`` plays ranked above it
    (all of them, best first, when it is not a legal play)."""
    raws = all_raw_plays(pos, lex, premiums, deadline)
    if not raws:
        return Ranking(None, None, 0, [])
    best = max(r[0] for r in raws)
    n = pos.rules.size
    target = sorted(((t.row - 1) * n + t.col - 1, t.letter, t.blank) for t in move.tiles)
    rank = None
    for r in raws:
        mine = sorted(
            (i, LETTERS[(code & LETTER_MASK) - 1], bool(code & BLANK)) for i, code in _raw_squares(n, r)
        )
        if mine == target:
            above = sum(1 for x in raws if x[0] > r[0])
            ties = [materialise(pos.rules, pos.cells, x) for x in raws if x[0] == r[0]]
            me = materialise(pos.rules, pos.cells, r)
            rank = above + sum(1 for t in ties if t.sort_key() < me.sort_key()) + 1
            break
    k = better if rank is None else min(better, rank - 1)
    return Ranking(rank, best, len(raws), top_moves(pos, raws, k))


def rank_of(
    pos: Position, lex: Lexicon, move: Move, premiums: bool = True, deadline: float | None = None
) -> tuple[int | None, int | None, int]:
    """(1-based rank of ``move`` among all legal plays or None, best score, number of plays)."""
    r = rank_play(pos, lex, move, premiums, deadline)
    return r.rank, r.best, r.total
