"""Positions to and from CGP: what a front end needs to paste a CGP in and copy one out."""

from __future__ import annotations

from fastapi import APIRouter

from ..cgp_fields import convert
from ..deps import RulesetDep
from ..openapi import BODY, errors
from ..schemas_games import CgpIn, CgpOut

router = APIRouter(prefix="/v1/games", tags=["games"])


@router.post(
    "/{game}/cgp",
    response_model=CgpOut,
    summary="Read or write a position as CGP",
    description=(
        "Give `cgp` to read it: the answer has its board rows, racks, scores, consecutive zero "
        "turns and operations, after checking the board and the rack of the player to move "
        "against the game (errors `invalid_cgp` naming the field and character, or the board's "
        "own errors). Or give a position (`board`, `rack`, optionally `other_rack`, `scores`, "
        "`zeros`, `lexicon`) to write it: the answer has the CGP line. A CGP has no stack "
        "heights (read into Upwords, every tile is one high)."
    ),
    operation_id="convertCgp",
    responses=errors(*BODY, 404),
)
def cgp(rules: RulesetDep, req: CgpIn) -> CgpOut:
    return CgpOut.model_validate(convert(rules, req))
