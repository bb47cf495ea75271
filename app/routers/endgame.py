"""Endgames solved: the best play once the bag is empty, proved when the budget allows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Body
from pydantic import BaseModel

from engine import Lexicon, LexiconStore

from ..deps import GateDep, RulesetDep, SettingsDep, StoreDep
from ..deps import solve as run_solving
from ..limits import Gate
from ..openapi import BODY, errors, examples
from ..schemas_endgame import EndgameIn, EndgameOut, PreEndgameIn, PreEndgameOut
from ..service_endgame import preendgame_solved, solved
from ..settings import Settings

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
    """``work(lexicon)`` as an expensive search in its lane (app.deps.solve), its answer checked as
    ``out``; the work keeps its own time budget (the request's ``budget``), not the search timeout."""
    return await run_solving(store, settings, gate, lexicon, True, label, lambda lex, _: out.model_validate(work(lex)))


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
