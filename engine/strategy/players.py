"""Engine players: given what a player can see, choose a turn.

A player is anything with a ``name`` and a ``choose(view) -> Action`` method
(:class:`Player`). The :class:`PlayerView` holds what a player at the table knows: the board,
their own rack, the unseen tiles (bag and the other racks together), the bag size, the scores
and the game's rules, so later players (leave-aware, simulating) need nothing more.

- ``greedy``: the highest-scoring play (the engine's ranking, so ties break the same way);
  with no play, an exchange of the whole rack (as many tiles as the game allows, highest
  value first) when the bag allows one, else a pass.
- ``random``: a play chosen at random among the best ten, an exchange or a pass now and then
  (seeded): not a strong player, but it reaches exchanges, passes and odd endings that a
  greedy game rarely shows, which is what the property tests want.

- ``equity``: the best turn by equity (score plus leave value, ``engine.strategy.equity``), exchanges
  included, with the game's shipped leave values (``engine.strategy.leaves``).
- ``sim``: the leader of a Monte Carlo simulation (``engine.strategy.simulate``) of the best
  turns by equity, with a fixed budget per move: by default K = 8 candidates, 2 plies, up to
  300 iterations, one process, seeded per move. The budget is set in the name:
  ``sim:k=8:plies=2:iterations=300`` (any of the three, and ``seconds=`` for a time budget,
  which makes the games depend on the machine's speed).

A new player (leave-aware, simulating) is a class with ``choose`` plus an entry in
:data:`PLAYERS` (name -> factory taking a seed), after which ``wordsolver selfplay --players
NAME,greedy`` and :func:`engine.strategy.selfplay.play_games` can seat it. The game enforces the rules:
an exchange the view does not allow, or a play the rack cannot make, is refused with
``IllegalTurnError`` when the turn is applied.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..game import EXCHANGE, PASS, PLAY, GameRules, tile_counts, tiles_text
from ..lexicon import Lexicon
from ..plays import Move, Position, TopTurn
from ..solver import find_moves
from .equity import best_turn
from .leaves import LeaveValues, shipped


@dataclass(frozen=True)
class Action:
    kind: str  # "play", "exchange" or "pass"
    move: Move | None = None
    tiles: str = ""  # an exchange's tiles, canonical order


@dataclass(frozen=True)
class PlayerView:
    rules: GameRules
    position: Position  # the board and this player's rack
    lexicon: Lexicon
    me: int  # this player's seat
    scores: tuple[int, ...]
    unseen: tuple[int, ...]  # counts of tiles in the bag and on the other racks
    bag_size: int
    can_exchange: bool
    final_turns_left: int | None  # set once the bag is empty in final-turn games

    @property
    def rack(self) -> str:
        return tiles_text(self.position.rack)


class Player(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action: ...


def exchange_tiles(view: PlayerView) -> str:
    """The tiles a simple player throws back: up to the game's limit, highest value first
    (blanks are kept)."""
    values = view.rules.ruleset.values
    rack = [ch for ch in view.rack if ch != "?"]
    rack.sort(key=lambda ch: (-values[ord(ch) - 64], ch))
    return "".join(sorted(rack[: view.rules.exchange_max_tiles]))


class GreedyPlayer:
    name = "greedy"

    def choose(self, view: PlayerView) -> Action:
        found = find_moves(view.position, view.lexicon, limit=1, count=False)
        if found.moves:
            return Action(PLAY, found.moves[0])
        if view.can_exchange and exchange_tiles(view):
            return Action(EXCHANGE, tiles=exchange_tiles(view))
        return Action(PASS)


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(f"random-player:{seed}")

    def choose(self, view: PlayerView) -> Action:
        roll = self.rng.random()
        if roll < 0.05:
            return Action(PASS)
        if roll < 0.15 and view.can_exchange:
            rack = view.rack
            k = self.rng.randint(1, min(len(rack), view.rules.exchange_max_tiles))
            picked = self.rng.sample(range(len(rack)), k)
            return Action(EXCHANGE, tiles=tiles_text(tile_counts("".join(rack[i] for i in picked))))
        found = find_moves(view.position, view.lexicon, limit=10, count=False)
        if found.moves:
            return Action(PLAY, self.rng.choice(found.moves))
        return Action(PASS)


class EquityPlayer:
    """The best turn by equity (score plus the value of the tiles kept, engine.strategy.equity), with
    exchanges weighed against plays whenever the bag allows one; otherwise the same search as
    ``greedy``. Uses the game's shipped leave values unless given others (training)."""

    name = "equity"

    def __init__(self, values: LeaveValues | None = None) -> None:
        self.values = values

    def choose(self, view: PlayerView) -> Action:
        values = self.values if self.values is not None else shipped(view.rules.name)
        # the single best turn by equity (the same turn as rank_by_equity(limit=1), ties alike),
        # its sub-rack values made by the search itself: in C when the core is built
        best = best_turn(view.position, view.lexicon, values, view.rules, view.bag_size, view.unseen,
                         view.can_exchange)
        return action_of(best)


