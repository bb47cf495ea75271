"""Unseen tiles: the game's tiles that are neither on the board nor on the rack.

Counted from a checked :class:`~engine.plays.Position`, so a position that uses more tiles
of a letter than the game has is refused before anything is counted. A blank on the board
(lowercase) counts as a blank, not as its letter.

Stacking games (Upwords) show only the top tile of each stack: the tiles under the tops are on
the board but their letters are unknown. ``buried`` counts them; the per-letter counts subtract
only the visible tops (so each is an upper bound, and they add up to ``total + buried``), while
``total`` subtracts every tile in every stack and is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import BLANK, LETTER_MASK
from .plays import Position
from .rules import LETTERS

VOWELS = frozenset("AEIOU")


@dataclass(frozen=True)
class Unseen:
    counts: dict[str, int]  # "A".."Z" then "?" (blanks)
    total: int  # tiles neither on the board nor on the rack (exact, stacks included)
    vowels: int  # A, E, I, O, U among counts
    consonants: int  # the other letters (Y is a consonant, Upwords' Qu tile too)
    blanks: int
    buried: int  # stacking games: tiles under the visible tops, letters unknown


def unseen_tiles(pos: Position) -> Unseen:
    rules = pos.rules
    left = list(rules.counts)
    for i, n in enumerate(pos.rack):
        left[i] -= n
    on_board = 0
    for code in pos.cells:
        if code:
            left[0 if code & BLANK else code & LETTER_MASK] -= 1
            on_board += 1
    in_stacks = sum(pos.heights) if pos.heights is not None else on_board
    buried = in_stacks - on_board
    counts = {ch: left[i] for i, ch in enumerate(LETTERS, 1)}
    counts["?"] = left[0]
    return Unseen(
        counts=counts,
        total=rules.total_tiles - in_stacks - sum(pos.rack),
        vowels=sum(n for ch, n in counts.items() if ch in VOWELS),
        consonants=sum(n for ch, n in counts.items() if ch != "?" and ch not in VOWELS),
        blanks=left[0],
        buried=buried,
    )
