"""Import and grade every recorded game (GCG) in a folder with the game model and the grader.

    python tools/check_games.py ../shared/testdata/gcg [--game scrabble] [--lexicon NAME] [--verbose]

For each ``*.gcg`` file: read it (every line type), place every play, grade every turn
(re-score, validity, rank, best plays) and compare the recorded cumulative scores with the
re-scored ones. Prints one line per file that is refused or whose scores disagree (naming the
first line that differs), then a summary; exits 1 when a file fails to import or grade for a
reason other than a foreign letter set. Records in another language (a ``#lexicon`` or a tile
outside A-Z) are refused by the importer with the line named, and counted apart. This is a
check script: the project's own tests do not need these files.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import EngineError, LexiconStore  # noqa: E402
from engine.analyze import grade  # noqa: E402
from engine.game import game_rules  # noqa: E402
from engine.gcg import decode, read_gcg  # noqa: E402

FOREIGN = ("OSPS", "FRA", "DEU", "NSF", "RD", "FISE", "DISC")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--game", default="scrabble")
    ap.add_argument("--lexicon", default=None)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    rules = game_rules(args.game)
    lex = LexiconStore().get(args.lexicon)
    files = sorted(args.folder.rglob("*.gcg"))
    graded = foreign = failed = disagree = turns = 0
    t0 = time.perf_counter()
    for path in files:
        text = decode(path.read_bytes())
        try:
            imported = read_gcg(text, rules)
            result = grade(imported, lex)
        except EngineError as exc:
            lexicon = next((line.split()[1] for line in text.splitlines() if line.startswith("#lexicon ")), "")
            if lexicon.startswith(FOREIGN) or "not a tile" in exc.message:
                foreign += 1
                print(f"foreign  {path.name}: {exc.message}")
            else:
                failed += 1
                print(f"FAILED   {path.name}: {exc.message}")
            continue
        graded += 1
        turns += len(result.turns)
        if not result.scores_agree:
            disagree += 1
            d = result.first_difference
            assert d is not None
            print(f"differs  {path.name}:{d.line} (turn {d.turn}, {result.players[d.player].name}): "
                  f"recorded {d.recorded}, re-scored {d.rescored}")
        elif args.verbose:
            print(f"ok       {path.name}: " + ", ".join(f"{p.name} {p.rescored}" for p in result.players))
    seconds = time.perf_counter() - t0
    print(f"{len(files)} records: {graded} graded ({turns} turns, {disagree} with a score difference), "
          f"{foreign} in another language, {failed} failed; {seconds:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
