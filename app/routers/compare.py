"""One play scored under every flat 15x15 game, side by side."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from .. import service
from ..deps import SettingsDep, StoreDep, body_lexicon
from ..openapi import BODY, COMPARE_EXAMPLES, errors
from ..responses import JSON, json_response
from ..schemas import CompareIn, CompareOut

router = APIRouter(prefix="/v1", tags=["games"])


@router.post(
    "/compare",
    response_model=CompareOut,
    summary="Score one play under Crossplay, Scrabble and Words With Friends",
    operation_id="comparePlay",
    responses=errors(*BODY, 404, 503),
)
def compare(req: Annotated[CompareIn, Body(openapi_examples=COMPARE_EXAMPLES)], store: StoreDep,
            settings: SettingsDep) -> JSON:
    return json_response(service.compare(body_lexicon(store, settings, req.lexicon), req))
