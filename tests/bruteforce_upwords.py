"""Independent brute-force move finder and scorer for Upwords (a test oracle).

Written only from the rules (RULES.md section 4, rulesets/upwords.json, spec 002 and
the test brief); it shares no code with the engine's move generator. It is slow on
purpose: it tries every set of squares in every row and column and every ordering of
rack tiles, then checks each candidate against the rules one by one.

Conventions: board rows are strings, '.' empty, 'A'-'Z' the top letter of a stack,
'Q' the Qu tile (spelled 'QU' in words). heights rows are digits '0'-'5'.
Public coordinates are 1-indexed (row, col); internally squares are 0-indexed.
"""
from __future__ import annotations

from itertools import combinations, permutations

MAX_HEIGHT = 5
ALL_TILES_BONUS = 20
FULL_RACK = 7
FLAT_POINTS_PER_TILE = 2
QU_FLAT_BONUS = 2

Square = tuple[int, int]  # 0-indexed (row, col)
Letters = dict[Square, str]  # occupied squares only -> top letter
Heights = dict[Square, int]  # every square -> stack height
ACROSS: Square = (0, 1)
DOWN: Square = (1, 0)


def _parse(board: list[str], heights: list[str]) -> tuple[int, Letters, Heights]:
    n = len(board)
    if len(heights) != n or any(len(row) != n for row in board + heights):
        raise ValueError("board and heights must both be N strings of N characters")
    letters: Letters = {}
    hts: Heights = {}
    for r in range(n):
        for c in range(n):
            ch, h = board[r][c], int(heights[r][c])
            if not 0 <= h <= MAX_HEIGHT or (ch == ".") != (h == 0):
                raise ValueError(f"bad square {(r + 1, c + 1)}: {ch!r} height {h}")
            if ch != ".":
                if not ("A" <= ch <= "Z"):
                    raise ValueError(f"bad letter {ch!r}")
                letters[(r, c)] = ch
            hts[(r, c)] = h
    return n, letters, hts


def _spell(letters: Letters, run: list[Square]) -> str:
    return "".join("QU" if letters[sq] == "Q" else letters[sq] for sq in run)


def _run(letters: Letters, sq: Square, step: Square) -> list[Square]:
    """Maximal run of occupied squares through sq along step (sq itself is included)."""
    dr, dc = step
    r, c = sq
    while (r - dr, c - dc) in letters:
        r, c = r - dr, c - dc
    run = [(r, c)]
    while (r + dr, c + dc) in letters:
        r, c = r + dr, c + dc
        run.append((r, c))
    return run


def _board_words(letters: Letters) -> list[list[Square]]:
    """All words (maximal runs of length >= 2, both directions) on the board."""
    words = []
    for sq in letters:
        for step in (ACROSS, DOWN):
            before = (sq[0] - step[0], sq[1] - step[1])
            if before not in letters:  # sq starts a run in this direction
                run = _run(letters, sq, step)
                if len(run) >= 2:
                    words.append(run)
    return words


def _direction(squares: list[Square]) -> Square | None:
    """ACROSS / DOWN for a multi-tile line, None for a single tile; error otherwise."""
    if len(squares) == 1:
        return None
    if len({r for r, _ in squares}) == 1:
        return ACROSS
    if len({c for _, c in squares}) == 1:
        return DOWN
    raise ValueError("new tiles are not in one row or one column")


def _words_formed(after: Letters, squares: list[Square]) -> list[list[Square]]:
    """Every word (run of length >= 2) formed or changed by new tiles on `squares`."""
    main = _direction(squares)
    if main is None:  # single tile: both of its runs
        runs = [_run(after, squares[0], ACROSS), _run(after, squares[0], DOWN)]
    else:
        perp = DOWN if main == ACROSS else ACROSS
        runs = [_run(after, squares[0], main)] + [_run(after, sq, perp) for sq in squares]
    return [run for run in runs if len(run) >= 2]


def _score(after: Letters, after_heights: Heights, squares: list[Square]) -> int:
    total = 0
    for run in _words_formed(after, squares):
        hs = [after_heights[sq] for sq in run]
        if all(h == 1 for h in hs):
            total += FLAT_POINTS_PER_TILE * len(run)
            if any(after[sq] == "Q" for sq in run):
                total += QU_FLAT_BONUS
        else:
            total += sum(hs)
    if len(squares) == FULL_RACK:
        total += ALL_TILES_BONUS
    return total


def _apply(letters: Letters, heights: Heights, new: Letters) -> tuple[Letters, Heights]:
    after = dict(letters)
    after.update(new)
    after_heights = dict(heights)
    for sq in new:
        after_heights[sq] += 1
    return after, after_heights


