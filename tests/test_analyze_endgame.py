"""Game analysis grades the turns played with the bag empty by the endgame solver (issue 19).

Self-play games between greedy players (seeded; greedy play often blows endgames) are written
as GCG, read back and graded; the figures are checked against the solver run independently
on the states of a strict replay of the game."""

from __future__ import annotations

import time
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import cli
from app.main import create_app
from app.settings import Settings
from engine import Lexicon, analyze
from engine.analyze import GameGrade, grade, table
from engine.game import Game, game_rules, replay
from engine.gcg import read_gcg, write_gcg
from engine.strategy.endgame import from_state, solve
from engine.strategy.players import GreedyPlayer
from engine.strategy.selfplay import play_game

# (game, seed) of greedy self-play games with a proved blown endgame among their endgame turns
GAMES = [("scrabble", 8), ("crossplay", 3)]
PASSES = [("scrabble", 5), ("wwf", 1)]  # endgames with passes: the count of scoreless turns matters


@cache
def game_of(name: str, seed: int, lex: Lexicon) -> Game:
    return play_game(game_rules(name), lex, [GreedyPlayer(), GreedyPlayer()], seed)


@cache
def graded(name: str, seed: int, lex: Lexicon) -> GameGrade:
    # a budget a loaded machine still finishes these endgames in (the service's 1 s left the
    # blown endgame of scrabble-8 unproved at load average 11, so the test saw nothing blown)
    budget, analyze.ENDGAME_SECONDS = analyze.ENDGAME_SECONDS, 8.0
    try:
        return grade(read_gcg(write_gcg(game_of(name, seed, lex)), game_rules(name)), lex, 1)
    finally:
        analyze.ENDGAME_SECONDS = budget


