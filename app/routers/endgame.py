"""Endgames solved: the best play once the bag is empty, proved when the budget allows."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Body
from pydantic import BaseModel

from engine import Lexicon, LexiconStore, Ruleset
from engine.errors import IllegalPlayError
from engine.game import game_rules, tiles_text
from engine.plays import position
from engine.strategy.endgame import Answer, Progress, Step, endgame_of, final_scores, solve
from engine.strategy.preendgame import solve_preendgame
from engine.tiles import unseen_tiles

from ..deps import GateDep, RulesetDep, SettingsDep, StoreDep
from ..deps import solve as run_solving
from ..limits import Gate
from ..openapi import BODY, errors, examples
from ..schemas_endgame import EndgameIn, EndgameOut, PreEndgameIn, PreEndgameOut
from ..settings import Settings

DEFAULT_BUDGET = 3.0  # seconds, when the request names none

router = APIRouter(prefix="/v1/games", tags=["games"])

# Scrabble from a seeded self-play game (greedy players, seed 3) as the bag empties: 7 tiles against 4.
ENDGAME_BOARD = [
    "...........MAIK", "..........NUB..", ".........PITY..", ".....R...REIS..", "..JIVEY.BOD....",
    ".WOF.Q..AW.....", "NEG..U..L...C..", "...PRETOLD..O..", "...O.S..G...N..", "...S.T..ATE.E..",
    ".FATES..MAX.L..", "...H...VELOUR..", "...e.....I..A..", "...A.ZINCO..D..", "URETHANE.N.....",
]
# Crossplay's final round from seed 4: the side to move has the first of the two final turns.
FINAL_ROUND_BOARD = [
    "...F.......W...", "...Am...Hm.E.M.", "...MU...AA.X.O.", "OOPED..GINGELLY", "...DIF..KA...I.",
    "....R.SQUIZ..N.", "....I.J..A...EE", ".A.BEHOWLS....V", ".C.EH.E.......I", ".A.E...ANORThIC",
    ".TESTAE.......T", "PORTENDS......S", ".U.I...........", ".R.N...........", "...G...........",
]
ENDGAME_EXAMPLES = examples(
    scrabble={"_summary": "A Scrabble endgame, the opponent's rack inferred", "board": ENDGAME_BOARD,
              "rack": "AEGIIO?", "scores": [450, 434], "budget": 3, "_games": ["scrabble"]},
    crossplay={"_summary": "Crossplay's final round (use with game crossplay)", "board": FINAL_ROUND_BOARD,
               "rack": "DOORRTY", "scores": [442, 490], "_games": ["crossplay"]},
)


Out = TypeVar("Out", bound=BaseModel)


async def expensive(out: type[Out], work: Callable[[Lexicon], dict], lexicon: str | None, label: tuple[str, str],
                    store: LexiconStore, settings: Settings, gate: Gate) -> Out:
    """``work(lexicon)`` as an expensive search in its lane (app.deps.solve), its answer checked as ``out``."""
    return await run_solving(store, settings, gate, lexicon, True, label, lambda lex: out.model_validate(work(lex)))


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


@router.post(
    "/{game}/endgame",
    response_model=EndgameOut,
    summary="Solve an endgame: the best play once the bag is empty",
    description=(
        "With the bag empty nothing is hidden: the opponent's rack is the unseen tiles (or give it). "
        "Negamax with alpha-beta, iterative deepening and a transposition table searches to the end of "
        "the game under the game's end rules (going out and the rack adjustment in Scrabble and WWF, "
        "-5 a tile in Upwords, Crossplay's final round of one turn each with no rack adjustment, the "
        "scoreless-turns limit). The answer is the value (final spread change for the side to move), "
        "the principal variation and `proved`: true when the search reached the end of every line it "
        "needed, false when the budget or the depth stopped it (lines past the depth are then valued by "
        "playing out greedily). Crossplay's final round is always solved exactly. `first` forces the "
        "first move (how far a play is from the best). It counts as an expensive search (503 `busy` "
        "when the worker's expensive slots are taken)."
    ),
    operation_id="solveEndgame",
    responses=errors(*BODY, 404, 503),
)
async def endgame(rules: RulesetDep, req: Annotated[EndgameIn, Body(openapi_examples=ENDGAME_EXAMPLES)],
                  store: StoreDep, settings: SettingsDep, gate: GateDep) -> EndgameOut:
    return await expensive(EndgameOut, lambda lex: solved(rules, req, lex, settings), req.lexicon,
                           (rules.name, "endgame"), store, settings, gate)


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


@router.post(
    "/{game}/preendgame",
    response_model=PreEndgameOut,
    summary="One tile in the bag: every first move against every possible draw",
    description=(
        "With one tile in the bag, the unseen tiles are the opponent's rack and that tile. For each letter "
        "the bag may hold (weighted by how many unseen tiles are that letter) the rest of the game is "
        "solved as an endgame, the tile drawn by whoever plays first, and every first move (plays and the "
        "pass) is valued in each. Candidates rank by the share of draws won (with scores) and by expected "
        "final spread change. Each draw is solved as if both players knew the bag's tile. The budget is "
        "shared out among the draws; `proved` says whether every endgame finished. An expensive search."
    ),
    operation_id="solvePreEndgame",
    responses=errors(*BODY, 404, 503),
)
async def preendgame(rules: RulesetDep, req: PreEndgameIn, store: StoreDep, settings: SettingsDep, gate: GateDep
                     ) -> PreEndgameOut:
    return await expensive(PreEndgameOut, lambda lex: preendgame_solved(rules, req, lex, settings), req.lexicon,
                           (rules.name, "preendgame"), store, settings, gate)
