"""Game review's win figures (issue 22): the mover's P(win) after each turn, the P(win) lost
against the best play, and the mistake size. Checked against the win table applied to the
states of an independent strict replay of seeded self-play games."""

from __future__ import annotations

from functools import cache

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from engine import Lexicon
from engine.analyze import GameGrade, grade
from engine.game import Game, game_rules, replay
from engine.gcg import read_gcg, write_gcg
from engine.strategy import winprob
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game
from engine.winreview import LARGE, MEDIUM, SMALL, mistake_size


@cache
def game_of(name: str, seed: int, lex: Lexicon) -> Game:
    return play_game(game_rules(name), lex, [GreedyPlayer(), RandomPlayer(seed)], seed)  # random play makes mistakes


@cache
def graded(name: str, seed: int, lex: Lexicon) -> GameGrade:
    return grade(read_gcg(write_gcg(game_of(name, seed, lex)), game_rules(name)), lex, 2)


@pytest.mark.parametrize(("name", "seed"), [("scrabble", 4), ("crossplay", 2), ("wwf", 3)])
def test_win_figures_are_the_tables_on_the_replayed_states(name: str, seed: int, lex: Lexicon) -> None:
    game = game_of(name, seed, lex)
    states = replay(game)
    table = winprob.shipped(name)
    result = graded(name, seed, lex)
    index = [k for k, t in enumerate(game.turns) if t.uses_turn]
    assert len(result.turns) == len(index) > 10
    for t, k in zip(result.turns, index, strict=True):
        w = t.win
        assert w is not None and 0 <= w.after <= 1
        after = states[k + 1]
        me, other = t.player, 1 - t.player
        spread = after.scores[me] - after.scores[other]
        unseen = after.bag_size + len(after.racks[me])  # what the opponent cannot see
        assert w.after == pytest.approx(1 - table.probability(-spread, unseen), abs=1e-4), t.turn
        assert w.lost is not None and w.lost >= 0
        best = 1 - table.probability(-(spread + (t.points_left or 0)), unseen)
        assert w.lost == pytest.approx(max(best - w.after, 0), abs=1e-4)
        assert w.lost == 0 or (t.points_left or 0) > 0  # only points left on the table lose win %
        assert w.mistake == mistake_size(w.lost)
        if t.rank == 1 or t.points_left == 0:  # the best play (by score) loses nothing
            assert w.lost == 0 and w.mistake is None
    assert any(t.win and t.win.mistake for t in result.turns)  # the random player does lose some


def test_mistake_thresholds() -> None:
    assert (SMALL, MEDIUM, LARGE) == (0.02, 0.05, 0.12)
    assert [mistake_size(x) for x in (None, 0.0, 0.0199, 0.02, 0.0499, 0.05, 0.1199, 0.12, 1.0)] == [
        None, None, None, "small", "small", "medium", "medium", "large", "large"]




def test_upwords_has_no_win_figures(lex: Lexicon) -> None:
    record = write_gcg(play_game(game_rules("upwords"), lex, [GreedyPlayer(), GreedyPlayer()], 1))
    result = grade(read_gcg(record, game_rules("upwords")), lex, 1)
    assert result.turns and all(t.win is None for t in result.turns)
    assert any("no win figures" in n for n in result.notes)


def test_the_api_serves_the_win_figures(lex: Lexicon) -> None:
    client = TestClient(create_app(Settings()))
    body = client.post("/v1/games/scrabble/analyze", json={"gcg": write_gcg(game_of("scrabble", 4, lex)), "best": 2})
    assert body.status_code == 200, body.text
    turns = body.json()["turns"]
    want = graded("scrabble", 4, lex)
    assert [t["win"]["after"] for t in turns] == [t.win.after for t in want.turns if t.win]
    assert all(set(t["win"]) == {"after", "lost", "mistake"} for t in turns)
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert "not a simulation" in schema["TurnGradeOut"]["properties"]["win"]["description"] or \
        "not a simulation" in str(schema["TurnGradeOut"]["properties"]["win"])
