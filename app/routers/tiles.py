"""Unseen tiles: what is left in the bag and the opponents' racks, from your point of view."""

from __future__ import annotations

from fastapi import APIRouter

from .. import service
from ..deps import RulesetDep
from ..schemas import ErrorOut, UnseenIn, UnseenOut

router = APIRouter(prefix="/v1/games", tags=["games"])


@router.post(
    "/{game}/unseen",
    response_model=UnseenOut,
    summary="Tiles not on the board or the rack, by letter",
    responses={404: {"model": ErrorOut}, 422: {"model": ErrorOut}},
)
def unseen_tiles(rules: RulesetDep, req: UnseenIn) -> UnseenOut:
    return service.unseen(rules, req)
