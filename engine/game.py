"""Whole games: the bag, the racks, the turns, the scores and the end of a game, per ruleset.

A game is a list of immutable :class:`Turn` records; a position is never stored but derived by
replaying the turns from the start (:func:`replay`, :func:`apply`). The rules that govern a
whole game (exchanges, scoreless turns, the final turns once the bag is empty, the rack
adjustments at the end) are data in ``rulesets/game_rules.json``, each with its source; a
value no source establishes is marked ``setting`` there and can be overridden
(:func:`game_rules` takes keyword overrides).

Turn kinds:

- ``play``: tiles placed (``move``), ``score`` points, then ``drawn`` tiles from the bag.
- ``exchange``: ``tiles`` thrown back (or only ``count`` when the tiles are unknown); the new
  tiles are drawn before the old ones go back, so a player never draws their own tiles.
- ``pass``.
- ``withdrawn``: a phony play taken back after a challenge: the board and the rack are
  unchanged and it scores 0 (the GCG ``--`` line); it ends the turn unless the game says
  otherwise (Upwords: the player plays another word or passes).
- ``bonus`` / ``penalty``: points that are not a turn (a challenge bonus, a time penalty).
- ``end``: the end-of-game rack adjustment of one player (``tiles`` is the rack counted).

A tile play resets the count of consecutive scoreless turns (even one worth 0 points); the
kinds listed in the game's rules add one (Scrabble: pass, exchange, withdrawn phony; Upwords:
pass only, as its rule is "all players pass in turn"), any other kind resets it.

Strict replay (self-play, where everything is known) checks every turn against the rules:
whose turn it is, that the rack holds the tiles, that drawn tiles come out of the bag, that
an exchange is allowed, that the recorded score is the scorer's, that the game is not over;
and it keeps ``bag + racks + board == the tile set`` by construction. A game read from a
record (GCG) is replayed loosely: racks are taken from the record when it shows them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from .board import BLANK, LETTER_MASK
from .errors import IllegalTurnError, RulesetError
from .lexicon import Lexicon
from .plays import END_RULES, Move, Position
from .rules import LETTERS, RULESET_DIR, Ruleset, get_ruleset
from .scoring import score_play
from .solver import check_geometry, check_play, check_rack
from .upwords import check_stacking

PLAY, EXCHANGE, PASS, WITHDRAWN, BONUS, PENALTY, END = (
    "play", "exchange", "pass", "withdrawn", "bonus", "penalty", "end",
)
TURN_KINDS = (PLAY, EXCHANGE, PASS, WITHDRAWN)  # the kinds that use up a player's turn
RACK_ADJUSTMENTS = END_RULES  # the end rules the search values a rack by (engine.plays)
MAX_TURNS = 1000  # a safety stop for self-play; real games end long before


@dataclass(frozen=True)
class GameRules:
    """Whole-game rules of one game (see ``rulesets/game_rules.json`` for the sources)."""

    ruleset: Ruleset
    players: int
    exchange_allowed: bool
    exchange_min_bag: int  # tiles that must be in the bag for an exchange
    exchange_max_tiles: int  # tiles one exchange may throw back
    scoreless_turns_end: int  # the game ends after this many consecutive scoreless turns
    scoreless_kinds: tuple[str, ...]  # the turn kinds that count as scoreless turns (a play resets)
    final_turns_after_bag_empty: int  # turns each player still gets once the bag is empty
    end_on_going_out: bool  # a player emptying their rack with the bag empty ends the game
    rack_adjustment: str  # "none", "going_out" or "per_tile" (ruleset.end_penalty_per_tile)
    withdrawn_loses_turn: bool = True  # a phony taken back ends the turn (Upwords: play again)
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def name(self) -> str:
        return self.ruleset.name


@cache
def _game_rule_data() -> dict:
    return json.loads((RULESET_DIR / "game_rules.json").read_text(encoding="utf-8"))


def game_rules(game: str | Ruleset, **overrides: object) -> GameRules:
    """The whole-game rules of ``game``; keyword arguments override single fields
    (``exchange_min_bag=1``...), for house rules and for the values no source establishes."""
    ruleset = game if isinstance(game, Ruleset) else get_ruleset(game)
    try:
        data = _game_rule_data()[ruleset.name]
        ex = data["exchange"]
        rules = GameRules(
            ruleset=ruleset,
            players=int(data["players"]),
            exchange_allowed=bool(ex["allowed"]),
            exchange_min_bag=int(ex["min_bag"]),
            exchange_max_tiles=int(ex["max_tiles"]),
            scoreless_turns_end=int(data["scoreless_turns_end"]["value"]),
            scoreless_kinds=tuple(str(k) for k in data["scoreless_turns_end"]["counts"]),
            final_turns_after_bag_empty=int(data["final_turns_after_bag_empty"]["value"]),
            end_on_going_out=bool(data["end_on_going_out"]["value"]),
            rack_adjustment=str(data["rack_adjustment"]["value"]),
            withdrawn_loses_turn=bool(data["withdrawn_loses_turn"]["value"]),
            sources=tuple((k, str(v["source"])) for k, v in data.items() if isinstance(v, dict)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RulesetError(f"game_rules.json: {ruleset.name}: malformed data: {exc!r}", game=ruleset.name) from exc
    unknown = set(overrides) - {f for f in GameRules.__dataclass_fields__ if f not in ("ruleset", "sources")}
    if unknown:
        raise RulesetError(f"unknown game rule {sorted(unknown)[0]!r}", field=sorted(unknown)[0])
    rules = replace(rules, **overrides)  # type: ignore[arg-type]
    if rules.rack_adjustment not in RACK_ADJUSTMENTS:
        raise RulesetError(f"rack_adjustment must be one of {', '.join(RACK_ADJUSTMENTS)}", field="rack_adjustment")
    if rules.players < 2 or rules.exchange_min_bag < 0 or rules.exchange_max_tiles < 1 or rules.scoreless_turns_end < 1:
        raise RulesetError("players >= 2, exchange_min_bag >= 0, exchange_max_tiles >= 1, scoreless_turns_end >= 1")
    return rules


# ---------------------------------------------------------------- tiles as text and counts


def tile_counts(text: str) -> list[int]:
    """Tiles as text (``A``-``Z``, ``?`` a blank; lowercase counts as the letter) to 27 counts."""
    counts = [0] * 27
    for ch in text:
        if ch == "?":
            counts[0] += 1
        elif ch.isascii() and ch.isalpha():
            counts[ord(ch.upper()) - 64] += 1
        else:
            raise IllegalTurnError(f"unexpected tile {ch!r} in {text!r}", letter=ch)
    return counts


def tiles_text(counts: Sequence[int]) -> str:
    """27 counts to canonical text: letters in order, blanks (``?``) last."""
    return "".join(LETTERS[i - 1] * counts[i] for i in range(1, 27)) + "?" * counts[0]


def canonical(text: str) -> str:
    return tiles_text(tile_counts(text))


def subtract(have: Sequence[int], take: Sequence[int]) -> list[int] | None:
    """``have - take``, or None when ``take`` is not contained in ``have``."""
    out = [a - b for a, b in zip(have, take, strict=True)]
    return out if min(out) >= 0 else None


def tiles_of_move(move: Move) -> str:
    """The rack tiles a play uses (a blank as ``?``)."""
    return canonical("".join("?" if t.blank else t.letter[0] for t in move.tiles))


def placements(rules: Ruleset, move: Move) -> list[tuple[int, int]]:
    n = rules.size
    return [((t.row - 1) * n + t.col - 1, (ord(t.letter[0]) - 64) | (BLANK if t.blank else 0)) for t in move.tiles]


# ---------------------------------------------------------------- turns, games and states


@dataclass(frozen=True)
class Turn:
    player: int  # 0-based seat
    kind: str  # one of PLAY, EXCHANGE, PASS, WITHDRAWN, BONUS, PENALTY, END
    rack: str = ""  # the rack before the turn, canonical order; "" when unknown
    move: Move | None = None  # PLAY and WITHDRAWN
    tiles: str = ""  # EXCHANGE: tiles thrown back; END: the rack counted
    count: int = 0  # EXCHANGE: number of tiles thrown back
    score: int = 0  # points this record adds to the player's score
    drawn: str = ""  # tiles drawn after the turn; "" when none or unknown

    @property
    def uses_turn(self) -> bool:
        return self.kind in TURN_KINDS


@dataclass(frozen=True)
class Game:
    rules: GameRules
    turns: tuple[Turn, ...]
    names: tuple[str, ...] = ("player1", "player2")
    initial_racks: tuple[str, ...] = ()  # racks drawn before the first turn ("" unknown)
    first: int = 0  # the seat that moves first
    lexicon: str = ""
    seed: int | None = None

    def final_scores(self) -> list[int]:
        scores = [0] * self.rules.players
        for t in self.turns:
            scores[t.player] += t.score
        return scores


@dataclass(frozen=True)
class State:
    """A position in a game, derived by replaying turns."""

    cells: tuple[int, ...]
    heights: tuple[int, ...] | None
    racks: tuple[str, ...]  # canonical; what is known
    bag: tuple[int, ...]  # counts of the tiles in the bag (strict replay only)
    scores: tuple[int, ...]
    to_move: int
    scoreless: int = 0  # consecutive scoreless turns just played
    final_left: int | None = None  # turns left once the bag is empty (final-turn games)
    over: bool = False
    turn_number: int = 0  # turns played (records that use a turn)
    buried: tuple[int, ...] = (0,) * 27  # stacking games: counts of the tiles covered by others

    @property
    def bag_size(self) -> int:
        return sum(self.bag)

    def position(self, rules: GameRules, player: int | None = None, plural_rule: bool = True) -> Position:
        """The engine position of ``player`` (default: the player to move)."""
        p = self.to_move if player is None else player
        rack = tile_counts(self.racks[p])
        heights = list(self.heights) if self.heights is not None else None
        return Position(rules.ruleset, list(self.cells), rack, heights, plural_rule)

    def unseen(self, player: int) -> list[int]:
        """Counts of the tiles ``player`` cannot see: the bag and the other racks."""
        out = list(self.bag)
        for q, rack in enumerate(self.racks):
            if q != player:
                out = [a + b for a, b in zip(out, tile_counts(rack), strict=True)]
        return out


def start(rules: GameRules, racks: Sequence[str], first: int = 0) -> State:
    """The state before the first turn: empty board, ``racks`` drawn from the full bag."""
    rs = rules.ruleset
    if len(racks) != rules.players:
        raise IllegalTurnError(f"{len(racks)} racks for {rules.players} players")
    bag: list[int] | None = list(rs.counts)
    for p, rack in enumerate(racks):
        if len(rack) > rs.rack_size:
            raise IllegalTurnError(f"player {p + 1}'s rack {rack!r} holds more than {rs.rack_size} tiles", player=p + 1)
        bag = subtract(bag, tile_counts(rack)) if bag is not None else None
    if bag is None:
        raise IllegalTurnError(f"the racks {', '.join(racks)} hold more tiles than {rs.name} has")
    n2 = rs.size * rs.size
    return State(
        cells=(0,) * n2,
        heights=(0,) * n2 if rs.stacking else None,
        racks=tuple(canonical(r) for r in racks),
        bag=tuple(bag),
        scores=(0,) * rules.players,
        to_move=first,
    )


def can_exchange(rules: GameRules, state: State) -> bool:
    return rules.exchange_allowed and state.bag_size >= max(rules.exchange_min_bag, 1) and not state.over


def end_adjustments(rules: GameRules, racks: Sequence[str]) -> list[int]:
    """Points each player gains or loses at the end of the game for the tiles left."""
    rs = rules.ruleset
    if rules.rack_adjustment == "none":
        return [0] * len(racks)
    if rules.rack_adjustment == "per_tile":
        return [-rs.end_penalty_per_tile * len(r) for r in racks]
    values = [sum(rs.values[0 if ch == "?" else ord(ch) - 64] for ch in r) for r in racks]
    adj = [-v for v in values]
    out = [p for p, r in enumerate(racks) if not r]
    if len(out) == 1:
        adj[out[0]] = sum(values)
    return adj


def end_turns(rules: GameRules, state: State) -> list[Turn]:
    """The END records of a finished game, one per player, in seat order."""
    adj = end_adjustments(rules, state.racks)
    return [Turn(p, END, rack=state.racks[p], tiles=state.racks[p], score=a) for p, a in enumerate(adj)]


def _fail(message: str, turn: Turn, **details: object) -> IllegalTurnError:
    return IllegalTurnError(message, player=turn.player + 1, kind=turn.kind, **details)


def apply(
    rules: GameRules, state: State, turn: Turn, lex: Lexicon | None = None, strict: bool = True
) -> State:
    """The state after ``turn``. Strict: every rule is checked (see the module docstring);
    with ``lex`` a play's words must be in it too. Loose: the record is trusted, racks are
    taken from it, the bag is not tracked."""
    rs = rules.ruleset
    scores = list(state.scores)
    scores[turn.player] += turn.score
    if turn.kind in (BONUS, PENALTY, END):
        if strict and turn.kind != END and state.over:
            raise _fail("the game is over", turn)
        over = state.over or turn.kind == END
        return replace(state, scores=tuple(scores), over=over)
    if turn.kind not in TURN_KINDS:
        raise _fail(f"unknown turn kind {turn.kind!r}", turn)
    racks = list(state.racks)
    if strict:
        if state.over:
            raise _fail("the game is over", turn)
        if turn.player != state.to_move:
            raise _fail(f"it is player {state.to_move + 1}'s turn, not player {turn.player + 1}'s", turn)
        if turn.rack != state.racks[turn.player]:
            raise _fail(f"the turn's rack {turn.rack!r} is not the player's rack {state.racks[turn.player]!r}", turn)
    elif turn.rack:
        racks[turn.player] = canonical(turn.rack)
    rack = tile_counts(racks[turn.player])
    bag = list(state.bag)
    cells = list(state.cells)
    heights = list(state.heights) if state.heights is not None else None
    drawn = tile_counts(turn.drawn)
    buried = list(state.buried)
    scoreless = state.scoreless + 1 if turn.kind in rules.scoreless_kinds else 0
    if turn.kind in (PLAY, WITHDRAWN):
        if turn.move is None:
            raise _fail("a play needs its move", turn)
        placed = placements(rs, turn.move)
        if strict:
            pos = Position(rs, cells, rack, heights)
            if lex is not None:
                check = check_play(pos, lex, placed)
                if turn.kind == PLAY and not check.valid:
                    raise _fail(f"{turn.move.notation}: not in the lexicon: {', '.join(check.invalid_words)}", turn)
                got = check.breakdown.total
            else:
                if rs.stacking:
                    assert heights is not None
                    check_stacking(rs, cells, heights, placed)
                check_geometry(rs, cells, placed)
                check_rack(rs, rack, placed)
                got = score_play(rs, cells, placed, True, heights).total
            if turn.kind == PLAY and got != turn.score:
                raise _fail(f"{turn.move.notation} scores {got}, not the recorded {turn.score}", turn, expected=got)
            if turn.kind == WITHDRAWN and (turn.score or turn.drawn):
                raise _fail("a withdrawn play scores nothing and draws nothing", turn)
        if turn.kind == PLAY:
            for i, code in placed:
                if cells[i]:
                    buried[0 if cells[i] & BLANK else cells[i] & LETTER_MASK] += 1
                cells[i] = code
                if heights is not None:
                    heights[i] += 1
            left = subtract(rack, tile_counts(tiles_of_move(turn.move)))
            rack = left if left is not None else [0] * 27
            scoreless = 0
    elif turn.kind == EXCHANGE:
        thrown = tile_counts(turn.tiles)
        if strict:
            n = sum(thrown)
            if not can_exchange(rules, state):
                why = "allows no exchange" if not rules.exchange_allowed else (
                    f"needs {rules.exchange_min_bag} tiles in the bag for an exchange, there are {state.bag_size}")
                raise _fail(f"{rs.name} {why}", turn)
            if not 1 <= n <= rules.exchange_max_tiles:
                raise _fail(f"an exchange throws back 1 to {rules.exchange_max_tiles} tiles, not {n}", turn)
            if sum(drawn) != n:
                raise _fail(f"an exchange of {n} tiles draws {n}, not {sum(drawn)}", turn)
            if turn.score:
                raise _fail("an exchange scores nothing", turn)
        left = subtract(rack, thrown)
        if left is None:
            if strict:
                raise _fail(f"the rack {racks[turn.player]!r} does not hold {turn.tiles!r}", turn)
            left = [0] * 27
        rack = left
    elif strict and (turn.score or turn.drawn):
        raise _fail("a pass scores nothing and draws nothing", turn)
    if strict:
        after = subtract(bag, drawn)
        if after is None:
            raise _fail(f"the drawn tiles {turn.drawn!r} are not in the bag", turn)
        if turn.kind == PLAY and sum(drawn) != min(sum(bag), rs.rack_size - sum(rack)):
            raise _fail(f"after a play the rack is refilled from the bag; drew {sum(drawn)}", turn)
        bag = after
        if turn.kind == EXCHANGE:
            bag = [a + b for a, b in zip(bag, tile_counts(turn.tiles), strict=True)]
    rack = [a + b for a, b in zip(rack, drawn, strict=True)]
    racks[turn.player] = tiles_text(rack)
    final_left = state.final_left
    over = False
    again = turn.kind == WITHDRAWN and not rules.withdrawn_loses_turn  # the same player moves again
    if again:
        scoreless = state.scoreless
    elif strict:
        if final_left is not None:
            final_left -= 1
            over = final_left <= 0
        elif rules.final_turns_after_bag_empty and not sum(bag):
            final_left = rules.players * rules.final_turns_after_bag_empty
        if rules.end_on_going_out and turn.kind == PLAY and not sum(bag) and not sum(rack):
            over = True
        if scoreless >= rules.scoreless_turns_end:
            over = True
    return State(
        cells=tuple(cells),
        heights=tuple(heights) if heights is not None else None,
        racks=tuple(racks),
        bag=tuple(bag),
        scores=tuple(scores),
        to_move=turn.player if again else (turn.player + 1) % rules.players,
        scoreless=scoreless,
        final_left=final_left,
        over=over,
        turn_number=state.turn_number + 1,
        buried=tuple(buried),
    )


def replay(game: Game, lex: Lexicon | None = None, strict: bool = True) -> list[State]:
    """Every state of ``game``: ``states[0]`` before the first turn, ``states[i + 1]`` after
    ``game.turns[i]``. Strict replay needs the initial racks."""
    racks = game.initial_racks or ("",) * game.rules.players
    state = start(game.rules, racks, game.first) if strict else _loose_start(game.rules, racks, game.first)
    states = [state]
    for turn in game.turns:
        state = apply(game.rules, state, turn, lex, strict)
        states.append(state)
    return states


def _loose_start(rules: GameRules, racks: Sequence[str], first: int) -> State:
    rs = rules.ruleset
    n2 = rs.size * rs.size
    return State(
        cells=(0,) * n2, heights=(0,) * n2 if rs.stacking else None, racks=tuple(canonical(r) for r in racks),
        bag=tuple(rs.counts), scores=(0,) * rules.players, to_move=first,
    )


def draw(bag: Sequence[int], k: int, rng: random.Random) -> str:
    """``k`` tiles (fewer if the bag holds fewer) drawn at random from ``bag`` counts."""
    pool = [i for i, n in enumerate(bag) for _ in range(n)]
    picked = [pool.pop(rng.randrange(len(pool))) for _ in range(min(k, len(pool)))]
    return canonical("".join("?" if i == 0 else LETTERS[i - 1] for i in picked))


def board_tiles(state: State) -> list[int]:
    """Counts of the tiles on the board, covered ones included (a blank counts as a blank)."""
    counts = list(state.buried)
    for code in state.cells:
        if code:
            counts[0 if code & BLANK else code & LETTER_MASK] += 1
    return counts
