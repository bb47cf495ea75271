"""Unseen tiles: what is left in the bag and on the other racks, from your seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from .. import service
from ..deps import RulesetDep
from ..openapi import BODY, FLAT, MIDGAME, UPWORDS_BOARD, UPWORDS_HEIGHTS, errors, examples
from ..schemas import UnseenIn, UnseenOut

router = APIRouter(prefix="/v1/games", tags=["games"])

UNSEEN_EXAMPLES = examples(
    midgame={"_summary": "A mid-game board and a rack", "board": MIDGAME, "rack": "AEINRS?", "_games": FLAT},
    upwords={"_summary": "Upwords with a buried tile (use with game upwords)",
             "board": UPWORDS_BOARD, "heights": UPWORDS_HEIGHTS, "rack": "QUIZEAS", "_games": ["upwords"]},
)


@router.post(
    "/{game}/unseen",
    response_model=UnseenOut,
    summary="Tiles not on the board or the rack, by letter",
    description=(
        "The game's tiles minus those on the board and the rack, per letter ('?' for blanks), "
        "with the total and the vowel, consonant and blank counts. In Upwords only stack tops "
        "are known: `buried` counts the tiles under them, the per-letter counts are upper "
        "bounds, and `total` is exact."
    ),
    operation_id="unseenTiles",
    responses=errors(*BODY, 404),
)
def unseen_tiles(rules: RulesetDep, req: Annotated[UnseenIn, Body(openapi_examples=UNSEEN_EXAMPLES)]) -> UnseenOut:
    return service.unseen(rules, req)
