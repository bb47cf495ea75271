"""Equity subcommands of ``wordsolver``: ``train-leaves`` and ``ab``.

    wordsolver train-leaves --game G --games N --rounds R --seed S [--checkpoint F] [--resume] [--output F]
                            [--bingo] [--method kept|subleaves] [--start FILE] [--workers N] [--ray ADDRESS]
    wordsolver ab --game G --pairs N --seed S [--player equity|sim[:k=8:plies=2:iterations=300]] [--leaves F]
                  [--against greedy|equity|FILE] [--json] [--workers N]

A leave FILE is the project's JSON or a CSV table ``leave,value`` (``.csv``/``.csv.gz``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.errors import RulesetError
from engine.game import game_rules
from engine.strategy.abtest import ab_test
from engine.strategy.leaves import LeaveValues, dumps, read_file, shipped
from engine.strategy.players import EquityPlayer, GreedyPlayer, Player, SimPlayer, make_player, sim_player
from engine.strategy.subleaves import train_subleaves
from engine.strategy.train_leaves import train

from .cli_parallel import add_parallel_options, cluster_address
from .settings import Settings
from .store import make_store

LEAVE_GAMES = ("crossplay", "scrabble", "wwf")


def read_values(path: str, game: str) -> LeaveValues:
    """A leave file: the project's JSON or a CSV table ``leave,value`` (``.csv``, ``.csv.gz``)."""
    return read_file(path, game)


def cmd_train(args: argparse.Namespace, settings: Settings) -> int:
    rules = game_rules(args.game)
    if rules.name not in LEAVE_GAMES:
        print(f"error: --game: leave values are learned for {', '.join(LEAVE_GAMES)}", file=sys.stderr)
        return 2
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    checkpoint = args.checkpoint or Path(f"{rules.name}-leaves.ckpt.json")
    output: Path = args.output or Path(f"{rules.name}-leaves.json")

    def keep_round(r: int, values: LeaveValues) -> None:
        output.with_name(f"{output.stem}.round{r}{output.suffix}").write_text(dumps(values), encoding="utf-8")

    start = read_values(args.start, rules.name) if args.start else None
    trainer = train_subleaves if args.method == "subleaves" else train
    values = trainer(rules.name, lex, args.games, args.rounds, args.seed, checkpoint, resume=args.resume,
                     log=lambda line: print(line, flush=True), on_round=keep_round, workers=args.workers,
                     ray=cluster_address(args), bingo=args.bingo, start=start, start_name=args.start or "")
    output.write_text(dumps(values), encoding="utf-8")
    print(f"leave values written to {output} (each round's as {output.stem}.roundN{output.suffix}; "
          f"checkpoint {checkpoint})")
    return 0


def cmd_ab(args: argparse.Namespace, settings: Settings) -> int:
    rules = game_rules(args.game)
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    b: Player
    try:
        values = read_values(args.leaves, rules.name) if args.leaves else shipped(rules.name)
        if args.against == "greedy":
            b, b_name = GreedyPlayer(), "greedy"
        elif args.against == "equity":
            b, b_name = EquityPlayer(shipped(rules.name)), "equity"
        else:
            b, b_name = EquityPlayer(read_values(args.against, rules.name)), f"equity({args.against})"
    except (OSError, UnicodeDecodeError, RulesetError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    a: Player = EquityPlayer(values)
    a_name = f"equity({args.leaves})" if args.leaves else "equity"
    if args.player != "equity":
        try:
            a = sim_player(args.player, args.seed) if args.player.startswith("sim") else make_player(args.player)
        except ValueError as exc:
            print(f"error: --player: {exc}", file=sys.stderr)
            return 2
        if isinstance(a, SimPlayer):
            a.values = values
        a_name = args.player + (f"({args.leaves})" if args.leaves else "")
    res = ab_test(rules, lex, a, b, args.pairs, args.seed, a_name, b_name, workers=args.workers,
                  ray=cluster_address(args))
    if args.json:
        print(json.dumps(res.to_dict()))
        return 0
    print(f"{res.game}: {res.a} vs {res.b}, {res.pairs} mirrored pairs ({2 * res.pairs} games), seed {res.seed}")
    print(f"  {res.a}: {res.wins} wins, {res.draws} draws, {res.losses} losses")
    print(f"  win rate {100 * res.win_rate:.1f}% (95% CI {100 * res.win_ci[0]:.1f}-{100 * res.win_ci[1]:.1f}%)")
    print(f"  spread {res.spread:+.1f} per game (95% CI {res.spread_ci[0]:+.1f} to {res.spread_ci[1]:+.1f})")
    print(f"  mean scores {res.mean_scores[0]} vs {res.mean_scores[1]} ({res.seconds} s)")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    tr = sub.add_parser("train-leaves", help="learn a game's leave values by self-play (reproducible, resumable)")
    tr.add_argument("--game", required=True, help="crossplay, scrabble or wwf")
    tr.add_argument("--games", type=int, default=1000, help="games per round (default 1000)")
    tr.add_argument("--rounds", type=int, default=3, help="rounds, each playing with the previous values (default 3)")
    tr.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    tr.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    tr.add_argument("--checkpoint", type=Path, help="checkpoint file (default GAME-leaves.ckpt.json)")
    tr.add_argument("--resume", action="store_true", help="continue from the checkpoint (more rounds add up)")
    tr.add_argument("--output", type=Path, help="leave file to write (default GAME-leaves.json)")
    tr.add_argument("--bingo", action="store_true",
                    help="add the bingo feature: each leave's chance of a seven-letter word on the next draw")
    tr.add_argument("--method", choices=("kept", "subleaves"), default="kept",
                    help="kept: each turn's outcome credited to the leave kept (default); subleaves: each rack's "
                         "best equity credited to every sub-rack (engine.strategy.subleaves)")
    tr.add_argument("--start", help="leave file round 1 plays with (default: zero values), e.g. the shipped file")
    add_parallel_options(tr)
    tr.set_defaults(run=cmd_train)

    ab = sub.add_parser("ab", help="A/B self-play: the equity (or sim) player against the score-only player")
    ab.add_argument("--game", default="crossplay", help="crossplay, scrabble or wwf (default crossplay)")
    ab.add_argument("--pairs", type=int, default=100, help="mirrored game pairs (default 100)")
    ab.add_argument("--seed", type=int, default=0, help="pair p uses seed+p (default 0)")
    ab.add_argument("--leaves", help="leave file for player A (default: the shipped values); "
                                     "JSON as shipped, or a CSV table leave,value (.csv or .csv.gz, values in points)")
    ab.add_argument("--player", default="equity",
                    help="player A: 'equity' (default) or 'sim' (sim:k=8:plies=2:iterations=300 sets its budget; "
                         "it uses --leaves too)")
    ab.add_argument("--against", default="greedy",
                    help="'greedy' (score only, default), 'equity' (the shipped values) or a leave file "
                         "(JSON or CSV, as --leaves): an equity player with those values")
    ab.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    ab.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_parallel_options(ab)
    ab.set_defaults(run=cmd_ab)
