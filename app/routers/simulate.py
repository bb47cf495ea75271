"""Monte Carlo simulation of the best turns (engine.strategy.simulate): ``POST /v1/games/{game}/simulate``.

The position is read, the candidates ranked and a slot of the expensive lane taken (app.limits:
a simulation is always expensive; ``deps.solve``, and ``gate.expensive.hold()`` for the
streamed run) before the answer starts, so every refusal is a 4xx or a 503 in the error
envelope. Then the run goes on worker threads (and its own worker processes), never on the
event loop, bounded by its time budget (``WORDSOLVER_SIM_SECONDS``
by default, at most ``WORDSOLVER_SIM_MAX_SECONDS``). Asked to stream (``stream: true`` or
``Accept: application/x-ndjson``), the answer is NDJSON: one progress object per line, the last
with ``done``. A client that goes away stops the run at its next iteration (streamed: when the
next line cannot be sent; otherwise the request is watched for a disconnect every 0.25 s).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import StreamingResponse
from starlette.responses import Response

from engine import Lexicon

from ..deps import GateDep, RulesetDep, SettingsDep, StoreDep, solve
from ..observability import solving
from ..openapi import BODY, errors
from ..responses import json_response
from ..schemas_sim import SimulateIn, SimulateOut
from ..service_sim import check_offered, prepare, snapshots

router = APIRouter(prefix="/v1/games", tags=["games"])
log = logging.getLogger("wordsolver")

NDJSON = "application/x-ndjson"

EXAMPLES: dict[str, Any] = {
    "opening": {
        "summary": "An opening rack, 2 plies, 2 seconds",
        "value": {"rack": "AEINRST", "candidates": 6, "plies": 2, "seconds": 2, "seed": 1},
    },
}


@router.post(
    "/{game}/simulate",
    response_model=SimulateOut,
    summary="Simulate the best turns: win share and spread by Monte Carlo",
    description=(
        "Takes the best `candidates` turns by equity (plays, and exchanges and the pass when the bag allows) and, "
        "in each iteration, draws the opponent's rack (with the tiles you name in `opponent_rack`) and the bag, "
        "plays each candidate and then `plies` turns of the equity player, and values the end by the spread "
        "plus the leaves kept and by the win share. Every candidate sees the same draws in an iteration. A "
        "candidate whose upper confidence bound falls below the leader's lower bound stops being simulated; "
        "the run ends when one is left, at `iterations`, at the time budget (`seconds`), or at once when the "
        "position is exact (the bag empty: every reply is known). Same seed, same answer (unless the time "
        "budget ends it). With `stream` (or `Accept: application/x-ndjson`) the answer is NDJSON: a "
        "SimulateOut per line as the run goes, the last with `done`. Always an expensive request (503 `busy` "
        "when this worker runs its share)."
    ),
    operation_id="simulate",
    responses=errors(*BODY, 404, 503) | {200: {
        "description": "The candidates' figures (JSON), or their progress (NDJSON, one SimulateOut a line).",
        "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/SimulateOut"}}},
    }},
)
async def simulate(
    rules: RulesetDep,
    req: Annotated[SimulateIn, Body(openapi_examples=EXAMPLES)],
    request: Request,
    store: StoreDep,
    settings: SettingsDep,
    gate: GateDep,
) -> Response:
    check_offered(rules)  # before the lane: a game that cannot be simulated is a 4xx, not 503 busy
    stream = req.stream or NDJSON in request.headers.get("accept", "")
    cancel = threading.Event()
    label = (rules.name, "simulate")

    if stream:
        # the position checked and the candidates ranked in the expensive lane (every refusal
        # before the answer starts); then the run holds a slot of that lane while it streams
        prepared = await solve(store, settings, gate, req.lexicon, True, label,
                               lambda lex, deadline: prepare(rules, lex, req, settings, deadline=deadline))

        # One thread runs the whole run, holding the lane's slot from its start to its end
        # (however the stream ends), and hands each line to the event loop through a queue.
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | BaseException | None] = asyncio.Queue()

        def hand(item: bytes | BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is gone (shutdown): nobody to hand it to
                cancel.set()

        def produce() -> None:
            try:
                with gate.expensive.hold(), solving(*label):
                    for snap in snapshots(prepared, cancel):
                        hand((json.dumps(snap) + "\n").encode())
            except BaseException as exc:  # noqa: BLE001 - handed to the endpoint (before the answer) or logged
                hand(exc)
            finally:
                hand(None)

        runner = loop.run_in_executor(None, produce)
        try:
            first = await queue.get()  # the slot taken and the first line, or why not (503 busy)
        except asyncio.CancelledError:
            cancel.set()
            raise
        if isinstance(first, BaseException):
            await runner
            raise first
        assert first is not None

        async def body() -> AsyncIterator[bytes]:
            try:
                yield first
                while (item := await queue.get()) is not None:
                    if isinstance(item, BaseException):
                        log.error("simulation stream ended by %r", item)
                        break
                    yield item
            finally:
                cancel.set()  # the client went away (or the run ended): the run stops at its next iteration

        return StreamingResponse(body(), media_type=NDJSON)

    def run(lex: Lexicon, deadline: float | None) -> dict:
        last: dict = {}
        for last in snapshots(prepare(rules, lex, req, settings, deadline=deadline), cancel):  # noqa: B007
            pass
        return last

    task = asyncio.ensure_future(solve(store, settings, gate, req.lexicon, True, label, run))
    try:
        while not task.done():
            await asyncio.wait({task}, timeout=0.25)
            if not task.done() and await request.is_disconnected():
                cancel.set()
    except asyncio.CancelledError:
        cancel.set()
        raise
    return json_response(task.result())
