"""Endgames solved: the search once the bag is empty, when nothing is hidden.

With the bag empty the opponent's rack is the unseen tiles, so the best play can be proved
rather than estimated. :func:`solve` searches the game to its end:

- **negamax with alpha-beta**: a node's value is the final spread change (own points minus the
  opponent's, from here to the end of the game, end-of-game rack adjustments included) for the
  side to move;
- **iterative deepening**: depth 1, 2, ... plies (a pass is a ply) until an iteration reaches
  the end of the game on every line it had to look at (``proved``), the depth limit, or the
  deadline (checked inside the search); the last finished iteration answers;
- **a transposition table** keyed by Zobrist hashing of the board (squares, and stack heights
  in Upwords), both racks, whose turn it is, the count of scoreless turns and the final turns
  left; bounded to ``table_entries`` entries (the oldest quarter is dropped when full);
- **move ordering**: the table's move, then plays that go out, then by score, the pass last;
- **the pass**, always allowed; every game's end rules come from
  ``engine/rulesets/game_rules.json`` through :class:`engine.game.GameRules`: going out ends
  the game (Scrabble, WWF, Upwords), the rack adjustment (:func:`engine.game.end_adjustments`),
  the scoreless-turns limit, and the final turns of Crossplay (each player gets one turn once
  the bag is empty; no rack adjustment);
- **leaves past the depth** are valued by playing the game out greedily (each side plays its
  best-scoring play, or passes) and the answer then says ``proved: False``.

A node of Crossplay's last turn is answered directly: with no rack adjustment its value is
the best score the rack can make (or 0 for the pass), one ranked query.

Every play comes from the one search seam (:func:`engine.search.every_play`,
:func:`engine.search.ranked`), so the compiled core generates underneath. A node's plays are
ordered by one integer key; a play's placements are worked out only when it is made, as most
plays generated at a node are cut off unplayed; the play-out keeps each state's value. The
search stops 5% of the budget before the deadline (at most :data:`ANSWER_RESERVE` seconds), so
the answer (the line completed from the table, its Moves) is written within it.

Why a proof is a proof: an iteration that evaluated no leaf by the greedy play-out, and used
no table entry that came from such an iteration, visited exactly the nodes the same search
without a depth limit visits, so its value is the game's value (alpha-beta returns the
minimax value of the tree it searches). Table entries remember whether their subtree was
searched to the end (``PROVED`` depth) and may then be used at any depth.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .. import search
from ..board import BLANK, LETTER_MASK, check_tile_counts
from ..errors import IllegalPlayError, TimeBudgetExceeded
from ..game import GameRules, State, end_adjustments, tile_counts, tiles_text
from ..lexicon import Lexicon
from ..plays import Move, Position, Query, RawPlay, materialise, position, raw_squares
from ..tiles import unseen_tiles

INF = 1 << 20
PROVED = 1 << 30  # the depth of a table entry whose subtree was searched to the end of the game
EXACT, LOWER, UPPER = 0, 1, 2
DEFAULT_TABLE_ENTRIES = 500_000
MAX_DEPTH = 40
HINTS = 12  # the opponent's best replies kept as floors for Crossplay's last turn
# Seconds before the deadline at which the search stops (at most; 5% of a short budget), to
# write the answer (the line completed from the table, its Moves) and still answer within it.
ANSWER_RESERVE = 0.15


class _Stop(Exception):
    """The deadline passed inside the search."""


# A play inside the search: (score, tiles used, the raw play as generated or None for the
# pass). Its placements on the board are worked out only when it is played (most plays
# generated at a node are cut off unplayed).
Play = tuple[int, int, RawPlay | None]
PASS_PLAY: Play = (0, 0, None)
Squares = Sequence[tuple[int, int]]  # placements: (board square, tile code)


@dataclass(frozen=True)
class Endgame:
    """A position with nothing hidden: the board, the rack of the side to move (``racks[0]``)
    and of the opponent (``racks[1]``), as 27 counts each (index 0 the blank).

    ``scoreless``: consecutive scoreless turns already played. ``turns_left``: turns left in
    the game for final-turn games (Crossplay: 2 when the side to move has the first of the two
    final turns, 1 when it has the last), None where the game ends by going out or by passes.
    """

    rules: GameRules
    cells: tuple[int, ...]
    racks: tuple[tuple[int, ...], tuple[int, ...]]
    heights: tuple[int, ...] | None = None
    scoreless: int = 0
    turns_left: int | None = None
    plural_rule: bool = True
    bag: int | None = None  # one tile left in the bag (its rack slot): the next play draws it


@dataclass(frozen=True)
class Step:
    """One turn of a line of play: who (0 the side to move at the root, 1 the opponent), the
    play (None for the pass) and its score."""

    player: int
    move: Move | None
    score: int
    rack_after: str = ""  # the player's rack after the turn

    @property
    def notation(self) -> str:
        return "pass" if self.move is None else self.move.notation


@dataclass(frozen=True)
class FirstMove:
    """A first move and its value (the final spread change for the side to move after it)."""

    move: Move | None
    value: int

    @property
    def notation(self) -> str:
        return "pass" if self.move is None else self.move.notation


@dataclass(frozen=True)
class Progress:
    """What one finished iteration found (the CLI prints one line per depth)."""

    depth: int
    value: int
    best: str
    nodes: int
    seconds: float
    proved: bool


@dataclass(frozen=True)
class Answer:
    value: int  # final spread change for the side to move, with best play from both sides
    pv: list[Step]  # the principal variation
    first_moves: list[FirstMove]  # on request: first moves with their values, best first
    depth: int  # plies of the last finished iteration
    nodes: int
    seconds: float
    proved: bool
    end: str  # how the principal variation ends: "out", "passes", "final turns", "depth"
    iterations: list[Progress] = field(default_factory=list)

    @property
    def best(self) -> Step | None:
        return self.pv[0] if self.pv else None


def zone(cells: Sequence[int], n: int, squares: list[int]) -> frozenset[int]:
    """The squares that a play's tiles (``squares``, on an ``n`` x ``n`` board) depend on: in
    both directions through each new tile, the run of tiles and the empty square ending it on
    each side. Another play that puts no tile on these squares leaves the play legal, with the
    same words and the same score."""
    new = set(squares)
    out: set[int] = set()
    for sq in new:
        r, c = divmod(sq, n)
        out.add(sq)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                i = rr * n + cc
                out.add(i)
                if not cells[i] and i not in new:
                    break
                rr, cc = rr + dr, cc + dc
    return frozenset(out)


class _Zobrist:
    def __init__(self, squares: int, rack_size: int) -> None:
        rng = random.Random(0x5EED)

        def r() -> int:
            return rng.getrandbits(64)

        self.square = [[r() for _ in range(128)] for _ in range(squares)]
        self.height = [[r() for _ in range(8)] for _ in range(squares)]
        self.rack = [[[r() for _ in range(rack_size + 2)] for _ in range(27)] for _ in range(2)]
        self.side = r()
        self.scoreless = [r() for _ in range(64)]
        self.turns = [r() for _ in range(64)]
        self.bag = [r() for _ in range(27)]


_ZOBRIST: dict[tuple[int, int], _Zobrist] = {}


def _zobrist(squares: int, rack_size: int) -> _Zobrist:
    key = (squares, rack_size)
    if key not in _ZOBRIST:
        _ZOBRIST[key] = _Zobrist(squares, rack_size)
    return _ZOBRIST[key]


class Solver:
    """One search over one endgame (see the module docstring). ``use_table`` and ``ordering``
    exist so tests can show that neither changes the value.

    What a node costs is mostly generating its plays (through the search seam). They are not
    kept from one visit to the next: a bounded store of them (tried: a fifth of
    ``table_entries`` plays) made a seven-tile endgame twice as slow, the garbage collector
    walking the kept plays again and again, for 10-20% at four tiles. The greedy play-out's
    values are kept per state (plain integers), at most ``table_entries``."""

    def __init__(self, eg: Endgame, lex: Lexicon, deadline: float | None = None, max_depth: int = MAX_DEPTH,
                 table_entries: int = DEFAULT_TABLE_ENTRIES, use_table: bool = True, ordering: bool = True) -> None:
        self.eg = eg
        self.rules = eg.rules
        self.rs = eg.rules.ruleset
        self.n = eg.rules.ruleset.size
        self.lex = lex
        self.deadline = deadline
        self.max_depth = max_depth
        self.table_entries = max(table_entries, 16)
        self.use_table = use_table
        self.ordering = ordering
        self.cells = list(eg.cells)
        self.heights = list(eg.heights) if eg.heights is not None else None
        self.racks = [list(eg.racks[0]), list(eg.racks[1])]
        self.side = 0
        self.scoreless = eg.scoreless
        self.turns_left = eg.turns_left
        self.bag = eg.bag
        self.table: dict[int, tuple[int, int, int, Play]] = {}
        self.playouts: dict[int, int] = {}  # by state: the greedy play-out's value
        self.adjustments: dict[int, int] = {}  # by both racks: the end's spread change for the root's side to move
        self.nodes = 0
        self.estimated = 0  # leaves valued by play-out, and table entries that rest on such leaves
        self.z = _zobrist(len(self.cells), max(self.rs.rack_size, max(sum(eg.racks[0]), sum(eg.racks[1]))))
        self.board_hash = 0  # the squares and heights
        self.rack_hash = [0, 0]
        self.hash = self._full_hash()
        self.no_adjustment = self.rules.rack_adjustment == "none"
        self.hints: list[tuple[int, frozenset[int]]] | None = None
        self.last_squares: set[int] = set()
        self.rewards_going_out = self.rules.end_on_going_out or self.rules.rack_adjustment == "going_out"

    # ------------------------------------------------------------------ state and hashing

    def _full_hash(self) -> int:
        z = self.z
        hb = 0
        for i, code in enumerate(self.cells):
            if code:
                hb ^= z.square[i][code]
        if self.heights is not None:
            for i, ht in enumerate(self.heights):
                hb ^= z.height[i][ht]
        self.board_hash = hb
        for p in (0, 1):
            hr = 0
            for t, n in enumerate(self.racks[p]):
                hr ^= z.rack[p][t][n]
            self.rack_hash[p] = hr
        h = hb ^ self.rack_hash[0] ^ self.rack_hash[1]
        if self.side:
            h ^= z.side
        h ^= z.scoreless[min(self.scoreless, 63)]
        if self.turns_left is not None:
            h ^= z.turns[min(self.turns_left, 63)]
        if self.bag is not None:
            h ^= z.bag[self.bag]
        return h

    def position(self) -> Position:
        return Position(self.rs, self.cells, self.racks[self.side], self.heights, self.eg.plural_rule)

    def squares(self, play: Play) -> Squares:
        """Where ``play`` puts its tiles: (board square, code) each."""
        return raw_squares(self.n, play[2]) if play[2] is not None else ()

    def plays(self) -> list[Play]:
        """Every play of the side to move, and the pass: ordered (going out first where that
        pays, then by score, the pass last) unless ``ordering`` is off."""
        rack = self.racks[self.side]
        out: list[Play] = []
        if any(rack):
            try:
                raws = search.every_play(self.position(), self.lex, deadline=self.deadline)
            except TimeBudgetExceeded:
                raise _Stop from None
            out = [(r[0], len(r[5]), r) for r in raws]
        out.append(PASS_PLAY)
        if self.ordering:
            out.sort(key=self.order_key())
        return out

    def order_key(self) -> Callable[[Play], int]:
        """The search's order of the side to move's plays: going out first where it ends the
        game or earns the opponent's rack (in Crossplay's final round by score alone: the search
        there stops at the first play scoring no more than the best value found), then by
        score, the pass after the plays of its score."""
        held = sum(self.racks[self.side]) if self.rewards_going_out else -1
        return lambda p: (0 if p[1] == held else 1 << 20) - 2 * p[0] + (p[2] is None)

    def apply(self, squares: Squares) -> tuple:
        """Play the tiles ``squares`` (none: the pass) for the side to move; returns what
        :meth:`undo` needs."""
        z = self.z
        me = self.side
        rack = self.racks[me]
        zr = z.rack[me]
        old_state = (self.hash, self.board_hash, self.rack_hash[me], self.scoreless, self.turns_left,
                     [self.cells[sq] for sq, _ in squares], self.bag if squares else None)
        hb = self.board_hash
        hr = self.rack_hash[me]
        for sq, code in squares:
            old = self.cells[sq]
            if old:
                hb ^= z.square[sq][old]
            hb ^= z.square[sq][code]
            self.cells[sq] = code
            if self.heights is not None:
                ht = self.heights[sq]
                hb ^= z.height[sq][ht] ^ z.height[sq][ht + 1]
                self.heights[sq] = ht + 1
            t = 0 if code & BLANK else code & LETTER_MASK
            c = rack[t]
            hr ^= zr[t][c] ^ zr[t][c - 1]
            rack[t] = c - 1
        h = self.hash ^ self.board_hash ^ hb ^ self.rack_hash[me]
        h ^= z.scoreless[min(self.scoreless, 63)]
        self.scoreless = 0 if squares else self.scoreless + 1
        h ^= z.scoreless[min(self.scoreless, 63)]
        drew = old_state[6]
        if drew is not None:  # the play draws the bag's last tile: the bag is empty from here
            c = rack[drew]
            hr ^= zr[drew][c] ^ zr[drew][c + 1]
            h ^= z.bag[drew]
            rack[drew] = c + 1
            self.bag = None
            if self.rules.final_turns_after_bag_empty:
                self.turns_left = self.rules.players * self.rules.final_turns_after_bag_empty
                h ^= z.turns[self.turns_left]
        elif self.turns_left is not None:
            h ^= z.turns[min(self.turns_left, 63)]
            self.turns_left -= 1
            h ^= z.turns[min(self.turns_left, 63)]
        self.board_hash = hb
        self.rack_hash[me] = hr
        self.hash = h ^ hr ^ z.side
        self.side ^= 1
        return old_state

    def undo(self, squares: Squares, saved_state: tuple) -> None:
        self.side ^= 1
        me = self.side
        rack = self.racks[me]
        self.hash, self.board_hash, self.rack_hash[me], self.scoreless, self.turns_left, olds, drew = saved_state
        if drew is not None:
            rack[drew] -= 1
            self.bag = drew
        for (sq, code), old in zip(squares, olds, strict=True):
            rack[0 if code & BLANK else code & LETTER_MASK] += 1
            self.cells[sq] = old
            if self.heights is not None:
                self.heights[sq] -= 1

    def over(self, mover: int, played: bool) -> bool:
        """Whether the game ended with the turn ``mover`` just took."""
        rules = self.rules
        if rules.end_on_going_out and played and not any(self.racks[mover]):
            return True
        if self.scoreless >= rules.scoreless_turns_end:
            return True
        return self.turns_left is not None and self.turns_left <= 0

    def end_value(self, player: int) -> int:
        """The end-of-game rack adjustment's spread change for ``player`` (kept per pair of racks)."""
        if self.no_adjustment:
            return 0
        key = self.rack_hash[0] ^ self.rack_hash[1]
        spread = self.adjustments.get(key)
        if spread is None:
            adj = end_adjustments(self.rules, [tiles_text(self.racks[0]), tiles_text(self.racks[1])])
            spread = self.adjustments[key] = adj[0] - adj[1]
        return spread if player == 0 else -spread

    # ------------------------------------------------------------------ the search

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and time.monotonic() > self.deadline:  # cheap beside a node's move generation
            raise _Stop

    def last_turn(self) -> bool:
        """The side to move has the game's last turn and the end adjusts nothing: its value is
        its best score (the pass scores 0)."""
        return self.no_adjustment and self.turns_left == 1

    def top(self) -> tuple[int, Squares]:
        """The best-scoring play of the side to move (score, placements), or the pass (0, ())
        when it has none that scores."""
        if not any(self.racks[self.side]):
            return 0, ()
        try:
            found = search.ranked(self.position(), self.lex, Query(limit=1, deadline=self.deadline))
        except TimeBudgetExceeded:
            raise _Stop from None
        if not found.moves or found.moves[0].score < 0:
            return 0, ()
        n = self.n
        m = found.moves[0]
        return m.score, [((t.row - 1) * n + t.col - 1, (ord(t.letter[0]) - 64) | (BLANK if t.blank else 0))
                         for t in m.tiles]

    def best_score(self) -> int:
        found = search.ranked(self.position(), self.lex, Query(limit=1)) if any(self.racks[self.side]) else None
        return max(found.moves[0].score, 0) if found is not None and found.moves else 0

    def reply_hints(self) -> list[tuple[int, frozenset[int]]] | None:
        """Before the second-to-last turn of a game without rack adjustment: the opponent's
        best replies on the board as it is, each with the squares a play must touch to change
        it (:func:`zone`). A play that touches none of a reply's squares leaves it legal and
        worth the same, so the opponent's last turn is worth at least that much."""
        if not (self.no_adjustment and self.turns_left == 2 and any(self.racks[1 - self.side])):
            return None
        opp = Position(self.rs, self.cells, self.racks[1 - self.side], self.heights, self.eg.plural_rule)
        n = self.n
        found = search.ranked(opp, self.lex, Query(limit=HINTS))
        return [(m.score, zone(self.cells, n, [(t.row - 1) * n + t.col - 1 for t in m.tiles]))
                for m in found.moves if m.score > 0]

    def ordered(self, plays: list[Play], first: Play | None) -> list[Play]:
        """``plays`` (ordered already, see :meth:`plays`) with the table's move ``first`` first."""
        if not self.ordering or first is None or plays[0] == first:
            return plays
        return [first, *(p for p in plays if p != first)] if first in plays else plays

    def negamax(self, depth: int, alpha: int, beta: int, line: list[Play]) -> int:
        """The value for the side to move, within (alpha, beta) (fail-soft); ``line`` receives
        the principal variation from here."""
        self._tick()
        if self.last_turn():
            line.clear()
            floor = 0  # the pass
            if self.hints is not None:  # a reply the play just made left untouched scores as much as before
                floor = next((sc for sc, zone in self.hints if zone.isdisjoint(self.last_squares)), 0)
            if floor >= beta:
                return floor
            return self.best_score()
        key = self.hash
        first = None
        if self.use_table:
            entry = self.table.get(key)
            if entry is not None:
                edepth, evalue, eflag, emove = entry
                if edepth >= depth and (eflag == EXACT or (eflag == LOWER and evalue >= beta)
                                        or (eflag == UPPER and evalue <= alpha)):
                    if edepth < PROVED:
                        self.estimated += 1
                    line.clear()
                    return evalue
                first = emove
        if depth <= 0:
            self.estimated += 1
            line.clear()
            return self.playout()
        alpha0 = alpha
        est0 = self.estimated
        best = -INF
        best_play: Play | None = None
        child_line: list[Play] = []
        hints, self.hints = self.hints, self.reply_hints()
        try:
            for play in self.ordered(self.plays(), first):
                value = self.value_of(play, depth, alpha, beta, child_line)
                if value > best:
                    best, best_play = value, play
                    line[:] = [play, *child_line]
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
        finally:
            self.hints = hints
        if self.use_table and best_play is not None:
            proved = self.estimated == est0
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if len(self.table) >= self.table_entries:
                self._evict()
            self.table[key] = (PROVED if proved else depth, best, flag, best_play)
        return best

    def value_of(self, play: Play, depth: int, alpha: int, beta: int, child_line: list[Play]) -> int:
        """The value of ``play`` for the side to move: its score, then the game's end or the
        opponent's best answer."""
        me = self.side
        squares = self.squares(play)
        saved = self.apply(squares)
        if self.hints is not None:
            self.last_squares = {sq for sq, _ in squares}
        try:
            if self.over(me, bool(squares)):
                child_line.clear()
                return play[0] + self.end_value(me)
            s = play[0]
            return s - self.negamax(depth - 1, s - beta, s - alpha, child_line)
        finally:
            self.undo(squares, saved)

    def _evict(self) -> None:
        drop = len(self.table) // 4
        for k in list(self.table)[:drop]:
            del self.table[k]

    def playout(self) -> int:
        """The greedy estimate: both sides play their best-scoring play (or pass) to the end;
        the spread change for the side to move now. Every state on the way keeps its value."""
        path: list[tuple[int, int]] = []  # (state, the score of the play made there)
        undo: list[tuple[Squares, tuple]] = []
        try:
            while True:
                known = self.playouts.get(self.hash)
                if known is not None:
                    value = known
                    break
                me, state = self.side, self.hash
                score, squares = self.top()
                undo.append((squares, self.apply(squares)))
                if self.over(me, bool(squares)):
                    value = score + self.end_value(me)
                    self.playouts[state] = value
                    break
                path.append((state, score))
        finally:
            for squares, saved in reversed(undo):
                self.undo(squares, saved)
        for state, score in reversed(path):  # a state's value: its play's score less the next state's
            value = score - value
            self.playouts[state] = value
        if len(self.playouts) > self.table_entries:
            self.playouts.clear()
        return value


