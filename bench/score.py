"""Ranking a described play, as ``POST /v1/games/{game}/score`` with a rack does, in process.

    python bench/score.py [--repeat 5] [--rank 5]

For each Scrabble-like position of bench/positions.json, the rack cut to six letters and a
blank (the soak's one-blank ``/score`` requests), the play ranked ``--rank`` among the best by
score is described and ranked among every legal play: app.service.score_play and its JSON, the
median of ``--repeat`` calls per position, then the median over positions. Timings depend on
the machine and its load: report them with ``uptime``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import service  # noqa: E402
from app.responses import json_response  # noqa: E402
from app.schemas import MovesIn, ScoreIn  # noqa: E402
from engine import default_lexicon, get_ruleset, search  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rank", type=int, default=5, help="rank of the play described among the best by score")
    args = ap.parse_args()
    lex = default_lexicon()
    search.prepare(lex)
    medians = []
    for p in json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]:
        rules = get_ruleset(p["game"])
        if rules.stacking:
            continue
        rack = p["rack"].replace("?", "")[:6] + "?"
        best = service.best_moves_payload(rules, lex, MovesIn(board=p["board"], rack=rack, limit=args.rank,
                                                              breakdowns=False), args.rank)["moves"]
        if not best:
            continue
        req = ScoreIn(board=p["board"], rack=rack, play=best[-1]["notation"])
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            json_response(service.score_play(rules, lex, req))
            times.append((time.perf_counter() - t) * 1000)
        medians.append(statistics.median(times))
        print(f"{p['id']:24} {rack:8} {best[-1]['notation']:20} {medians[-1]:7.2f} ms")
    print(f"median over {len(medians)} positions: {statistics.median(medians):.2f} ms, "
          f"largest {max(medians):.2f} ms (search: {search.implementation()})")


if __name__ == "__main__":
    main()
