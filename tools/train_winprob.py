"""Learn a game's win-probability table by self-play (engine/strategy/train_winprob.py).

    python tools/train_winprob.py --game scrabble --games 3000 --seed 1 [--data counts.json] [--resume] [--output F]

Plays ``--games`` games between equity players (game k: seed+k), counts every position's
(unseen, spread, result), fits the table and writes it (default
``engine/strategy/leavedata/GAME-winprob.json``, validated before it is written). ``--data``
keeps the counts (saved every 50 games); ``--resume`` continues from them (asking for more
games later adds the next games of the same series); ``--refit`` fits again from that file
without playing.
The same seed and game count give the same table on any machine (with the same lexicon and
leave values).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.lexicons import default_lexicon  # noqa: E402
from engine.strategy.train_winprob import Counts, calibration, collect, fit_table, provenance  # noqa: E402
from engine.strategy.winprob import GAMES, dumps, parse, path_for  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True, choices=GAMES)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, help="JSON file of the position counts (written, or read with --refit)")
    ap.add_argument("--refit", action="store_true", help="fit from --data without playing")
    ap.add_argument("--resume", action="store_true", help="continue from the counts in --data")
    ap.add_argument("--output", type=Path, help="table to write (default: the shipped file)")
    args = ap.parse_args(argv)
    lex = default_lexicon()
    t0 = time.perf_counter()
    data: Path | None = args.data
    if (args.refit or args.resume) and data is None:
        ap.error("--refit and --resume need --data")
    counts = Counts.from_dict(json.loads(data.read_text(encoding="utf-8"))) if data and (args.refit or (args.resume and data.is_file())) else None
    if counts is not None and (counts.game, counts.seed) != (args.game, args.seed):
        ap.error(f"{data} holds counts of {counts.game} seed {counts.seed}")

    def save(c: Counts) -> None:
        if data is not None:
            tmp = data.with_suffix(".tmp")
            tmp.write_text(json.dumps(c.to_dict()), encoding="utf-8")
            tmp.replace(data)

    if counts is None or not args.refit:
        counts = collect(args.game, lex, args.games, args.seed, counts or Counts(args.game, args.seed), on_chunk=save, chunk=50,
                         log=lambda s: print(s, flush=True))
    command = f"python tools/train_winprob.py --game {args.game} --games {counts.games} --seed {args.seed}"
    prov = provenance(args.game, lex.name, counts.games, args.seed, counts.samples, command)
    table = fit_table(args.game, counts, prov)
    prov["fit"] = calibration(table, counts)
    text = dumps(table)
    parse(text, args.game, "the new table")  # refuse to write a table that would not load
    out = args.output or path_for(args.game)
    out.write_text(text, encoding="utf-8")
    print(f"{args.game}: {counts.games} games, {counts.samples} positions, fit {prov['fit']}, "
          f"{time.perf_counter() - t0:.0f} s; written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
