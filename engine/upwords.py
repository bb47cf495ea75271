"""Upwords: stacking plays and height-based scoring.

Rules (``rulesets/upwords.json``, Hasbro sheet 04312): tiles go in one row or column, on
empty squares or on top of stacks, at most one new tile per stack per turn, never a letter on
the same letter, never above the maximum height (5); the line's letters are contiguous; the
play touches what is there (a tile stacked on a stack, or next to a tile); the first play has
2+ letters and covers a centre square; every word formed or changed is in the lexicon; a play
may not cover every letter of an existing word; and (a switch, on by default) a single S may
not just pluralise a word unless it also forms another word (see :func:`only_pluralises`). Q is the Qu tile and reads "QU".

Scoring, per word formed or changed: 2 points a tile when every letter is one tile high (plus
the Qu bonus when the word holds the Qu tile), else the sum of the stack heights under the
word; +20 when all seven rack tiles are played. A word that the play does not touch is not
scored again (the sheet's MOOD/DEAR/NET example: MOOD is unchanged, so only NET and ON count).

Generation: for each line of each view, a depth-first walk from every square that can start
a word, along the lexicon, where each square is kept, stacked on or filled; pruned by the
lexicon, the cross-checks and the distance to the nearest square the play could touch.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import LETTER_MASK
from .errors import IllegalPlayError
from .lexicon import Lexicon
from .movegen import vertical_run
from .notation import square_name
from .rules import Ruleset

Q, U, S = 17, 21, 19
ALL_LETTERS = ((1 << 27) - 1) & ~1


def _tile_step(lex: Lexicon, state: int, code: int) -> int:
    """Walk one tile: the Qu tile walks Q then U."""
    s = lex.step(state, code)
    if code == Q and s >= 0:
        s = lex.step(s, U)
    return s


def _walk(lex: Lexicon, codes: list[int], state: int) -> int:
    for code in codes:
        state = _tile_step(lex, state, code)
        if state < 0:
            return -1
    return state


class _Cross:
    """A square's perpendicular word, apart from the square itself."""

    __slots__ = ("mask", "length", "hsum", "flat", "qu")

    def __init__(self, mask: int, length: int, hsum: int, flat: bool, qu: bool) -> None:
        self.mask, self.length, self.hsum, self.flat, self.qu = mask, length, hsum, flat, qu


def _cross_checks(n: int, cells: list[int], heights: list[int], lex: Lexicon) -> list[_Cross | None]:
    out: list[_Cross | None] = [None] * (n * n)
    for i in range(n * n):
        r = i // n
        if not ((r > 0 and cells[i - n]) or (r < n - 1 and cells[i + n])):
            continue
        top, bottom = vertical_run(n, cells, i)
        others = [j for j in range(top, bottom + 1, n) if j != i]
        prefix = [cells[j] for j in range(top, i, n)]
        suffix = [cells[j] for j in range(i + n, bottom + 1, n)]
        allowed = 0
        s = _walk(lex, prefix, lex.root)
        if s >= 0:
            for code in range(1, 27):
                t = _tile_step(lex, s, code)
                if t >= 0:
                    t = _walk(lex, suffix, t)
                    if t >= 0 and lex.mask[t] & 1:
                        allowed |= 1 << code
        out[i] = _Cross(
            allowed,
            len(others) + 1,
            sum(heights[j] for j in others),
            all(heights[j] == 1 for j in others),
            any(cells[j] == Q for j in others),
        )
    return out


def _word_score(rules: Ruleset, length: int, hsum: int, flat: bool, qu: bool) -> int:
    if flat:
        return 2 * length + (rules.qu_bonus if qu else 0)
    return hsum


