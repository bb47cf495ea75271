"""How the ``wordsolver`` command prints answers as text (``--json`` prints the answer itself)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_rows(path: str) -> list[str]:
    """A board (or heights) file's rows, '-' for stdin: blank lines and '#' comments dropped
    (the one board reader of every subcommand)."""
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    text = text.lstrip("\ufeff")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def pair(text: str, names: str) -> list[int]:
    """An argument of two whole numbers, a comma or a space between (``names`` such as ROW,COL)."""
    try:
        a, b = (int(v) for v in text.replace(",", " ").split())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {names}, got {text!r}") from None
    return [a, b]


def scores(text: str) -> list[int]:
    """``--scores MINE,THEIRS``."""
    return pair(text, "MINE,THEIRS (e.g. 120,95)")


def columns(rows: Sequence[Sequence[str]], align: str) -> list[str]:
    """Rows as aligned text columns; ``align`` has 'l' or 'r' per column; a rule under the head."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(align))]
    lines = ["  ".join(r[k].rjust(widths[k]) if a == "r" else r[k].ljust(widths[k]) for k, a in enumerate(align)).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def table(result: dict[str, Any]) -> str:
    if not result["moves"]:
        return "no legal play"
    rows = [("rank", "play", "score", "tiles", "leave")]
    rows += [(str(i), m["notation"], str(m["score"]), str(m["tiles_used"]), m["leave"] or "-")
             for i, m in enumerate(result["moves"], 1)]
    footer = f"{result['game']}, lexicon {result['lexicon']}"
    if result["total_moves"] is not None:
        footer += f", {result['total_moves']} legal plays"
    return "\n".join(columns(rows, "rlrrl") + ["", footer] + warning_lines(result["warnings"]))


def equity_table(result: dict[str, Any]) -> str:
    """``best --rank-by equity``: plays, exchanges and the pass in one ranking."""
    items = [(m["rank"], m["notation"], str(m["score"]), m["leave"] or "-", m["leave_value"], m["equity"])
             for m in result["moves"]]
    items += [(x["rank"], "pass" if x["kind"] == "pass" else f"exchange {x['thrown']}", "0", x["kept"] or "-",
               x["leave_value"], x["equity"]) for x in result.get("exchanges") or []]
    if not items:
        return "no legal play"
    items.sort(key=lambda it: it[0])
    rows = [("rank", "play", "score", "leave", "value", "equity")]
    rows += [(str(r), p, s, lv, f"{v:+.3f}", f"{e:.3f}") for r, p, s, lv, v, e in items]
    eq = result["equity"]
    footer = f"{result['game']}, lexicon {result['lexicon']}, bag {eq['bag_size']}: {eq['end_rule']}"
    if result["total_moves"] is not None:
        footer += f", {result['total_moves']} legal plays"
    return "\n".join(columns(rows, "rlrlrr") + ["", footer] + warning_lines(result["warnings"]))


def warning_lines(warnings: list[dict[str, Any]]) -> list[str]:
    return [f"warning: {w['message']}" for w in warnings]


def breakdown_lines(bd: dict[str, Any]) -> list[str]:
    """The breakdown in the Crossplay scoring page's order, one word a line."""
    lines = []
    for w in bd["words"]:
        parts = [f"{x['letter']} {x['points']}" + (f" ({x['bonus']})" if x["bonus"] else "") for x in w["letters"]]
        line = f"  {w['word']}: " + " + ".join(parts) + f" = {w['letter_total']}"
        if w["word_multiplier"] != 1:
            line += f" x{w['word_multiplier']}"
        if w.get("qu_bonus"):
            line += f" + Qu {w['qu_bonus']}"
        lines.append(line + f" = {w['score']}")
    bonus = bd["all_tiles_bonus"]
    if bonus["points"]:
        lines.append(f"  {bonus['name']}: +{bonus['points']}")
    lines.append(f"  total: {bd['total']}")
    return lines
