"""Monte Carlo simulation: the best turn by winning chances, not by equity alone.

For a position (board, rack, scores, the tiles unseen, optionally some of the opponent's
tiles) :func:`simulation` takes the best ``candidates`` turns by equity
(:func:`engine.strategy.equity.rank_by_equity`: plays, and the exchanges and the pass when
the bag allows), and in each iteration:

1. draws the opponent's rack (the known tiles plus random unseen ones) and shuffles the rest
   of the unseen tiles into the bag's order, from a generator seeded by ``(seed, iteration)``;
2. for every candidate still in the running, with the *same* rack and bag order (common
   random numbers): plays the candidate, refills from the top of the bag, then plays
   ``plies`` more turns with the equity player (the single best turn by equity, through the
   search seam: ``engine.search.best_turn``, the same turn as ``rank_by_equity(limit=1)``;
   the compiled core values the rack's sub-racks in C, so no leave table is built per
   rack), each refilling from the top of the bag;
3. values the end: the spread (our score minus theirs) plus the value of the leave each
   player's last turn kept (ours added, theirs subtracted: the equity of the sequence), and
   the win: 1, 1/2 or 0 when the game ended (after the end-of-game rack adjustments), else
   the win probability of the position reached (``engine.strategy.winprob``, given the
   adjusted spread of the player to move and the tiles unseen by them).

The turns are applied to flat counts and lists (:func:`_rollout`: the board's cells, the
racks' counts, the bag in drawing order) with each game's own whole-game rules
(:class:`engine.game.GameRules`): the final turns (Crossplay: one more turn each once the bag
is empty, no rack penalty), going out, the scoreless-turn rule, the end-of-game rack
adjustments. :func:`strict_rollout` plays the same turns as whole-game turns
(:class:`engine.game.Turn`) applied strictly with :func:`engine.game.apply`, every play's
score checked as it is applied: the reference the flat rollout is tested against (same turns,
same figures; ``simulation(strict=True)`` uses it).
So a position near the end is simulated to the end of the game exactly under its rules; with
the bag empty the opponent's rack is the unseen tiles and every iteration is the same (the
run stops after one: ``reason == "exact"``).

``plies`` counts the turns after the candidate's (Macondo's convention): with 0 plies a
candidate's value is the spread plus its equity, so the order is the equity order.

**Stopping** (:mod:`engine.strategy.simstats`): at every ``checkpoint`` iterations, a
candidate whose upper confidence bound falls below the leader's lower bound is dropped; the
run ends when one remains, at the iteration cap, at the time budget, or at once when the
position is exact.

**Same seed, same answer.** Iteration ``i`` draws from ``Random(f"sim:{seed}:{i}")`` and
every candidate's rollout from its own generator seeded the same way, so a candidate's
samples do not depend on which others run beside it; samples are added in iteration order and
stopping decisions are taken only at the fixed checkpoints. ``workers`` worker processes
(forked: they inherit the lexicon) each take a contiguous slice of a checkpoint's iterations,
so the figures are the same for any number of workers. A time budget cuts a batch short: only
the iterations before the first one missing are kept.

:func:`simulation` is a generator of :class:`Snapshot` (one before the first iteration, one at
each checkpoint, the last with ``done``): a caller streams progress, and stops the run by
closing the generator (the workers finish at most the slice in hand).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import count
from multiprocessing import get_all_start_methods, get_context
from threading import Event

from .. import search
from ..board import BLANK, LETTER_MASK
from ..errors import InvalidRackError, RulesetError, TileCountError, TimeBudgetExceeded
from ..game import (
    EXCHANGE,
    PASS,
    PLAY,
    GameRules,
    State,
    Turn,
    apply,
    can_exchange,
    end_adjustments,
    placements,
    tile_counts,
    tiles_of_move,
    tiles_text,
)
from ..lexicon import Lexicon
from ..plays import Move, Position
from . import winprob
from .equity import Candidate, default_bag_size, leave_table, rank_by_equity, turn_query
from .leaves import LeaveValues
from .simstats import Z_DEFAULT, Figures, leader_of, to_prune

WinFn = Callable[[float, int], float]  # P(win) for the player to move: (spread, tiles unseen by them)
REASONS = ("one_left", "iterations", "time", "exact", "stopped")


# ----------------------------------------------------------------------------- what is simulated


@dataclass(frozen=True)
class Setup:
    """What the simulating player (seat 0, to move) knows."""

    rules: GameRules
    position: Position  # the board and our rack
    scores: tuple[int, int]  # ours, the opponent's
    unseen: tuple[int, ...]  # 27 counts: the bag and the opponent's rack together
    bag_size: int
    opponent: tuple[int, ...] = (0,) * 27  # tiles known to be on the opponent's rack
    final_turns_left: int | None = None  # final-turn games with the bag empty: turns left, both players
    scoreless: int = 0  # consecutive scoreless turns just played

    @property
    def opponent_rack_size(self) -> int:
        return sum(self.unseen) - self.bag_size


def setup(
    rules: GameRules, pos: Position, scores: Sequence[int] = (0, 0), bag_size: int | None = None,
    opponent: str = "", final_turns_left: int | None = None, scoreless: int = 0,
) -> Setup:
    """A checked :class:`Setup` for ``pos``: the unseen tiles are the game's tiles less the
    board and our rack; ``bag_size`` defaults to the unseen tiles less a full opponent rack;
    ``opponent`` names tiles known to be on the opponent's rack; with the bag empty in a
    final-turn game, ``final_turns_left`` defaults to one turn each (ours, then theirs)."""
    rs = rules.ruleset
    if rs.stacking:
        raise RulesetError(f"{rs.name} has no simulation (no leave values for stacking games)", game=rs.name)
    if rules.players != 2:
        raise RulesetError("the simulation plays two-player games", game=rs.name)
    on_board = [0] * 27
    for code in pos.cells:
        if code:
            on_board[0 if code & BLANK else code & LETTER_MASK] += 1
    unseen = [n - b - r for n, b, r in zip(rs.counts, on_board, pos.rack, strict=True)]
    if min(unseen) < 0:
        raise TileCountError(f"the board and the rack hold more tiles than {rs.name} has", field="rack")
    total = sum(unseen)
    bag = default_bag_size(rules, total) if bag_size is None else bag_size
    if not 0 <= total - bag <= rs.rack_size:
        raise TileCountError(
            f"bag_size {bag} leaves {total - bag} of the {total} unseen tiles on the opponent's rack; "
            f"a rack holds 0 to {rs.rack_size}", field="bag_size", available=total)
    known = tile_counts(opponent)
    if any(k > u for k, u in zip(known, unseen, strict=True)) or sum(known) > total - bag:
        raise InvalidRackError(f"the opponent's tiles {opponent!r} are not among the {total - bag} unseen tiles "
                               "on their rack", field="opponent_rack", rack=opponent)
    if bag == 0 and rules.final_turns_after_bag_empty and final_turns_left is None:
        final_turns_left = rules.players * rules.final_turns_after_bag_empty
    if bag > 0 or not rules.final_turns_after_bag_empty:
        final_turns_left = None
    if len(scores) != 2:
        raise RulesetError("two scores: ours and the opponent's", field="scores")
    return Setup(rules, pos, (int(scores[0]), int(scores[1])), tuple(unseen), bag, tuple(known),
                 final_turns_left, scoreless)


def candidates_for(s: Setup, lex: Lexicon, values: LeaveValues, k: int, deadline: float | None = None) -> list[Candidate]:
    """The best ``k`` turns by equity, exchanges and the pass included (when the bag allows an
    exchange; the pass always)."""
    found, _ = rank_by_equity(s.position, lex, values, s.rules, s.bag_size, s.unseen, limit=k,
                              exchanges=True, passes=True, count=False, deadline=deadline)
    return found


def describe(c: Candidate) -> str:
    """A turn as text: ``8F QUIXOTE``, ``exchange QV``, ``pass``."""
    if c.kind == PLAY:
        assert c.move is not None
        return c.move.notation
    return f"exchange {c.thrown}" if c.kind == EXCHANGE else "pass"


@dataclass(frozen=True)
class Params:
    candidates: int = 10  # K: the best K turns by equity
    plies: int = 2  # turns simulated after the candidate's
    iterations: int = 1000  # the cap
    seconds: float | None = None  # the time budget (None: none)
    seed: int | str = 0
    workers: int = 1  # worker processes; 0: one per core
    checkpoint: int = 8  # iterations between stopping decisions
    z: float = Z_DEFAULT  # confidence bounds: mean ± z·se
    min_samples: int = 16  # no pruning before this many iterations


@dataclass(frozen=True)
class Line:
    """One candidate's figures."""

    rank: int  # 1-based place by equity
    candidate: Candidate
    iterations: int
    value: float  # mean spread adjusted by the leaves kept, points
    value_se: float
    win: float | None  # mean win share (0..1), None when the game has no win probability
    win_se: float | None
    active: bool  # still simulated (False: dropped by the stopping rule)

    @property
    def text(self) -> str:
        return describe(self.candidate)

    def to_dict(self) -> dict:
        c = self.candidate
        out: dict = {"play": self.text, "kind": c.kind, "equity_rank": self.rank, "score": c.score,
                     "equity": c.equity_milli / 1000, "leave": c.kept, "iterations": self.iterations,
                     "spread": round(self.value, 3) if self.iterations else None,
                     "spread_se": round(self.value_se, 3) if self.iterations else None,
                     "win": None if self.win is None else round(self.win, 5),
                     "win_se": None if self.win_se is None else round(self.win_se, 5), "active": self.active}
        if c.kind == EXCHANGE:
            out["thrown"] = c.thrown
        return out


