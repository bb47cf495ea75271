"""CGP (Crossword Game Position, Woogles' open protocols) in and out.

One line, four space-separated fields and then operations::

    15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AELNOQT/ 0/0 0 lex NWL18; lm exchange 2;

1. the board: rows separated by ``/``, a tile as its uppercase letter, a blank as the
   lowercase letter it stands for, and a run of empty squares as its length (``7D7``);
2. the racks, ``/``-separated, the player to move first (``?`` a blank; a rack may be
   partly or not at all known, so it may be empty);
3. the scores, ``/``-separated, in the same order;
4. the number of consecutive scoreless turns before the position;
5. any number of operations, each an opcode, its operands and a ``;``: ``lex`` (lexicon),
   ``bb`` (bingo bonus), ``etl`` (exchange tile limit), ``mcnz`` (the maximum number of
   consecutive zero turns; ``mncz``, an older spelling, is read as the same), ``bdn``,
   ``ld``, ``cr``, ``lm`` (the last moves, most recent first, may repeat), ``ti``, ``tmr``,
   ``to``, and any other opcode, kept as written.

Numbers must be non-negative integers except the scores. Errors
(:class:`~engine.errors.CGPError`) name the field (``board``, ``racks``, ``scores``,
``zeros``, ``operations``), the character position in the line (1-based) and the character.
Multi-codepoint tiles (``[CH]``) belong to other languages' tile sets and are refused.

A CGP does not carry Upwords' stack heights; read into an Upwords position, every tile is
one tile high (as the API assumes when ``heights`` is left out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import CGPError
from .game import canonical

MAX_SIDE = 32  # no game is larger; bounds what a CGP may ask to allocate
MAX_POINTS = 1_000_000  # scores beyond this either way are refused (no game comes near it)
MAX_ZEROS = 100  # consecutive scoreless turns (a game ends after six)
NUMERIC_OPS = ("bb", "etl", "mcnz", "ti", "to")
ALIASES = {"mncz": "mcnz"}


@dataclass(frozen=True)
class CGP:
    board: tuple[str, ...]  # rows in the API's text convention ('.' empty, 'a'-'z' a blank)
    racks: tuple[str, ...]  # the player to move first, canonical order
    scores: tuple[int, ...]
    zeros: int  # consecutive scoreless turns
    ops: tuple[tuple[str, str], ...] = ()  # (opcode, operands) in the order written

    def op(self, name: str) -> str | None:
        """The operands of the first ``name`` operation, or None."""
        return next((v for k, v in self.ops if k == name), None)

    @property
    def lexicon(self) -> str | None:
        return self.op("lex")


def _fail(field: str, at: int, message: str, char: str | None = None) -> CGPError:
    details: dict[str, object] = {"field": field, "position": at}
    if char is not None:
        details["char"] = char
    where = f"cgp {field}, character {at}"
    return CGPError(f"{where}: {message}", **details)


def _board(text: str, offset: int) -> tuple[str, ...]:
    rows = []
    for r, row in enumerate(text.split("/"), start=1):
        out: list[str] = []
        k = 0
        while k < len(row):
            ch = row[k]
            at = offset + k + 1
            if "0" <= ch <= "9":
                m = re.match(r"[0-9]{1,3}", row[k:])
                assert m
                run = int(m.group())
                if run == 0:
                    raise _fail("board", at, f"row {r}: an empty run of 0 squares", ch)
                if run + sum(map(len, out)) > MAX_SIDE:
                    raise _fail("board", at, f"row {r} is longer than {MAX_SIDE} squares", ch)
                out.append("." * run)
                k += len(m.group())
                continue
            if ch.isascii() and ch.isalpha():
                out.append(ch)
            elif ch == "[":
                raise _fail("board", at, f"row {r}: multi-letter tiles ('[CH]') are not in these games' tile sets", ch)
            else:
                raise _fail("board", at, f"row {r}: unexpected character {ch!r} (a letter, or a number of empty squares)", ch)
            k += 1
        rows.append("".join(out))
        if len(rows[-1]) != len(rows[0]) or not rows[-1]:
            raise _fail("board", offset + 1, f"row {r} has {len(rows[-1])} squares, row 1 has {len(rows[0])}")
        offset += len(row) + 1
    if len(rows) != len(rows[0]):
        raise _fail("board", offset, f"{len(rows)} rows of {len(rows[0])} squares: a board is square")
    return tuple(rows)


def parse_cgp(text: str, players: int = 2) -> CGP:
    """Read one CGP line (see the module docstring)."""
    if not isinstance(text, str) or not text.strip():
        raise _fail("board", 1, "the CGP is empty")
    line = text.strip()
    if "\n" in line:
        raise _fail("board", line.index("\n") + 1, "a CGP is one line", "\n")
    fields: list[tuple[str, int]] = []  # (text, offset) of the four fields
    pos = 0
    for _ in range(4):
        m = re.compile(r"\S+").search(line, pos)
        if m is None:
            names = ("board", "racks", "scores", "zeros")
            raise _fail(names[len(fields)], len(line) + 1, f"the {names[len(fields)]} field is missing")
        fields.append((m.group(), m.start()))
        pos = m.end()
    (board_t, board_at), (racks_t, racks_at), (scores_t, scores_at), (zeros_t, zeros_at) = fields
    board = _board(board_t, board_at)
    racks = racks_t.split("/")
    if len(racks) != players:
        raise _fail("racks", racks_at + 1, f"{len(racks)} racks for {players} players (racks are '/'-separated)")
    at = racks_at
    for rack in racks:
        for k, ch in enumerate(rack):
            if not (ch == "?" or (ch.isascii() and ch.isalpha())):
                raise _fail("racks", at + k + 1, f"unexpected character {ch!r} in rack {rack!r} (letters, '?' a blank)", ch)
        at += len(rack) + 1
    scores: list[int] = []
    at = scores_at
    for part in scores_t.split("/"):
        if not re.fullmatch(r"-?\d+", part):
            bad = next((c for c in part if not (c.isdigit() or c == "-")), part[:1] or "/")
            raise _fail("scores", at + 1, f"score {part!r} is not a whole number", bad)
        if len(part.lstrip("-")) > 7 or abs(int(part)) > MAX_POINTS:
            raise _fail("scores", at + 1, f"score {part[:20]!r} is out of range (at most {MAX_POINTS:,} either way)")
        scores.append(int(part))
        at += len(part) + 1
    if len(scores) != players:
        raise _fail("scores", scores_at + 1, f"{len(scores)} scores for {players} players")
    if not (zeros_t.isascii() and zeros_t.isdigit()):
        bad = next(c for c in zeros_t if not ("0" <= c <= "9"))
        raise _fail("zeros", zeros_at + 1 + zeros_t.index(bad), f"consecutive zero turns {zeros_t!r} is not a number", bad)
    if len(zeros_t) > 3 or int(zeros_t) > MAX_ZEROS:
        raise _fail("zeros", zeros_at + 1, f"consecutive zero turns {zeros_t[:20]!r} is out of range (0 to {MAX_ZEROS})")
    ops: list[tuple[str, str]] = []
    rest = line[pos:]
    if rest.strip():
        if not rest.rstrip().endswith(";"):
            raise _fail("operations", len(line), "every operation ends with ';'", line[-1])
        at = pos
        for chunk in rest.split(";")[:-1]:
            body = chunk.strip()
            if not body:
                raise _fail("operations", at + len(chunk) + 1, "an empty operation", ";")
            opcode, _, operands = body.partition(" ")
            opcode = ALIASES.get(opcode, opcode)
            operands = " ".join(operands.split())
            if not re.fullmatch(r"[a-z][a-z0-9]*", opcode):
                raise _fail("operations", at + chunk.index(body[0]) + 1, f"opcode {opcode!r} is not lowercase letters", body[0])
            if opcode in NUMERIC_OPS and not operands.isdigit():
                raise _fail("operations", at + chunk.index(body[0]) + 1, f"{opcode} takes a whole number, not {operands!r}")
            ops.append((opcode, operands))
            at += len(chunk) + 1
    return CGP(board, tuple(canonical(r) for r in racks), tuple(scores), int(zeros_t), tuple(ops))


def _row_text(row: str) -> str:
    out = []
    run = 0
    for ch in row:
        if ch == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(ch)
    if run:
        out.append(str(run))
    return "".join(out)


def write_cgp(cgp: CGP) -> str:
    """The CGP line of a position (racks in canonical order, operations as given)."""
    parts = [
        "/".join(_row_text(r) for r in cgp.board),
        "/".join(cgp.racks),
        "/".join(str(s) for s in cgp.scores),
        str(cgp.zeros),
    ]
    parts += [f"{k} {v};" if v else f"{k};" for k, v in cgp.ops]
    return " ".join(parts)


def after_play(cgp: CGP, board: list[str], leave: str, points: int, last_move: str) -> CGP:
    """The position after the player to move makes a play: the board with the new tiles, the
    next player to move first, the player's leave (the tiles drawn are not known), the score
    added, no scoreless turns, and the play as the newest ``lm`` operation."""
    racks = cgp.racks[1:] + (canonical(leave),)
    scores = cgp.scores[1:] + (cgp.scores[0] + points,)
    zeros = 0 if last_move and not last_move.startswith(("exchange", "pass")) else cgp.zeros + 1
    ops = tuple(o for o in cgp.ops if o[0] != "lm")
    lms = tuple(o for o in cgp.ops if o[0] == "lm")
    return CGP(tuple(board), racks, scores, zeros, ops + (("lm", last_move),) + lms)
