"""Whole-game subcommands of ``wordsolver``: ``selfplay`` and ``analyze``.

    wordsolver selfplay --game G --games N --seed S [--players greedy,greedy] [--json] [--out DIR] [--mirrored]
    wordsolver analyze game.gcg [--game scrabble] [--lexicon L] [--best N] [--json]

``analyze`` prints what ``POST /v1/games/{game}/analyze`` returns, as a table (or the JSON).
GCG records rarely say which game they are, so ``--game`` defaults to scrabble here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.analyze import grade, table
from engine.game import Game, game_rules
from engine.gcg import decode, read_gcg, write_gcg
from engine.strategy.players import PLAYERS, make_player
from engine.strategy.selfplay import play_games

from .cli_parallel import add_parallel_options, cluster_address
from .schemas_games import analyze_out
from .settings import Settings
from .store import make_store


def cmd_selfplay(args: argparse.Namespace, settings: Settings) -> int:
    rules = game_rules(args.game)
    names = [p.strip() for p in args.players.split(",")]
    for name in names:
        try:
            make_player(name)
        except ValueError as exc:
            print(f"error: --players: {exc}", file=sys.stderr)
            return 2
    if len(names) != rules.players:
        print(f"error: --players: {rules.name} needs {rules.players} players, got {len(names)}", file=sys.stderr)
        return 2
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    out: Path | None = args.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)

    def save(k: int, game: Game) -> None:
        if out is not None:
            stem = f"{rules.name}-{game.seed}" + (f"-{k % rules.players + 1}" if args.mirrored else "")
            path = out / f"{stem}.gcg"
            path.write_text(write_gcg(game, f"wordsolver self-play, {rules.name}, seed {game.seed}"), encoding="utf-8")

    summary = play_games(rules, lex, names, args.games, args.seed, on_game=save, mirrored=args.mirrored,
                         workers=args.workers, ray=cluster_address(args))
    if args.json:
        print(json.dumps(summary.to_dict()))
        return 0
    s = summary
    label = [f"{n}{i + 1}" for i, n in enumerate(s.players)]
    print(f"{s.games} {s.game} games, seed {s.seed}, lexicon {lex.name}")
    for i, name in enumerate(label):
        print(f"  {name}: {s.wins[i]} wins, mean score {s.mean_scores[i]}")
    print(f"  draws: {s.draws}")
    print(f"  mean spread ({label[0]} - {label[1]}): {s.mean_spread:+}")
    print(f"  plays per game: {s.plays_per_game} (turns {s.turns_per_game})")
    print(f"  {s.moves_per_second} moves per second, {s.games_per_minute} games per minute ({s.seconds} s)")
    if out is not None:
        print(f"  GCG files in {out}")
    return 0


def cmd_analyze(args: argparse.Namespace, settings: Settings) -> int:
    rules = game_rules(args.game)
    data = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    imported = read_gcg(decode(data), rules)
    result = grade(imported, lex, args.best, settings.deadline(), not args.no_plural_rule)
    print(analyze_out(result).model_dump_json(indent=2) if args.json else table(result))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("selfplay", help="play complete games between engine players")
    sp.add_argument("--game", default="crossplay", help="crossplay, scrabble, wwf or upwords (default crossplay)")
    sp.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    sp.add_argument("--seed", type=int, default=0, help="seed of the first game; game k uses seed+k (default 0)")
    sp.add_argument("--players", default="greedy,greedy", help=f"comma-separated players ({', '.join(PLAYERS)}; sim:k=8:plies=2:iterations=300 sets sim's budget)")
    sp.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    sp.add_argument("--out", type=Path, help="write each game as GCG into this folder")
    sp.add_argument("--mirrored", action="store_true",
                    help="play each seed once per seating, seats swapped (A/B comparisons); files G-SEED-N.gcg")
    sp.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    add_parallel_options(sp)
    sp.set_defaults(run=cmd_selfplay)

    an = sub.add_parser("analyze", help="grade every turn of a game record (GCG)")
    an.add_argument("file", help="GCG file ('-' reads stdin)")
    an.add_argument("--game", default="scrabble", help="the record's game (default scrabble)")
    an.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    an.add_argument("--best", type=int, default=3, help="best plays listed per turn (default 3)")
    an.add_argument("--no-plural-rule", action="store_true", help="Upwords: allow plays that only add an S")
    an.add_argument("--json", action="store_true", help="print the API's JSON instead of a table")
    an.set_defaults(run=cmd_analyze)
