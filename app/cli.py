"""The ``wordsolver`` command.

    wordsolver best --game crossplay --rack QUIXOTE [--board FILE] [--limit N] [--json]
    wordsolver serve [--host H] [--port P] [--workers N]
    wordsolver compile [NAME ...]      compile lexicons into the cache (used at image build)
    wordsolver healthcheck [--url U]   exit 0 when /healthz answers (container health check)

``best`` computes exactly what ``POST /v1/games/{game}/moves`` returns; a board file holds one
row per line in the API's text convention ('.' empty, 'A'-'Z' tile, 'a'-'z' blank); blank
lines and lines starting with '#' are skipped.
"""

from __future__ import annotations

import argparse
import sys
import urllib.request
from pathlib import Path

from pydantic import ValidationError

from engine import EngineError, get_ruleset

from . import service
from .schemas import MoveFilters, MovesIn, MovesOut
from .settings import Settings, get_settings
from .store import make_store


def read_rows(path: str) -> list[str]:
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def table(result: MovesOut) -> str:
    if not result.moves:
        return "no legal play"
    rows = [("rank", "play", "score", "tiles", "leave")]
    rows += [(str(i), m.notation, str(m.score), str(m.tiles_used), m.leave or "-") for i, m in enumerate(result.moves, 1)]
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    align = [str.rjust, str.ljust, str.rjust, str.rjust, str.ljust]
    lines = ["  ".join(align[k](r[k], widths[k]) for k in range(5)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    footer = f"{result.game}, lexicon {result.lexicon}"
    if result.total_moves is not None:
        footer += f", {result.total_moves} legal plays"
    return "\n".join(lines + ["", footer])


def cmd_best(args: argparse.Namespace, settings: Settings) -> int:
    filters = None
    if args.min_length or args.contains or args.square or args.no_blanks:
        filters = MoveFilters(
            min_length=args.min_length, contains=args.contains or "", square=args.square, no_blanks=args.no_blanks
        )
    req = MovesIn(
        board=read_rows(args.board) if args.board else None,
        heights=read_rows(args.heights) if args.heights else None,
        rack=args.rack,
        lexicon=args.lexicon,
        limit=args.limit,
        premiums=not args.no_premiums,
        count=args.count,
        filters=filters,
        plural_rule=not args.no_plural_rule,
    )
    rules = get_ruleset(args.game)
    lex = make_store(settings).get(args.lexicon or settings.default_lexicon)
    result = service.best_moves(rules, lex, req, settings.default_limit, settings.deadline())
    print(result.model_dump_json(indent=2) if args.json else table(result))
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from .server import run

    # Compile the default lexicon once here if the cache lacks it, so N workers do not all
    # compile it at once; each worker then loads the cached file in its lifespan.
    print(f"loading lexicon {settings.default_lexicon!r} (compiled on the first run only)", file=sys.stderr)
    make_store(settings).get(settings.default_lexicon)
    run(
        host=args.host or settings.host,
        port=args.port if args.port is not None else settings.port,
        workers=args.workers or settings.workers,
        log_level=settings.log_level,
    )
    return 0


def cmd_compile(args: argparse.Namespace, settings: Settings) -> int:
    store = make_store(settings)
    for name in args.names or [settings.default_lexicon]:
        lex = store.get(name)
        print(f"{lex.name}: {lex.word_count} words")
    return 0


def cmd_healthcheck(args: argparse.Namespace, settings: Settings) -> int:
    url = args.url or f"http://127.0.0.1:{settings.port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1


def square(text: str) -> tuple[int, int]:
    try:
        r, c = (int(v) for v in text.replace(",", " ").split())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL, got {text!r}") from None
    return r, c


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wordsolver", description="Best plays for crossword tile games.")
    sub = p.add_subparsers(dest="command", required=True)

    best = sub.add_parser("best", help="print the best plays for a rack and board")
    best.add_argument("--game", default="crossplay", help="crossplay, scrabble, wwf or upwords (default crossplay)")
    best.add_argument("--rack", required=True, help="rack letters, '?' for a blank")
    best.add_argument("--board", help="board file, one row per line ('-' reads stdin); default empty board")
    best.add_argument("--heights", help="Upwords: stack heights file, one row of digits per line")
    best.add_argument("--lexicon", help="lexicon name (default: the configured default)")
    best.add_argument("--limit", type=int, help="how many plays (1-1000, default 20)")
    best.add_argument("--count", action="store_true", help="also count every legal play")
    best.add_argument("--no-premiums", action="store_true", help="ignore premium squares")
    best.add_argument("--min-length", type=int, default=0, help="only main words this long or longer")
    best.add_argument("--contains", help="only main words containing these letters")
    best.add_argument("--square", type=square, help="only plays covering ROW,COL")
    best.add_argument("--no-blanks", action="store_true", help="only plays without a blank")
    best.add_argument("--no-plural-rule", action="store_true", help="Upwords: allow plays that only add an S")
    best.add_argument("--json", action="store_true", help="print the API's JSON instead of a table")
    best.set_defaults(run=cmd_best)

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
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args, get_settings()))
    except EngineError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "input"
        print(f"error: {where}: {first['msg']}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
