"""A crossword tile game move finder and scorer (Crossplay, Scrabble, Words With Friends, Upwords).

Pure Python, no web imports. Typical use::

    from engine import get_ruleset, default_lexicon, position, find_moves
    rules = get_ruleset("crossplay")
    result = find_moves(position(rules, None, "QUIXOTE"), default_lexicon(), limit=5)

The layers, from the bottom: the game's rules as data (``engine.rules``, ``engine.board``,
``engine.scoring``, ``engine.game``), the search's vocabulary (``engine.plays``: positions,
plays, filters, queries), the one search seam (``engine.search``, over the compiled core and
the pure-Python reference), the entry points built on it (``engine.solver``), and what judges
plays beyond their score (``engine.strategy``: leaves, equity, players, self-play, A/B). See
``engine.errors`` for the exception tree, ``engine.plays`` for the ranking order and
``docs/design.md`` for the whole picture.
"""

from .breakdowns import Breakdowns
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
from .game_end import Adjustment, end_game
from .lexicon import Lexicon, from_words, load_word_file
from .lexicons import LexiconStore, default_lexicon
from .notation import Notation, parse_notation
from .plays import Found, Move, MoveFilter, Position, Query, Tile, position
from .rules import GAMES, Ruleset, get_ruleset
from .scoring import Breakdown, score_play
from .solver import (
    PlayCheck,
    Ranking,
    Result,
    breakdown,
    check_play,
    find_moves,
    placements_from_word,
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
    "Found",
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
    "Query",
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