@dataclass(frozen=True)
class Snapshot:
    iterations: int  # iterations done
    lines: tuple[Line, ...]  # ranked: still simulated first, each group by win share, then spread, then equity
    done: bool
    reason: str | None  # when done: one of REASONS
    seconds: float
    workers: int

    @property
    def leader(self) -> Line:
        return self.lines[0]

    def to_dict(self) -> dict:
        return {"iterations": self.iterations, "done": self.done, "reason": self.reason,
                "seconds": round(self.seconds, 3), "workers": self.workers,
                "leader": self.leader.text if self.lines else None, "candidates": [x.to_dict() for x in self.lines]}


# ----------------------------------------------------------------------------- one iteration


@dataclass
class _Context:
    setup: Setup
    lex: Lexicon
    values: LeaveValues
    candidates: list[Candidate]
    plies: int
    seed: int | str
    win: WinFn | None
    rack_text: str = ""
    strict: bool = False  # roll out with strict_rollout (whole-game turns) instead of _rollout


def _context(s: Setup, lex: Lexicon, values: LeaveValues, cands: list[Candidate], plies: int, seed: int | str,
             win: WinFn | None) -> _Context:
    return _Context(s, lex, values, cands, plies, seed, win, tiles_text(s.position.rack))


def _text(tiles: Sequence[int]) -> str:
    counts = [0] * 27
    for t in tiles:
        counts[t] += 1
    return tiles_text(counts)