def action_of(best: TopTurn) -> Action:
    """The action that makes the turn ``best`` (a play, an exchange or the pass)."""
    if best.kind == PLAY:
        return Action(PLAY, best.move)
    if best.kind == EXCHANGE:
        return Action(EXCHANGE, tiles=best.thrown)
    return Action(PASS)


class SimPlayer:
    """The leader of a simulation of the best ``candidates`` turns by equity (see the module
    docstring), seeded by the player's seed and the position (board, rack, scores, bag), so
    its choice is a function of what it sees: a game replays, however games are spread over
    processes."""

    name = "sim"

    def __init__(self, seed: int | str = 0, candidates: int = 8, plies: int = 2, iterations: int = 300,
                 seconds: float | None = None, values: LeaveValues | None = None, workers: int = 1) -> None:
        self.seed = seed
        self.candidates, self.plies, self.iterations, self.seconds = candidates, plies, iterations, seconds
        self.values = values
        self.workers = workers

    def choose(self, view: PlayerView) -> Action:
        from .simulate import Params, setup, simulate  # simulate imports this module's neighbours only

        values = self.values if self.values is not None else shipped(view.rules.name)
        me = view.me
        s = setup(view.rules, view.position, (view.scores[me], view.scores[1 - me]), view.bag_size,
                  final_turns_left=view.final_turns_left)
        params = Params(candidates=self.candidates, plies=self.plies, iterations=self.iterations, seconds=self.seconds,
                        seed=f"{self.seed}:{zlib.crc32(bytes(view.position.cells))}:{view.rack}:{view.scores}:{view.bag_size}",
                        workers=self.workers)
        snap = simulate(s, view.lexicon, values, params)
        if not snap.lines:
            return Action(PASS)
        best = snap.leader.candidate
        if best.kind == PLAY:
            return Action(PLAY, best.move)
        if best.kind == EXCHANGE:
            return Action(EXCHANGE, tiles=best.thrown)
        return Action(PASS)


SIM_OPTIONS = {"k": "candidates", "candidates": "candidates", "plies": "plies", "iterations": "iterations",
               "seconds": "seconds"}


def sim_player(spec: str, seed: int | str) -> SimPlayer:
    """``sim`` or ``sim:k=8:plies=2:iterations=300`` (``seconds=`` too)."""
    opts: dict[str, float] = {}
    for part in spec.split(":")[1:]:
        key, _, text = part.partition("=")
        if key not in SIM_OPTIONS or not text:
            raise ValueError(f"sim player option {part!r}: use k=, plies=, iterations= or seconds=")
        try:
            opts[SIM_OPTIONS[key]] = float(text) if key == "seconds" else int(text)
        except ValueError:
            raise ValueError(f"sim player option {part!r}: not a number") from None
    if opts.get("candidates", 1) < 1 or opts.get("plies", 0) < 0 or opts.get("iterations", 1) < 1:
        raise ValueError("sim player: k >= 1, plies >= 0, iterations >= 1")
    return SimPlayer(seed, **opts)  # type: ignore[arg-type]


PLAYERS: dict[str, Callable[[int | str], Player]] = {
    "greedy": lambda seed: GreedyPlayer(),
    "random": lambda seed: RandomPlayer(seed),
    "equity": lambda seed: EquityPlayer(),
    "sim": lambda seed: SimPlayer(seed),
}


def make_player(name: str, seed: int | str = 0) -> Player:
    """A player by name (``greedy``, ``random``, ``equity``, ``sim`` or ``sim:k=8:plies=2:iterations=300``);
    ValueError names the known ones."""
    if name.startswith("sim:"):
        return sim_player(name, seed)
    try:
        return PLAYERS[name](seed)
    except KeyError:
        raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYERS)}") from None
