"""Lanes (app/limits.py): what runs where, bounded queues, 503 busy at once past them, and
cheap work keeping its own capacity under expensive load (issue 21)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from conftest import started

from app.limits import Busy, Cost, Gate, Lane, cost_of
from app.main import create_app
from app.schemas import MovesIn, ScoreIn
from app.settings import Settings


def test_requests_are_classed_by_what_they_will_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: /score with a one-blank rack was classed as cheap and ranked every legal play
    (90-146 ms) on the event loop. By equity, instant once the game's leave values are loaded."""
    from engine.strategy import leaves

    equity = MovesIn.model_validate({"rack": "AEINRST", "rank_by": "equity"})
    monkeypatch.setattr(leaves, "_SHIPPED", {})
    assert cost_of(equity, "crossplay") is Cost.CHEAP  # parsing them takes most of a second
    leaves.shipped("crossplay")
    assert cost_of(equity, "crossplay") is Cost.INSTANT and cost_of(equity, "wwf") is Cost.CHEAP
    assert cost_of(ScoreIn.model_validate({"play": "8F QUIXOTE"}), "crossplay") is Cost.INSTANT
    assert cost_of(ScoreIn.model_validate({"play": "8F QUIXOTE", "rack": "QUIXOTE"}), "crossplay") is Cost.INSTANT
    assert cost_of(ScoreIn.model_validate({"play": "8F QUIXOTe", "rack": "QUIXOT?"}), "crossplay") is Cost.CHEAP
    assert cost_of(ScoreIn.model_validate({"play": "8F QUIXOte", "rack": "QUIXO??"}), "crossplay") is Cost.EXPENSIVE
    assert cost_of(MovesIn.model_validate({"rack": "AEINRS?"}), "crossplay") is Cost.INSTANT
    assert cost_of(MovesIn.model_validate({"rack": "AEINRS?", "limit": 21}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEINRST", "rank_by": "equity"}), "crossplay") is Cost.INSTANT
    assert cost_of(MovesIn.model_validate({"rack": "AEINRS?", "rank_by": "equity", "exchanges": True}), "crossplay") is Cost.INSTANT
    assert cost_of(MovesIn.model_validate({"rack": "AEINRS?", "rank_by": "equity", "limit": 21}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEINR??"}), "crossplay") is Cost.INSTANT  # the compiled core (issue 23)
    assert cost_of(MovesIn.model_validate({"rack": "AEINR??", "limit": 21}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEINR??", "rank_by": "equity"}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEIN???"}), "crossplay") is Cost.INSTANT  # within the loop's budget
    assert cost_of(MovesIn.model_validate({"rack": "AEIN???", "limit": 21}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEIN???", "rank_by": "equity", "limit": 100}), "crossplay") is Cost.CHEAP
    assert cost_of(MovesIn.model_validate({"rack": "AEIN???", "limit": 101}), "crossplay") is Cost.EXPENSIVE
    assert cost_of(MovesIn.model_validate({"rack": "AEINRST", "count": True}), "crossplay") is Cost.EXPENSIVE
    assert cost_of(MovesIn.model_validate({"rack": "AEINRST", "limit": 101}), "crossplay") is Cost.EXPENSIVE
    assert cost_of(MovesIn.model_validate({"rack": "AEINRST", "filters": {}}), "crossplay") is Cost.EXPENSIVE


def test_two_blanks_are_expensive_for_the_pure_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference walks a two-blank rack in hundreds to thousands of times the compiled core's time."""
    import app.limits

    monkeypatch.setattr(app.limits.search, "instant", lambda: False)
    assert cost_of(MovesIn.model_validate({"rack": "AEINR??"}), "crossplay") is Cost.EXPENSIVE
    assert cost_of(MovesIn.model_validate({"rack": "AEINRS?"}), "crossplay") is Cost.INSTANT  # app.deps.solve: a lane


def test_a_full_queue_refuses_at_once() -> None:
    lane = Lane("cheap", slots=1, queue=1, wait=5)

    async def main() -> list[object]:
        gate = threading.Event()
        first = asyncio.ensure_future(lane.run(lambda: gate.wait(5)))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(lane.run(lambda: "second"))
        await asyncio.sleep(0.05)
        start = time.monotonic()
        with pytest.raises(Busy) as refused:
            await lane.run(lambda: "third")
        assert time.monotonic() - start < 0.05  # at once, not after the wait
        assert refused.value.lane == "cheap"
        gate.set()
        return list(await asyncio.gather(first, second))

    assert asyncio.run(main()) == [True, "second"]
    assert lane.running == 0 and lane.queued == 0


def test_a_job_raising_stop_iteration_fails_its_request_and_frees_its_slot() -> None:
    """A future cannot be settled with StopIteration: passed on as it was, the waiting task
    waited for good and kept its slot (found by review)."""
    lane = Lane("cheap", slots=1, queue=0, wait=1)

    async def main() -> str:
        with pytest.raises(RuntimeError, match="StopIteration"):
            await asyncio.wait_for(lane.run(lambda: next(iter(()))), 5)
        return await asyncio.wait_for(lane.run(lambda: "next"), 5)

    assert asyncio.run(main()) == "next"
    assert lane.running == 0 and lane.queued == 0


def test_a_waiter_gives_up_after_its_wait_and_holds_no_thread() -> None:
    lane = Lane("expensive", slots=1, queue=100, wait=0.2)

    async def main() -> tuple[int, float]:
        gate = threading.Event()
        first = asyncio.ensure_future(lane.run(lambda: gate.wait(5)))
        await asyncio.sleep(0.05)
        start = time.monotonic()
        waiting = [asyncio.ensure_future(lane.run(lambda: None)) for _ in range(50)]
        await asyncio.sleep(0.05)
        threads = threading.active_count()
        results = await asyncio.gather(*waiting, return_exceptions=True)
        took = time.monotonic() - start
        gate.set()
        await first
        assert all(isinstance(r, Busy) for r in results)
        return threads, took

    before = threading.active_count()
    threads, took = asyncio.run(main())
    assert threads <= before + 2  # 50 waiters, no thread each
    assert 0.15 < took < 1.0
    assert lane.running == 0 and lane.queued == 0


def test_a_released_slot_goes_to_the_longest_waiter() -> None:
    lane = Lane("cheap", slots=1, queue=10, wait=5)
    order: list[int] = []

    async def main() -> None:
        gate = threading.Event()
        first = asyncio.ensure_future(lane.run(lambda: gate.wait(5)))
        await asyncio.sleep(0.02)
        rest = []
        for k in range(5):
            rest.append(asyncio.ensure_future(lane.run(lambda k=k: order.append(k))))  # type: ignore[misc]
            await asyncio.sleep(0.01)
        gate.set()
        await asyncio.gather(first, *rest)

    asyncio.run(main())
    assert order == [0, 1, 2, 3, 4]


def test_cheap_work_keeps_its_capacity_while_the_expensive_lane_is_full() -> None:
    gate = Gate(1, wait=0.1, cheap_slots=1, queue=0)
    with gate.admit(True):  # the expensive slot taken, no queue
        with pytest.raises(Busy):
            with gate.admit(True):
                pass

        async def cheap() -> str:
            return await gate.lane(Cost.CHEAP).run(lambda: "served")

        assert asyncio.run(cheap()) == "served"


def test_one_blank_score_is_served_off_the_loop_while_expensive_slots_are_taken() -> None:
    with started(create_app(Settings(max_expensive=1, expensive_wait=0.1, max_queued=0))) as c:
        gate = c.app.state.gate  # type: ignore[attr-defined]
        with gate.admit(True):
            busy = c.post("/v1/games/crossplay/moves", json={"rack": "AEIRST?", "count": True})
            assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
            assert busy.json()["error"]["details"]["lane"] == "expensive"
            r = c.post("/v1/games/crossplay/score", json={"play": "8D QUIXOTe", "rack": "QUIXOT?"})
            assert r.status_code == 200, r.text
            assert r.json()["rank"] is not None
