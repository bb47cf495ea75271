"""Breakdowns of many plays of one position, written straight as the API's plain data.

``engine.scoring.score_play`` stays the authority: it scores one play into named tuples, and
``Breakdown.to_dict`` gives the API's shape. An answer with hundreds of plays spent most of its
time there, building records only to turn them into dicts. :class:`Breakdowns` writes the same
dicts (equal, key order included, so the JSON is byte for byte the same; the tests compare the
two on every play of many positions) and builds each part once per position:

- a letter is fixed by its square, its tile and whether it is new: one dict per position;
- a cross-word is fixed by its one new tile (square, tile and direction): the rest of its line
  is board tiles, so it is the same word with the same score in every play that makes it.

So only each play's main word is assembled per play. The dicts are shared between the plays of
one answer, and a letter's dict (fixed by its ruleset, square, tile, whether it is new and the
premiums setting) between answers: treat them as read-only.

With the compiled core active (``engine.search.breakdown_writer()``), games without stacks or a
Qu tile have each play's part written in C (``engine._fastgen.breakdown``: the same
dicts from the same caches; a letter not written yet is asked of :meth:`Breakdowns._letter`).
Building these dicts was about a third of a 20-play answer's CPU in Python.
"""

from __future__ import annotations

from typing import Any

from . import search
from .board import BLANK, LETTER_MASK
from .plays import Move, Position
from .rules import Ruleset
from .scoring import tile_text

_QU = 17  # the letter code of Q (Upwords' Qu tile)
_TEXT: dict[bool, list[str]] = {}  # by qu_tile: each tile code's scoring.tile_text ("A", "a" for a blank, "Qu")


def _texts(rules: Ruleset) -> list[str]:
    table = _TEXT.get(rules.qu_tile)
    if table is None:
        table = _TEXT[rules.qu_tile] = [
            tile_text(rules, code) if 1 <= code & LETTER_MASK <= 26 else "" for code in range(BLANK + 32)
        ]
    return table


Letter = tuple[dict[str, Any], int, int]  # the letter's dict, its points, the word multiplier its square gives
_LETTERS: dict[tuple[int, bool], tuple[Ruleset, dict[int, Letter]]] = {}
_MAX_LETTERS = 50_000  # a table past this is emptied (a full one holds 23,400 a game)


def _letter_table(rules: Ruleset, premiums: bool) -> dict[int, Letter]:
    """The letters written so far for this ruleset (held, so its id stays its own) and premiums
    setting: a letter depends on nothing else, so they are shared by every answer."""
    held = _LETTERS.get((id(rules), premiums))
    if held is None or held[0] is not rules:
        held = _LETTERS[id(rules), premiums] = (rules, {})
    if len(held[1]) > _MAX_LETTERS:
        held[1].clear()
    return held[1]