@pytest.mark.parametrize(("name", "seed"), GAMES + PASSES)
def test_endgame_turns_carry_the_solvers_figures(name: str, seed: int, lex: Lexicon) -> None:
    rules = game_rules(name)
    game = game_of(name, seed, lex)
    states = replay(game)
    result = graded(name, seed, lex)
    index = [k for k, t in enumerate(game.turns) if t.uses_turn]  # graded turn i is game.turns[index[i]]
    assert len(result.turns) == len(index)
    endgame_turns = [i for i, k in enumerate(index) if states[k].bag_size == 0 and not states[k].over]
    assert endgame_turns and [i for i, t in enumerate(result.turns) if t.endgame] == endgame_turns
    blown = 0
    for i in endgame_turns:
        e = result.turns[i].endgame
        k = index[i]
        assert e is not None
        assert e.points_lost == e.value_best - e.value_played >= 0 and e.blown == (e.points_lost > 0)
        eg = from_state(rules, states[k])
        turn = game.turns[k]
        assert e.other_rack == states[k].racks[1 - turn.player]
        if not e.proved:
            continue
        played = "pass" if turn.move is None else turn.move.notation
        best, mine = solve(eg, lex), solve(eg, lex, first=played)
        assert best.proved and mine.proved
        assert (e.value_best, e.value_played) == (best.value, mine.value)
        assert e.points_lost == best.value - mine.value
        # the solver's best play, forced first, is worth the best value: nothing lost
        assert best.pv and solve(eg, lex, first=best.pv[0].notation).value == e.value_best
        if best.pv[0].move is not None and turn.move is not None and best.pv[0].move.notation == turn.move.notation:
            assert e.points_lost == 0 and not e.blown
        blown += e.blown
    assert blown or (name, seed) in PASSES  # these seeds blow an endgame, proved


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_non_endgame_turns_are_unchanged(name: str, seed: int, lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    with_endgames = graded(name, seed, lex)
    monkeypatch.setattr(analyze, "_endgame_grade", lambda *args, **kwargs: (None, "bag"))
    without = grade(read_gcg(write_gcg(game_of(name, seed, lex)), game_rules(name)), lex, 1)
    assert any(t.endgame for t in with_endgames.turns)
    assert [replace(t, endgame=None) for t in with_endgames.turns] == list(without.turns)
    assert replace(with_endgames, turns=without.turns) == without


def test_each_endgame_solve_is_bounded(lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyze, "ENDGAME_SECONDS", 0.02)
    imported = read_gcg(write_gcg(game_of("scrabble", 8, lex)), game_rules("scrabble"))
    t0 = time.monotonic()
    result = grade(imported, lex, 1)
    plain = time.monotonic() - t0
    marked = [t.endgame for t in result.turns if t.endgame]
    assert marked and all(e.value_best >= e.value_played for e in marked)
    assert not all(e.proved for e in marked)  # the first endgame turns are not proved that fast
    assert plain < 30
    # the whole grade's deadline still holds: past it, endgame turns are noted, not solved
    t0 = time.monotonic()
    short = grade(imported, lex, 1, time.monotonic() + 0.5)
    assert time.monotonic() - t0 < 2
    assert short.cut_short or any("endgame solver (time budget)" in n for n in short.notes) or all(
        t.endgame is not None for t in short.turns if t.endgame is not None)


def test_no_time_for_an_endgame_is_said(lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that values no first move in its budget grades nothing: the turn says null and a note says why."""
    monkeypatch.setattr(analyze, "ENDGAME_SECONDS", 0.0)
    result = grade(read_gcg(write_gcg(game_of("scrabble", 8, lex)), game_rules("scrabble")), lex, 1)
    notes = [n for n in result.notes if "not graded by the endgame solver (time budget)" in n]
    graded_turns = [t for t in result.turns if t.endgame]
    assert notes and len(notes) + len(graded_turns) == len([t for t in graded("scrabble", 8, lex).turns if t.endgame])
    assert all(e.value_best >= e.value_played for e in (t.endgame for t in graded_turns) if e)


def test_cli_marks_blown_endgames(tmp_path: Path, capsys: pytest.CaptureFixture[str], lex: Lexicon) -> None:
    path = tmp_path / "g.gcg"
    path.write_text(write_gcg(game_of("crossplay", 3, lex)))
    assert cli.main(["analyze", "--game", "crossplay", "--best", "1", str(path)]) == 0
    out = capsys.readouterr().out
    e = next(t.endgame for t in graded("crossplay", 3, lex).turns if t.endgame and t.endgame.blown)
    assert e is not None
    assert f"BLOWN -{e.points_lost} ({e.best_play} {e.value_best:+d})" in out and "endgame" in out.splitlines()[0]
    assert table(graded("crossplay", 3, lex)) in out


def test_api_answers_the_endgame_grade(lex: Lexicon) -> None:
    client = TestClient(create_app(Settings()))
    r = client.post("/v1/games/crossplay/analyze", json={"gcg": write_gcg(game_of("crossplay", 3, lex)), "best": 1})
    assert r.status_code == 200, r.text
    turns = r.json()["turns"]
    want = graded("crossplay", 3, lex)
    for got, t in zip(turns, want.turns, strict=True):
        if t.endgame is None:
            assert got["endgame"] is None
        else:
            assert got["endgame"] == {"value_best": t.endgame.value_best, "value_played": t.endgame.value_played,
                                      "points_lost": t.endgame.points_lost, "proved": True,
                                      "best_play": t.endgame.best_play, "blown": t.endgame.blown,
                                      "other_rack": t.endgame.other_rack}
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert "points_lost" in schema["EndgameGradeOut"]["properties"]


@pytest.mark.parametrize(("name", "seed"), GAMES + PASSES)
def test_endgames_are_posed_as_the_replay_has_them(name: str, seed: int, lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver is given the replay's board, racks, scoreless turns and final turns left."""
    rules = game_rules(name)
    game = game_of(name, seed, lex)
    states = replay(game)
    posed: list[tuple] = []
    real = analyze.eg_solver.endgame_of

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        eg, other = real(*args, **kwargs)
        posed.append((eg, other))
        return eg, other

    monkeypatch.setattr(analyze.eg_solver, "endgame_of", spy)
    monkeypatch.setattr(analyze.eg_solver, "solve", lambda eg, lex, deadline=None, first=None: solve(eg, lex, 0.0, first=first))
    grade(read_gcg(write_gcg(game), rules), lex, 0)
    want = [from_state(rules, s) for s, t in zip(states, game.turns, strict=False)
            if t.uses_turn and s.bag_size == 0 and not s.over]
    assert want and [eg for eg, _ in posed] == want
