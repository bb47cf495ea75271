"""Request and response shapes. Request limits live here; the engine checks the game rules.

The limits are generous bounds against abuse (the engine gives the precise, game-specific
message for, say, a rack one tile too long); tighter checks belong to the engine.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

MAX_SIDE = 32  # no game is larger; bounds board lists and row strings
Row = Annotated[str, StringConstraints(max_length=MAX_SIDE)]
Board = Annotated[list[Row], Field(max_length=MAX_SIDE)]
Rack = Annotated[str, StringConstraints(max_length=MAX_SIDE)]
LexiconName = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Direction = Literal["across", "down"]

BOARD_DOC = (
    "One string per row, top row first: '.' empty, 'A'-'Z' a tile, 'a'-'z' a blank standing "
    "for that letter. Omit (or null) for an empty board."
)
PLURAL_DOC = (
    "Upwords: refuse a play that only adds an S to pluralise a word, unless that S also forms "
    "another new word (older editions lack this rule: send false). Ignored by other games."
)
HEIGHTS_DOC = "Stacking games (Upwords) only: one string of digits 0-5 per row; omit when every stack is 0 or 1 high."
Breakdown = Annotated[
    dict[str, Any],
    Field(
        description=(
            "The engine's score breakdown: {words: [{word, letters: [{letter, row, col, new, blank, "
            "bonus, points}], letter_total, word_multiplier, score}], all_tiles_bonus: {name, points}, "
            "total}. Stacking games add height per letter and flat, qu_bonus per word."
        )
    ),
]


class RequestModel(BaseModel):
    # Unknown fields are refused so a misspelt option ("limt") is not silently ignored.
    model_config = ConfigDict(extra="forbid")


# ----------------------------------------------------------------------------- games


class GameSummary(BaseModel):
    name: str
    title: str
    size: int
    rack_size: int
    stacking: bool


class GamesOut(BaseModel):
    games: list[GameSummary]


class BonusOut(BaseModel):
    name: str
    points: int


class GameOut(BaseModel):
    name: str
    title: str
    size: int = Field(description="The board is size x size squares.")
    rack_size: int
    start: list[tuple[int, int]] = Field(description="Start squares (1-indexed [row, col]); the first play covers one.")
    start_is_bonus: bool
    premiums: dict[str, list[tuple[int, int]]] = Field(
        description="Premium squares by kind (DL, TL, DW, TW), 1-indexed [row, col]."
    )
    letter_values: dict[str, int] = Field(description="Points per letter; '?' is the blank.")
    tile_counts: dict[str, int] = Field(description="Tiles in the game per letter; '?' counts blanks.")
    total_tiles: int
    blanks: int
    all_tiles_bonus: BonusOut = Field(description="Bonus for playing a whole rack (its name and points).")
    stacking: bool
    max_height: int
    qu_tile: bool = Field(description="The Q tile reads 'Qu' (Upwords).")
    qu_bonus: int
    end_penalty_per_tile: int


# ----------------------------------------------------------------------------- moves


class MoveFilters(RequestModel):
    """Server-side filters, applied before ``limit`` (and counted in ``total_moves``)."""

    min_length: int = Field(default=0, ge=0, le=MAX_SIDE, description="Minimum length of the main word.")
    contains: str = Field(
        "",
        max_length=MAX_SIDE,
        pattern=r"^[A-Za-z]*$",
        description="Letters the main word must contain, with multiplicity (case-insensitive).",
    )
    square: tuple[int, int] | None = Field(default=None, description="[row, col] (1-indexed) a new tile must cover.")
    no_blanks: bool = Field(default=False, description="Only plays that use no blank.")


class MovesIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(description="Rack letters, '?' for a blank.", examples=["QUIXOTE"])
    lexicon: LexiconName | None = Field(default=None, description="Lexicon name (GET /v1/lexicons); default lexicon if omitted.")
    limit: int | None = Field(default=None, ge=1, le=1000, description="How many plays to return (default 20).")
    premiums: bool = Field(default=True, description="Count premium squares; false scores face values only.")
    count: bool = Field(default=False, description="Also count every legal play (total_moves); costs a full enumeration.")
    filters: MoveFilters | None = None
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)


class TileOut(BaseModel):
    row: int
    col: int
    letter: str
    blank: bool


class MoveOut(BaseModel):
    row: int
    col: int
    direction: Direction
    word: str = Field(description="The whole main word, uppercase, blanks lowercase.")
    notation: str = Field(description="'8F QUIXOTE' across (row first), 'H8 WORD' down (column letter first).")
    score: int
    tiles_used: int
    tiles: list[TileOut] = Field(description="The new tiles this play puts down.")
    leave: str = Field(description="The rack after the play ('?' for a blank).")
    breakdown: Breakdown


class MovesOut(BaseModel):
    game: str
    lexicon: str
    total_moves: int | None = Field(description="Distinct legal plays (after filters) when count was asked, else null.")
    moves: list[MoveOut]


# ----------------------------------------------------------------------------- scoring one play


class PlayIn(RequestModel):
    row: int = Field(ge=1, le=MAX_SIDE)
    col: int = Field(ge=1, le=MAX_SIDE)
    direction: Direction
    word: str = Field(
        min_length=1,
        max_length=MAX_SIDE,
        description="The word from (row, col): uppercase a tile, lowercase a blank, '.' a tile already on the board.",
    )


class ScoreIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack | None = Field(default=None, description="When given, the play must use tiles from it and its rank is computed.")
    move: PlayIn
    lexicon: LexiconName | None = None
    premiums: bool = True
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)


class ScoreOut(BaseModel):
    game: str
    lexicon: str
    row: int
    col: int
    direction: Direction
    word: str
    notation: str
    score: int
    tiles_used: int
    tiles: list[TileOut]
    valid: bool = Field(description="Every word the play forms is in the lexicon.")
    words: list[str] = Field(description="Every word the play forms, main word first.")
    invalid_words: list[str]
    breakdown: Breakdown
    rank: int | None = Field(description="The play's place among all legal plays (1 = best); null without a rack or for an invalid play.")
    best_score: int | None = Field(description="The best score on offer with this rack; null without a rack.")
    total_moves: int | None = Field(description="Number of legal plays with this rack; null without a rack.")


class CompareIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    move: PlayIn
    lexicon: LexiconName | None = None
    premiums: bool = True


class ErrorBody(BaseModel):
    code: str
    message: str
    details: dict[str, Any]


class CompareEntry(BaseModel):
    game: str
    title: str
    score: int | None = None
    valid: bool | None = None
    invalid_words: list[str] | None = None
    breakdown: Breakdown | None = None
    error: ErrorBody | None = Field(default=None, description="Why the play or board is impossible in this game, if it is.")


class CompareOut(BaseModel):
    lexicon: str
    notation: str
    results: list[CompareEntry]


# ----------------------------------------------------------------------------- end of game


class EndIn(RequestModel):
    racks: list[Rack] = Field(min_length=1, max_length=8, description="Each player's tiles left at the end ('' = went out).")


class AdjustmentOut(BaseModel):
    rack: str
    rack_value: int
    adjustment: int


class EndOut(BaseModel):
    game: str
    adjustments: list[AdjustmentOut]


# ----------------------------------------------------------------------------- lexicons


class LexiconOut(BaseModel):
    name: str
    word_count: int | None = Field(description="Null if the list could not be read.")
    provenance: str
    default: bool


class LexiconsOut(BaseModel):
    default: str
    lexicons: list[LexiconOut]


class CheckIn(RequestModel):
    words: list[Annotated[str, StringConstraints(max_length=64)]] = Field(min_length=1, max_length=1000)


class WordCheck(BaseModel):
    word: str
    valid: bool


class CheckOut(BaseModel):
    lexicon: str
    all_valid: bool
    results: list[WordCheck]


# ----------------------------------------------------------------------------- health


class Health(BaseModel):
    status: str


class Ready(BaseModel):
    status: str
    lexicon: str
    word_count: int


class ErrorOut(BaseModel):
    error: ErrorBody


# ----------------------------------------------------------------------------- unseen tiles


class UnseenIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(default="", description="Your rack ('?' for a blank); its tiles are not unseen.")


class UnseenOut(BaseModel):
    game: str
    unseen: dict[str, int] = Field(
        description=(
            "Per letter 'A'-'Z' and '?' (blanks): the game's tiles minus those on the board and the rack. "
            "Stacking games: only the visible top of each stack is subtracted, so each count is an upper bound."
        )
    )
    total: int = Field(description="Tiles neither on the board (every tile of every stack) nor on the rack; exact.")
    vowels: int = Field(description="A, E, I, O, U among the unseen counts.")
    consonants: int = Field(description="The other letters among the unseen counts (Y is a consonant).")
    blanks: int
    buried: int = Field(
        description="Stacking games: tiles under the visible tops, whose letters are unknown (0 for flat games)."
    )
