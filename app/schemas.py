"""Request and response shapes. Request limits live here; the engine checks the game rules.

The limits are generous bounds against abuse (the engine gives the precise, game-specific
message for, say, a rack one tile too long); tighter checks belong to the engine.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from .cgp_fields import CGP_DOC, expand_cgp

MAX_SIDE = 32  # no game is larger; bounds board lists and row strings
Row = Annotated[str, StringConstraints(max_length=MAX_SIDE)]
Board = Annotated[list[Row], Field(max_length=MAX_SIDE)]
Rack = Annotated[str, StringConstraints(max_length=MAX_SIDE)]
LexiconName = Annotated[str, StringConstraints(min_length=1, max_length=100)]
CgpText = Annotated[str, StringConstraints(max_length=2000)]  # cgp_fields.MAX_CGP
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


class RequestModel(BaseModel):
    # Unknown fields are refused so a misspelt option ("limt") is not silently ignored, and
    # values are taken as sent: "5" is not a number, true is not 1, "no" is not false.
    model_config = ConfigDict(extra="forbid", strict=True)


# ----------------------------------------------------------------------------- rules across fields
# What the server checks across fields, written into the JSON schema so a request the OpenAPI
# document accepts is one the server accepts: each rule is a list of branches of which a request
# matches exactly one (``oneOf``); a field a branch requires is no longer required at the top.

Branch = dict[str, Any]
NULL: dict[str, Any] = {"type": "null"}


def branch(required: tuple[str, ...] = (), **props: dict[str, Any]) -> Branch:
    return ({"required": list(required)} if required else {}) | {"properties": props}


# service.described_play: exactly one of move (fields) and play (notation)
MOVE_OR_PLAY = [branch(("move",), move={"type": "object"}, play=NULL), branch(("play",), play={"type": "string"}, move=NULL)]


def cgp_or_position(required: tuple[str, ...], clash: tuple[str, ...], **other: dict[str, Any]) -> list[Branch]:
    """expand_cgp and friends: a ``cgp`` string with none of the ``clash`` fields (``other``: what
    they must be instead of null), or no cgp and the ``required`` position fields."""
    given = {f: NULL for f in clash} | other
    return [branch(required, cgp=NULL), branch(("cgp",), cgp={"type": "string"}, **given)]


def exactly_one_each(*rules: list[Branch]) -> Any:
    """A ``json_schema_extra`` adding each rule as a ``oneOf``."""

    def extra(schema: dict[str, Any]) -> None:
        moved = {f for rule in rules for b in rule for f in b.get("required", [])}
        required = [f for f in schema.pop("required", []) if f not in moved]
        if required:
            schema["required"] = required
        schema["allOf"] = [{"oneOf": rule} for rule in rules]

    return extra


Square = Annotated[list[Annotated[int, Field(ge=1, le=MAX_SIDE)]], Field(min_length=2, max_length=2)]


GameName = Literal["crossplay", "scrabble", "wwf", "upwords"]


# ----------------------------------------------------------------------------- breakdowns


class LetterOut(BaseModel):
    letter: str = Field(description="The tile's letter, uppercase; lowercase for a blank; 'Qu' for Upwords' Qu tile.")
    row: int
    col: int
    new: bool = Field(description="Placed by this play (premiums apply only to new tiles).")
    blank: bool
    bonus: Literal["DL", "TL", "DW", "TW"] | None = Field(description="The premium under a new tile, else null.")
    points: int = Field(description="The letter's points in this word, after its letter premium.")
    height: int | None = Field(
        default=None, description="Upwords only (absent in other games): the stack height under the letter after the play."
    )


class WordOut(BaseModel):
    word: str
    letters: list[LetterOut]
    letter_total: int = Field(description="Sum of the letters' points, before the word multiplier.")
    word_multiplier: int = Field(description="Product of the word premiums under new tiles (1 in Upwords).")
    score: int = Field(description="letter_total x word_multiplier (Upwords: + qu_bonus).")
    flat: bool | None = Field(
        default=None, description="Upwords only (absent in other games): every letter is one tile high (2 points a tile)."
    )
    qu_bonus: int | None = Field(
        default=None, description="Upwords only (absent in other games): the bonus for a flat word holding the Qu tile."
    )


class BonusOut(BaseModel):
    name: str = Field(description="The game's name for it: 'sweep' (Crossplay), 'bingo' (Scrabble, WWF), 'all seven tiles' (Upwords).")
    points: int = Field(description="Points added (0 when the play did not use the whole rack).")


class BreakdownOut(BaseModel):
    """In the order of the Crossplay scoring page: each word (letters with premiums, letter
    total, word multiplier, word score), then the all-tiles bonus, then the total."""

    words: list[WordOut] = Field(description="The main word first, then each cross-word.")
    all_tiles_bonus: BonusOut
    total: int


# ----------------------------------------------------------------------------- games


class GameSummary(BaseModel):
    name: GameName
    title: str
    size: int
    rack_size: int
    stacking: bool


class GamesOut(BaseModel):
    games: list[GameSummary]


class GameOut(BaseModel):
    name: GameName
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


# ----------------------------------------------------------------------------- errors


class ErrorCode(StrEnum):
    """Every ``error.code`` the service sends (a test keeps this list complete)."""

    malformed_json = "malformed_json"
    bad_request = "bad_request"
    unknown_game = "unknown_game"
    unknown_lexicon = "unknown_lexicon"
    not_found = "not_found"
    method_not_allowed = "method_not_allowed"
    body_too_large = "body_too_large"
    unsupported_media_type = "unsupported_media_type"
    invalid_request = "invalid_request"
    invalid_board = "invalid_board"
    invalid_rack = "invalid_rack"
    too_many_tiles = "too_many_tiles"
    illegal_play = "illegal_play"
    invalid_filter = "invalid_filter"
    time_budget_exceeded = "time_budget_exceeded"
    cors_refused = "cors_refused"
    not_ready = "not_ready"
    busy = "busy"
    header_too_large = "header_too_large"
    http_version_not_supported = "http_version_not_supported"
    request_timeout = "request_timeout"
    lexicon_too_large = "lexicon_too_large"
    invalid_word_file = "invalid_word_file"
    internal_error = "internal_error"
    invalid_ruleset = "invalid_ruleset"
    invalid_cgp = "invalid_cgp"
    invalid_game_record = "invalid_game_record"
    illegal_turn = "illegal_turn"
    no_leave_values = "no_leave_values"


class ErrorFieldError(BaseModel):
    field: str = Field(description="Where in the request, e.g. 'limit' or 'board[3]'.")
    message: str
    type: str


class ErrorDetails(BaseModel):
    """Where the problem is. Only the keys that apply are present."""

    model_config = ConfigDict(extra="allow")

    row: int | None = Field(default=None, description="1-indexed row of the square concerned.")
    col: int | None = Field(default=None, description="1-indexed column of the square concerned.")
    letter: str | None = Field(default=None, description="The letter or character concerned.")
    field: str | None = Field(default=None, description="The request field concerned.")
    errors: list[ErrorFieldError] | None = Field(default=None, description="invalid_request: every field error.")
    game: str | None = None
    lexicon: str | None = None
    rack: Any | None = None
    length: int | None = None
    expected: int | None = None
    available: int | None = None
    position: int | None = None
    retry_after: int | None = Field(default=None, description="not_ready: seconds to wait (also the Retry-After header).")
    limit: int | None = Field(default=None, description="lexicon_too_large: the word limit.")
    words: int | None = Field(default=None, description="lexicon_too_large: the list's word count.")
    limit_seconds: float | None = Field(default=None, description="lexicon_too_large: the compile time limit.")
    limit_mb: int | None = Field(default=None, description="lexicon_too_large: the compile memory limit.")
    file: str | None = Field(default=None, description="invalid_word_file, lexicon_too_large: the word file.")
    line: int | None = Field(default=None, description="invalid_word_file: the 1-indexed line of the problem.")
    cause: ErrorBody | None = Field(default=None, description="/readyz: why the default lexicon failed to load.")


class ErrorBody(BaseModel):
    code: ErrorCode
    message: str = Field(description="What is wrong and where, for a person.")
    details: ErrorDetails


ErrorDetails.model_rebuild()  # `cause` refers to ErrorBody, defined after it


class ErrorOut(BaseModel):
    error: ErrorBody


# ----------------------------------------------------------------------------- moves


class WarningOut(BaseModel):
    """Something that looks wrong with the board; it is still solved as given."""

    code: Literal["disconnected_tiles", "empty_start", "unknown_word"]
    message: str
    squares: list[tuple[int, int]] = Field(description="The squares concerned, 1-indexed [row, col].")
    word: str | None = Field(default=None, description="unknown_word: the word.")


class MoveFilters(RequestModel):
    """Server-side filters, applied before ``limit`` (and counted in ``total_moves``)."""

    min_length: int = Field(default=0, ge=0, le=MAX_SIDE, description="Minimum length of the main word.")
    contains: str = Field(
        "",
        max_length=MAX_SIDE,
        pattern=r"^[A-Za-z]*$",
        description="Letters the main word must contain, with multiplicity (case-insensitive).",
    )
    square: Square | None = Field(default=None, description="[row, col] (1-indexed) a new tile must cover.")
    no_blanks: bool = Field(default=False, description="Only plays that use no blank.")


class CgpRequest(RequestModel):
    """A request whose position may come as ``cgp`` instead of board and rack fields
    (app.cgp_fields.expand_cgp fills them in before validation)."""

    @model_validator(mode="before")
    @classmethod
    def _from_cgp(cls, data: Any) -> Any:
        return expand_cgp(data)


# best_moves_payload: exchanges and bag_size only with rank_by equity (a bag_size of 0 passes too)
EQUITY_ONLY = [branch(("rank_by",), rank_by={"const": "equity"}),
               branch(rank_by={"const": "score"}, exchanges={"const": False}, bag_size={"enum": [None, 0]})]


class MovesIn(CgpRequest):
    model_config = ConfigDict(json_schema_extra=exactly_one_each(
        cgp_or_position(("rack",), ("board", "heights", "rack")), EQUITY_ONLY))

    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(description="Rack letters, '?' for a blank.", examples=["QUIXOTE"])
    lexicon: LexiconName | None = Field(default=None, description="Lexicon name (GET /v1/lexicons); default lexicon if omitted.")
    limit: int | None = Field(default=None, ge=1, le=1000, description="How many plays to return (default 20).")
    premiums: bool = Field(default=True, description="Count premium squares; false scores face values only.")
    count: bool = Field(default=False, description="Also count every legal play (total_moves); costs a full enumeration.")
    filters: MoveFilters | None = None
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)
    breakdowns: bool = Field(default=True, description="Include each play's breakdown; false gives a compact list.")
    cgp: CgpText | None = Field(default=None, description=CGP_DOC)
    rank_by: Literal["score", "equity"] = Field(
        default="score",
        description=(
            "'score' ranks by points now; 'equity' by points plus the value of the tiles kept "
            "(leave values learned by self-play per game; not for Upwords). Each play then carries "
            "equity and leave_value."
        ),
    )
    exchanges: bool = Field(
        default=False,
        description="With rank_by equity: also rank exchanges (when the game and the bag allow one) and the pass.",
    )
    bag_size: int | None = Field(
        default=None, ge=0, le=1000,
        description=(
            "With rank_by equity: tiles in the bag, when the client knows better than the position "
            "(default: the unseen tiles less the opponent's full rack)."
        ),
    )


class TileOut(BaseModel):
    row: int
    col: int
    letter: str = Field(description="Uppercase; lowercase for a blank.")
    blank: bool


class MoveOut(BaseModel):
    row: int = Field(description="Row of the main word's first square (1-indexed).")
    col: int = Field(description="Column of the main word's first square (1-indexed).")
    direction: Direction
    word: str = Field(description="The whole main word, uppercase, blanks lowercase.")
    notation: str = Field(description="'8F QUIXOTE' across (row first), 'H6 QUIXOTE' down (column letter first).")
    score: int
    tiles_used: int
    tiles: list[TileOut] = Field(description="The new tiles this play puts down.")
    leave: str = Field(description="The rack after the play ('?' for a blank).")
    breakdown: BreakdownOut | None = Field(default=None, description="Absent when the request sets breakdowns to false.")
    equity: float | None = Field(
        default=None, description="rank_by equity: score + leave_value (exact to a thousandth of a point)."
    )
    leave_value: float | None = Field(default=None, description="rank_by equity: what the tiles kept are worth, in points.")
    rank: int | None = Field(
        default=None, description="rank_by equity: place among all candidates returned (plays, exchanges, pass), 1 = best."
    )


class ExchangeOut(BaseModel):
    kind: Literal["exchange", "pass"]
    thrown: str = Field(description="The tiles thrown back ('' for a pass).")
    kept: str = Field(description="The tiles kept ('?' for a blank).")
    equity: float = Field(description="leave_value (an exchange or a pass scores 0).")
    leave_value: float
    rank: int = Field(description="Place among all candidates returned (plays, exchanges, pass), 1 = best.")


class EquityInfo(BaseModel):
    bag_size: int = Field(description="Tiles in the bag used for the ranking (from the request or the position).")
    leaves: str = Field(description="Which leave values ranked the plays (game, lexicon they were learned with).")
    end_rule: str = Field(description="How kept tiles are valued: leave values while the bag has tiles, else the game's end rule.")


class MovesOut(BaseModel):
    game: GameName
    lexicon: str
    total_moves: int | None = Field(description="Distinct legal plays (after filters) when count was asked, else null.")
    moves: list[MoveOut]
    exchanges: list[ExchangeOut] | None = Field(
        default=None, description="rank_by equity with exchanges: the exchanges and the pass among the best candidates."
    )
    equity: EquityInfo | None = Field(default=None, description="rank_by equity: what the ranking assumed.")
    warnings: list[WarningOut] = Field(description="What looks wrong with the board (see POST /v1/games/{game}/verify).")


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


PLAY_DOC = (
    "The play in notation instead of move: '8F QUIXOTE' across (row, then column letter), "
    "'H6 QUIXOTE' down (column letter, then row); lowercase letters are blanks; tiles already "
    "on the board as their letter, '.' or in parentheses. Give either move or play."
)
PlayText = Annotated[str, StringConstraints(min_length=1, max_length=2 * MAX_SIDE)]


class ScoreIn(CgpRequest):
    model_config = ConfigDict(json_schema_extra=exactly_one_each(
        MOVE_OR_PLAY, cgp_or_position((), ("board", "heights", "rack"))))

    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack | None = Field(default=None, description="When given, the play must use tiles from it and its rank is computed.")
    move: PlayIn | None = Field(default=None, description="The play as row, col, direction and word. Give either move or play.")
    play: PlayText | None = Field(default=None, description=PLAY_DOC, examples=["8F QUIXOTE"])
    lexicon: LexiconName | None = None
    premiums: bool = True
    plural_rule: bool = Field(default=True, description=PLURAL_DOC)
    better: int = Field(
        default=5, ge=0, le=100,
        description="With a rack: how many better plays to list in better_plays (the best first).",
    )
    cgp: CgpText | None = Field(default=None, description=CGP_DOC + " The answer then gives the CGP after the play.")


class PlaySummary(BaseModel):
    notation: str
    row: int
    col: int
    direction: Direction
    word: str
    score: int
    tiles_used: int
    leave: str


class ScoreOut(BaseModel):
    game: GameName
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
    breakdown: BreakdownOut
    rank: int | None = Field(description="The play's place among all legal plays (1 = best); null without a rack or for an invalid play.")
    best_score: int | None = Field(description="The best score on offer with this rack; null without a rack.")
    points_missed: int | None = Field(
        description="best_score minus this play's score (0 for a best play); null without a rack."
    )
    total_moves: int | None = Field(description="Number of legal plays with this rack; null without a rack.")
    better_plays: list[PlaySummary] = Field(
        description="With a rack: up to `better` legal plays that rank above this one, best first (empty for a best play)."
    )
    warnings: list[WarningOut]
    cgp: str | None = Field(default=None, description="Only when the request gave a CGP: the position after the play (the other player to move; tiles drawn unknown).")


class CompareIn(RequestModel):
    model_config = ConfigDict(json_schema_extra=exactly_one_each(MOVE_OR_PLAY))

    board: Board | None = Field(default=None, description=BOARD_DOC)
    move: PlayIn | None = Field(default=None, description="The play as row, col, direction and word. Give either move or play.")
    play: PlayText | None = Field(default=None, description=PLAY_DOC, examples=["8F QUIXOTE"])
    lexicon: LexiconName | None = None
    premiums: bool = True


class CompareEntry(BaseModel):
    game: GameName
    title: str
    score: int | None = Field(description="Null when the board or play is impossible in this game (see error).")
    valid: bool | None
    invalid_words: list[str] | None
    breakdown: BreakdownOut | None
    error: ErrorBody | None = Field(description="Why the play or board is impossible in this game, if it is.")


class CompareOut(BaseModel):
    lexicon: str
    notation: str
    results: list[CompareEntry]


# ----------------------------------------------------------------------------- board verification


class VerifyIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    lexicon: LexiconName | None = None


class VerifyOut(BaseModel):
    game: GameName
    lexicon: str
    ok: bool = Field(description="No finding: every tile connected, the start square covered, every word known.")
    warnings: list[WarningOut]


# ----------------------------------------------------------------------------- end of game


class EndIn(RequestModel):
    racks: list[Rack] = Field(min_length=1, max_length=8, description="Each player's tiles left at the end ('' = went out).")


class AdjustmentOut(BaseModel):
    rack: str
    rack_value: int
    adjustment: int


class EndOut(BaseModel):
    game: GameName
    adjustments: list[AdjustmentOut]


# ----------------------------------------------------------------------------- lexicons


class LexiconOut(BaseModel):
    name: str
    word_count: int | None = Field(description="Null until the list is compiled, or if it could not be.")
    provenance: str
    default: bool
    status: Literal["ready", "loading", "compiled", "not_compiled", "failed"] = Field(
        description="ready: loaded in this worker; loading: compiling or loading now; compiled: in the disk "
        "cache (loads in milliseconds on first use); not_compiled: compiled on first use (503 not_ready "
        "meanwhile); failed: see error."
    )
    error: ErrorBody | None = Field(default=None, description="Why a failed list could not be loaded.")


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
    status: Literal["ok"]


class Ready(BaseModel):
    status: Literal["ready"]
    lexicon: str
    word_count: int
    search: Literal["compiled", "reference"] = Field(
        description="Which move generator answers: compiled, the C core (engine/_fastgen.c); reference, the "
        "pure-Python engine, the same plays 34-100x slower, and thousands of times with blanks (no C compiler "
        "at install time, WORDSOLVER_PURE_PYTHON set, or a CPU without POPCNT). With the reference, searches with two or "
        "more blanks wait for the expensive lane. The service logs why at start.")


# ----------------------------------------------------------------------------- unseen tiles


class UnseenIn(RequestModel):
    board: Board | None = Field(default=None, description=BOARD_DOC)
    heights: Board | None = Field(default=None, description=HEIGHTS_DOC)
    rack: Rack = Field(default="", description="Your rack ('?' for a blank); its tiles are not unseen.")


class UnseenOut(BaseModel):
    game: GameName
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
