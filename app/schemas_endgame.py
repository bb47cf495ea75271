"""Request and response models of ``POST /v1/games/{game}/endgame`` (engine.strategy.endgame).

Kept apart from ``schemas.py`` (the single-position models); the shapes mirror the engine's
``Answer``, ``Step`` and ``FirstMove``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.cgp import parse_cgp
from engine.errors import CGPError

from .cgp_fields import MAX_CGP
from .schemas import (
    BOARD_DOC,
    HEIGHTS_DOC,
    PLURAL_DOC,
    Board,
    CgpText,
    LexiconName,
    Rack,
    RequestModel,
    TileOut,
    cgp_or_position,
    exactly_one_each,
)

Score = Annotated[int, Field(ge=-100_000, le=100_000)]

CGP_ENDGAME_DOC = (
    "The position as one CGP line instead of board, rack and other_rack: its board, the rack of "
    "the player to move, the opponent's rack when the line gives one (else inferred from the unseen "
    "tiles), the scores and the consecutive zero-scoring turns."
)


class EndgameIn(RequestModel):
    model_config = ConfigDict(json_schema_extra=exactly_one_each(
        cgp_or_position(("rack",), ("board", "heights", "rack", "other_rack", "scores"))))

    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(description="The rack of the side to move, '?' for a blank.", examples=["AEGIIO?"])
    other_rack: Rack | None = Field(
        default=None,
        description=(
            "The opponent's rack; omitted, every tile not on the board or the rack. The bag must be "
            "empty: the board and the two racks hold every tile of the game."
        ),
    )
    scores: list[Score] | None = Field(default=None, min_length=2, max_length=2,
                                     description="[side to move, opponent]: the answer then gives the final scores.")
    scoreless: int = Field(default=0, ge=0, le=100,
                           description="Consecutive scoreless turns just played (passes); the game's limit ends it.")
    final_turns_left: int | None = Field(
        default=None, ge=1, le=2,
        description="Crossplay: turns left in the final round (2: the side to move has the first of the two "
                    "final turns, the default; 1: the last). Ignored by the other games.",
    )
    budget: float | None = Field(
        default=None, gt=0, le=3600,
        description="Seconds the search may take (default 3, at most WORDSOLVER_ENDGAME_TIMEOUT). "
                    "When it runs out the last finished depth answers with proved false.",
    )
    max_depth: int = Field(default=40, ge=1, le=40, description="Plies the search may look ahead (a pass is a ply).")
    first_moves: int = Field(default=0, ge=0, le=50,
                             description="Also value this many first moves exactly (costs more time), best first.")
    first: str | None = Field(
        default=None, max_length=64,
        description="Solve with this first move forced ('8H QI', 'H8 QI' down, or 'pass'): how far a play is from the best.",
    )
    lexicon: LexiconName | None = Field(default=None, description="Lexicon name; default lexicon if omitted.")
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)
    cgp: CgpText | None = Field(default=None, description=CGP_ENDGAME_DOC)

    @model_validator(mode="before")
    @classmethod
    def _from_cgp(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("cgp"), str):
            return data
        clash = next((k for k in ("board", "rack", "heights", "other_rack", "scores") if data.get(k) is not None), None)
        if clash:
            raise CGPError(f"give either cgp or {clash}, not both", field=clash)
        if len(data["cgp"]) > MAX_CGP:
            raise CGPError(f"cgp is {len(data['cgp'])} characters long; at most {MAX_CGP}", field="cgp")
        cgp = parse_cgp(data["cgp"])
        out = {**data, "board": list(cgp.board), "rack": cgp.racks[0], "scores": list(cgp.scores),
               "scoreless": cgp.zeros}
        if len(cgp.racks) > 1 and cgp.racks[1]:
            out["other_rack"] = cgp.racks[1]
        return out


class StepOut(BaseModel):
    player: Literal["you", "opponent"] = Field(description="'you': the side to move at the start.")
    notation: str = Field(description="'8F WORD' across, 'F8 WORD' down, or 'pass'.")
    score: int
    row: int | None = Field(description="The main word's first square (null for the pass).")
    col: int | None
    direction: Literal["across", "down"] | None
    word: str | None
    tiles: list[TileOut] = Field(description="The tiles the play puts down (empty for the pass).")
    rack_after: str = Field(description="The player's rack after the turn.")


class FirstMoveOut(BaseModel):
    notation: str
    value: int = Field(description="Final spread change for the side to move after this first move, best play after.")


class DepthOut(BaseModel):
    depth: int
    value: int
    best: str
    nodes: int
    seconds: float
    proved: bool


class EndgameOut(BaseModel):
    game: Literal["crossplay", "scrabble", "wwf", "upwords"]
    value: int = Field(description="Final spread change for the side to move (own points minus the opponent's, "
                                   "to the end of the game, end-of-game rack adjustments included), both playing best.")
    proved: bool = Field(description="True: the search reached the end of the game on every line it needed, so "
                                     "the value is exact. False: the budget or the depth stopped it, and lines "
                                     "past the depth were valued by playing out greedily.")
    best: StepOut | None = Field(description="The first move of the principal variation.")
    pv: list[StepOut] = Field(description="The principal variation, both players' turns in order.")
    end: Literal["out", "passes", "final turns", "depth"] = Field(
        description="How the principal variation ends: a player goes out, the scoreless-turns limit, the last "
                    "final turn (Crossplay), or it stops at the search's depth (not proved).")
    first_moves: list[FirstMoveOut] = Field(description="With first_moves: first moves valued exactly, best first.")
    depth: int = Field(description="Plies of the last finished iteration.")
    nodes: int
    seconds: float
    iterations: list[DepthOut] = Field(description="One line per finished depth.")
    racks: list[str] = Field(description="[side to move, opponent] as solved.")
    inferred_other_rack: bool = Field(description="The opponent's rack was inferred from the unseen tiles.")
    final_scores: list[int] | None = Field(description="With scores: the scores after the principal variation "
                                                       "and the end-of-game adjustments.")


class PreEndgameIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(description="The rack of the side to move, '?' for a blank.")
    scores: list[Score] | None = Field(default=None, min_length=2, max_length=2,
                                       description="[side to move, opponent]: candidates then rank by the share of draws won.")
    scoreless: int = Field(default=0, ge=0, le=100, description="Consecutive scoreless turns just played.")
    budget: float | None = Field(default=None, gt=0, le=3600,
                                 description="Seconds for the whole search (default 3, at most WORDSOLVER_ENDGAME_TIMEOUT), "
                                             "shared out among the possible draws.")
    candidates: int = Field(default=20, ge=1, le=200,
                            description="How many first plays to weigh (the best by score), besides the pass.")
    limit: int = Field(default=10, ge=1, le=200, description="How many candidates to return.")
    lexicon: LexiconName | None = Field(default=None, description="Lexicon name; default lexicon if omitted.")
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)


class CandidateOut(BaseModel):
    notation: str = Field(description="'8F WORD' across, 'F8 WORD' down, or 'pass'.")
    score: int
    expected: float = Field(description="Expected final spread change for the side to move, over the possible draws.")
    wins: float | None = Field(description="With scores: the share of the draws won (a tie counts one half).")
    by_draw: dict[str, int] = Field(description="The value with each letter in the bag ('?' a blank).")
    proved: bool


class PreEndgameOut(BaseModel):
    game: Literal["crossplay", "scrabble", "wwf", "upwords"]
    candidates: list[CandidateOut] = Field(description="Best first: by share of wins (with scores), then expected spread.")
    draws: dict[str, int] = Field(description="Each letter the bag may hold and how many unseen tiles are that letter.")
    proved: bool = Field(description="Every draw's endgame was solved to the end within the budget.")
    seconds: float
