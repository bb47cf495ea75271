"""Rulesets, best moves, scoring one play, board verification and end-of-game adjustments,
per game.

Solving endpoints run their work through ``deps.solve``: cheap requests at once on the event
loop, anything that may take long in the threadpool, so CPU-bound work never holds the event
loop for long; worker processes spread requests over the cores. Their answers
are plain data serialized straight to JSON (the response models document the shape, and the
tests check every answer against them).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from engine import GAMES, Lexicon, LexiconStore, Ruleset, get_ruleset

from .. import service
from ..deps import GateDep, RulesetDep, SettingsDep, StoreDep, body_lexicon, solve
from ..limits import Gate, cost_of
from ..openapi import BODY, END_EXAMPLES, MOVES_EXAMPLES, SCORE_EXAMPLES, VERIFY_EXAMPLES, errors
from ..responses import JSON, json_response
from ..schemas import EndIn, EndOut, GameOut, GamesOut, MovesIn, MovesOut, ScoreIn, ScoreOut, VerifyIn, VerifyOut
from ..settings import Settings

router = APIRouter(prefix="/v1/games", tags=["games"])


@router.get("", response_model=GamesOut, summary="The games served", operation_id="listGames")
def list_games() -> GamesOut:
    return GamesOut(games=[service.game_summary(get_ruleset(g)) for g in GAMES])


@router.get(
    "/{game}", response_model=GameOut, summary="One game's ruleset", operation_id="getGame", responses=errors(404, 422)
)
def get_game(rules: RulesetDep) -> GameOut:
    return service.game_detail(rules)


@router.post(
    "/{game}/moves",
    response_model=MovesOut,
    summary="The best plays for a board and rack",
    operation_id="findMoves",
    responses=errors(*BODY, 404, 503),
)
async def best_moves(
    rules: RulesetDep,
    req: Annotated[MovesIn, Body(openapi_examples=MOVES_EXAMPLES)],
    store: StoreDep,
    settings: SettingsDep,
    gate: GateDep,
) -> JSON:
    return await moves_answer(rules, req, store, settings, gate)


async def moves_answer(rules: Ruleset, req: MovesIn, store: LexiconStore, settings: Settings, gate: Gate) -> JSON:
    """The answer of ``POST /v1/games/{game}/moves`` (also given by app.fastroutes)."""

    def answer(lex: Lexicon, deadline: float | None) -> JSON:
        return json_response(service.best_moves_payload(rules, lex, req, settings.default_limit, deadline))

    return await solve(store, settings, gate, req.lexicon, cost_of(req, rules.name), (rules.name, "moves"), answer)


@router.post(
    "/{game}/score",
    response_model=ScoreOut,
    summary="Score, check and rank one play you describe",
    description=(
        "Give the play as `move` (row, col, direction, word) or as `play` in notation "
        "(`8F QUIXOTE`). With a `rack`, the answer ranks it among all legal plays and lists "
        "the better plays (what you missed)."
    ),
    operation_id="scorePlay",
    responses=errors(*BODY, 404, 503),
)
async def score_play(
    rules: RulesetDep,
    req: Annotated[ScoreIn, Body(openapi_examples=SCORE_EXAMPLES)],
    store: StoreDep,
    settings: SettingsDep,
    gate: GateDep,
) -> JSON:
    return await score_answer(rules, req, store, settings, gate)


async def score_answer(rules: Ruleset, req: ScoreIn, store: LexiconStore, settings: Settings, gate: Gate) -> JSON:
    """The answer of ``POST /v1/games/{game}/score`` (also given by app.fastroutes)."""

    def answer(lex: Lexicon, deadline: float | None) -> JSON:
        return json_response(service.score_play(rules, lex, req, deadline))

    return await solve(store, settings, gate, req.lexicon, cost_of(req, rules.name), (rules.name, "score"), answer)


@router.post(
    "/{game}/verify",
    response_model=VerifyOut,
    summary="What looks wrong with a board",
    description=(
        "Reports tiles not connected to the rest, an empty start square on a non-empty board, "
        "and words on the board that the lexicon does not know, each with its squares. Solving "
        "answers carry the same findings as `warnings` (they never refuse the board for them)."
    ),
    operation_id="verifyBoard",
    responses=errors(*BODY, 404, 503),
)
def verify_board(
    rules: RulesetDep,
    req: Annotated[VerifyIn, Body(openapi_examples=VERIFY_EXAMPLES)],
    store: StoreDep,
    settings: SettingsDep,
) -> JSON:
    lex = body_lexicon(store, settings, req.lexicon)
    return json_response(service.verify(rules, lex, req))


@router.post(
    "/{game}/end",
    response_model=EndOut,
    summary="End-of-game rack adjustments",
    operation_id="endOfGame",
    responses=errors(*BODY, 404),
)
def end_of_game(rules: RulesetDep, req: Annotated[EndIn, Body(openapi_examples=END_EXAMPLES)]) -> EndOut:
    return service.end_of_game(rules, req)
