"""Re-score every tile placement of recorded Scrabble games (GCG) with the engine's scorer.

    python tools/check_gcg.py ../shared/testdata/gcg [--game scrabble] [--verbose]

Each `>player: RACK POS WORD +score total` line that places tiles is replayed on a board
and scored by the authoritative scorer; the recorded score must match to the point. A `--`
line (a phony taken back) removes the previous placement. Games recorded with another
variant or letter set (any unknown letter, a board that is not 15x15 play) are skipped and
counted. This is a check script: the project's own tests do not need these files.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import get_ruleset, score_play  # noqa: E402
from engine.board import BLANK  # noqa: E402

MOVE = re.compile(r"^>([^:]+):\s+(\S*)\s+(\d+[A-O]|[A-O]\d+)\s+(\S+)\s+([+-]\d+)\s+(-?\d+)")
WITHDRAW = re.compile(r"^>([^:]+):\s+(\S*)\s+--\s+(-\d+)")


def replay(path: Path, game: str, verbose: bool) -> tuple[int, int, list[str]]:
    rules = get_ruleset(game)
    n = rules.size
    cells = [0] * (n * n)
    history: list[list[int]] = []
    checked = 0
    problems: list[str] = []
    text = path.read_bytes().decode("utf-8", errors="replace")
    if "#lexicon" in text and re.search(r"#lexicon\s+(OSPS|FRA|DEU|NSF|RD|FISE|DISC)", text):
        return 0, 0, [f"{path.name}: skipped (non-English lexicon)"]
    for lineno, line in enumerate(text.splitlines(), start=1):
        w = WITHDRAW.match(line)
        if w and history:
            for i in history.pop():
                cells[i] = 0
            continue
        m = MOVE.match(line)
        if not m:
            continue
        _, _, pos, word, score, _ = m.groups()
        if pos[0].isdigit():
            row, col, dr, dc = int(pos[:-1]), ord(pos[-1]) - 64, 0, 1
        else:
            row, col, dr, dc = int(pos[1:]), ord(pos[0]) - 64, 1, 0
        placements = []
        ok = True
        for k, ch in enumerate(word):
            r, c = row - 1 + dr * k, col - 1 + dc * k
            if not (0 <= r < n and 0 <= c < n):
                ok = False
                break
            i = r * n + c
            if ch == ".":
                continue
            if not ch.isascii() or not ch.isalpha():
                ok = False
                break
            code = (ord(ch.upper()) - 64) | (BLANK if ch.islower() else 0)
            if cells[i]:
                continue  # some files spell played-through tiles instead of '.'
            placements.append((i, code))
        if not ok:
            return checked, 0, problems + [f"{path.name}: skipped (unknown letter or square at line {lineno})"]
        got = score_play(rules, cells, placements).total
        want = int(score)
        checked += 1
        if got != want:
            problems.append(f"{path.name}:{lineno}: {pos} {word} recorded {want}, engine {got}")
        elif verbose:
            print(f"ok {path.name}:{lineno} {pos} {word} {want}")
        for i, code in placements:
            cells[i] = code
        history.append([i for i, _ in placements])
    return checked, len([p for p in problems if "recorded" in p]), problems


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--game", default="scrabble")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    files = sorted(args.folder.rglob("*.gcg"))
    total = bad = 0
    for f in files:
        checked, wrong, problems = replay(f, args.game, args.verbose)
        total += checked
        bad += wrong
        for p in problems:
            print(p)
    print(f"{len(files)} files, {total} placements re-scored, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
