"""The one place that converts between text and letter codes.

Text convention (used by the API too): a board is one string per row, ``.`` for an empty
square, ``A``-``Z`` for a tile, ``a``-``z`` for a blank standing for that letter. Racks use
``?`` for a blank. Coordinates are 1-indexed (row, column).

Codes: a square holds 0 when empty, 1..26 for A..Z, and ``code | BLANK`` for a blank
standing for that letter. A rack is a count array of 27 ints, index 0 counting blanks.
"""

from __future__ import annotations

from .errors import InvalidBoardError, InvalidRackError, TileCountError
from .rules import LETTERS, Ruleset

BLANK = 64
LETTER_MASK = 31
EMPTY = 0


def letter_code(ch: str) -> int:
    """``A``-``Z`` or ``a``-``z`` to 1..26 (a lowercase letter is *not* marked blank here)."""
    return ord(ch.upper()) - 64


def tile_char(code: int) -> str:
    """A square's code to its text: uppercase tile, lowercase blank, ``.`` empty."""
    if code == EMPTY:
        return "."
    ch = LETTERS[(code & LETTER_MASK) - 1]
    return ch.lower() if code & BLANK else ch


def column_letter(col: int) -> str:
    """1-indexed column to its notation letter (1 -> A)."""
    return LETTERS[col - 1]


def _check_shape(rules: Ruleset, rows: list[str], what: str) -> None:
    """The grid is ``size`` strings of ``size`` characters, or an error naming the row."""
    n = rules.size
    if len(rows) != n:
        raise InvalidBoardError(f"{what} has {len(rows)} rows; {rules.name} needs {n}", rows=len(rows), expected=n)
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, str) or len(row) != n:
            got = len(row) if isinstance(row, str) else type(row).__name__
            prefix = "row" if what == "board" else f"{what} row"
            raise InvalidBoardError(
                f"{prefix} {r} has {got} squares; {rules.name} needs {n}", row=r, length=got, expected=n
            )


def _code_table(blanks: bool) -> bytes:
    """Each byte's square code (bytes.translate): '.' empty, 'A'-'Z', with ``blanks`` 'a'-'z' a
    blank; 255 for anything else."""
    table = bytearray([255]) * 256
    table[ord(".")] = EMPTY
    for k, ch in enumerate(LETTERS, start=1):
        table[ord(ch)] = k
        if blanks:
            table[ord(ch.lower())] = k | BLANK
    return bytes(table)


_CODES = {stacking: _code_table(blanks=not stacking) for stacking in (False, True)}


def parse_board(rules: Ruleset, rows: list[str] | None) -> list[int]:
    """Parse board text into a flat row-major list of codes; ``None`` means an empty board."""
    n = rules.size
    if rows is None:
        return [EMPTY] * (n * n)
    _check_shape(rules, rows, "board")
    text = "".join(rows)
    if text.isascii():  # every square at once; a character that is not a square is named below
        codes = text.encode("ascii").translate(_CODES[rules.stacking])
        if b"\xff" not in codes:
            return list(codes)
    cells: list[int] = []
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            if ch == ".":
                cells.append(EMPTY)
            elif "A" <= ch <= "Z":
                cells.append(letter_code(ch))
            elif "a" <= ch <= "z" and not rules.stacking:
                cells.append(letter_code(ch) | BLANK)
            else:
                allowed = "'.', 'A'-'Z'" + ("" if rules.stacking else " or 'a'-'z' for a blank")
                raise InvalidBoardError(
                    f"row {r}, column {c}: unexpected character {ch!r} (use {allowed})",
                    row=r,
                    col=c,
                    letter=ch,
                )
    return cells


def parse_rack(rules: Ruleset, rack: str) -> list[int]:
    """Parse a rack (letters, ``?`` for a blank) into a count array indexed by code."""
    counts = [0] * 27
    for i, ch in enumerate(rack, start=1):
        if ch == "?" and rules.blanks:
            counts[0] += 1
        elif "A" <= ch.upper() <= "Z" and len(ch.encode()) == 1:
            counts[letter_code(ch)] += 1
        else:
            what = "a letter" if not rules.blanks else "a letter or '?' for a blank"
            raise InvalidRackError(
                f"rack position {i}: unexpected character {ch!r} (use {what})",
                position=i,
                letter=ch,
            )
    if len(rack) > rules.rack_size:  # after the characters, so a typo is named as such
        raise InvalidRackError(
            f"rack {rack!r} has {len(rack)} tiles; {rules.name} racks hold {rules.rack_size}",
            rack=rack,
            length=len(rack),
            expected=rules.rack_size,
        )
    if counts[0] > rules.blanks:
        raise InvalidRackError(
            f"rack has {counts[0]} blanks; {rules.name} has only {rules.blanks}",
            letter="?",
            count=counts[0],
            available=rules.blanks,
        )
    return counts


def check_tile_counts(rules: Ruleset, cells: list[int], rack: list[int]) -> None:
    """Refuse a position that uses more tiles of a letter than the game contains.

    Blanks on the board (lowercase) count as blanks, not as their letter. For stacking games
    only the visible top tiles are known, so only those are counted.
    """
    used = list(rack)
    for code in cells:
        if code:
            used[0 if code & BLANK else code & LETTER_MASK] += 1
    for i, n in enumerate(used):
        if n > rules.counts[i]:
            name = "blank" if i == 0 else LETTERS[i - 1]
            on_rack = rack[i]
            raise TileCountError(
                f"{n} {name} tiles on board ({n - on_rack}) and rack ({on_rack}); "
                f"{rules.name} has only {rules.counts[i]}",
                letter="?" if i == 0 else name,
                board=n - on_rack,
                rack=on_rack,
                available=rules.counts[i],
            )


def parse_heights(rules: Ruleset, rows: list[str] | None, cells: list[int]) -> list[int]:
    """Parse stack heights (one string of digits per row) and check they agree with the board:
    a letter exactly where the height is not 0. ``None`` means every stack is 0 or 1 high."""
    n = rules.size
    if rows is None:
        return [1 if code else 0 for code in cells]
    _check_shape(rules, rows, "heights")
    heights: list[int] = []
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            if not ("0" <= ch <= "9") or int(ch) > rules.max_height:
                raise InvalidBoardError(
                    f"heights row {r}, column {c}: {ch!r} is not a height 0-{rules.max_height}",
                    row=r, col=c, height=ch,
                )
            h = int(ch)
            code = cells[(r - 1) * n + c - 1]
            if (h == 0) != (code == EMPTY):
                what = f"letter {tile_char(code)}" if code else "no letter"
                raise InvalidBoardError(
                    f"row {r}, column {c}: height {h} but {what} on the board "
                    "(a square has a letter exactly when its height is not 0)",
                    row=r, col=c, height=h, letter=tile_char(code),
                )
            heights.append(h)
    return heights


def format_board(rules: Ruleset, cells: list[int]) -> list[str]:
    n = rules.size
    return ["".join(tile_char(cells[r * n + c]) for c in range(n)) for r in range(n)]
