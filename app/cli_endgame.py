"""``wordsolver endgame``: solve an endgame, a progress line per depth, then the principal
variation (what ``POST /v1/games/{game}/endgame`` answers; ``--json`` prints that answer).

    wordsolver endgame --game scrabble --board board.txt --rack AEGIIO? [--other-rack DEIR]
        [--scores 450,434] [--budget 5] [--first-moves 5] [--first '8H QI'] [--json]
"""

from __future__ import annotations

import argparse
import json

from engine import get_ruleset
from engine.strategy.endgame import Progress

from .cli_text import read_rows, scores
from .schemas_endgame import EndgameIn, PreEndgameIn
from .service_endgame import DEFAULT_BUDGET, preendgame_solved, solved
from .settings import Settings
from .store import make_store


def cmd_endgame(args: argparse.Namespace, settings: Settings) -> int:
    rules = get_ruleset(args.game)
    fields = {"board": read_rows(args.board) if args.board else None, "rack": args.rack,
              "other_rack": args.other_rack, "heights": read_rows(args.heights) if args.heights else None}
    if args.cgp:
        fields = {"cgp": args.cgp}
    req = EndgameIn.model_validate({
        **{k: v for k, v in fields.items() if v is not None}, "scores": args.scores, "scoreless": args.scoreless,
        "final_turns_left": args.final_turns_left, "budget": args.budget, "max_depth": args.max_depth,
        "first_moves": args.first_moves, "first": args.first, "lexicon": args.lexicon,
    })
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    # the command line is its own user: the budget it asks for is not capped by the service's setting
    settings = settings.model_copy(update={"endgame_timeout": max(settings.endgame_timeout, args.budget or 0)})

    def progress(p: Progress) -> None:
        if not args.json:
            print(f"depth {p.depth:2}: value {p.value:+d}  best {p.best:<20} {p.nodes:>9} nodes {p.seconds:7.2f} s"
                  + ("  proved" if p.proved else ""), flush=True)

    out = solved(rules, req, lex, settings, progress)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    status = "proved" if out["proved"] else "not proved (the budget or the depth stopped the search)"
    print(f"{rules.name} endgame: {out['racks'][0]} to move against {out['racks'][1]}"
          + (" (inferred from the unseen tiles)" if out["inferred_other_rack"] else ""))
    print(f"value {out['value']:+d} for the side to move, {status}; depth {out['depth']}, "
          f"{out['nodes']} nodes, {out['seconds']:.2f} s")
    for k, step in enumerate(out["pv"], start=1):
        print(f"  {k:2}. {step['player']:<8} {step['notation']:<22} {step['score']:>4}   rack after: "
              f"{step['rack_after'] or '-'}")
    print(f"  ends: {out['end']}")
    if out["final_scores"] is not None:
        print(f"  final scores: {out['final_scores'][0]} - {out['final_scores'][1]}")
    if out["first_moves"]:
        print("first moves:")
        for f in out["first_moves"]:
            print(f"  {f['notation']:<22} {f['value']:+d}")
    return 0


def cmd_preendgame(args: argparse.Namespace, settings: Settings) -> int:
    rules = get_ruleset(args.game)
    req = PreEndgameIn.model_validate({
        "board": read_rows(args.board) if args.board else None, "rack": args.rack, "scores": args.scores,
        "budget": args.budget, "candidates": args.candidates, "limit": args.limit, "lexicon": args.lexicon,
        **({"heights": read_rows(args.heights)} if args.heights else {}),
    })
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    settings = settings.model_copy(update={"endgame_timeout": max(settings.endgame_timeout, args.budget or 0)})
    out = preendgame_solved(rules, req, lex, settings)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    draws = ", ".join(f"{ch} x{n}" for ch, n in out["draws"].items())
    print(f"{rules.name}, one tile in the bag: it may be {draws}; "
          + ("proved" if out["proved"] else "not proved (the budget stopped some endgames)") + f", {out['seconds']:.2f} s")
    for c in out["candidates"]:
        wins = "" if c["wins"] is None else f"  wins {100 * c['wins']:5.1f}%"
        print(f"  {c['notation']:<22} {c['score']:>4}  expected {c['expected']:+8.2f}{wins}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("endgame", help="solve an endgame (bag empty): the best play, proved when the budget allows")
    p.add_argument("--game", default="crossplay", help="crossplay, scrabble, wwf or upwords (default crossplay)")
    p.add_argument("--board", help="board file, one row per line ('-' reads stdin)")
    p.add_argument("--heights", help="Upwords: stack heights file, one row of digits per line")
    p.add_argument("--rack", help="the rack of the side to move ('?' a blank; required unless --cgp)")
    p.add_argument("--other-rack", help="the opponent's rack (default: the unseen tiles; the bag must be empty)")
    p.add_argument("--cgp", help="the position as one CGP line (both racks, scores, zero turns)")
    p.add_argument("--scores", type=scores, help="MINE,THEIRS: print the final scores too")
    p.add_argument("--scoreless", type=int, default=0, help="consecutive scoreless turns just played")
    p.add_argument("--final-turns-left", type=int, help="Crossplay: 2 (default) or 1 final turns left")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help=f"seconds (default {DEFAULT_BUDGET:g})")
    p.add_argument("--max-depth", type=int, default=40, help="plies to look ahead at most (default 40)")
    p.add_argument("--first-moves", type=int, default=0, help="also value this many first moves exactly")
    p.add_argument("--first", help="force the first move ('8H QI', 'H8 QI' down, 'pass')")
    p.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    p.add_argument("--json", action="store_true", help="print the API's JSON (errors too, as the API's error envelope)")
    p.set_defaults(run=cmd_endgame)

    q = sub.add_parser("preendgame", help="one tile in the bag: every first move against every possible draw")
    q.add_argument("--game", default="crossplay", help="crossplay, scrabble, wwf or upwords (default crossplay)")
    q.add_argument("--board", required=True, help="board file, one row per line ('-' reads stdin)")
    q.add_argument("--heights", help="Upwords: stack heights file, one row of digits per line")
    q.add_argument("--rack", required=True, help="the rack of the side to move ('?' a blank)")
    q.add_argument("--scores", type=scores, help="MINE,THEIRS: rank by the share of draws won")
    q.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help=f"seconds (default {DEFAULT_BUDGET:g})")
    q.add_argument("--candidates", type=int, default=20, help="first plays weighed, the best by score (default 20)")
    q.add_argument("--limit", type=int, default=10, help="candidates printed (default 10)")
    q.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    q.add_argument("--json", action="store_true", help="print the API's JSON")
    q.set_defaults(run=cmd_preendgame)