def _transpose(n: int, xs: list[int]) -> list[int]:
    return [xs[(i % n) * n + i // n] for i in range(n * n)]


def generate(
    rules: Ruleset,
    lex: Lexicon,
    cells: list[int],
    heights: list[int],
    rack: list[int],
    emit: Callable[[int, bool, int, int, int, tuple[tuple[int, int], ...]], None],
    plural_rule: bool = True,
    check: Callable[[], None] | None = None,
) -> None:
    """Emit every legal play; ``check`` is called before each line (a deadline raises there)."""
    n = rules.size
    for down in (False, True):
        vc = _transpose(n, cells) if down else cells
        vh = _transpose(n, heights) if down else heights
        starts = {(s % n) * n + s // n for s in rules.start} if down else set(rules.start)
        _generate_view(rules, lex, n, vc, vh, rack, down, starts, emit, plural_rule, check)


def _generate_view(
    rules: Ruleset, lex: Lexicon, n: int, cells: list[int], heights: list[int], rack: list[int],
    down: bool, starts: set[int], emit: Callable, plural_rule: bool, check: Callable[[], None] | None = None,
) -> None:
    empty_board = not any(cells)
    cross = _cross_checks(n, cells, heights, lex)
    lmask = lex.mask
    max_h, rack_size, bonus = rules.max_height, rules.rack_size, rules.bonus_points
    rack_tiles = sum(rack)
    placed: list[tuple[int, int]] = []

    for row in range(n):
        if check is not None:
            check()
        base = row * n
        # touch[c]: placing a tile at column c makes the play touch existing tiles
        touch = [
            bool(cells[base + c])
            or (c > 0 and bool(cells[base + c - 1]))
            or (c < n - 1 and bool(cells[base + c + 1]))
            or cross[base + c] is not None
            for c in range(n)
        ]
        if empty_board:
            touch = [base + c in starts for c in range(n)]
        nxt = [n] * (n + 1)  # nearest touching column at or after c
        for c in range(n - 1, -1, -1):
            nxt[c] = c if touch[c] else nxt[c + 1]
        # existing words along this line (runs of 2+), to refuse covering one whole
        runs = []
        c = 0
        while c < n:
            if cells[base + c]:
                e = c
                while e + 1 < n and cells[base + e + 1]:
                    e += 1
                if e > c:
                    runs.append((c, e))
                c = e + 1
            else:
                c += 1

        def finish(start: int, end: int, total: int, ntiles: int, crosses: int) -> None:
            """Checks that need the whole play; ``end`` is one past the last square."""
            length = end - start
            stacked = {p - base for p, _ in placed if cells[p]}
            for a, b in runs:
                if a >= start and b < end and all(c in stacked for c in range(a, b + 1)):
                    return  # covers every letter of an existing word
            if ntiles == 1:
                p, code = placed[0]
                cr = cross[p]
                if length < 2:
                    return  # no word this way: the other view has it
                if down and cr is not None:
                    return  # forms words both ways: found across
                if plural_rule and code == S and not cells[p] and only_pluralises(n, cells, p):
                    return
            if empty_board and ntiles < 2:
                return
            if ntiles == rack_size:
                total += bonus
            emit(total, down, row, start, length, tuple(placed))

        def dfs(c: int, start: int, s: int, ntiles: int, hsum: int, flat: bool, qu: bool,
                xtot: int, touched: bool) -> None:
            if c == n or not cells[base + c]:
                # the word may end before square c (if c is empty or the edge)
                if ntiles and touched and lmask[s] & 1 and c - start >= 1:
                    length = c - start
                    main = _word_score(rules, length, hsum, flat, qu) if length >= 2 else 0
                    finish(start, c, main + xtot, ntiles, 0)
                if c == n:
                    return
            left = rack_tiles - ntiles
            if not touched:
                need = nxt[c] - c + (0 if nxt[c] < n and cells[base + nxt[c]] else 1)
                if nxt[c] == n or need > left:
                    return
            i = base + c
            code_here = cells[i]
            h = heights[i]
            if code_here:  # keep the stack as it is
                t = _tile_step(lex, s, code_here)
                if t >= 0:
                    dfs(c + 1, start, t, ntiles, hsum + h, flat and h == 1, qu or code_here == Q,
                        xtot, True)
                if h >= max_h:
                    return
            if not left:
                return
            cr = cross[i]
            allowed = ALL_LETTERS if cr is None else cr.mask
            nh = h + 1
            for code in range(1, 27):
                if not rack[code] or not (allowed >> code) & 1 or code == code_here:
                    continue
                t = _tile_step(lex, s, code)
                if t < 0:
                    continue
                x = xtot
                if cr is not None:
                    cflat = cr.flat and nh == 1
                    x += _word_score(rules, cr.length, cr.hsum + nh, cflat, cr.qu or code == Q)
                rack[code] -= 1
                placed.append((i, code))
                dfs(c + 1, start, t, ntiles + 1, hsum + nh, flat and nh == 1, qu or code == Q,
                    x, touched or touch[c])
                placed.pop()
                rack[code] += 1

        for start in range(n):
            if start > 0 and cells[base + start - 1]:
                continue  # a word cannot start right after a tile
            dfs(start, start, lex.root, 0, 0, True, False, 0, False)


def check_stacking(rules: Ruleset, cells: list[int], heights: list[int],
                   placements: list[tuple[int, int]], plural_rule: bool = True) -> None:
    """Refuse an Upwords play that breaks a stacking rule, naming the rule and the square."""
    n = rules.size

    def where(i: int) -> dict:
        return {"row": i // n + 1, "col": i % n + 1}

    seen: set[int] = set()
    for i, code in placements:
        rc = square_name(i // n + 1, i % n + 1)
        if i in seen:
            raise IllegalPlayError(f"one new tile per stack per turn: two tiles on {rc}", rule="one_tile_per_stack", **where(i))
        seen.add(i)
        if cells[i] and cells[i] & LETTER_MASK == code & LETTER_MASK:
            raise IllegalPlayError(f"same letter on same letter: {chr(64 + code)} on {chr(64 + code)} at {rc}", rule="same_letter", **where(i))
        if heights[i] + 1 > rules.max_height:
            raise IllegalPlayError(
                f"stack too high: {rc} would be {heights[i] + 1} tiles high (at most {rules.max_height})",
                rule="max_height", **where(i))
    if not any(cells):
        return
    after = list(cells)
    for i, code in placements:
        after[i] = code
    for step in (1, n):  # existing words entirely covered
        for i in range(n * n):
            if not cells[i] or (step == 1 and i % n and cells[i - 1]) or (step == n and i >= n and cells[i - n]):
                continue
            run = [i]
            while True:
                j = run[-1] + step
                if j >= n * n or (step == 1 and j % n == 0) or not cells[j]:
                    break
                run.append(j)
            if len(run) >= 2 and all(j in seen for j in run):
                raise IllegalPlayError(
                    f"a play may not cover every letter of an existing word (the word at {square_name(i // n + 1, i % n + 1)})",
                    rule="covers_whole_word", **where(i))
    if plural_rule and len(placements) == 1:
        i, code = placements[0]
        if code == S and not cells[i] and only_pluralises(n, cells, i):
            raise IllegalPlayError(
                f"plural rule: the S at {square_name(i // n + 1, i % n + 1)} only pluralises a word; it must also form another word",
                rule="plural_s", **where(i))


def only_pluralises(n: int, cells: list[int], i: int) -> bool:
    """Whether a lone S put on the empty square ``i`` only pluralises, read against the rule
    text ("you may not simply add an S to a word already on the board to form its plural;
    allowed only if the S is part of another new word formed in the same turn"):

    - along each line, the word the S forms is *just a plural* when the S comes right after a
      word of 2+ letters on the board, nothing follows it, and that word does not already end
      in S (HIS -> HISS is a new word, not a plural);
    - the S is refused when it forms at least one word and every word it forms is just a
      plural: alone at the end of a word, or at a corner pluralising two words at once (CATS
      across and DOGS down). A second word that is not a bare plural (IS, SO, HISS) lets it
      stand.
    """
    r, c = divmod(i, n)
    plural = other = False
    for step, before, after in ((1, c, n - 1 - c), (n, r, n - 1 - r)):
        has_prev = before >= 1 and bool(cells[i - step])
        has_next = after >= 1 and bool(cells[i + step])
        if not (has_prev or has_next):
            continue  # no word along this line
        if (has_prev and not has_next and before >= 2 and cells[i - 2 * step]
                and cells[i - step] & LETTER_MASK != S):
            plural = True
        else:
            other = True
    return plural and not other
