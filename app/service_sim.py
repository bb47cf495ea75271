"""What ``POST /v1/games/{game}/simulate`` and ``wordsolver sim`` compute, free of HTTP."""

from __future__ import annotations

import threading
from collections.abc import Iterator

from engine import GAMES, Lexicon, Ruleset, position
from engine.cgp import parse_cgp
from engine.game import game_rules
from engine.strategy import leaves
from engine.strategy import simulate as sim

from .request_errors import RequestError
from .schemas_sim import SimulateIn
from .settings import Settings


class Prepared:
    """What a run needs, made before the answer starts."""

    def __init__(self, lex: Lexicon, setup: sim.Setup, params: sim.Params, cands: list, meta: dict) -> None:
        self.lex, self.setup, self.params, self.cands, self.meta = lex, setup, params, cands, meta


def check_offered(rules: Ruleset) -> None:
    """Refuse a game without leave values (Upwords): no simulation can run for it, so the
    route asks this before it waits for a slot of the expensive lane (a 4xx, never 503 busy)."""
    if not leaves.available(rules.name):
        raise leaves.NoLeaveValuesError(
            f"{rules.name} has no leave values, so no simulation; offered for "
            f"{', '.join(g for g in GAMES if leaves.available(g))}", game=rules.name)


def prepare(rules: Ruleset, lex: Lexicon, req: SimulateIn, settings: Settings, workers: int | None = None,
            deadline: float | None = None) -> Prepared:
    """The checked setup, the parameters and the candidates (ranked before the run starts, so
    every refusal comes before any answer); ``workers`` overrides the setting, ``deadline``
    (``time.monotonic()``) the candidates' search's (``settings.deadline()`` when None)."""
    check_offered(rules)
    budget = req.seconds if req.seconds is not None else settings.sim_seconds
    if budget > settings.sim_max_seconds:
        raise RequestError(f"seconds {budget} is over this server's limit of {settings.sim_max_seconds} s a simulation",
                           field="seconds", limit_seconds=settings.sim_max_seconds)
    scores, opponent, scoreless = req.scores, req.opponent_rack, 0
    if req.cgp is not None:
        cgp = parse_cgp(req.cgp)
        scores = scores if scores is not None else list(cgp.scores[:2])
        opponent = opponent if opponent is not None else (cgp.racks[1] if len(cgp.racks) > 1 else "")
        scoreless = cgp.zeros  # consecutive scoreless turns: the game may end on them
    grules = game_rules(rules)
    pos = position(rules, req.board, req.rack)
    s = sim.setup(grules, pos, scores or (0, 0), req.bag_size, opponent or "", req.final_turns_left, scoreless)
    params = sim.Params(candidates=req.candidates, plies=req.plies, iterations=req.iterations, seconds=budget,
                        seed=req.seed, workers=settings.sim_workers if workers is None else workers)
    values = leaves.shipped(rules.name)
    cands = sim.candidates_for(s, lex, values, req.candidates, settings.deadline() if deadline is None else deadline)
    meta = {"game": rules.name, "lexicon": lex.name, "plies": req.plies, "seed": req.seed, "bag_size": s.bag_size,
            "win_model": sim.win_source(rules.name)}
    return Prepared(lex, s, params, cands, meta)


def snapshots(p: Prepared, cancel: threading.Event | None = None) -> Iterator[dict]:
    """The run's snapshots in the API's shape (SimulateOut)."""
    values = leaves.shipped(p.setup.rules.name)
    for snap in sim.simulation(p.setup, p.lex, values, p.params, p.cands, cancel=cancel):
        yield snap.to_dict() | p.meta
