"""A crossword tile game move finder and scorer (Crossplay, Scrabble, Words With Friends, Upwords).

Pure Python, no web imports. Typical use::

    from engine import get_ruleset, default_lexicon, position, find_moves
    rules = get_ruleset("crossplay")
    result = find_moves(position(rules, None, "QUIXOTE"), default_lexicon(), limit=5)

See ``engine.errors`` for the exception tree and ``engine.solver`` for the ranking order.
"""

from .breakdowns import Breakdowns
from .endgame import Adjustment, end_game
from .errors import (
    EngineError,
    IllegalPlayError,
    InvalidBoardError,
    InvalidRackError,
    LexiconNotReadyError,
    LexiconTooLargeError,
    RulesetError,
    TileCountError,
    TimeBudgetExceeded,
    UnknownGameError,
    UnknownLexiconError,
    WordFileError,
)
from .lexicon import Lexicon, from_words, load_word_file
from .lexicons import LexiconStore, default_lexicon
from .notation import Notation, parse_notation
from .rules import GAMES, Ruleset, get_ruleset
from .scoring import Breakdown, score_play
from .solver import (
    Move,
    MoveFilter,
    PlayCheck,
    Position,
    Ranking,
    Result,
    Tile,
    breakdown,
    check_play,
    find_moves,
    placements_from_word,
    position,
    rank_of,
    rank_play,
)
from .tiles import Unseen, unseen_tiles
from .verify import Finding, board_findings

__all__ = [
    "GAMES",
    "Adjustment",
    "end_game",
    "Breakdown",
    "Breakdowns",
    "EngineError",
    "Finding",
    "IllegalPlayError",
    "InvalidBoardError",
    "InvalidRackError",
    "Lexicon",
    "LexiconNotReadyError",
    "LexiconStore",
    "LexiconTooLargeError",
    "Move",
    "Notation",
    "MoveFilter",
    "PlayCheck",
    "Position",
    "Result",
    "Ruleset",
    "RulesetError",
    "Tile",
    "TileCountError",
    "TimeBudgetExceeded",
    "UnknownGameError",
    "UnknownLexiconError",
    "Unseen",
    "board_findings",
    "WordFileError",
    "breakdown",
    "check_play",
    "default_lexicon",
    "find_moves",
    "from_words",
    "get_ruleset",
    "load_word_file",
    "parse_notation",
    "placements_from_word",
    "position",
    "Ranking",
    "rank_of",
    "rank_play",
    "score_play",
    "unseen_tiles",
]
