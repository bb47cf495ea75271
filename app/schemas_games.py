"""Request and response models of the whole-game endpoints (analysis of a GCG record, positions
to and from CGP).

Kept apart from ``schemas.py`` so the single-position models stay small; the shapes mirror
``engine.analyze``'s dataclasses field for field.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from engine.analyze import GameGrade

from .schemas import (
    HEIGHTS_DOC,
    Board,
    CgpText,
    LexiconName,
    Rack,
    RequestModel,
    TileOut,
    cgp_or_position,
    exactly_one_each,
)

GCG_DOC = (
    "The game record in GCG (as Quackle, Macondo and Woogles write it): '#player1 nick Name' lines, "
    "then one '>nick: RACK 8D WORD +score total' line per turn; exchanges, passes, phonies taken back "
    "('--'), challenge bonuses, time penalties and end-of-game rack lines are understood."
)


class AnalyzeIn(RequestModel):
    gcg: Annotated[str, StringConstraints(min_length=1, max_length=60_000)] = Field(description=GCG_DOC)
    lexicon: LexiconName | None = Field(default=None, description="Lexicon to judge words with; default lexicon if omitted.")
    best: int = Field(default=3, ge=0, le=20, description="How many best plays to list per turn.")
    plural_rule: bool = Field(default=True, description="Upwords: a lone S may not just pluralise a word.")


class BestPlayOut(BaseModel):
    play: str = Field(description="GCG notation: '8D WORD' across, 'D8 WORD' down, '.' for a tile on the board.")
    score: int


class EndgameGradeOut(BaseModel):
    value_best: int = Field(description="The best first move's value: the final spread change for the player to move "
                            "(own points minus the opponent's to the end of the game, rack adjustments included), both sides "
                            "playing their best after it.")
    value_played: int = Field(description="The same value with the turn's own play (or pass) forced first.")
    points_lost: int = Field(description="value_best - value_played: what the play cost against the best (0 when it was the best).")
    proved: bool = Field(description="Both values were searched to the end of the game; false: the best the time budget found.")
    best_play: str = Field(description="The solver's best first move, in GCG notation as 'play' ('pass' for a pass).")
    blown: bool = Field(description="A blown endgame: the play lost points against the best (points_lost > 0).")
    other_rack: str = Field(description="The opponent's rack: the unseen tiles once the bag is empty.")


WIN_DOC = ("The static win table (the shipped win-probability table by spread and tiles unseen) applied to each play's "
           "resulting spread: not a simulation, it knows nothing of the board or the racks. Null for Upwords (no table ships) "
           "and games of more than two players. Where the bag is empty and `endgame` is set, the endgame's points lost are the "
           "better measure.")


class WinGradeOut(BaseModel):
    after: float = Field(description="The mover's chance of winning after the turn, 0..1 (a draw counts one half), from the "
                         "re-scored spread after the turn and the tiles the opponent then cannot see.")
    lost: float | None = Field(description="The chance of winning after the analysis's best play (by score, as `best`) minus "
                               "`after`, never below 0 (0..1: 0.05 is five percentage points); null when the turn was not searched.")
    mistake: Literal["small", "medium", "large"] | None = Field(
        description="The mistake's size by `lost`: null below 0.02, 'small' below 0.05, 'medium' below 0.12, else 'large'.")


class TurnGradeOut(BaseModel):
    turn: int = Field(description="Turn number, 1-based (bonus and end-of-game lines are not turns).")
    line: int = Field(description="The record's line of this turn.")
    player: int = Field(description="Seat, 0-based.")
    name: str
    kind: Literal["play", "withdrawn", "exchange", "pass"] = Field(
        description="'withdrawn': a phony taken back after a challenge.")
    rack: str | None = Field(description="The rack before the turn, when the record shows it.")
    play: str
    recorded_score: int = Field(description="The score the record gave (a phony: what it had scored).")
    score: int | None = Field(description="The score the engine gives the play (0 for exchanges and passes).")
    valid: bool | None = Field(description="Every word in the lexicon (plays only).")
    invalid_words: list[str]
    rank: int | None = Field(description="The play's rank among all legal plays (1 = best); null when not searched or not legal.")
    total_plays: int | None = Field(description="Legal plays with this rack; null when not searched.")
    best: list[BestPlayOut]
    points_left: int | None = Field(description="Best score minus the points the turn kept.")
    cut_short: bool = Field(description="The time budget ran out before this turn was searched.")
    board: list[str] = Field(description="The board before the turn, one string per row as in requests ('.' empty, 'a'-'z' a blank).")
    heights: list[str] | None = Field(description="Stacking games (Upwords): stack heights before the turn, one digit per square; else null.")
    tiles: list[TileOut] = Field(description="A play or a phony taken back: the tiles it put down (empty for exchanges and passes).")
    endgame: EndgameGradeOut | None = Field(
        default=None, description="A play or pass made with the bag empty (two players, rack known), graded by the endgame "
        "solver: the points lost against the best play; null for other turns, or when the time budget left no time "
        "(a note says so).")
    win: WinGradeOut | None = Field(default=None, description=WIN_DOC)


class PlayerTotalOut(BaseModel):
    name: str
    recorded: int = Field(description="The record's last cumulative score for the player.")
    rescored: int
    points_left: int


class DifferenceOut(BaseModel):
    line: int
    turn: int
    player: int
    recorded: int = Field(description="The cumulative score the record shows on that line.")
    rescored: int


class AnalyzeOut(BaseModel):
    game: str
    lexicon: str
    turns: list[TurnGradeOut]
    players: list[PlayerTotalOut]
    scores_agree: bool = Field(description="Every recorded cumulative score equals the re-scored one.")
    first_difference: DifferenceOut | None
    cut_short: int = Field(description="Turns not searched because the time budget ran out.")
    notes: list[str]


def analyze_out(result: GameGrade) -> AnalyzeOut:
    from dataclasses import asdict

    return AnalyzeOut.model_validate(asdict(result))


# ----------------------------------------------------------------------------- CGP


class CgpIn(RequestModel):
    """Either ``cgp`` (read it) or a position (write it): the answer gives both forms."""

    model_config = ConfigDict(json_schema_extra=exactly_one_each(cgp_or_position(
        (), ("board", "heights"), rack={"maxLength": 0}, other_rack={"maxLength": 0})))

    cgp: CgpText | None = Field(default=None, description="A CGP line to read; give it alone.")
    board: Board | None = Field(default=None, description="The board to write as CGP: one string per row ('.' empty, 'a'-'z' a blank); omit for an empty board.")
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC + " Checked against the board; a CGP has no heights.")
    rack: Rack = Field(default="", description="The rack of the player to move ('?' a blank).")
    other_rack: Rack = Field(default="", description="The other player's rack, when known.")
    scores: list[Annotated[int, Field(ge=-1_000_000, le=1_000_000)]] = Field(
        default=[0, 0], min_length=2, max_length=2, description="The scores, the player to move first (within a million either way).")
    zeros: int = Field(default=0, ge=0, le=100, description="Consecutive scoreless turns before the position.")
    lexicon: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,100}$")] | None = Field(
        default=None, description="Written as the 'lex' operation.")


class CgpOperation(BaseModel):
    op: str = Field(description="The opcode ('lex', 'bb', 'lm', ...).")
    operands: str


class CgpOut(BaseModel):
    game: str
    cgp: str = Field(description="The position as one CGP line (racks in alphabetical order, blanks last).")
    board: list[str] = Field(description="The board, one string per row as in requests.")
    rack: str = Field(description="The rack of the player to move.")
    racks: list[str] = Field(description="Every rack, the player to move first ('' when unknown).")
    scores: list[int]
    zeros: int
    lexicon: str | None = Field(description="The 'lex' operation's lexicon name, if any (it need not be one this service ships).")
    operations: list[CgpOperation]