# ---------------------------------------------------------------------- the answer


def _materialise(solver: Solver, plays: Sequence[Play]) -> list[Step]:
    """The plays of a line as Moves, replayed from the root."""
    steps: list[Step] = []
    undo: list[tuple[Squares, tuple]] = []
    try:
        for play in plays:
            mover = solver.side
            move = materialise(solver.rs, solver.cells, play[2]) if play[2] is not None else None
            squares = solver.squares(play)
            undo.append((squares, solver.apply(squares)))
            steps.append(Step(mover, move, play[0], tiles_text(solver.racks[mover])))
    finally:
        for squares, saved in reversed(undo):
            solver.undo(squares, saved)
    return steps


def _complete(solver: Solver, line: list[Play]) -> tuple[list[Play], str]:
    """The line, extended by the table's moves where a table hit cut it short, and how it ends."""
    plays: list[Play] = []
    undo: list[tuple[Squares, tuple]] = []
    end = "depth"
    try:
        i = 0
        while len(plays) < 200:
            if i < len(line):
                play = line[i]
                i += 1
            elif solver.last_turn():
                play = max(solver.plays(), key=lambda p: (p[0], p[2] is not None))
            else:
                entry = solver.table.get(solver.hash)
                if entry is None or not _fits(solver, entry[3]):
                    break
                play = entry[3]
            mover = solver.side
            plays.append(play)
            squares = solver.squares(play)
            undo.append((squares, solver.apply(squares)))
            if solver.over(mover, bool(squares)):
                end = ("out" if squares and not any(solver.racks[mover]) and solver.rules.end_on_going_out
                       else "passes" if solver.scoreless >= solver.rules.scoreless_turns_end else "final turns")
                break
    finally:
        for squares, saved in reversed(undo):
            solver.undo(squares, saved)
    return plays, end


