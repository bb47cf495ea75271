"""Request and response shapes of ``POST /v1/games/{game}/simulate`` (Monte Carlo simulation)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .cgp_fields import CGP_DOC
from .schemas import (
    BOARD_DOC,
    Board,
    CgpRequest,
    CgpText,
    GameName,
    LexiconName,
    Rack,
    cgp_or_position,
    exactly_one_each,
)

Score = Annotated[int, Field(ge=-100_000, le=100_000)]
Reason = Literal["one_left", "iterations", "time", "exact", "stopped"]


class SimulateIn(CgpRequest):
    model_config = ConfigDict(json_schema_extra=exactly_one_each(cgp_or_position(("rack",), ("board", "rack"))))

    board: Board | None = Field(default=None, description=BOARD_DOC)
    rack: Rack = Field(description="Your rack, '?' for a blank.", examples=["AEINRST"])
    cgp: CgpText | None = Field(
        default=None,
        description=CGP_DOC + " The CGP's scores and the opponent's rack (known tiles) are used unless given here.",
    )
    lexicon: LexiconName | None = Field(default=None, description="Lexicon name (GET /v1/lexicons); default lexicon if omitted.")
    opponent_rack: Rack | None = Field(
        default=None, description="Tiles known to be on the opponent's rack (all or some of it); the rest are drawn at random.",
    )
    scores: Annotated[list[Score], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="[yours, the opponent's] (default [0, 0]; the win share depends on the spread)."
    )
    bag_size: int | None = Field(
        default=None, ge=0, le=1000, description="Tiles in the bag (default: the unseen tiles less a full opponent rack)."
    )
    final_turns_left: int | None = Field(
        default=None, ge=1, le=2,
        description=(
            "Crossplay with the bag empty: turns left in the game, both players counted: 2 (default) when you "
            "and then the opponent each have a final turn, 1 when yours is the last."
        ),
    )
    candidates: int = Field(default=10, ge=1, le=40, description="How many of the best turns by equity to simulate (K).")
    plies: int = Field(default=2, ge=0, le=10, description="Turns simulated after each candidate (0: the equity order).")
    iterations: int = Field(default=1000, ge=1, le=100_000, description="The iteration cap.")
    seconds: float | None = Field(
        default=None, gt=0, le=600,
        description="Time budget in seconds (default and maximum: the server's settings, 3 and 10 unless configured).",
    )
    seed: int = Field(default=0, ge=0, le=2**53, description="Same seed, same answer (when the run ends at the cap or exactly).")
    stream: bool = Field(
        default=False,
        description=(
            "Stream progress as NDJSON (application/x-ndjson): one SimulateOut object per line, at the start and at "
            "each checkpoint, the last with done true. Also chosen by `Accept: application/x-ndjson`."
        ),
    )


class SimCandidateOut(BaseModel):
    play: str = Field(description="'8F QUIXOTE' (a play), 'exchange QV' or 'pass'.")
    kind: Literal["play", "exchange", "pass"]
    equity_rank: int = Field(description="1-based place by equity (score plus leave value).")
    score: int
    equity: float
    leave: str = Field(description="The tiles kept ('?' a blank).")
    thrown: str | None = Field(default=None, description="An exchange's tiles thrown back.")
    iterations: int = Field(description="Iterations this candidate was simulated for.")
    spread: float | None = Field(
        description="Mean final spread (yours minus the opponent's) plus the leaves kept, points; null before the "
                    "candidate's first iteration (the first streamed line).")
    spread_se: float | None = Field(description="Its standard error.")
    win: float | None = Field(description="Mean win share, 0-1 (draws half); null before the first iteration.")
    win_se: float | None
    active: bool = Field(description="Still simulated; false: dropped by the stopping rule.")


class SimulateOut(BaseModel):
    game: GameName
    lexicon: str
    iterations: int = Field(description="Iterations done.")
    done: bool
    reason: Reason | None = Field(
        description=(
            "Why it ended: one candidate left (one_left), the iteration cap, the time budget, an exact position "
            "(the bag empty or 0 plies: every iteration is the same), or stopped (the client went away)."
        )
    )
    seconds: float
    workers: int = Field(description="Worker processes used.")
    leader: str | None = Field(description="The best candidate so far.")
    candidates: list[SimCandidateOut] = Field(
        description="Ranked: still simulated first, by win share, then spread, then equity."
    )
    plies: int
    seed: int
    bag_size: int
    win_model: str = Field(description="Where the win share comes from (the game's win-probability table).")
