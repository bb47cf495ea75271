"""Make the fixed benchmark and golden-count positions (bench/positions.json).

Each game (Upwords too, with stack heights) is simulated from a seeded bag: every turn draws up to a full rack and plays the
engine's best move. Blanks are kept out of the simulated bag so that any benchmark rack may
hold up to all of the game's blanks without breaking the tile counts. Snapshots after turns
2, 8 and 14 are the early, middle and late boards; each gets racks with 0..max blanks made
by turning the last letters of that turn's rack into '?'.

    python bench/make_positions.py            # rewrites bench/positions.json
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import default_lexicon, find_moves, get_ruleset, position  # noqa: E402
from engine.board import format_board  # noqa: E402
from engine.rules import LETTERS  # noqa: E402

SNAPSHOTS = {2: "early", 8: "middle", 14: "late"}
OUT = Path(__file__).with_name("positions.json")


def simulate_upwords(seed: int) -> list[dict]:
    """Upwords: greedy play builds stacks; snapshots carry heights."""
    rules = get_ruleset("upwords")
    lex = default_lexicon()
    rng = random.Random(seed)
    bag = [ch for i, ch in enumerate(LETTERS, start=1) for _ in range(rules.counts[i])]
    rng.shuffle(bag)
    cells = [0] * (rules.size ** 2)
    heights = [0] * (rules.size ** 2)
    rack = ""
    out = []
    for turn in range(1, 15):
        while len(rack) < rules.rack_size and bag:
            rack += bag.pop()
        board = format_board(rules, cells)
        hs = ["".join(str(heights[r * rules.size + c]) for c in range(rules.size)) for r in range(rules.size)]
        if turn in SNAPSHOTS:
            out.append({"id": f"upwords-{SNAPSHOTS[turn]}-0b", "game": "upwords", "stage": SNAPSHOTS[turn],
                        "blanks": 0, "board": board, "heights": hs, "rack": rack})
        pos = position(rules, board if any(cells) else None, rack, hs if any(cells) else None)
        moves = find_moves(pos, lex, limit=1).moves
        if not moves:
            break
        for t in moves[0].tiles:
            i = (t.row - 1) * rules.size + t.col - 1
            cells[i] = ord(t.letter) - 64
            heights[i] += 1
            rack = rack.replace(t.letter, "", 1)
    return out


def greedy_turns(game: str, rng: random.Random, turns: int = 0) -> Iterator[tuple[int, list[str] | None, str]]:
    """A greedy game from a bag shuffled by ``rng`` (no blanks in it): each turn draws up to a
    full rack and plays the engine's best play. Yields (turn, board rows or None while the
    board is empty, rack) before each turn's play, for ``turns`` turns (0: until no play)."""
    rules = get_ruleset(game)
    lex = default_lexicon()
    bag = [ch for i, ch in enumerate(LETTERS, start=1) for _ in range(rules.counts[i])]
    rng.shuffle(bag)
    board: list[str] | None = None
    rack = ""
    turn = 0
    while not turns or turn < turns:
        turn += 1
        while len(rack) < rules.rack_size and bag:
            rack += bag.pop()
        yield turn, board, rack
        pos = position(rules, board, rack)
        moves = find_moves(pos, lex, limit=1).moves
        if not moves:
            return
        cells = list(pos.cells)
        for t in moves[0].tiles:
            cells[(t.row - 1) * rules.size + t.col - 1] = ord(t.letter) - 64
            rack = rack.replace(t.letter, "", 1)
        board = format_board(rules, cells)


def simulate(game: str, seed: int) -> list[dict]:
    rules = get_ruleset(game)
    out = []
    for turn, board, rack in greedy_turns(game, random.Random(seed), 14):
        if turn in SNAPSHOTS:
            rows = board or ["." * rules.size] * rules.size
            for blanks in range(rules.blanks + 1):
                out.append({
                    "id": f"{game}-{SNAPSHOTS[turn]}-{blanks}b",
                    "game": game,
                    "stage": SNAPSHOTS[turn],
                    "blanks": blanks,
                    "board": rows,
                    "rack": rack[: len(rack) - blanks] + "?" * blanks,
                })
    return out


def main() -> None:
    positions = []
    for seed, game in enumerate(("crossplay", "scrabble", "wwf"), start=1):
        positions += simulate(game, seed)
    positions += simulate_upwords(4)
    OUT.write_text(json.dumps({"positions": positions}, indent=1) + "\n")
    print(f"wrote {len(positions)} positions to {OUT}")


if __name__ == "__main__":
    main()