def _fits(solver: Solver, play: Play) -> bool:
    """Whether the side to move holds ``play``'s tiles and its squares take them: the table's
    move for this state, checked without generating the state's plays again (the answer is
    written after the deadline)."""
    need = [0] * 27
    for sq, code in solver.squares(play):
        need[0 if code & BLANK else code & LETTER_MASK] += 1
        if solver.cells[sq] and solver.heights is None:
            return False
    return all(n <= have for n, have in zip(need, solver.racks[solver.side], strict=True))


def _matches(solver: Solver, play: Play, wanted: str) -> bool:
    if wanted.strip().lower() == "pass":
        return play[2] is None
    if play[2] is None:
        return False
    return materialise(solver.rs, solver.cells, play[2]).notation.upper() == " ".join(wanted.split()).upper()


def solve(eg: Endgame, lex: Lexicon, deadline: float | None = None, max_depth: int = MAX_DEPTH,
          first_moves: int = 0, first: str | None = None, table_entries: int = DEFAULT_TABLE_ENTRIES,
          use_table: bool = True, ordering: bool = True,
          on_depth: Callable[[Progress], None] | None = None, root_limit: int | None = None) -> Answer:
    """Solve ``eg`` (see the module docstring) by iterative deepening until proved, the
    ``max_depth`` plies or the ``deadline`` (a ``time.monotonic()`` value).

    ``root_limit``: consider only that many first plays, the best by score, and the pass.
    ``first_moves``: also value that many first moves exactly (each searched with a full
    window in the last iteration), best first. ``first``: solve with this first move forced
    (notation such as ``8H QI`` or ``pass``): "how far is my play from the best".
    IllegalPlayError when ``first`` is not a legal play of the position."""
    t0 = time.monotonic()
    if eg.bag is None and eg.turns_left is not None and eg.turns_left <= 2 and eg.rules.rack_adjustment == "none":
        deadline = None  # Crossplay's final round is always solved: each first play costs one ranked query at most
    solver = Solver(eg, lex, None, max_depth, table_entries, use_table, ordering)
    plays = solver.plays()  # the first plays are generated whatever the budget
    if deadline is not None:  # the search stops early enough to write the answer within the budget
        solver.deadline = deadline - min(ANSWER_RESERVE, 0.05 * max(deadline - t0, 0.0))
    if root_limit is not None:  # only the best ``root_limit`` plays by score, and the pass
        plays = sorted((p for p in plays if p[2] is not None), key=lambda p: -p[0])[:root_limit] + [PASS_PLAY]
        if ordering:
            plays.sort(key=solver.order_key())
    if first is not None:
        plays = [p for p in plays if _matches(solver, p, first)]
        if not plays:
            raise IllegalPlayError(f"{first!r} is not a legal play of this position", field="first")
    roots = solver.ordered(plays, None)
    done: tuple[int, list[Play], list[FirstMove], int, bool] | None = None
    iterations: list[Progress] = []
    depth = 0
    while depth < max_depth:
        depth += 1
        est0 = solver.estimated
        values: dict[int, int] = {}
        best = -INF
        best_line: list[Play] = []
        child_line: list[Play] = []
        solver.hints = solver.reply_hints()
        try:
            for k, play in enumerate(roots):
                full = k < first_moves
                alpha = -INF if full else best
                if solver.last_turn():
                    value = play[0]  # the game's last turn: nothing follows, nothing adjusts
                    child_line.clear()
                else:
                    value = solver.value_of(play, depth, alpha, INF, child_line)
                if full or value > best:
                    values[k] = value
                if value > best:
                    best = value
                    best_line = [play, *child_line]
        except _Stop:
            if done is None and values:  # not even the first iteration finished: what it found
                k = max(values, key=lambda i: values[i])
                done = (values[k], [roots[k]], _firsts(solver, roots, values), depth, False)
            break
        proved = solver.estimated == est0
        done = (best, best_line, _firsts(solver, roots, values) if first_moves else [], depth, proved)
        iterations.append(Progress(depth, best, _materialise(solver, best_line[:1])[0].notation, solver.nodes,
                                   time.monotonic() - t0, proved))
        if on_depth is not None:
            on_depth(iterations[-1])
        if proved:
            break
        order = sorted(values, key=lambda i: -values[i])  # the next iteration starts with the best
        roots = [roots[i] for i in order] + [p for i, p in enumerate(roots) if i not in values]
    solver.deadline = None  # the answer is written from what was found (kept: no search)
    if done is None:  # the deadline passed before any first move was valued: the best score
        play = max(roots, key=lambda p: p[0])
        done = (play[0], [play], [], 0, False)
    value, line, firsts, depth_done, proved = done
    plays, end = _complete(solver, line)
    return Answer(value, _materialise(solver, plays), firsts, depth_done, solver.nodes,
                  time.monotonic() - t0, proved, end if proved or end != "depth" else "depth", iterations)


