"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter, Response

from engine import search

from .. import peers
from ..deps import SettingsDep, StoreDep
from ..errors import error_response
from ..observability import metrics_text
from ..openapi import errors
from ..request_errors import error_body
from ..responses import JSON
from ..schemas import Health, Ready

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, summary="The process is alive", operation_id="getHealth")
async def healthz() -> Health:
    return Health(status="ok")


@router.get("/readyz", response_model=Ready, summary="The default lexicon is loaded",
            operation_id="getReadiness", responses=errors(503))
async def readyz(store: StoreDep, settings: SettingsDep) -> Ready | JSON:
    name = settings.default_lexicon
    status, lex = store.status(name)
    if lex is not None:
        waiting = peers.still_loading()
        if waiting:  # this worker is, not yet the service (app.peers)
            return error_response(503, "not_ready", f"the default lexicon {name!r} is loaded in this worker but "
                                  f"{waiting} other worker(s) of the service are still loading it",
                                  {"lexicon": name}, headers={"Retry-After": "1"})
        return Ready(status="ready", lexicon=name, word_count=lex.word_count,
                     search="compiled" if search.implementation() == "compiled" else "reference")
    failure = store.error(name)
    if status == "failed" and failure is not None:
        return error_response(503, "not_ready", f"the default lexicon {name!r} failed to load: {failure.message}",
                              {"lexicon": name, "cause": error_body(failure)}, headers={"Retry-After": "30"})
    return error_response(503, "not_ready", f"the default lexicon {name!r} is still loading",
                          {"lexicon": name}, headers={"Retry-After": "1"})


@router.get("/metrics", summary="Prometheus metrics (text format)", operation_id="getMetrics",
            response_class=Response, responses={200: {"content": {"text/plain": {}}}})
async def metrics() -> Response:
    body, content_type = metrics_text()
    return Response(body, media_type=content_type)
