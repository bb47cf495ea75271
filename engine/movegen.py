"""Move generation for the Scrabble family (Appel & Jacobson, anchors and cross-checks).

One path for both directions: :func:`generate` runs the across generator on the board and
again on its transpose (a :class:`View`), mapping the down plays back. Every square of a view
carries a cross-check (a bitmask of the letters allowed there, bit ``L`` for letter code
``L``) and the face value of the perpendicular tiles it would join, so a play's score is
accumulated while it is built: ``main_sum * word_mult + cross_words + all_tiles_bonus``.

Distinct plays: a play is its set of (square, tile) placements, a blank's letter being part
of the tile. A single tile that forms words both ways is generated once, in the across view;
a single tile that forms only a down word is generated in the down view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import BLANK, EMPTY, LETTER_MASK
from .lexicon import Lexicon
from .rules import Ruleset

ALL_LETTERS = ((1 << 27) - 1) & ~1  # bits 1..26

# A raw play as the generator emits it: (score, down, line, start, length, placements):
# line and start are the view row and column of the main word's first square, placements
# (square index in the view, code). Cheap to build; materialised into a Move only for the
# plays that are returned.
RawPlay = tuple[int, bool, int, int, int, tuple[tuple[int, int], ...]]


@dataclass(frozen=True)
class View:
    """A board seen so that the plays being generated run across."""

    n: int
    cells: list[int]
    letter_mult: tuple[int, ...]
    word_mult: tuple[int, ...]
    down: bool


def views(rules: Ruleset, cells: list[int], premiums: bool = True) -> tuple[View, View]:
    n = rules.size
    ones = (1,) * (n * n)
    lm = rules.letter_mult if premiums else ones
    wm = rules.word_mult if premiums else ones
    t = [r * n + c for c in range(n) for r in range(n)]  # t[i] is the square shown at i
    return (
        View(n, cells, lm, wm, False),
        View(n, [cells[i] for i in t], tuple(lm[i] for i in t), tuple(wm[i] for i in t), True),
    )


def cross_checks(view: View, lex: Lexicon, values: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Per square: allowed-letter mask for a tile placed there, and the perpendicular word's
    face value (-1 when the square has no perpendicular neighbour)."""
    n, cells = view.n, view.cells
    masks = [0] * (n * n)
    sums = [-1] * (n * n)
    lmask, first, child = lex.mask, lex.first, lex.child
    for i, code in enumerate(cells):
        if code:
            continue
        r, c = divmod(i, n)
        above = r > 0 and cells[i - n]
        below = r < n - 1 and cells[i + n]
        if not above and not below:
            masks[i] = ALL_LETTERS
            continue
        top = i
        while top >= n and cells[top - n]:
            top -= n
        bottom = i
        while bottom < n * (n - 1) and cells[bottom + n]:
            bottom += n
        prefix = [cells[j] & LETTER_MASK for j in range(top, i, n)]
        suffix = [cells[j] & LETTER_MASK for j in range(i + n, bottom + 1, n)]
        sums[i] = sum(0 if cells[j] & BLANK else values[cells[j]] for j in range(top, bottom + 1, n))
        s = lex.walk(prefix)
        if s < 0:
            continue
        m = lmask[s] & ALL_LETTERS
        allowed = 0
        while m:
            low = m & -m
            code = low.bit_length() - 1
            m ^= low
            t = child[first[s] + (lmask[s] & ((1 << code) - 2)).bit_count()]
            t = lex.walk(suffix, t)
            if t >= 0 and lmask[t] & 1:
                allowed |= low
        masks[i] = allowed
    return masks, sums


