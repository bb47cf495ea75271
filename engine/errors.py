"""The engine's exceptions.

Every error the engine raises on bad input is an :class:`EngineError`; the web layer maps
the whole tree to 4xx responses in one handler.

    EngineError                 base class; ``code`` and ``details`` are machine-readable
    ├── UnknownGameError        no ruleset by that name                       (404)
    ├── UnknownLexiconError     no lexicon by that name                       (404)
    ├── LexiconNotReadyError    the lexicon is still compiling or loading     (503, retry)
    ├── LexiconTooLargeError    a word list over the configured word limit    (422)
    ├── WordFileError           a word file that is not UTF-8 text            (422)
    ├── RulesetError            a ruleset file is malformed (a server bug)    (500 at load)
    ├── InvalidBoardError       board text is the wrong size or has a bad character (422)
    ├── InvalidRackError        rack too long, bad character, too many blanks (422)
    ├── TileCountError          more tiles of a letter than the game contains (422)
    ├── IllegalPlayError        a described play breaks a placement rule      (422)
    └── TimeBudgetExceeded      the search ran past the caller's time budget  (422)

``details`` carries where the problem is: ``row``/``col`` (1-indexed), ``letter``, counts.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Base class of every error caused by the caller's input."""

    code = "engine_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details


class UnknownGameError(EngineError):
    code = "unknown_game"


class UnknownLexiconError(EngineError):
    code = "unknown_lexicon"


class LexiconNotReadyError(EngineError):
    """The lexicon is being compiled or loaded; ``retry_after`` (seconds) says when to ask again."""

    code = "not_ready"

    def __init__(self, message: str, retry_after: int = 1, **details: Any) -> None:
        super().__init__(message, retry_after=retry_after, **details)
        self.retry_after = retry_after


class LexiconTooLargeError(EngineError):
    code = "lexicon_too_large"


class WordFileError(EngineError):
    code = "invalid_word_file"


class RulesetError(EngineError):
    code = "invalid_ruleset"


class InvalidBoardError(EngineError):
    code = "invalid_board"


class InvalidRackError(EngineError):
    code = "invalid_rack"


class TileCountError(EngineError):
    code = "too_many_tiles"


class IllegalPlayError(EngineError):
    code = "illegal_play"


class TimeBudgetExceeded(EngineError):
    code = "time_budget_exceeded"


class IllegalTurnError(EngineError):
    """A turn a game's rules do not allow (wrong player, an exchange with too few tiles in
    the bag, tiles the rack does not hold, a turn after the end)."""

    code = "illegal_turn"


class GameRecordError(EngineError):
    """A game record (GCG) that cannot be read; ``details.line`` names the line."""

    code = "invalid_game_record"


class CGPError(EngineError):
    """A position (CGP) that cannot be read; ``details.field`` and ``details.position`` say where."""

    code = "invalid_cgp"
