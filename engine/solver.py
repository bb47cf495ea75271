"""Finding, ranking and checking plays: the engine's public entry points.

:func:`find_moves` asks the search seam (:mod:`engine.search`) for the best plays by score;
:func:`rank_play` places a given play among every legal play; :func:`check_play` scores a
described play and names what is wrong with it. The ranking order is
:meth:`engine.plays.Move.sort_key`. Identical input always gives identical output.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import search, upwords
from .board import BLANK, LETTER_MASK
from .errors import IllegalPlayError
from .lexicon import Lexicon
from .notation import square_name, square_text
from .plays import Found, Move, MoveFilter, Position, Query, RawPlay, Tile, materialise, raw_squares, top_moves
from .rules import LETTERS, Ruleset
from .scoring import Breakdown, score_play, tile_text, word_runs, word_text

# find_moves' answer: ``moves`` and ``total`` (the number of legal plays after the filters, when
# counted), as the search gives it (making a second object cost more than a top-20 search's
# own Python work).
Result = Found


def find_moves(
    pos: Position,
    lex: Lexicon,
    limit: int = 20,
    premiums: bool = True,
    flt: MoveFilter | None = None,
    count: bool = True,
    deadline: float | None = None,
) -> Result:
    """The best ``limit`` plays by score, ranked, and (when ``count``) the number of legal
    plays (after the filters). ``deadline`` (``time.monotonic()``) raises TimeBudgetExceeded
    when passed. Without ``count`` the search may stop early (best-first, pruned: see
    engine.search), with the same plays as the full enumeration."""
    return search.ranked(pos, lex, Query(limit, flt, premiums, count, deadline))  # (positional: a third cheaper)


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
                f"{word!r} from {square_text(row, col, direction)} {direction} runs off the {n}x{n} board at {square_name(r, c)}",
                row=r, col=c,
            )
        i = (r - 1) * n + c - 1
        held = cells[i]
        if ch == ".":
            if not held:
                raise IllegalPlayError(f"'.' at {square_name(r, c)} stands for a tile on the board, but the square is empty", row=r, col=c)
            continue
        if not ch.isascii() or not ch.isalpha():
            raise IllegalPlayError(f"unexpected character {ch!r} at {square_name(r, c)}", row=r, col=c, letter=ch)
        code = ord(ch.upper()) - 64
        if held and rules.stacking and held & LETTER_MASK == code:
            continue  # the stack is kept as it is
        if held and not rules.stacking:
            if held & LETTER_MASK != code:
                raise IllegalPlayError(
                    f"square {square_name(r, c)} already holds {tile_text(rules, held)}, not {ch}",
                    row=r, col=c, letter=ch, held=tile_text(rules, held),
                )
            continue
        if ch.islower():
            if rules.stacking:
                raise IllegalPlayError(f"{rules.name} has no blanks (lowercase {ch!r} at {square_name(r, c)})", row=r, col=c, letter=ch)
            code |= BLANK
        out.append((i, code))
    return out


def check_geometry(rules: Ruleset, cells: list[int], placements: list[tuple[int, int]]) -> None:
    """Raise IllegalPlayError naming the square for any placement rule the play breaks."""
    n = rules.size

    def rc(i: int) -> str:
        return square_name(i // n + 1, i % n + 1)

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
                f"the rack has no {what} left for the tile at {square_name(i // n + 1, i % n + 1)}",
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
            f"the tile at {square_name(i // n + 1, i % n + 1)} forms no word of two or more letters",
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
    (all of them, best first, when it is not a legal play). Only the plays scoring at least as
    much as ``move`` are looked at, as those are all that can rank above it; every play only
    when it is not among them (not a legal play)."""
    n = pos.rules.size
    target = sorted(((t.row - 1) * n + t.col - 1, t.letter, t.blank) for t in move.tiles)
    total, raws = search.plays_scoring(pos, lex, move.score, premiums, deadline)
    rank = place_among(pos, raws, target, move.score)
    if rank is None:
        raws = search.every_play(pos, lex, premiums, deadline)
        total, rank = len(raws), place_among(pos, raws, target, move.score)
    if not raws:
        return Ranking(None, None, 0, [])
    best = max(r[0] for r in raws)
    k = better if rank is None else min(better, rank - 1)
    return Ranking(rank, best, total, top_moves(pos, raws, k))


def place_among(
    pos: Position, raws: list[RawPlay], target: list[tuple[int, str, bool]], score: int | None = None
) -> int | None:
    """The 1-based rank among ``raws`` of the play whose tiles are ``target`` (sorted
    ``(square, letter, blank)``), or None when it is not one of them.

    ``score``, the play's score when the caller knows it, says where to look first: only plays
    of that score are read tile by tile (a one-blank rack has thousands of plays, a few dozen of
    one score), and the rest only when none of them is the play."""
    n = pos.rules.size

    def same(r: RawPlay) -> bool:
        return sorted((i, LETTERS[(code & LETTER_MASK) - 1], bool(code & BLANK)) for i, code in raw_squares(n, r)) == target

    hit = next((r for r in raws if r[0] == score and same(r)), None) if score is not None else None
    if hit is None:
        hit = next((r for r in raws if same(r)), None)
    if hit is None:
        return None
    above = sum(1 for x in raws if x[0] > hit[0])
    me = materialise(pos.rules, pos.cells, hit).sort_key()
    ties = sum(1 for x in raws if x[0] == hit[0] and materialise(pos.rules, pos.cells, x).sort_key() < me)
    return above + ties + 1


def rank_of(
    pos: Position, lex: Lexicon, move: Move, premiums: bool = True, deadline: float | None = None
) -> tuple[int | None, int | None, int]:
    """(1-based rank of ``move`` among all legal plays or None, best score, number of plays)."""
    r = rank_play(pos, lex, move, premiums, deadline)
    return r.rank, r.best, r.total
