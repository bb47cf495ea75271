"""The ``wordsolver`` command.

    wordsolver --version               the version, and whether the compiled core answers
    wordsolver best --game crossplay --rack QUIXOTE [--board FILE] [--limit N] [--json]
    wordsolver score [--game G] [--board FILE] [--rack R] 8F QUIXOTE   score, check, rank one play
    wordsolver compare [--board FILE] 8F QUIXOTE        one play under each 15x15 game
    wordsolver check WORD [WORD ...] [--lexicon NAME]   whether words are in a lexicon
    wordsolver verify --game G --board FILE             what looks wrong with a board
    wordsolver unseen [--game G] [--board FILE] [--rack R]  tiles not on the board or the rack
    wordsolver serve [--host H] [--port P] [--workers N]
    wordsolver compile [NAME ...]      compile lexicons into the cache (used at image build)
    wordsolver healthcheck [--url U]   exit 0 when /healthz answers (container health check)
    wordsolver selfplay --game G --games N --seed S     complete games between engine players
    wordsolver analyze GAME.gcg [--game G]              grade every turn of a game record
    wordsolver sim --game G --rack R [--board FILE]     simulate the best turns: win share and spread

Each solving command computes exactly what its endpoint returns; ``--json`` prints that
answer (and errors as the API's error envelope, on standard output). A board file holds one
row per line in the API's text convention ('.' empty, 'A'-'Z' tile, 'a'-'z' blank); blank
lines and lines starting with '#' are skipped; a UTF-8 BOM and CRLF line ends are fine.
Exit status: 0 done, 1 ``check`` found an unknown word, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.request
from typing import Any

from pydantic import ValidationError

from engine import EngineError, Lexicon, get_ruleset, search

from . import VERSION, cli_endgame, cli_equity, cli_games, cli_sim, service
from .cli_text import breakdown_lines, columns, equity_table, pair, read_rows, table, warning_lines
from .request_errors import error_body
from .schemas import CheckIn, CompareIn, MoveFilters, MovesIn, ScoreIn, UnseenIn, VerifyIn
from .settings import Settings, get_settings
from .store import make_store


def lexicon(settings: Settings, name: str | None) -> Lexicon:
    return make_store(settings).get(name or settings.default_lexicon)


def emit(args: argparse.Namespace, answer: dict[str, Any], text: str) -> None:
    print(json.dumps(answer, indent=2, ensure_ascii=False) if args.json else text)


def cmd_best(args: argparse.Namespace, settings: Settings) -> int:
    filters = None
    if args.min_length or args.contains or args.square or args.no_blanks:
        filters = MoveFilters(
            min_length=args.min_length, contains=args.contains or "", square=args.square, no_blanks=args.no_blanks
        )
    req = MovesIn(
        board=read_rows(args.board) if args.board else None,
        heights=read_rows(args.heights) if args.heights else None,
        **({"rack": args.rack} if args.rack is not None else {}),
        lexicon=args.lexicon,
        limit=args.limit,
        premiums=not args.no_premiums,
        count=args.count,
        filters=filters,
        plural_rule=not args.no_plural_rule,
        breakdowns=not args.no_breakdowns,
        cgp=args.cgp,
        rank_by=args.rank_by,
        exchanges=args.exchanges,
        bag_size=args.bag_size,
    )
    rules = get_ruleset(args.game.lower())
    result = service.best_moves_payload(rules, lexicon(settings, args.lexicon), req, settings.default_limit,
                                        settings.deadline())
    emit(args, result, equity_table(result) if args.rank_by == "equity" else table(result))
    return 0


def cmd_score(args: argparse.Namespace, settings: Settings) -> int:
    req = ScoreIn(
        board=read_rows(args.board) if args.board else None,
        heights=read_rows(args.heights) if args.heights else None,
        rack=args.rack,
        play=" ".join(args.play),
        lexicon=args.lexicon,
        premiums=not args.no_premiums,
        plural_rule=not args.no_plural_rule,
        better=args.better,
        cgp=args.cgp,
    )
    rules = get_ruleset(args.game.lower())
    r = service.score_play(rules, lexicon(settings, args.lexicon), req, settings.deadline())
    verdict = "valid" if r["valid"] else "invalid: " + ", ".join(r["invalid_words"]) + " not in " + r["lexicon"]
    lines = [f"{r['notation']}  {r['score']} points  ({verdict})"] + breakdown_lines(r["breakdown"])
    if r["best_score"] is not None:
        place = f"rank {r['rank']} of {r['total_moves']}" if r["rank"] else "not a legal play"
        lines.append(f"{place}; best score {r['best_score']}"
                     + (f"; you left {r['points_missed']} points on the table" if r["points_missed"] else ""))
        for b in r["better_plays"]:
            lines.append(f"  better: {b['notation']}  {b['score']}")
    if r.get("cgp"):
        lines.append(f"cgp after the play: {r['cgp']}")
    emit(args, r, "\n".join(lines + warning_lines(r["warnings"])))
    return 0


def cmd_compare(args: argparse.Namespace, settings: Settings) -> int:
    req = CompareIn(board=read_rows(args.board) if args.board else None, play=" ".join(args.play),
                    lexicon=args.lexicon, premiums=not args.no_premiums)
    r = service.compare(lexicon(settings, args.lexicon), req)
    rows = [("game", "score", "valid", "bonus")]
    for e in r["results"]:
        if e["error"]:
            rows.append((e["game"], "-", "-", e["error"]["message"]))
        else:
            b = e["breakdown"]["all_tiles_bonus"]
            rows.append((e["game"], str(e["score"]), "yes" if e["valid"] else "no",
                         f"{b['name']} {b['points']}" if b["points"] else "-"))
    emit(args, r, "\n".join([r["notation"], ""] + columns(rows, "lrll")))
    return 0


def cmd_check(args: argparse.Namespace, settings: Settings) -> int:
    req = CheckIn(words=args.words)
    r = service.check_words(lexicon(settings, args.lexicon), req.words).model_dump(mode="json")
    text = "\n".join(f"{x['word']}: {'valid' if x['valid'] else 'not in ' + r['lexicon']}" for x in r["results"])
    emit(args, r, text)
    return 0 if r["all_valid"] else 1


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    req = VerifyIn(board=read_rows(args.board), heights=read_rows(args.heights) if args.heights else None,
                   lexicon=args.lexicon)
    r = service.verify(get_ruleset(args.game.lower()), lexicon(settings, args.lexicon), req)
    emit(args, r, "no findings" if r["ok"] else "\n".join(warning_lines(r["warnings"])))
    return 0


def counted(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def cmd_unseen(args: argparse.Namespace, settings: Settings) -> int:
    req = UnseenIn(board=read_rows(args.board) if args.board else None,
                   heights=read_rows(args.heights) if args.heights else None, rack=args.rack)
    rules = get_ruleset(args.game.lower())
    r = service.unseen(rules, req).model_dump(mode="json")
    tiles = " ".join(ch * n for ch, n in r["unseen"].items() if n)
    summary = f"{counted(r['total'], 'tile')} unseen: {counted(r['vowels'], 'vowel')}, {counted(r['consonants'], 'consonant')}"
    if rules.blanks:
        summary += f", {counted(r['blanks'], 'blank')}"
    if r["buried"]:
        summary += f"; {r['buried']} buried under stacks (letters unknown, so counts per letter are at most)"
    emit(args, r, f"{tiles}\n{summary}")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from .server import run

    # The port is bound at once; each worker loads the default lexicon in the background (one
    # of them compiles it on the first run, under a lock file, and the others load its file).
    run(
        host=args.host or settings.host,
        port=args.port if args.port is not None else settings.port,
        workers=args.workers or settings.workers,
        log_level=settings.log_level,
        keepalive_timeout=settings.keepalive_timeout,
        header_timeout=settings.header_timeout,
        drain_timeout=settings.drain_timeout,
    )
    return 0


def cmd_compile(args: argparse.Namespace, settings: Settings) -> int:
    from engine.lexicon import cache_writable, default_cache_dir

    cache = settings.cache_dir or default_cache_dir()
    if not cache_writable(cache):  # the compiled file would be thrown away
        print(f"error: the lexicon cache directory {cache} is not writable (WORDSOLVER_CACHE_DIR)", file=sys.stderr)
        return 2
    store = make_store(settings)
    for name in args.names or [settings.default_lexicon]:
        start = time.monotonic()
        lex = store.get(name)
        print(f"{lex.name}: {lex.word_count} words, ready in {time.monotonic() - start:.1f} s")
    return 0


def cmd_healthcheck(args: argparse.Namespace, settings: Settings) -> int:
    url = args.url or f"http://127.0.0.1:{settings.port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


def square(text: str) -> list[int]:
    return pair(text, "ROW,COL")


LEXICON_HELP = "lexicon name (default: the configured default)"
JSON_HELP = "print the API's JSON (errors too, as the API's error envelope)"


def position_args(p: argparse.ArgumentParser, *, game: bool = True, heights: bool = True, lexicon: bool = True,
                  board_required: bool = False) -> None:
    """The arguments every position-taking command shares, with one wording."""
    if game:
        p.add_argument("--game", default="crossplay", help="crossplay, scrabble, wwf or upwords (default crossplay)")
    p.add_argument("--board", required=board_required,
                   help="board file, one row per line ('-' reads stdin)" + ("" if board_required else "; default empty board"))
    if heights:
        p.add_argument("--heights", help="Upwords: stack heights file, one row of digits per line")
    if lexicon:
        p.add_argument("--lexicon", help=LEXICON_HELP)
    p.add_argument("--json", action="store_true", help=JSON_HELP)


class PrintVersion(argparse.Action):
    """``--version``: one line, not wrapped to the terminal as argparse's own version action is."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        why = search.why_reference()
        print(f"wordsolver {VERSION}; search: {search.implementation()}" + (f" ({why})" if why else ""))
        parser.exit()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wordsolver", description="Best plays for crossword tile games.")
    p.add_argument("--version", action=PrintVersion,
                   help="the version, and which move generator answers (compiled or the pure-Python reference)")
    sub = p.add_subparsers(dest="command", required=True)

    best = sub.add_parser("best", help="print the best plays for a rack and board")
    position_args(best)
    best.add_argument("--rack", help="rack letters, '?' for a blank (required unless --cgp)")
    best.add_argument("--cgp", help="the position as one CGP line, instead of --board and --rack")
    best.add_argument("--limit", type=int, help="how many plays (1-1000, default 20)")
    best.add_argument("--count", action="store_true", help="also count every legal play")
    best.add_argument("--no-premiums", action="store_true", help="ignore premium squares")
    best.add_argument("--min-length", type=int, default=0, help="only main words this long or longer")
    best.add_argument("--contains", help="only main words containing these letters")
    best.add_argument("--square", type=square, help="only plays covering ROW,COL")
    best.add_argument("--no-blanks", action="store_true", help="only plays without a blank")
    best.add_argument("--no-plural-rule", action="store_true", help="Upwords: allow plays that only add an S")
    best.add_argument("--no-breakdowns", action="store_true", help="with --json: leave out the breakdowns")
    best.add_argument("--rank-by", choices=("score", "equity"), default="score",
                      help="score (default) or equity: score plus the value of the tiles kept")
    best.add_argument("--exchanges", action="store_true", help="with --rank-by equity: rank exchanges and the pass too")
    best.add_argument("--bag-size", type=int, help="with --rank-by equity: tiles in the bag (default: from the position)")
    best.set_defaults(run=cmd_best)

    score = sub.add_parser("score", help="score, check and rank one play ('8F QUIXOTE', 'H6 QUIXOTE')")
    score.add_argument("play", nargs="+", help="the play in notation, e.g. 8F QUIXOTE (lowercase = blank)")
    position_args(score)
    score.add_argument("--rack", help="the rack: the play must come from it, and it is ranked")
    score.add_argument("--better", type=int, default=5, help="with --rack: how many better plays to list")
    score.add_argument("--cgp", help="the position as one CGP line, instead of --board and --rack; prints the CGP after")
    score.add_argument("--no-premiums", action="store_true")
    score.add_argument("--no-plural-rule", action="store_true")
    score.set_defaults(run=cmd_score)

    compare = sub.add_parser("compare", help="one play under Crossplay, Scrabble and Words With Friends")
    compare.add_argument("play", nargs="+", help="the play in notation, e.g. 8F QUIXOTE")
    position_args(compare, game=False, heights=False)
    compare.add_argument("--no-premiums", action="store_true")
    compare.set_defaults(run=cmd_compare)

    check = sub.add_parser("check", help="whether words are in a lexicon (exit 1 if one is not)")
    check.add_argument("words", nargs="+")
    check.add_argument("--lexicon", help=LEXICON_HELP)
    check.add_argument("--json", action="store_true", help=JSON_HELP)
    check.set_defaults(run=cmd_check)

    verify = sub.add_parser("verify", help="what looks wrong with a board (stray tiles, unknown words)")
    position_args(verify, board_required=True)
    verify.set_defaults(run=cmd_verify)

    unseen = sub.add_parser("unseen", help="tiles not on the board or the rack (the bag and the other racks)")
    position_args(unseen, lexicon=False)
    unseen.add_argument("--rack", default="", help="your rack ('?' for a blank)")
    unseen.set_defaults(run=cmd_unseen)

    serve = sub.add_parser("serve", help="run the HTTP service (settings from WORDSOLVER_* variables)")
    serve.add_argument("--host", help="bind address (WORDSOLVER_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (WORDSOLVER_PORT, default 8000)")
    serve.add_argument("--workers", type=int, help="worker processes (WORDSOLVER_WORKERS, default: cores, up to 8)")
    serve.set_defaults(run=cmd_serve)

    comp = sub.add_parser("compile", help="compile lexicons into the cache directory")
    comp.add_argument("names", nargs="*", help="lexicon names (default: the default lexicon)")
    comp.set_defaults(run=cmd_compile)

    health = sub.add_parser("healthcheck", help="exit 0 if the service's /healthz answers")
    health.add_argument("--url", help="default http://127.0.0.1:$WORDSOLVER_PORT/healthz")
    health.add_argument("--timeout", type=float, default=3.0)
    health.set_defaults(run=cmd_healthcheck)

    cli_games.add_parsers(sub)
    cli_equity.add_parsers(sub)
    cli_sim.add_parsers(sub)
    cli_endgame.add_parsers(sub)
    return p


def fail(args: argparse.Namespace, body: dict[str, Any]) -> int:
    """Report bad input: the API's error envelope under --json (on stdout), else a line on stderr."""
    if getattr(args, "json", False):
        print(json.dumps({"error": body}, indent=2, ensure_ascii=False))
    else:
        print(f"error: {body['message']}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.run(args, get_settings()))
    except EngineError as exc:
        return fail(args, error_body(exc))
    except ValidationError as exc:
        items = [{"field": ".".join(str(p) for p in e["loc"]) or "input", "message": e["msg"], "type": e["type"]}
                 for e in exc.errors()]
        return fail(args, {"code": "invalid_request", "message": f"{items[0]['field']}: {items[0]['message']}",
                           "details": {"errors": items}})
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        return fail(args, {"code": "bad_request", "message": str(exc), "details": {}})


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code = run(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, and keep the interpreter's final
        # flush from complaining about the closed pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