def final_scores(eg: Endgame, answer: Answer, scores: Sequence[int]) -> list[int] | None:
    """The scores after the principal variation and the end-of-game adjustments, from
    ``scores`` ([side to move, opponent]); None when the line stops at the depth."""
    if answer.end == "depth":
        return None
    out = list(scores)
    racks = [tiles_text(eg.racks[0]), tiles_text(eg.racks[1])]
    for step in answer.pv:
        out[step.player] += step.score
        racks[step.player] = step.rack_after
    adj = end_adjustments(eg.rules, racks)
    return [out[0] + adj[0], out[1] + adj[1]]


def _firsts(solver: Solver, roots: list[Play], values: dict[int, int]) -> list[FirstMove]:
    order = sorted(values, key=lambda i: -values[i])
    return [FirstMove(s.move, values[i]) for i in order for s in _materialise(solver, [roots[i]])]


def from_state(rules: GameRules, state: State, plural_rule: bool = True) -> Endgame:
    """The endgame of a game's state once its bag is empty (the racks are known: strict replay)."""
    p = state.to_move
    return Endgame(
        rules=rules,
        cells=state.cells,
        racks=(tuple(tile_counts(state.racks[p])), tuple(tile_counts(state.racks[1 - p]))),
        heights=state.heights,
        scoreless=state.scoreless,
        turns_left=state.final_left if rules.final_turns_after_bag_empty else None,
        plural_rule=plural_rule,
    )


