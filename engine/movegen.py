"""Move generation for the Scrabble family (GADDAG, anchors and cross-checks).

One path for both directions: the across generator (:func:`view_search`) runs on the board and
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

from .board import BLANK, LETTER_MASK
from .lexicon import SEP, Lexicon
from .rules import Ruleset

ALL_LETTERS = ((1 << 27) - 1) & ~1  # bits 1..26



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


def vertical_run(n: int, cells: list[int], i: int) -> tuple[int, int]:
    """The first and last squares of the run of tiles above and below square ``i``
    (``i`` itself when it has no such neighbour)."""
    top = i
    while top >= n and cells[top - n]:
        top -= n
    bottom = i
    while bottom < n * (n - 1) and cells[bottom + n]:
        bottom += n
    return top, bottom


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
        top, bottom = vertical_run(n, cells, i)
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


Emit = Callable[[int, bool, int, int, int, tuple[tuple[int, int], ...]], None]


def generate_view(rules: Ruleset, lex: Lexicon, view: View, rack: list[int], emit: Emit) -> None:
    """Emit every play whose main word runs across ``view``."""
    bounds, run = view_search(rules, lex, view, rack, emit, [-1])
    for _, anchor in bounds:
        run(anchor)


def view_search(
    rules: Ruleset, lex: Lexicon, view: View, rack: list[int], emit: Emit, floor: list[int]
) -> tuple[list[tuple[int, int]], Callable[[int], None]]:
    """Prepare the search of one view: (upper bound of the score of any play generated from
    each anchor, anchor) pairs, and a function that generates the plays of one anchor.

    Gordon's GADDAG method: from each anchor, place or follow letters leftwards, then cross
    the separator and go rightwards. Leftwards, new tiles never go on another anchor, so a
    play is generated once, from the leftmost anchor its new tiles cover. Plays scoring less
    than ``floor[0]`` (the caller raises it as better plays are found) are not emitted.
    """
    n, cells, down = view.n, view.cells, view.down
    lm, wm = view.letter_mult, view.word_mult
    values = rules.values
    xmask, xsum = cross_checks(view, lex, values)
    g = lex.gaddag
    gmask, gfirst, gchild = g.mask, g.first, g.child
    rack_size, bonus = rules.rack_size, rules.bonus_points
    placed: list[tuple[int, int]] = []
    rack_bits = [sum(1 << i for i in range(1, 27) if rack[i])]
    anchor_list = anchors(rules, view)
    is_anchor = [False] * (n * n)
    for a in anchor_list:
        is_anchor[a] = True

    def record(start: int, end: int, total: int, ntiles: int) -> None:
        if end - start < 2:
            return  # a lone tile with no word this way: found in the other view
        if down and ntiles == 1 and xsum[placed[0][0]] >= 0:
            return  # a lone tile forming words both ways: already found across
        if ntiles == rack_size:
            total += bonus
        if total >= floor[0]:
            emit(total, down, start // n, start % n, end - start, tuple(placed))

    def right(pos: int, row_end: int, start: int, s: int, msum: int, wmul: int, xtot: int,
              ntiles: int) -> None:
        """Fill or follow square ``pos`` going right; the word so far is start..pos-1."""
        m = gmask[s]
        if pos == row_end:
            if m & 1:
                record(start, pos, msum * wmul + xtot, ntiles)
            return
        code = cells[pos]
        if code:
            letter = code & LETTER_MASK
            if (m >> letter) & 1:
                nxt = gchild[gfirst[s] + (m & ((1 << letter) - 2)).bit_count()]
                right(pos + 1, row_end, start, nxt, msum + (0 if code & BLANK else values[letter]),
                      wmul, xtot, ntiles)
            return
        if m & 1:
            record(start, pos, msum * wmul + xtot, ntiles)
        allowed = m & xmask[pos]
        if not rack[0]:
            allowed &= rack_bits[0]
        lmul, wmm, xs = lm[pos], wm[pos], xsum[pos]
        while allowed:
            low = allowed & -allowed
            letter = low.bit_length() - 1
            allowed ^= low
            nxt = gchild[gfirst[s] + (m & (low - 2)).bit_count()]
            if rack[letter]:
                rack[letter] -= 1
                if not rack[letter]:
                    rack_bits[0] &= ~low
                v = values[letter] * lmul
                placed.append((pos, letter))
                right(pos + 1, row_end, start, nxt, msum + v, wmul * wmm,
                      xtot + (xs + v) * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                if not rack[letter]:
                    rack_bits[0] |= low
                rack[letter] += 1
            if rack[0]:
                rack[0] -= 1
                placed.append((pos, letter | BLANK))
                right(pos + 1, row_end, start, nxt, msum, wmul * wmm,
                      xtot + xs * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                rack[0] += 1

    def after_left(pos: int, anchor: int, row_start: int, row_end: int, s: int, msum: int,
                   wmul: int, xtot: int, ntiles: int) -> None:
        """Square ``pos`` now holds the leftmost letter; end here, go further left, or turn."""
        m = gmask[s]
        left_free = pos == row_start or not cells[pos - 1]
        if left_free:
            if m & 1 and (anchor + 1 == row_end or not cells[anchor + 1]):
                record(pos, anchor + 1, msum * wmul + xtot, ntiles)
            if (m >> SEP) & 1 and anchor + 1 < row_end:
                nxt = gchild[gfirst[s] + (m & ((1 << SEP) - 2)).bit_count()]
                right(anchor + 1, row_end, pos, nxt, msum, wmul, xtot, ntiles)
        if pos > row_start:
            p = pos - 1
            if cells[p] or (not is_anchor[p] and ntiles < tiles):
                left(p, anchor, row_start, row_end, s, msum, wmul, xtot, ntiles)

    def left(pos: int, anchor: int, row_start: int, row_end: int, s: int, msum: int, wmul: int,
             xtot: int, ntiles: int) -> None:
        """Fill or follow square ``pos`` going left from the anchor."""
        m = gmask[s]
        code = cells[pos]
        if code:
            letter = code & LETTER_MASK
            if (m >> letter) & 1:
                nxt = gchild[gfirst[s] + (m & ((1 << letter) - 2)).bit_count()]
                after_left(pos, anchor, row_start, row_end, nxt,
                           msum + (0 if code & BLANK else values[letter]), wmul, xtot, ntiles)
            return
        allowed = m & xmask[pos]
        if not rack[0]:
            allowed &= rack_bits[0]
        lmul, wmm, xs = lm[pos], wm[pos], xsum[pos]
        while allowed:
            low = allowed & -allowed
            letter = low.bit_length() - 1
            allowed ^= low
            nxt = gchild[gfirst[s] + (m & (low - 2)).bit_count()]
            if rack[letter]:
                rack[letter] -= 1
                if not rack[letter]:
                    rack_bits[0] &= ~low
                v = values[letter] * lmul
                placed.append((pos, letter))
                after_left(pos, anchor, row_start, row_end, nxt, msum + v, wmul * wmm,
                           xtot + (xs + v) * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                if not rack[letter]:
                    rack_bits[0] |= low
                rack[letter] += 1
            if rack[0]:
                rack[0] -= 1
                placed.append((pos, letter | BLANK))
                after_left(pos, anchor, row_start, row_end, nxt, msum, wmul * wmm,
                           xtot + xs * wmm if xs >= 0 else xtot, ntiles + 1)
                placed.pop()
                rack[0] += 1

    tiles = sum(rack)

    def run(anchor: int) -> None:
        row_start = anchor - anchor % n
        left(anchor, anchor, row_start, row_start + n, g.root, 0, 1, 0, 0)

    # Upper bounds. A play from an anchor lies in a window: leftwards up to the next empty
    # anchor (no new tile goes there), rightwards until the rack runs out; no square in it
    # may be unfillable. Its score is at most (tiles already in the window + the best
    # pairing of rack values with letter premiums) x every word premium in the window +
    # the best cross-words + the all-tiles bonus if seven tiles fit.
    vals = sorted((values[i] for i in range(1, 27) for _ in range(rack[i])), reverse=True)
    vals += [0] * rack[0]
    vmax = vals[0] if vals else 0
    usable = ALL_LETTERS if rack[0] else rack_bits[0]
    bounds = []
    for a in anchor_list:
        row_start = a - a % n
        row_end = row_start + n
        lo = a
        while lo > row_start and (cells[lo - 1] or (not is_anchor[lo - 1] and xmask[lo - 1] & usable)):
            lo -= 1
        hi = a
        empties = 1
        while hi + 1 < row_end:
            q = hi + 1
            if cells[q]:
                hi = q
            elif empties < tiles and xmask[q] & usable:
                empties += 1
                hi = q
            else:
                break
        held = 0
        wmul = 1
        lms = []
        crosses = []
        for q in range(lo, hi + 1):
            code = cells[q]
            if code:
                held += 0 if code & BLANK else values[code & LETTER_MASK]
            else:
                lms.append(lm[q])
                wmul *= wm[q]
                if xsum[q] >= 0:
                    crosses.append((xsum[q] + vmax * lm[q]) * wm[q])
        k = min(tiles, len(lms))
        lms.sort(reverse=True)
        crosses.sort(reverse=True)
        best = (held + sum(v * m for v, m in zip(vals[:k], lms[:k], strict=False))) * wmul + sum(crosses[:k])
        if tiles >= rack_size and len(lms) >= rack_size:
            best += bonus
        bounds.append((best, a))
    return bounds, run
