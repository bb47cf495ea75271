"""Self-play: complete games between engine players, with a seeded bag.

:func:`play_game` plays one game and returns it as a :class:`~engine.game.Game` (a list of
turns that replays strictly, so every rule is checked on the way). The bag is drawn with
``random.Random(seed)``, so a seed gives the same game every time, on any machine.
:func:`play_games` plays a series: game ``k`` uses seed ``seed + k`` and seats the players so
that the first mover alternates (game 0: the first player listed moves first), and returns a
:class:`Summary`.

Players come from ``engine.strategy.players``; a player with an empty rack (possible during
Crossplay's final turns) passes without being asked.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import IllegalTurnError
from ..game import (
    EXCHANGE,
    MAX_TURNS,
    PASS,
    PLAY,
    Game,
    GameRules,
    State,
    Turn,
    apply,
    can_exchange,
    draw,
    end_turns,
    start,
    tile_counts,
    tiles_of_move,
)
from ..lexicon import Lexicon
from .parallel import run_ordered
from .players import Action, Player, PlayerView, make_player


def view_for(rules: GameRules, state: State, lex: Lexicon) -> PlayerView:
    p = state.to_move
    return PlayerView(
        rules=rules,
        position=state.position(rules, p),
        lexicon=lex,
        me=p,
        scores=state.scores,
        unseen=tuple(state.unseen(p)),
        bag_size=state.bag_size,
        can_exchange=can_exchange(rules, state),
        final_turns_left=state.final_left,
    )


def turn_for(rules: GameRules, state: State, action: Action, rng: random.Random) -> Turn:
    """The record of ``action`` by the player to move, with the tiles it draws."""
    p = state.to_move
    rack = state.racks[p]
    if action.kind == PLAY:
        assert action.move is not None
        used = len(tiles_of_move(action.move))
        drawn = draw(state.bag, rules.ruleset.rack_size - (len(rack) - used), rng)
        return Turn(p, PLAY, rack=rack, move=action.move, score=action.move.score, drawn=drawn)
    if action.kind == EXCHANGE:
        n = sum(tile_counts(action.tiles))
        return Turn(p, EXCHANGE, rack=rack, tiles=action.tiles, count=n, drawn=draw(state.bag, n, rng))
    if action.kind == PASS:
        return Turn(p, PASS, rack=rack)
    raise IllegalTurnError(f"unknown action {action.kind!r}")


def play_game(
    rules: GameRules,
    lex: Lexicon,
    players: Sequence[Player],
    seed: int,
    first: int = 0,
    names: Sequence[str] | None = None,
    until_bag: int = 0,
) -> Game:
    """One complete game between ``players`` (seat order), seat ``first`` moving first; with
    ``until_bag``, only its turns while the bag holds at least that many tiles (leave training
    needs no more: the game returned is then unfinished)."""
    rng = random.Random(seed)
    bag = list(rules.ruleset.counts)
    racks = []
    for _ in range(rules.players):
        rack = draw(bag, rules.ruleset.rack_size, rng)
        bag = [a - b for a, b in zip(bag, tile_counts(rack), strict=True)]
        racks.append(rack)
    state = start(rules, racks, first)
    turns: list[Turn] = []
    while not state.over and state.bag_size >= until_bag:
        if len(turns) >= MAX_TURNS:
            raise IllegalTurnError(f"the game did not end within {MAX_TURNS} turns (seed {seed})")
        if not state.racks[state.to_move]:
            action = Action(PASS)
        else:
            action = players[state.to_move].choose(view_for(rules, state, lex))
        turn = turn_for(rules, state, action, rng)
        state = apply(rules, state, turn)
        turns.append(turn)
    for turn in end_turns(rules, state) if state.over else ():
        state = apply(rules, state, turn)
        turns.append(turn)
    return Game(
        rules=rules,
        turns=tuple(turns),
        names=tuple(names or (f"{pl.name}{k + 1}" for k, pl in enumerate(players))),
        initial_racks=tuple(racks),
        first=first,
        lexicon=lex.name,
        seed=seed,
    )


@dataclass(frozen=True)
class Summary:
    game: str
    games: int
    seed: int
    players: tuple[str, ...]
    wins: tuple[int, ...]  # per player as listed
    draws: int
    mean_scores: tuple[float, ...]
    mean_spread: float  # first listed player minus second, per game
    plays_per_game: float  # tile plays (not exchanges or passes)
    turns_per_game: float
    moves_per_second: float  # turns chosen per second of wall time
    games_per_minute: float
    seconds: float

    def to_dict(self) -> dict:
        return {
            "game": self.game, "games": self.games, "seed": self.seed, "players": list(self.players),
            "wins": list(self.wins), "draws": self.draws, "mean_scores": list(self.mean_scores),
            "mean_spread": self.mean_spread, "plays_per_game": self.plays_per_game,
            "turns_per_game": self.turns_per_game, "moves_per_second": self.moves_per_second,
            "games_per_minute": self.games_per_minute, "seconds": self.seconds,
        }


@dataclass(frozen=True)
class SeriesGame:
    """Game ``k`` of a :func:`play_games` series (a picklable job for
    :func:`engine.strategy.parallel.run_ordered`): the game and the seats of the listed players."""

    rules: GameRules
    lex: Lexicon
    player_names: tuple[str, ...]
    seed: int
    mirrored: bool

    def __call__(self, k: int) -> tuple[Game, list[int]]:
        m = len(self.player_names)
        seed = self.seed
        game_seed, shift, first = (seed + k // m, k % m, 0) if self.mirrored else (seed + k, 0, k % m)
        listed = [(s - shift) % m for s in range(m)]  # seat -> listed player
        players = [make_player(self.player_names[i], f"{game_seed}:{i}") for i in listed]
        names = [f"{self.player_names[i]}{i + 1}" for i in listed]
        return play_game(self.rules, self.lex, players, game_seed, first=first, names=names), listed


def play_games(
    rules: GameRules, lex: Lexicon, player_names: Sequence[str], games: int, seed: int,
    on_game: object = None, mirrored: bool = False, workers: int | None = 1, ray: str | None = None,
) -> Summary:
    """``games`` games between the named players; ``on_game(k, game)`` is called after each
    (the CLI writes the GCG files there). Wins, scores and spread are per player as listed.

    By default listed player ``i`` sits in seat ``i``, game ``k`` uses seed ``seed + k`` and is
    started by seat ``k % players``. ``mirrored`` plays every seed once per seating instead
    (for A/B comparisons): game ``k`` uses seed ``seed + k // players``, seat 0 always moves
    first, and the players are rotated ``k % players`` seats, so with two players each seed is
    a pair of games with the seats swapped: the same bag, each player in each seat.

    The games run on ``workers`` processes (``None``: every core; or on the Ray cluster at
    ``ray``) and are combined in game order, so the summary (timing aside) and the games are
    the same for any number of workers."""
    if len(player_names) != rules.players:
        raise ValueError(f"{rules.name} is played by {rules.players} players, {len(player_names)} given")
    m = len(player_names)
    wins = [0] * m
    draws = 0
    totals = [0] * m
    spread = 0
    plays = turns_played = 0
    t0 = time.perf_counter()
    job = SeriesGame(rules, lex, tuple(player_names), seed, mirrored)
    for k, (game, listed) in enumerate(run_ordered(job, 0, games, workers, ray)):
        by_seat = game.final_scores()
        scores = [by_seat[listed.index(i)] for i in range(m)]
        best = max(scores)
        if scores.count(best) > 1:
            draws += 1
        else:
            wins[scores.index(best)] += 1
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        spread += scores[0] - scores[1]
        plays += sum(1 for t in game.turns if t.kind == PLAY)
        turns_played += sum(1 for t in game.turns if t.uses_turn)
        if callable(on_game):
            on_game(k, game)
    seconds = time.perf_counter() - t0
    g = max(games, 1)
    return Summary(
        game=rules.name, games=games, seed=seed, players=tuple(player_names), wins=tuple(wins), draws=draws,
        mean_scores=tuple(round(t / g, 2) for t in totals), mean_spread=round(spread / g, 2),
        plays_per_game=round(plays / g, 2), turns_per_game=round(turns_played / g, 2),
        moves_per_second=round(turns_played / seconds, 1) if seconds else 0.0,
        games_per_minute=round(60 * games / seconds, 1) if seconds else 0.0, seconds=round(seconds, 3),
    )