def _take(bag: list[int], k: int) -> str:
    drawn = bag[:k]
    del bag[:k]
    return _text(drawn)


def _turn(rules: GameRules, state: State, c: Candidate, bag: list[int], rng: random.Random) -> Turn:
    """The record of candidate ``c`` by the player to move, drawing from the top of ``bag``."""
    p = state.to_move
    rack = state.racks[p]
    if c.kind == PLAY:
        assert c.move is not None
        need = rules.ruleset.rack_size - (len(rack) - len(tiles_of_move(c.move)))
        return Turn(p, PLAY, rack=rack, move=c.move, score=c.score, drawn=_take(bag, need))
    if c.kind == EXCHANGE:
        drawn = _take(bag, len(c.thrown))
        for ch in c.thrown:  # the thrown tiles go back at random places in the bag
            bag.insert(rng.randrange(len(bag) + 1), 0 if ch == "?" else ord(ch) - 64)
        return Turn(p, EXCHANGE, rack=rack, tiles=c.thrown, count=len(c.thrown), drawn=drawn)
    return Turn(p, PASS, rack=rack)


def _best(ctx: _Context, state: State, deadline: float | None) -> tuple[Candidate | None, int]:
    """The equity player's turn (None: it passes) and the value of the leave it keeps."""
    rules = ctx.setup.rules
    p = state.to_move
    unseen = state.unseen(p)
    bag = state.bag_size
    found, _ = rank_by_equity(state.position(rules, p), ctx.lex, ctx.values, rules, bag, unseen, limit=1,
                              exchanges=can_exchange(rules, state), passes=False, count=False, deadline=deadline)
    if found:
        return found[0], found[0].leave_milli
    table = leave_table(ctx.values, rules, tile_counts(state.racks[p]), bag, unseen)
    return None, table.subracks[-1][1]  # a pass keeps the whole rack


