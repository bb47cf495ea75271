"""Pinned truths: total plays and top scores of fixed positions with the shipped lexicon.

Positions come from bench/positions.json (made by bench/make_positions.py). A change in
any number here is a change in what the engine finds or how it scores: explain it or fix it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Lexicon, find_moves, get_ruleset, position

POSITIONS = {p["id"]: p for p in json.loads(
    (Path(__file__).resolve().parent.parent / "bench" / "positions.json").read_text())["positions"]}

GOLDEN = {
    # id: (total plays, best score)
    "crossplay-early-0b": (901, 53),
    "crossplay-middle-0b": (594, 30),
    "crossplay-middle-1b": (6938, 82),
    "crossplay-late-0b": (206, 30),
    "scrabble-early-0b": (1267, 64),
    "scrabble-middle-0b": (383, 28),
    "scrabble-late-1b": (2561, 74),
    "wwf-middle-0b": (446, 32),
    "wwf-late-0b": (303, 48),
    "wwf-late-1b": (2231, 156),
}


@pytest.mark.parametrize("pid", sorted(GOLDEN))
def test_golden_counts(pid: str, lex: Lexicon) -> None:
    p = POSITIONS[pid]
    pos = position(get_ruleset(p["game"]), p["board"], p["rack"])
    result = find_moves(pos, lex, limit=1)
    total, best = GOLDEN[pid]
    assert (result.total, result.moves[0].score) == (total, best)


def test_golden_empty_board_counts(lex: Lexicon) -> None:
    pos = position(get_ruleset("crossplay"), None, "QUIXOTE")
    assert find_moves(pos, lex, limit=1).total == 210
    pos = position(get_ruleset("scrabble"), None, "RETAINS")
    result = find_moves(pos, lex, limit=3)
    assert [(m.notation, m.score) for m in result.moves] == [
        ("8B ANESTRI", 66), ("8B ANTSIER", 66), ("8B NASTIER", 66)]
    assert result.total == 2974


