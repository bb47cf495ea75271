"""One play scored under every flat 15x15 game, side by side."""

from __future__ import annotations

from fastapi import APIRouter

from .. import service
from ..deps import SettingsDep, StoreDep, body_lexicon
from ..schemas import CompareIn, CompareOut, ErrorOut

router = APIRouter(prefix="/v1", tags=["games"])


@router.post(
    "/compare",
    response_model=CompareOut,
    summary="Score one play under Crossplay, Scrabble and Words With Friends",
    responses={404: {"model": ErrorOut}, 422: {"model": ErrorOut}},
)
def compare(req: CompareIn, store: StoreDep, settings: SettingsDep) -> CompareOut:
    return service.compare(body_lexicon(store, settings, req.lexicon), req)