# What a rollout's turn did, for the differential tests: (player, kind, move, tiles thrown,
# score, scores after, racks after, tiles in the bag after, game over)
Trace = list[tuple]


def strict_rollout(ctx: _Context, c: Candidate, opp: str, order: list[int], rng: random.Random,
                   deadline: float | None, trace: Trace | None = None) -> tuple[float, float | None]:
    """A rollout as whole-game turns applied strictly (engine.game.apply: every rule checked,
    every score recomputed): the reference :func:`_rollout` is tested against (``trace``
    collects each turn)."""
    s = ctx.setup
    rules = s.rules
    bag = list(order)
    counts = [0] * 27
    for t in bag:
        counts[t] += 1
    state = State(cells=tuple(s.position.cells), heights=None, racks=(ctx.rack_text, opp), bag=tuple(counts),
                  scores=s.scores, to_move=0, scoreless=s.scoreless, final_left=s.final_turns_left)
    kept = [c.leave_milli, 0]  # the value of the leave each player's last turn kept

    def play(turn: Turn) -> State:
        after = apply(rules, state, turn)
        if trace is not None:
            trace.append((turn.player, turn.kind, turn.move, turn.tiles, turn.score, after.scores, after.racks,
                          after.bag_size, after.over))
        return after

    state = play(_turn(rules, state, c, bag, rng))
    for _ in range(ctx.plies):
        if state.over:
            break
        p = state.to_move
        if not state.racks[p]:  # an empty rack in a final turn: nothing to play
            turn = Turn(p, PASS, rack="")
        else:
            best, kept[p] = _best(ctx, state, deadline)
            turn = _turn(rules, state, best, bag, rng) if best is not None else Turn(p, PASS, rack=state.racks[p])
        state = play(turn)
    p = state.to_move
    return _outcome(ctx, rules, state.scores, state.racks if state.over else None, kept, p,
                    state.bag_size + len(state.racks[1 - p]))


def _outcome(ctx: _Context, rules: GameRules, scores: Sequence[int], final_racks: Sequence[str] | None,
             kept: Sequence[int], to_move: int, unseen: int) -> tuple[float, float | None]:
    """A rollout's end, both rollouts alike: a game over (``final_racks`` given) is worth its
    final spread, racks adjusted, and a win, draw or loss; otherwise the spread plus the
    leaves kept (thousandths, so equal equities give equal values) and the win chance of
    that spread with ``unseen`` tiles unseen by the side to move."""
    spread = scores[0] - scores[1]
    if final_racks is not None:
        adj = end_adjustments(rules, final_racks)
        spread += adj[0] - adj[1]
        return float(spread), 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
    value = (1000 * spread + kept[0] - kept[1]) / 1000
    if ctx.win is None:
        return value, None
    return value, ctx.win(value, unseen) if to_move == 0 else 1.0 - ctx.win(-value, unseen)


class _Table:
    """A rollout's game as flat counts and lists: what engine.game.State holds, changed in place."""

    __slots__ = ("cells", "racks", "bag", "scores", "to_move", "scoreless", "final_left", "over")

    def __init__(self, s: Setup, rack: list[int], opp: list[int], bag: list[int]) -> None:
        self.cells = list(s.position.cells)
        self.racks = [rack, opp]
        self.bag = bag  # tile ids in drawing order
        self.scores = list(s.scores)
        self.to_move = 0
        self.scoreless = s.scoreless
        self.final_left = s.final_turns_left
        self.over = False


