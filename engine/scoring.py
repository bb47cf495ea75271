"""The one authoritative scorer: every total the service returns comes from here.

It follows the order of the Crossplay scoring page: each tile's letter value (a blank is 0,
a tile already on the board takes no bonus), letter premiums under new tiles, the sum, every
word premium under new tiles multiplied together (DW + TW = x6), the same for each
cross-word (a new tile's premiums count again in every word it completes), and last the
all-tiles bonus, never multiplied. Stacking games (Upwords) score by stack heights instead.

The scorer is written independently of the generator's incremental arithmetic; the tests
re-score every generated play here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .board import BLANK, LETTER_MASK
from .rules import LETTERS, Ruleset

Placement = tuple[int, int]  # (square index, code) — internal, 0-indexed


class LetterScore(NamedTuple):  # named tuples: built ~20,000 times for a limit-1000 answer
    letter: str  # uppercase; lowercase for a blank ("Qu" for Upwords' Qu tile)
    row: int
    col: int
    new: bool
    blank: bool
    bonus: str | None  # "DL", "TL", "DW", "TW" under a new tile, else None
    points: int
    height: int | None = None  # stacking games only


class WordScore(NamedTuple):
    word: str
    letters: tuple[LetterScore, ...]
    letter_total: int
    word_multiplier: int
    score: int
    flat: bool | None = None  # stacking games: every letter one tile high
    qu_bonus: int = 0


@dataclass(frozen=True)
class Bonus:
    name: str
    points: int


@dataclass(frozen=True)
class Breakdown:
    words: tuple[WordScore, ...]
    all_tiles_bonus: Bonus
    total: int
    tiles_used: int = 0

    def to_dict(self, stacking: bool = False) -> dict:
        """The API's breakdown shape (written out by hand: ``dataclasses.asdict`` costs ~10x)."""

        def letter(x: LetterScore) -> dict:
            d = {"letter": x.letter, "row": x.row, "col": x.col, "new": x.new, "blank": x.blank,
                 "bonus": x.bonus, "points": x.points}
            if stacking:
                d["height"] = x.height
            return d

        def word(w: WordScore) -> dict:
            d = {"word": w.word, "letters": [letter(x) for x in w.letters], "letter_total": w.letter_total,
                 "word_multiplier": w.word_multiplier, "score": w.score}
            if stacking:
                d["flat"] = w.flat
                d["qu_bonus"] = w.qu_bonus
            return d

        return {
            "words": [word(w) for w in self.words],
            "all_tiles_bonus": {"name": self.all_tiles_bonus.name, "points": self.all_tiles_bonus.points},
            "total": self.total,
        }


def word_runs(n: int, cells: list[int], squares: list[int]) -> tuple[bool, list[int], list[list[int]]]:
    """The words a play's new squares form on ``cells`` (already holding the new tiles).

    Returns (down, main word squares, cross-word squares per new tile with one). The main
    word runs along the play's line; a single tile's line is across when it has an across
    word, else down. Runs shorter than two squares are not words.
    """

    def run(i: int, step: int) -> list[int]:
        r0 = i // n
        a = i
        while a - step >= 0 and cells[a - step] and (step == n or (a - step) // n == r0):
            a -= step
        b = i
        while b + step < n * n and cells[b + step] and (step == n or (b + step) // n == r0):
            b += step
        return list(range(a, b + 1, step))

    rows = {i // n for i in squares}
    if len(squares) > 1:
        down = len(rows) > 1
    else:
        down = len(run(squares[0], 1)) < 2
    along, across_step = (n, 1) if down else (1, n)
    main = run(squares[0], along)
    crosses = [w for w in (run(i, across_step) for i in sorted(squares)) if len(w) >= 2]
    return down, main, crosses


def tile_text(rules: Ruleset, code: int) -> str:
    ch = LETTERS[(code & LETTER_MASK) - 1]
    if rules.qu_tile and ch == "Q":
        return "Qu"
    return ch.lower() if code & BLANK else ch


def word_text(rules: Ruleset, cells: list[int], squares: list[int]) -> str:
    text = "".join(tile_text(rules, cells[i]) for i in squares)
    return text.replace("Qu", "QU") if rules.qu_tile else text


def score_play(
    rules: Ruleset,
    cells: list[int],
    placements: list[Placement],
    premiums: bool = True,
    heights: list[int] | None = None,
) -> Breakdown:
    """Score a play (assumed geometrically legal) with a full breakdown."""
    n = rules.size
    after = list(cells)
    new = {}
    for i, code in placements:
        after[i] = code
        new[i] = code
    _, main, crosses = word_runs(n, after, list(new))
    words = [main] + crosses if len(main) >= 2 else crosses
    if rules.stacking:
        assert heights is not None
        h_after = list(heights)
        for i in new:
            h_after[i] += 1
        scored = [_stack_word(rules, after, h_after, new, w) for w in words]
    else:
        scored = [_word(rules, after, new, w, premiums) for w in words]
    earned = len(new) == rules.rack_size
    bonus = Bonus(rules.bonus_name, rules.bonus_points if earned else 0)
    total = sum(w.score for w in scored) + bonus.points
    return Breakdown(tuple(scored), bonus, total, len(new))


def _word(rules: Ruleset, after: list[int], new: dict[int, int], squares: list[int], premiums: bool) -> WordScore:
    n = rules.size
    values, premium = rules.values, rules.premium
    letters = []
    mult, total = 1, 0
    for i in squares:
        code = after[i]
        blank = bool(code & BLANK)
        points = 0 if blank else values[code & LETTER_MASK]
        bonus = None
        placed = i in new
        if placed and premiums and premium[i]:
            bonus = premium[i]
            points *= rules.letter_mult[i]
            mult *= rules.word_mult[i]
        total += points
        letters.append(LetterScore(tile_text(rules, code), i // n + 1, i % n + 1, placed, blank, bonus, points))
    text = "".join(x.letter for x in letters)
    if rules.qu_tile:
        text = text.replace("Qu", "QU")
    return WordScore(text, tuple(letters), total, mult, total * mult)


def _stack_word(
    rules: Ruleset, after: list[int], heights: list[int], new: dict[int, int], squares: list[int]
) -> WordScore:
    n = rules.size
    flat = all(heights[i] == 1 for i in squares)
    per_tile = 2 if flat else 1
    letters = tuple(
        LetterScore(
            tile_text(rules, after[i]), i // n + 1, i % n + 1, i in new, False, None,
            per_tile if flat else heights[i], heights[i],
        )
        for i in squares
    )
    total = sum(x.points for x in letters)
    has_qu = any(after[i] & LETTER_MASK == 17 for i in squares)
    qu = rules.qu_bonus if flat and has_qu else 0
    return WordScore(word_text(rules, after, squares), letters, total, 1, total + qu, flat, qu)
