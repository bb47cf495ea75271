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

SQUARE = re.compile(r"(\d+)([A-Za-z])|([A-Za-z])(\d+)")  # 8F across, F8 down


def parse_square(text: str) -> tuple[int, int, str] | None:
    """``8F`` -> (8, 6, "across"), ``F8`` -> (8, 6, "down"); None when it is neither (the board's
    size is the caller's check). Shared by play notation and GCG records."""
    m = SQUARE.fullmatch(text)
    if not m:
        return None
    if m.group(1):
        return int(m.group(1)), ord(m.group(2).upper()) - 64, "across"
    return int(m.group(4)), ord(m.group(3).upper()) - 64, "down"


def square_text(row: int, col: int, direction: str) -> str:
    """The inverse of :func:`parse_square`: row first across (``8F``), column first down (``F8``)."""
    letter = chr(64 + col)
    return f"{row}{letter}" if direction == "across" else f"{letter}{row}"


def square_name(row: int, col: int) -> str:
    """One square in messages, in the notation's terms: row number, then column letter (``8H``).
    A square alone has no direction, and ``8H`` and ``H8`` name the same square; messages use
    this form (and :func:`square_text` where a word's direction is known), never ``8,8``."""
    return f"{row}{chr(64 + col)}"


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
    parsed = parse_square(square)
    if parsed is None:
        raise IllegalPlayError(
            f"square {square!r} in play {text!r} is neither row-then-column (8F, across) "
            "nor column-then-row (H6, down)",
            field="play", play=text,
        )
    row, col, direction = parsed
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
