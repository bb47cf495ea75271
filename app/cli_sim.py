"""``wordsolver sim``: Monte Carlo simulation of the best turns, with a progress bar and a table.

    wordsolver sim --game G [--board FILE] --rack R [--cgp CGP] [--opponent TILES] [--scores 120,95]
                   [--candidates 10] [--plies 2] [--iterations 1000] [--seconds 10] [--seed 0]
                   [--workers N] [--json]

The answer is the API's (``POST /v1/games/{game}/simulate``, app.service_sim); on a terminal
a progress line on stderr shows the iterations, the time and the current leader as the run goes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any, TextIO

from engine import get_ruleset

from .cli_text import columns, read_rows, scores
from .schemas_sim import SimulateIn
from .service_sim import prepare, snapshots
from .settings import Settings
from .store import make_store

BAR = 24


def win_text(c: dict) -> tuple[str, str]:
    if c["win"] is None:
        return "-", "-"
    return f"{100 * c['win']:.1f}", f"{100 * c['win_se'] * 1.96:.1f}"


def progress_line(snap: dict, cap: int, budget: float) -> str:
    frac = min(1.0, max(snap["iterations"] / cap, snap["seconds"] / budget if budget else 0.0))
    filled = math.floor(frac * BAR)
    lead = next((c for c in snap["candidates"] if c["play"] == snap["leader"]), None)
    win = f" {100 * lead['win']:.1f}%" if lead and lead["win"] is not None else ""
    spread = f" {lead['spread']:+.1f}" if lead and lead["spread"] is not None else ""
    return (f"[{'#' * filled}{'.' * (BAR - filled)}] {snap['iterations']} it {snap['seconds']:.1f}/{budget:g} s"
            f"  leader {snap['leader']}{win}{spread}")


def final_table(r: dict[str, Any]) -> str:
    rows = [("play", "win %", "±", "spread", "±", "iterations")]
    for c in r["candidates"]:
        w, wpm = win_text(c)
        sp, spm = ("-", "-") if c["spread"] is None else (f"{c['spread']:+.1f}", f"{1.96 * c['spread_se']:.1f}")
        rows.append((c["play"], w, wpm, sp, spm,
                     str(c["iterations"]) + ("" if c["active"] else " (dropped)")))
    why = {"one_left": "one candidate left", "iterations": "iteration cap", "time": "time budget",
           "exact": "exact (every iteration the same)", "stopped": "stopped"}.get(r["reason"], str(r["reason"]))
    foot = (f"{r['game']}, lexicon {r['lexicon']}: {r['iterations']} iterations, {r['plies']} plies, seed {r['seed']}, "
            f"{r['workers']} worker(s), {r['seconds']:.1f} s; ended by {why}. ± is the 95% interval.")
    return "\n".join(columns(rows, "lrrrrr") + ["", foot])


def cmd_sim(args: argparse.Namespace, settings: Settings, err: TextIO | None = None) -> int:
    err = err or sys.stderr
    rules = get_ruleset(args.game.lower())
    req = SimulateIn(
        board=read_rows(args.board) if args.board else None,
        **({"rack": args.rack} if args.rack is not None else {}),
        cgp=args.cgp, lexicon=args.lexicon, opponent_rack=args.opponent, scores=args.scores, bag_size=args.bag_size,
        final_turns_left=args.final_turns_left, candidates=args.candidates, plies=args.plies,
        iterations=args.iterations, seconds=args.seconds, seed=args.seed,
    )
    local = settings.model_copy(update={"sim_max_seconds": math.inf})  # the command line sets its own budget
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    prepared = prepare(rules, lex, req, local, workers=args.workers)
    show = args.progress if args.progress is not None else err.isatty()
    last: dict = {}
    for last in snapshots(prepared):
        if show:
            line = progress_line(last, req.iterations, prepared.params.seconds or 0.0)
            err.write(("\r" + line.ljust(100)) if err.isatty() else line + "\n")
            err.flush()
    if show and err.isatty():
        err.write("\n")
    print(json.dumps(last, indent=2, ensure_ascii=False) if args.json else final_table(last))
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    sp = sub.add_parser("sim", help="simulate the best turns: win share and spread by Monte Carlo")
    sp.add_argument("--game", default="crossplay", help="crossplay, scrabble or wwf (default crossplay)")
    sp.add_argument("--board", help="board file, one row per line ('-' reads stdin); default empty board")
    sp.add_argument("--rack", help="your rack, '?' for a blank (required unless --cgp)")
    sp.add_argument("--cgp", help="the position as one CGP line (its scores and opponent rack are used too)")
    sp.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    sp.add_argument("--opponent", help="tiles known to be on the opponent's rack")
    sp.add_argument("--scores", type=scores, help="yours,theirs (default 0,0)")
    sp.add_argument("--bag-size", type=int, help="tiles in the bag (default: unseen less a full opponent rack)")
    sp.add_argument("--final-turns-left", type=int, help="Crossplay, bag empty: 2 (default: you, then them) or 1")
    sp.add_argument("--candidates", "-k", type=int, default=10, help="the best K turns by equity (default 10)")
    sp.add_argument("--plies", type=int, default=2, help="turns simulated after each candidate (default 2)")
    sp.add_argument("--iterations", type=int, default=1000, help="iteration cap (default 1000)")
    sp.add_argument("--seconds", type=float, default=10.0, help="time budget (default 10)")
    sp.add_argument("--seed", type=int, default=0, help="same seed, same answer (default 0)")
    sp.add_argument("--workers", type=int, default=0, help="worker processes (default 0: one per core)")
    sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress on stderr (default: when stderr is a terminal)")
    sp.add_argument("--json", action="store_true", help="print the API's JSON answer")
    sp.set_defaults(run=cmd_sim)