def endgame_of(rules: GameRules, board: list[str] | None, rack: str, other_rack: str | None = None,
               heights: list[str] | None = None, scoreless: int = 0, turns_left: int | None = None,
               plural_rule: bool = True) -> tuple[Endgame, str]:
    """The endgame of a board and the rack of the side to move; the opponent's rack is
    ``other_rack``, or else every unseen tile. The bag must be empty: the board and the two
    racks hold every tile of the game. Returns the endgame and the opponent's rack as text. Final-turn games
    (Crossplay): ``turns_left`` defaults to 2, the side to move having the first of the two
    final turns. Errors are the engine's (InvalidBoardError, InvalidRackError,
    TileCountError, IllegalPlayError)."""
    rs = rules.ruleset
    pos = position(rs, board, rack, heights, plural_rule)
    if other_rack is None:
        seen = unseen_tiles(pos)
        if seen.buried:
            raise IllegalPlayError("tiles are buried under the stacks, so the opponent's rack cannot be inferred: "
                                   "give it (other_rack)", field="other_rack")
        if seen.total > rs.rack_size:
            raise IllegalPlayError(
                f"{seen.total} tiles are unseen, so the bag still holds {seen.total - rs.rack_size}: an endgame "
                f"needs an empty bag", unseen=seen.total, field="rack")
        other_rack = "".join(ch * n for ch, n in seen.counts.items() if ch != "?") + "?" * seen.counts["?"]
    opp = position(rs, board, other_rack, heights, plural_rule)
    check_tile_counts(rs, pos.cells, [a + b for a, b in zip(pos.rack, opp.rack, strict=True)])
    bag = unseen_tiles(pos).total - sum(opp.rack)
    if bag:
        raise IllegalPlayError(f"the board and the two racks leave {bag} tiles in the bag: an endgame needs an "
                               "empty bag", bag=bag, field="other_rack")
    if not any(pos.rack) and not any(opp.rack):
        raise IllegalPlayError("both racks are empty: the game is over", field="rack")
    if rules.final_turns_after_bag_empty:
        most = rules.players * rules.final_turns_after_bag_empty
        turns_left = most if turns_left is None else turns_left
        if not 1 <= turns_left <= most:
            raise IllegalPlayError(f"{rs.name} has {most} final turns once the bag is empty; "
                                   f"final_turns_left must be 1 to {most}", field="final_turns_left")
    else:
        turns_left = None
    if not 0 <= scoreless < rules.scoreless_turns_end:
        raise IllegalPlayError(f"scoreless turns must be 0 to {rules.scoreless_turns_end - 1} "
                               f"({rules.scoreless_turns_end} end the game)", field="scoreless")
    eg = Endgame(rules, tuple(pos.cells), (tuple(pos.rack), tuple(opp.rack)),
                 tuple(pos.heights) if pos.heights is not None else None, scoreless, turns_left, plural_rule)
    return eg, tiles_text(opp.rack)
