"""Whole games: grade every turn of a recorded game (GCG)."""

from __future__ import annotations

from fastapi import APIRouter

from engine import Lexicon
from engine.analyze import grade
from engine.game import game_rules
from engine.gcg import read_gcg

from ..deps import GateDep, RulesetDep, SettingsDep, StoreDep, solve
from ..openapi import BODY, errors
from ..responses import JSON, json_response
from ..schemas_games import AnalyzeIn, AnalyzeOut, analyze_out

router = APIRouter(prefix="/v1/games", tags=["games"])


@router.post(
    "/{game}/analyze",
    response_model=AnalyzeOut,
    summary="Grade every turn of a game record (GCG)",
    description=(
        "Re-score every turn, check its words, rank it among all plays, list the best plays and "
        "the points left on the table, grade the turns played with the bag empty by the endgame solver (`endgame`: "
        "the points lost against the best play, a blown endgame flagged), and compare the recorded cumulative scores with the "
        "re-scored ones, naming the first line that differs. Each turn's `win` gives the mover's chance of winning after "
        "it, the chance lost against the best play and a mistake size (small, medium, large): the static win table "
        "(by spread and tiles unseen) applied to each play's resulting spread, not a simulation; none for Upwords. One time budget covers the whole "
        "game: turns it does not reach are re-scored but not ranked (`cut_short`). It counts as an "
        "expensive search (503 `busy` when the worker's expensive slots are taken)."
    ),
    operation_id="analyzeGame",
    responses=errors(*BODY, 404, 503),
)
async def analyze(rules: RulesetDep, req: AnalyzeIn, store: StoreDep, settings: SettingsDep, gate: GateDep
                  ) -> JSON:
    def answer(lex: Lexicon, deadline: float | None) -> JSON:  # one budget for reading, grading and writing
        imported = read_gcg(req.gcg, game_rules(rules))
        return json_response(analyze_out(grade(imported, lex, req.best, deadline, req.plural_rule)).model_dump(mode="json"))

    # every turn enumerates every play: always an expensive search (app/limits.py)
    return await solve(store, settings, gate, req.lexicon, True, (rules.name, "analyze"), answer)