def _draw(t: _Table, rack: list[int], k: int) -> None:
    for tile in t.bag[:k]:
        rack[tile] += 1
    del t.bag[:k]


def _step(rules: GameRules, t: _Table, kind: str, placed: Sequence[tuple[int, int]], score: int, thrown: str,
          rng: random.Random) -> None:
    """The turn ``kind`` of the player to move, as engine.game.apply plays it (strictly checked
    there; here the turn comes from the search, so only its effects are applied): the tiles
    placed and the refill from the top of the bag; an exchange's draw, then its tiles back at
    random places; the scoreless count, the final turns, going out."""
    p = t.to_move
    rack = t.racks[p]
    t.scores[p] += score
    t.scoreless = t.scoreless + 1 if kind in rules.scoreless_kinds else 0
    if kind == PLAY:
        for sq, code in placed:
            t.cells[sq] = code
            rack[0 if code & BLANK else code & LETTER_MASK] -= 1
        _draw(t, rack, rules.ruleset.rack_size - sum(rack))
    elif kind == EXCHANGE:
        for ch in thrown:
            rack[0 if ch == "?" else ord(ch) - 64] -= 1
        _draw(t, rack, len(thrown))
        for ch in thrown:  # the thrown tiles go back at random places in the bag (as _turn)
            t.bag.insert(rng.randrange(len(t.bag) + 1), 0 if ch == "?" else ord(ch) - 64)
    if t.final_left is not None:
        t.final_left -= 1
        t.over = t.final_left <= 0
    elif rules.final_turns_after_bag_empty and not t.bag:
        t.final_left = rules.players * rules.final_turns_after_bag_empty
    if rules.end_on_going_out and kind == PLAY and not t.bag and not any(rack):
        t.over = True
    if t.scoreless >= rules.scoreless_turns_end:
        t.over = True
    t.to_move = 1 - p


def _rollout(ctx: _Context, c: Candidate, opp: str, order: list[int], rng: random.Random,
             deadline: float | None, trace: Trace | None = None) -> tuple[float, float | None]:
    """One rollout of candidate ``c`` (see the module docstring): the plies are the equity
    player's single best turns (``engine.search.best_turn``: no leave table built in Python,
    no Move scored again), applied to flat counts; the same turns and figures as
    :func:`strict_rollout`, which applies them as whole-game turns (the differential tests)."""
    s = ctx.setup
    rules = s.rules
    rs = rules.ruleset
    t = _Table(s, tile_counts(ctx.rack_text), tile_counts(opp), list(order))
    kept = [c.leave_milli, 0]  # the value of the leave each player's last turn kept

    def play(kind: str, move: Move | None, thrown: str, score: int) -> None:
        p = t.to_move
        _step(rules, t, kind, placements(rs, move) if move is not None else (), score, thrown, rng)
        if trace is not None:
            trace.append((p, kind, move, thrown, score, tuple(t.scores), tuple(tiles_text(r) for r in t.racks),
                          len(t.bag), t.over))

    play(c.kind, c.move, c.thrown, c.score)
    for _ in range(ctx.plies):
        if t.over:
            break
        p = t.to_move
        rack = t.racks[p]
        if not any(rack):  # an empty rack in a final turn: nothing to play
            play(PASS, None, "", 0)
            continue
        # with the bag empty the unseen tiles are the other rack (what going out wins)
        q = turn_query(ctx.values, rules, len(t.bag), t.racks[1 - p], True, deadline)
        best = search.best_turn(Position(rs, t.cells, rack), ctx.lex, q)
        kept[p] = best.leave_milli
        play(best.kind, best.move, best.thrown, best.score)
    p = t.to_move
    return _outcome(ctx, rules, t.scores, [tiles_text(r) for r in t.racks] if t.over else None, kept, p,
                    len(t.bag) + sum(t.racks[1 - p]))