def _shape_ok(letters: Letters, heights: Heights, squares: list[Square],
              centre: set[Square], old_words: list[list[Square]]) -> bool:
    """Rules that depend only on which squares get a new tile (1, 2 height, 3, 5, 6)."""
    if len(set(squares)) != len(squares):
        return False  # one new tile per square
    try:
        _direction(squares)
    except ValueError:
        return False  # not one row or column
    if any(heights[sq] >= MAX_HEIGHT for sq in squares):
        return False
    chosen = set(squares)
    (r0, c0), (r1, c1) = min(squares), max(squares)
    for r in range(r0, r1 + 1):  # the span is a single row or column
        for c in range(c0, c1 + 1):
            if (r, c) not in letters and (r, c) not in chosen:
                return False  # gap in the line
    if not letters:  # first play
        if len(squares) < 2 or not chosen & centre:
            return False
    else:
        def touches(sq: Square) -> bool:
            r, c = sq
            near = [sq, (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
            return any(x in letters for x in near)
        if not any(touches(sq) for sq in squares):
            return False
    return not any(all(sq in chosen for sq in word) for word in old_words)


def _is_bare_plural(letters: Letters, after: Letters, new: Letters) -> bool:
    """Single S on an empty square whose every word is just an existing word + S (an old word
    already ending in S, HIS -> HISS, is not a plural); it may stand if it also forms a word
    that is not a bare plural."""
    if len(new) != 1:
        return False
    [(sq, ch)] = new.items()
    if ch != "S" or sq in letters:
        return False
    r, c = sq
    plural = other = False
    for step in (ACROSS, DOWN):
        if len(_run(after, sq, step)) < 2:
            continue
        prev = (r - step[0], c - step[1])
        nxt = (r + step[0], c + step[1])
        if (prev in letters and nxt not in after and len(_run(letters, prev, step)) >= 2
                and letters[prev] != "S"):
            plural = True
        else:
            other = True
    return plural and not other


def _letters_score(letters: Letters, heights: Heights, new: Letters, words: set[str],
                   plural_rule: bool) -> int | None:
    """Rules that depend on the letters (2 same letter, 4 words, 7 plural); the score."""
    if any(letters.get(sq) == ch for sq, ch in new.items()):
        return None  # same letter on same letter
    after, after_heights = _apply(letters, heights, new)
    squares = sorted(new)
    runs = _words_formed(after, squares)
    if not runs or any(_spell(after, run) not in words for run in runs):
        return None
    if plural_rule and _is_bare_plural(letters, after, new):
        return None
    return _score(after, after_heights, squares)


def brute_force_upwords(board: list[str], heights: list[str], rack: str, words: set[str],
                        plural_rule: bool = True,
                        centre: list[tuple[int, int]] | None = None
                        ) -> dict[frozenset[tuple[int, int, str]], int]:
    """Every legal play: frozenset of new (row, col, LETTER), 1-indexed -> score."""
    n, letters, hts = _parse(board, heights)
    if not all("A" <= ch <= "Z" for ch in rack) or len(rack) > FULL_RACK:
        raise ValueError(f"bad rack {rack!r}")
    if centre is None:
        m = n // 2
        if n % 2 == 0:
            centre = [(m, m), (m, m + 1), (m + 1, m), (m + 1, m + 1)]
        else:  # odd N is not in the rules; we use the single middle square
            centre = [(m + 1, m + 1)]
    centre0 = {(r - 1, c - 1) for r, c in centre}
    old_words = _board_words(letters)
    orderings = {k: set(permutations(rack, k)) for k in range(1, len(rack) + 1)}
    result: dict[frozenset[tuple[int, int, str]], int] = {}
    for line in range(n):
        for step in (ACROSS, DOWN):
            squares = [(line, i) if step == ACROSS else (i, line) for i in range(n)]
            for k in range(1, min(len(rack), n) + 1):
                for chosen in combinations(squares, k):
                    if not _shape_ok(letters, hts, list(chosen), centre0, old_words):
                        continue
                    for tiles in orderings[k]:
                        new = dict(zip(chosen, tiles, strict=True))
                        score = _letters_score(letters, hts, new, words, plural_rule)
                        if score is not None:
                            key = frozenset((r + 1, c + 1, ch) for (r, c), ch in new.items())
                            result[key] = score
    return result


def brute_force_upwords_score(board: list[str], heights: list[str],
                              placements: list[tuple[int, int, str]]) -> int:
    """Score of placing `placements` (1-indexed (row, col, LETTER)); legality is NOT
    checked, except that the tiles must be on distinct squares in one row or column."""
    _, letters, hts = _parse(board, heights)
    new: Letters = {(r - 1, c - 1): ch for r, c, ch in placements}
    if not new or len(new) != len(placements):
        raise ValueError("need at least one placement, on distinct squares")
    squares = sorted(new)
    _direction(squares)
    after, after_heights = _apply(letters, hts, new)
    return _score(after, after_heights, squares)