def anchors(rules: Ruleset, view: View) -> list[int]:
    n, cells = view.n, view.cells
    if not any(cells):
        starts = rules.start if not view.down else tuple((s % n) * n + s // n for s in rules.start)
        return sorted(starts)
    out = []
    for i, code in enumerate(cells):
        if code:
            continue
        r, c = divmod(i, n)
        if (
            (c > 0 and cells[i - 1])
            or (c < n - 1 and cells[i + 1])
            or (r > 0 and cells[i - n])
            or (r < n - 1 and cells[i + n])
        ):
            out.append(i)
    return out


def generate_view(
    rules: Ruleset,
    lex: Lexicon,
    view: View,
    rack: list[int],
    emit: Callable[[int, bool, int, int, int, tuple[tuple[int, int], ...]], None],
) -> None:
    """Emit every play whose main word runs across ``view`` (see module docstring)."""
    n, cells, down = view.n, view.cells, view.down
    lm, wm = view.letter_mult, view.word_mult
    values = rules.values
    xmask, xsum = cross_checks(view, lex, values)
    lmask, first, child = lex.mask, lex.first, lex.child
    rack_size, bonus = rules.rack_size, rules.bonus_points
    placed: list[tuple[int, int]] = []

    def record(start: int, end: int, total: int, ntiles: int) -> None:
        if end - start < 2:
            return  # a lone tile with no word this way: found in the other view
        if down and ntiles == 1 and xsum[placed[0][0]] >= 0:
            return  # a lone tile forming words both ways: already found across
        if ntiles == rack_size:
            total += bonus
        emit(total, down, start // n, start % n, end - start, tuple(placed))

    def extend(pos: int, end_of_row: int, anchor: int, start: int, s: int,
               msum: int, wmul: int, xtot: int, ntiles: int) -> None:
        if pos == end_of_row:
            if lmask[s] & 1 and pos > anchor:
                record(start, pos, msum * wmul + xtot, ntiles)
            return
        code = cells[pos]
        m = lmask[s]
        if code:
            letter = code & LETTER_MASK
            if (m >> letter) & 1:
                nxt = child[first[s] + (m & ((1 << letter) - 2)).bit_count()]
                val = 0 if code & BLANK else values[letter]
                extend(pos + 1, end_of_row, anchor, start, nxt, msum + val, wmul, xtot, ntiles)
            return
        if m & 1 and pos > anchor:
            record(start, pos, msum * wmul + xtot, ntiles)
        allowed = m & xmask[pos]
        if not rack[0]:
            allowed &= rack_bits[0]
        if not allowed:
            return
        lmul, wmm, xs = lm[pos], wm[pos], xsum[pos]
        while allowed:
            low = allowed & -allowed
            letter = low.bit_length() - 1
            allowed ^= low
            nxt = child[first[s] + (m & (low - 2)).bit_count()]
            if rack[letter]:
                rack[letter] -= 1
                if not rack[letter]:
                    rack_bits[0] &= ~low
                v = values[letter] * lmul
                placed.append((pos, letter))
                extend(pos + 1, end_of_row, anchor, start, nxt, msum + v, wmul * wmm,
                       xtot + (xs + v) * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                if not rack[letter]:
                    rack_bits[0] |= low
                rack[letter] += 1
            if rack[0]:
                rack[0] -= 1
                placed.append((pos, letter | BLANK))
                extend(pos + 1, end_of_row, anchor, start, nxt, msum, wmul * wmm,
                       xtot + xs * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                rack[0] += 1

    def left(anchor: int, end_of_row: int, s: int, limit: int, depth: int) -> None:
        """Place ``depth`` rack tiles left of the anchor (their squares have no cross-word),
        extend right from the anchor, then try one tile longer."""
        start = anchor - depth
        msum, wmul = 0, 1
        for k in range(depth):
            code = placed[k][1]
            placed[k] = (start + k, code)
            if not code & BLANK:
                msum += values[code] * lm[start + k]
            wmul *= wm[start + k]
        extend(anchor, end_of_row, anchor, start, s, msum, wmul, 0, depth)
        if depth == limit:
            return
        m = lmask[s]
        allowed = m & ALL_LETTERS
        if not rack[0]:
            allowed &= rack_bits[0]
        while allowed:
            low = allowed & -allowed
            letter = low.bit_length() - 1
            allowed ^= low
            nxt = child[first[s] + (m & (low - 2)).bit_count()]
            if rack[letter]:
                rack[letter] -= 1
                if not rack[letter]:
                    rack_bits[0] &= ~low
                placed.append((0, letter))
                left(anchor, end_of_row, nxt, limit, depth + 1)
                placed.pop()
                if not rack[letter]:
                    rack_bits[0] |= low
                rack[letter] += 1
            if rack[0]:
                rack[0] -= 1
                placed.append((0, letter | BLANK))
                left(anchor, end_of_row, nxt, limit, depth + 1)
                placed.pop()
                rack[0] += 1

    rack_bits = [sum(1 << i for i in range(1, 27) if rack[i])]
    anchor_set = set(anchors(rules, view))
    for anchor in sorted(anchor_set):
        row_start = anchor - anchor % n
        end_of_row = row_start + n
        if anchor > row_start and cells[anchor - 1]:
            # the left part is the tiles already there
            start = anchor - 1
            while start > row_start and cells[start - 1]:
                start -= 1
            s = lex.walk(cells[j] & LETTER_MASK for j in range(start, anchor))
            if s < 0:
                continue
            msum = sum(0 if cells[j] & BLANK else values[cells[j]] for j in range(start, anchor))
            extend(anchor, end_of_row, anchor, start, s, msum, 1, 0, 0)
        else:
            limit = 0
            j = anchor - 1
            while j >= row_start and not cells[j] and j not in anchor_set:
                limit += 1
                j -= 1
            limit = min(limit, rack_size - 1, sum(rack) - 1)
            left(anchor, end_of_row, lex.root, limit, 0)