def deal(s: Setup, seed: int | str, i: int) -> tuple[str, list[int]]:
    """Iteration ``i``'s opponent rack (the known tiles and random unseen ones) and the bag in
    drawing order (tile ids: 0 a blank, 1-26 A-Z)."""
    rng = random.Random(f"sim:{seed}:{i}")
    pool = [t for t, n in enumerate(s.unseen) for _ in range(n - s.opponent[t])]
    rng.shuffle(pool)
    hidden = s.opponent_rack_size - sum(s.opponent)
    opp = tiles_text([k + n for k, n in zip(s.opponent, tile_counts(_text(pool[:hidden])), strict=True)])
    return opp, pool[hidden:]


def _iteration(ctx: _Context, i: int, active: Sequence[int], deadline: float | None) -> list[tuple[float, float | None]]:
    """Iteration ``i``'s samples, one per active candidate, in the order given."""
    opp, order = deal(ctx.setup, ctx.seed, i)
    out = []
    for c in active:
        rollout_rng = random.Random(f"sim:{ctx.seed}:{i}:rollout")  # the same for every candidate
        rollout = strict_rollout if ctx.strict else _rollout
        out.append(rollout(ctx, ctx.candidates[c], opp, order, rollout_rng, deadline))
    return out


def _slice(ctx: _Context, lo: int, hi: int, active: Sequence[int], deadline: float | None,
           cancel: Event | None = None) -> list[list[tuple[float, float | None]]]:
    """Iterations ``lo .. hi - 1``, stopping early (with fewer) at the deadline or when cancelled."""
    out = []
    for i in range(lo, hi):
        if (deadline is not None and time.monotonic() >= deadline) or (cancel is not None and cancel.is_set()):
            break
        try:
            out.append(_iteration(ctx, i, active, deadline))
        except TimeBudgetExceeded:
            break
    return out


# Worker processes are forked with the simulation's context already here (the lexicon is not
# pickled); a job names its context by token.
_CONTEXTS: dict[int, _Context] = {}
_TOKENS = count(1)


def _job(token: int, lo: int, hi: int, active: tuple[int, ...],
         deadline: float | None) -> list[list[tuple[float, float | None]]]:
    return _slice(_CONTEXTS[token], lo, hi, active, deadline)


def default_workers() -> int:
    return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in get_all_start_methods()


# ----------------------------------------------------------------------------- the run


def win_model(game: str) -> WinFn:
    """The game's shipped win probability (``engine.strategy.winprob``); RulesetError for a
    game without one (Upwords, which has no simulation either)."""
    return winprob.shipped(game).probability


def win_source(game: str) -> str:
    """Where the win share comes from, for answers."""
    prov = winprob.shipped(game).provenance or {}
    games = prov.get("games")
    return f"engine.strategy.winprob: the {game} win-probability table" + (
        f", learned from {games} self-play games" if games else "")


def _lines(cands: list[Candidate], figures: dict[int, Figures], active: list[int]) -> tuple[Line, ...]:
    def line(c: int) -> Line:
        f = figures[c]
        return Line(c + 1, cands[c], f.n, f.value.mean, f.value.se, None if f.win is None else f.win.mean,
                    None if f.win is None else f.win.se, c in active)

    def key(c: int) -> tuple:
        return (c not in active, *(-k for k in figures[c].key()), c)

    order = sorted(figures, key=key)
    if active:
        lead = leader_of(figures, active)
        order.remove(lead)
        order.insert(0, lead)
    return tuple(line(c) for c in order)