class Breakdowns:
    """``Breakdowns(pos, premiums)(move)`` equals ``breakdown(pos, move, premiums).to_dict(stacking)``
    where ``stacking`` is the game's own (Upwords' letters carry heights, its words flatness)."""

    def __init__(self, pos: Position, premiums: bool = True) -> None:
        rules = pos.rules
        self.rules = rules
        self.n = rules.size
        self.cells = pos.cells
        self.heights = pos.heights if rules.stacking else None
        self.premiums = premiums and not rules.stacking
        self.text = _texts(rules)
        self.letters = _letter_table(rules, self.premiums)
        self.crosses: dict[int, dict[str, Any] | None] = {}
        self.bonus = ({"name": rules.bonus_name, "points": 0}, {"name": rules.bonus_name, "points": rules.bonus_points})
        # the compiled writer, where it applies (None: this writer's own Python, below)
        self.fast = search.breakdown_writer() if self.heights is None and not rules.qu_tile else None
        self.args: tuple[Any, ...] = () if self.fast is None else (
            rules.size, bytes(self.cells), self.letters, self.crosses, self._letter, (*self.bonus, rules.bonus_points),
            rules.rack_size)

    @property
    def compiled(self) -> bool:
        return self.fast is not None

    def __call__(self, move: Move) -> dict[str, Any]:
        if self.fast is not None:
            out: dict[str, Any] = self.fast(move.tiles, *self.args)
            return out
        return self.python(move)

    def python(self, move: Move) -> dict[str, Any]:
        """The pure-Python writer (the reference the compiled one is checked against)."""
        n, cells = self.n, self.cells
        new: dict[int, int] = {}
        for t in move.tiles:
            new[(t.row - 1) * n + t.col - 1] = (ord(t.letter[0]) - 64) | (BLANK if t.blank else 0)
        squares = sorted(new)
        first, last = squares[0], squares[-1]
        if len(squares) > 1:
            down = first // n != last // n
        else:  # one tile: its main word is across when it has one (scoring.word_runs)
            c = first % n
            down = not ((c > 0 and cells[first - 1]) or (c < n - 1 and cells[first + 1]))
        step, cross = (n, 1) if down else (1, n)
        start, end = self._ends(first, last, step, new)
        words = []
        if end > start:
            words.append(self._word(range(start, end + step, step), new))
        crosses = self.crosses
        for i in squares:
            key = (i << 8 | new[i]) << 1 | down
            if key in crosses:
                w = crosses[key]
            else:
                a, b = self._ends(i, i, cross, new)
                w = crosses[key] = self._word(range(a, b + cross, cross), {i: new[i]}) if b > a else None
            if w is not None:
                words.append(w)
        total = sum(w["score"] for w in words)
        bonus = self.bonus[len(new) == self.rules.rack_size]
        return {"words": words, "all_tiles_bonus": bonus, "total": total + bonus["points"]}

    def _ends(self, first: int, last: int, step: int, new: dict[int, int]) -> tuple[int, int]:
        """The first and last square of the run of tiles through first..last along ``step``."""
        n, cells = self.n, self.cells
        a, b = first, last
        if step == 1:
            row = first - first % n
            while a > row and (cells[a - 1] or a - 1 in new):
                a -= 1
            while b < row + n - 1 and (cells[b + 1] or b + 1 in new):
                b += 1
        else:
            while a >= n and (cells[a - n] or a - n in new):
                a -= n
            while b + n < n * n and (cells[b + n] or b + n in new):
                b += n
        return a, b

    def _word(self, run: range, new: dict[int, int]) -> dict[str, Any]:
        if self.heights is not None:
            return self._stack_word(run, new)
        letters = []
        total, mult = 0, 1
        for i in run:
            code = new.get(i, 0)
            key = (i << 8) | (code << 1) | 1 if code else (i << 8) | (self.cells[i] << 1)
            entry = self.letters.get(key) or self._letter(key, i, code or self.cells[i], bool(code))
            letters.append(entry[0])
            total += entry[1]
            mult *= entry[2]
        text = "".join([x["letter"] for x in letters])
        if self.rules.qu_tile:
            text = text.replace("Qu", "QU")
        return {"word": text, "letters": letters, "letter_total": total, "word_multiplier": mult, "score": total * mult}

    def _letter(self, key: int, i: int, code: int, new: bool) -> Letter:
        rules, n = self.rules, self.n
        blank = bool(code & BLANK)
        points = 0 if blank else rules.values[code & LETTER_MASK]
        bonus, mult = None, 1
        if new and self.premiums and rules.premium[i]:
            bonus = rules.premium[i]
            points *= rules.letter_mult[i]
            mult = rules.word_mult[i]
        entry = ({"letter": self.text[code], "row": i // n + 1, "col": i % n + 1, "new": new, "blank": blank,
                  "bonus": bonus, "points": points}, points, mult)
        self.letters[key] = entry
        return entry

    def _stack_word(self, run: range, new: dict[int, int]) -> dict[str, Any]:
        """Stacking games (scoring._stack_word): a word of one-high tiles scores 2 a tile (and
        the Qu bonus), any other word its stack heights."""
        assert self.heights is not None
        n, cells, heights = self.n, self.cells, self.heights
        codes = [new.get(i) or cells[i] for i in run]
        tall = [heights[i] + (i in new) for i in run]
        flat = all(h == 1 for h in tall)
        text = [self.text[code] for code in codes]
        points = [2 if flat else h for h in tall]
        letters = [
            {"letter": t, "row": i // n + 1, "col": i % n + 1, "new": i in new, "blank": False, "bonus": None,
             "points": p, "height": h}
            for i, t, p, h in zip(run, text, points, tall, strict=True)
        ]
        total = sum(points)
        qu = self.rules.qu_bonus if flat and any(c & LETTER_MASK == _QU for c in codes) else 0
        word = "".join(text).replace("Qu", "QU") if self.rules.qu_tile else "".join(text)
        return {"word": word, "letters": letters, "letter_total": total, "word_multiplier": 1, "score": total + qu,
                "flat": flat, "qu_bonus": qu}
