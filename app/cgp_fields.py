"""Requests that give a position as CGP instead of ``board`` and ``rack``.

:func:`expand_cgp` runs before a request model's own validation: it reads the ``cgp`` line and
fills in ``board`` (its rows) and ``rack`` (the rack of the player to move), so everything
after it sees an ordinary request. A CGP error is an ``invalid_cgp`` 422 naming the field and
the character. The CGP's ``lex`` operation is not used to pick the lexicon (names such as
NWL23 are not shipped); the request's ``lexicon`` (or the default) judges the words.
"""

from __future__ import annotations

from typing import Any

from engine import PlayCheck, Position, Ruleset, position
from engine.board import format_board
from engine.cgp import CGP, after_play, parse_cgp, write_cgp
from engine.errors import CGPError
from engine.game import canonical, placements, subtract, tile_counts, tiles_of_move, tiles_text
from engine.gcg import gcg_word, position_text

MAX_CGP = 2000
CGP_DOC = (
    "The position as one CGP line (Woogles' open protocols: board rows with run-length empty "
    "squares, racks with the player to move first, scores, consecutive zero turns, operations), "
    "instead of board and rack."
)


def expand_cgp(data: Any) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get("cgp"), str):
        return data
    clash = next((k for k in ("board", "rack", "heights") if data.get(k) is not None), None)
    if clash:
        raise CGPError(f"give either cgp or {clash}, not both", field=clash)
    if len(data["cgp"]) > MAX_CGP:
        raise CGPError(f"cgp is {len(data['cgp'])} characters long; at most {MAX_CGP}", field="cgp")
    cgp = parse_cgp(data["cgp"])
    return {**data, "board": list(cgp.board), "rack": cgp.racks[0]}


def cgp_after(rules: Ruleset, text: str, pos: Position, check: PlayCheck) -> str:
    """The CGP after the described play: the board with its tiles, the other player to move,
    the player's leave (what they draw is not known), the score added, the play as ``lm``."""
    move = check.move
    cells = list(pos.cells)
    for i, code in placements(rules, move):
        cells[i] = code
    leave = subtract(pos.rack, tile_counts(tiles_of_move(move)))
    last = f"{position_text(move)} {gcg_word(rules, pos.cells, move)}"
    after = after_play(parse_cgp(text), format_board(rules, cells), tiles_text(leave or [0] * 27),
                       check.breakdown.total, last)
    return write_cgp(after)


def convert(rules: Ruleset, req: Any) -> dict[str, Any]:
    """``POST /v1/games/{game}/cgp``: read a CGP (checking its board and rack against the game)
    or write one from a position; the answer gives both forms."""
    if req.cgp is not None:
        given = next((k for k in ("board", "heights") if getattr(req, k) is not None), None)
        given = given or next((k for k in ("rack", "other_rack") if getattr(req, k)), None)
        if given:
            raise CGPError(f"give either cgp or {given}, not both", field=given)
        if len(req.cgp) > MAX_CGP:
            raise CGPError(f"cgp is {len(req.cgp)} characters long; at most {MAX_CGP}", field="cgp")
        cgp = parse_cgp(req.cgp)
        position(rules, list(cgp.board), cgp.racks[0])  # the board and rack must fit the game
    else:
        pos = position(rules, req.board, req.rack, req.heights)
        position(rules, req.board, req.other_rack, req.heights)
        ops = (("lex", req.lexicon),) if req.lexicon else ()
        cgp = CGP(tuple(format_board(rules, pos.cells)), (canonical(req.rack), canonical(req.other_rack)),
                  tuple(req.scores), req.zeros, ops)
    return {
        "game": rules.name, "cgp": write_cgp(cgp), "board": list(cgp.board), "rack": cgp.racks[0],
        "racks": list(cgp.racks), "scores": list(cgp.scores), "zeros": cgp.zeros, "lexicon": cgp.lexicon,
        "operations": [{"op": k, "operands": v} for k, v in cgp.ops],
    }