def simulation(
    s: Setup, lex: Lexicon, values: LeaveValues, params: Params = Params(),
    candidates: list[Candidate] | None = None, win: WinFn | None | str = "shipped", cancel: Event | None = None,
    strict: bool = False,
) -> Iterator[Snapshot]:
    """Simulate; yields a :class:`Snapshot` before the first iteration, at each checkpoint,
    and a last one with ``done`` (see the module docstring). ``candidates`` replaces the top
    ``params.candidates`` by equity (tests give the same play twice); ``win`` is a win
    probability (``WinFn``), None for none, or ``"shipped"``: the game's own. Setting
    ``cancel`` (from another thread) ends the run at the next iteration (``reason ==
    "stopped"``; worker processes finish the slice in hand). ``strict`` rolls out with whole-game
    turns applied by engine.game.apply (:func:`strict_rollout`: the reference, the same
    figures, slower)."""
    t0 = time.monotonic()
    deadline = t0 + params.seconds if params.seconds is not None else None
    if params.plies < 0 or params.iterations < 1 or params.checkpoint < 1:
        raise ValueError("plies >= 0, iterations >= 1, checkpoint >= 1")
    cands = list(candidates) if candidates is not None else candidates_for(s, lex, values, params.candidates, deadline)
    win_fn = win_model(s.rules.name) if win == "shipped" else win
    assert not isinstance(win_fn, str)
    ctx = _context(s, lex, values, cands, params.plies, params.seed, win_fn)
    ctx.strict = strict
    workers = params.workers or default_workers()
    if not can_fork():
        workers = 1
    figures = {c: Figures() for c in range(len(cands))}
    active = list(range(len(cands)))
    done = 0
    exact = s.bag_size == 0 or params.plies == 0  # every iteration would give the same samples
    reason = None if len(cands) > 1 else "one_left"

    def snapshot() -> Snapshot:
        return Snapshot(done, _lines(cands, figures, active), reason is not None, reason, time.monotonic() - t0,
                        workers)

    yield snapshot()
    if reason is not None:
        return
    token = next(_TOKENS)
    executor: ProcessPoolExecutor | None = None
    if workers > 1:
        _CONTEXTS[token] = ctx
        executor = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"))
    try:
        while reason is None:
            hi = min(params.iterations, done + (1 if exact else params.checkpoint))
            batch = _batch(ctx, executor, token, workers, done, hi, tuple(active), deadline, cancel)
            for samples in batch:
                for c, (value, w) in zip(active, samples, strict=True):
                    figures[c].add(value, w)
            done += len(batch)
            if cancel is not None and cancel.is_set():
                reason = "stopped"
            elif len(batch) < hi - (done - len(batch)):
                reason = "time"
            elif exact:
                reason = "exact"
            else:
                dropped = to_prune(figures, active, params.z, params.min_samples)
                active = [c for c in active if c not in dropped]
                if len(active) == 1:
                    reason = "one_left"
                elif done >= params.iterations:
                    reason = "iterations"
                elif deadline is not None and time.monotonic() >= deadline:
                    reason = "time"
            yield snapshot()
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        _CONTEXTS.pop(token, None)


def _batch(ctx: _Context, executor: ProcessPoolExecutor | None, token: int, workers: int, lo: int, hi: int,
           active: tuple[int, ...], deadline: float | None,
           cancel: Event | None) -> list[list[tuple[float, float | None]]]:
    """Iterations ``lo .. hi - 1`` in order (fewer when the deadline cut them: the ones before
    the first missing)."""
    if executor is None:
        return _slice(ctx, lo, hi, active, deadline, cancel)
    size = math.ceil((hi - lo) / workers)
    jobs: list[tuple[int, Future]] = []
    for a in range(lo, hi, size):
        b = min(hi, a + size)
        jobs.append((b - a, executor.submit(_job, token, a, b, active, deadline)))
    out: list[list[tuple[float, float | None]]] = []
    complete = True
    for want, fut in jobs:
        got = fut.result()
        if complete:
            out += got
            complete = len(got) == want
    return out


def simulate(
    s: Setup, lex: Lexicon, values: LeaveValues, params: Params = Params(),
    candidates: list[Candidate] | None = None, win: WinFn | None | str = "shipped", cancel: Event | None = None,
    strict: bool = False,
) -> Snapshot:
    """Run a simulation to its end; the last :class:`Snapshot`."""
    snaps = simulation(s, lex, values, params, candidates, win, cancel, strict)
    last = next(snaps)
    for snap in snaps:
        last = snap
    return last


__all__ = ["Line", "deal", "Params", "Setup", "Snapshot", "candidates_for", "describe", "setup", "simulate",
           "simulation", "win_model", "win_source"]
