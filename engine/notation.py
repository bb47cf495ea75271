"""Play notation: ``8F QUIXOTE`` (across: row number, then column letter) and ``H6 QUIXOTE``
(down: column letter, then row number), as the service writes it and as players and GCG
records write it.

The word is the whole main word from that square: uppercase a tile, lowercase a blank.
Tiles already on the board may be written as their letter, as ``.``, or inside parentheses
(``8F QUI(X)OTE``, Quackle's habit); all three mean "the tile that is there".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import IllegalPlayError

_ACROSS = re.compile(r"(\d{1,2})([A-Za-z])")
_DOWN = re.compile(r"([A-Za-z])(\d{1,2})")


@dataclass(frozen=True)
class Notation:
    row: int
    col: int
    direction: str  # "across" or "down"
    word: str  # letters as written, '.' for a tile already on the board


def parse_notation(text: str, size: int = 15) -> Notation:
    """Parse ``"8F QUIXOTE"`` / ``"H6 QUIXOTE"``; IllegalPlayError says what is wrong.

    Parenthesised letters become ``.`` only in the sense of "already on the board": they are
    kept as letters, which the placement check matches against the board tile.
    """
    parts = text.split()
    if len(parts) != 2:
        raise IllegalPlayError(
            f"play {text!r} is not 'SQUARE WORD' (e.g. '8F QUIXOTE' across, 'H6 QUIXOTE' down)",
            field="play", play=text,
        )
    square, word = parts
    if m := _ACROSS.fullmatch(square):
        row, col, direction = int(m.group(1)), ord(m.group(2).upper()) - 64, "across"
    elif m := _DOWN.fullmatch(square):
        row, col, direction = int(m.group(2)), ord(m.group(1).upper()) - 64, "down"
    else:
        raise IllegalPlayError(
            f"square {square!r} in play {text!r} is neither row-then-column (8F, across) "
            "nor column-then-row (H6, down)",
            field="play", play=text,
        )
    if not (1 <= row <= size and 1 <= col <= size):
        raise IllegalPlayError(
            f"square {square!r} is outside the {size}x{size} board", field="play", row=row, col=col
        )
    plain = word.replace("(", "").replace(")", "")
    if word.count("(") != word.count(")") or not plain or not all(ch == "." or (ch.isascii() and ch.isalpha()) for ch in plain):
        raise IllegalPlayError(
            f"word {word!r} in play {text!r} must be letters (lowercase for a blank), '.' or "
            "'(...)' for tiles already on the board",
            field="play", play=text,
        )
    return Notation(row, col, direction, plain)
