"""The endgame and pre-endgame answers, as the API and the command line give them (no web
imports: the command line loads this without the web framework)."""

from __future__ import annotations

import time
from collections.abc import Callable

from engine import Lexicon, Ruleset
from engine.errors import IllegalPlayError
from engine.game import game_rules, tiles_text
from engine.plays import position
from engine.strategy.endgame import Answer, Progress, Step, endgame_of, final_scores, solve
from engine.strategy.preendgame import solve_preendgame
from engine.tiles import unseen_tiles

from .schemas_endgame import EndgameIn, PreEndgameIn
from .settings import Settings

DEFAULT_BUDGET = 3.0  # seconds, when the request names none


def step_out(step: Step) -> dict:
    m = step.move
    return {
        "player": "you" if step.player == 0 else "opponent", "notation": step.notation, "score": step.score,
        "row": m.row if m else None, "col": m.col if m else None, "direction": m.direction if m else None,
        "word": m.word if m else None,
        "tiles": [{"row": t.row, "col": t.col, "letter": t.letter.lower() if t.blank else t.letter,
                   "blank": t.blank} for t in m.tiles] if m else [],
        "rack_after": step.rack_after,
    }


def answer_out(game: str, a: Answer, racks: list[str], inferred: bool, final: list[int] | None) -> dict:
    return {
        "game": game, "value": a.value, "proved": a.proved, "best": step_out(a.pv[0]) if a.pv else None,
        "pv": [step_out(s) for s in a.pv], "end": a.end,
        "first_moves": [{"notation": f.notation, "value": f.value} for f in a.first_moves],
        "depth": a.depth, "nodes": a.nodes, "seconds": round(a.seconds, 4),
        "iterations": [{"depth": p.depth, "value": p.value, "best": p.best, "nodes": p.nodes,
                        "seconds": round(p.seconds, 4), "proved": p.proved} for p in a.iterations],
        "racks": racks, "inferred_other_rack": inferred, "final_scores": final,
    }


def solved(rules: Ruleset, req: EndgameIn, lex: Lexicon, settings: Settings,
           on_depth: Callable[[Progress], None] | None = None) -> dict:
    """The answer to ``req`` (the API's and the CLI's), its budget capped by the settings."""
    budget = min(req.budget if req.budget is not None else DEFAULT_BUDGET, settings.endgame_timeout)
    grules = game_rules(rules)
    eg, other = endgame_of(grules, req.board, req.rack, req.other_rack, req.heights, req.scoreless,
                           req.final_turns_left, req.plural_rule)
    a = solve(eg, lex, deadline=time.monotonic() + budget, max_depth=req.max_depth, first_moves=req.first_moves,
              first=req.first, table_entries=settings.endgame_table_entries, on_depth=on_depth)
    final = final_scores(eg, a, req.scores) if req.scores is not None else None
    return answer_out(rules.name, a, [tiles_text(eg.racks[0]), other], req.other_rack is None, final)


def preendgame_solved(rules: Ruleset, req: PreEndgameIn, lex: Lexicon, settings: Settings) -> dict:
    """One tile in the bag: every first move against every possible draw (the API's and the CLI's)."""
    budget = min(req.budget if req.budget is not None else DEFAULT_BUDGET, settings.endgame_timeout)
    pos = position(rules, req.board, req.rack, req.heights, req.plural_rule)
    seen = unseen_tiles(pos)
    if seen.buried or seen.total != rules.rack_size + 1:
        raise IllegalPlayError(
            f"{seen.total} tiles are unseen: one tile in the bag means {rules.rack_size + 1} (the opponent's "
            f"rack and the bag)" + (" and no tile buried under a stack" if seen.buried else ""), unseen=seen.total)
    unseen = [seen.counts["?"]] + [seen.counts[chr(64 + i)] for i in range(1, 27)]
    spread = req.scores[0] - req.scores[1] if req.scores is not None else None
    pre = solve_preendgame(game_rules(rules), lex, tuple(pos.cells), tuple(pos.rack), tuple(unseen),
                           tuple(pos.heights) if pos.heights is not None else None, req.scoreless,
                           time.monotonic() + budget, spread, req.plural_rule, settings.endgame_table_entries,
                           req.candidates)
    return {
        "game": rules.name, "draws": pre.draws, "proved": pre.proved, "seconds": round(pre.seconds, 4),
        "candidates": [{"notation": c.notation, "score": c.score, "expected": round(c.expected, 4), "wins": c.wins,
                        "by_draw": c.by_draw, "proved": c.proved} for c in pre.candidates[: req.limit]],
    }
