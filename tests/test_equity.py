"""Leave values, ranking by equity, exchanges, the equity player, training and the A/B run."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import cli
from app.main import create_app
from app.schemas import MovesOut
from app.settings import Settings
from engine import RulesetError, position
from engine.game import EXCHANGE, PASS, PLAY, game_rules, replay, tile_counts
from engine.lexicon import Lexicon
from engine.plays import MoveFilter, matches, materialise
from engine.search import every_play
from engine.strategy.abtest import ab_test
from engine.strategy.equity import Candidate, LeaveTable, default_bag_size, end_leave_milli, rank_by_equity
from engine.strategy.leaves import LeaveValues, dumps, features, key_counts, leave_key, parse, shipped, unload, zero
from engine.strategy.players import EquityPlayer, GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game, view_for
from engine.strategy.train_leaves import Stats, fit, train
from engine.tiles import unseen_tiles

LEAVE_GAMES = ("crossplay", "scrabble", "wwf")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# ----------------------------------------------------------------------------- leave values


@pytest.mark.parametrize("game", LEAVE_GAMES)
def test_shipped_files_load_and_validate(game: str) -> None:
    v = shipped(game)
    assert v.game == game and v.lexicon == "word-list"
    text = Path(f"engine/strategy/leavedata/{game}.json").read_text()
    assert len(text) < 2_000_000
    again = parse(text, game)
    assert again.table == v.table and again.weights == v.weights
    assert {"games", "rounds", "seed", "date", "lexicon"} <= set(v.provenance)


@pytest.mark.parametrize("game", LEAVE_GAMES)
def test_a_leave_is_valued_the_same_whatever_the_tile_order(game: str) -> None:
    v = shipped(game)
    rng = random.Random(game)
    tiles = "".join(ch * 2 for ch in LETTERS) + "??"
    for _ in range(300):
        leave = "".join(rng.sample(tiles, rng.randint(1, 6)))
        shuffled = "".join(rng.sample(leave, len(leave)))
        assert v.value(leave) == v.value(shuffled) == v.value(leave.lower())
        assert v.milli(tile_counts(leave)) == v.milli(tile_counts(shuffled))
    assert v.milli([0] * 27) == 0


def test_corrupt_or_incomplete_files_are_refused() -> None:
    good = dumps(shipped("crossplay"))
    data = json.loads(good)
    data["table"]["S"] += 1  # changed without a new checksum
    with pytest.raises(RulesetError, match="checksum"):
        parse(json.dumps(data), "crossplay")
    with pytest.raises(RulesetError, match="not 'scrabble'"):
        parse(good, "scrabble")
    with pytest.raises(RulesetError, match="format"):
        parse("{}", "crossplay")
    with pytest.raises(RulesetError, match="not JSON"):
        parse(good[:100], "crossplay")
    v = shipped("crossplay")
    missing = LeaveValues("crossplay", "x", v.weights, {k: x for k, x in v.table.items() if k != "Q"})
    with pytest.raises(RulesetError, match="single-tile leaves missing from the table: Q"):
        parse(dumps(missing), "crossplay")
    odd = LeaveValues("crossplay", "x", v.weights, {**v.table, "SA": 5})
    with pytest.raises(RulesetError, match="canonical"):
        parse(dumps(odd), "crossplay")
    with pytest.raises(RulesetError, match="bytes"):
        parse(" " * 5_000_000, "crossplay")


def test_features_count_duplicates_balance_and_qu() -> None:
    assert features(key_counts("EEQU?")) == ["?1", "E1", "E2", "Q1", "U1", "vc3,1", "QU"]
    assert leave_key(key_counts("?SE")) == "ES?"


# ----------------------------------------------------------------------------- ranking by equity


def brute_force(pos, lex, values, rules, bag, unseen, limit, exchanges, flt=None):  # type: ignore[no-untyped-def]
    """Every legal play valued and sorted, with no pruning."""
    table = LeaveTable(values, rules, pos.rack, bag, unseen)
    cands = []
    for raw in every_play(pos, lex):
        if flt is not None and not matches(pos.rules, pos.cells, raw, flt):
            continue
        milli = table.values.values[table.values.index(raw[5])]
        move = materialise(pos.rules, pos.cells, raw)
        cands.append(Candidate(PLAY, move, "", "", raw[0], milli))
    from engine.strategy.equity import other_candidates

    cands += other_candidates(table, rules, bag, exchanges, exchanges)
    cands.sort(key=Candidate.sort_key)
    return [(c.kind, c.move.notation if c.move else c.thrown, c.equity_milli) for c in cands[:limit]]


@pytest.mark.parametrize("game", LEAVE_GAMES)
def test_equity_top_matches_an_unpruned_ranking_in_real_games(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    values = shipped(game)
    g = play_game(rules, lex, [RandomPlayer(3), GreedyPlayer()], 11, first=0)
    states = replay(g)
    checked = 0
    for state in states[::3]:
        if state.over or not state.racks[state.to_move]:
            continue
        view = view_for(rules, state, lex)
        for limit, exchanges in ((1, False), (5, True), (20, False)):
            for bag, count in ((view.bag_size, True), (view.bag_size, False), (0, False)):  # bag 0: end rules
                got, _ = rank_by_equity(view.position, lex, values, rules, bag, view.unseen, limit, exchanges,
                                        count=count)
                want = brute_force(view.position, lex, values, rules, bag, view.unseen, limit, exchanges)
                assert [(c.kind, c.move.notation if c.move else c.thrown, c.equity_milli) for c in got] == want
            checked += 1
        rack = list(view.position.rack)
        for _ in range(2):  # the same board with one and two tiles turned into blanks (the pre-pass path)
            held = [i for i in range(1, 27) if rack[i]]
            if not held:
                break
            rack[held[0]] -= 1
            rack[0] += 1
            pos = replace(view.position, rack=list(rack))
            for count in (True, False):
                got, _ = rank_by_equity(pos, lex, values, rules, view.bag_size, view.unseen, 10, True, count=count)
                want = brute_force(pos, lex, values, rules, view.bag_size, view.unseen, 10, True)
                assert [(c.kind, c.move.notation if c.move else c.thrown, c.equity_milli) for c in got] == want
    assert checked >= 9


@pytest.mark.parametrize("flt", [MoveFilter(min_length=5), MoveFilter(contains="E"), MoveFilter(no_blanks=True),
                                 MoveFilter(square=(8, 8))])
def test_equity_top_with_filters_matches_an_unpruned_ranking(lex: Lexicon, flt: MoveFilter) -> None:
    rules = game_rules("scrabble")
    values = shipped("scrabble")
    g = play_game(rules, lex, [RandomPlayer(5), GreedyPlayer()], 21, first=0)
    for state in replay(g)[2::4]:
        if state.over or not state.racks[state.to_move]:
            continue
        view = view_for(rules, state, lex)
        rack = list(view.position.rack)
        held = [i for i in range(1, 27) if rack[i]]
        rack[held[-1]] -= 1
        rack[0] += 1  # one blank, so no_blanks filters something
        pos = replace(view.position, rack=rack)
        for count in (True, False):
            got, _ = rank_by_equity(pos, lex, values, rules, view.bag_size, view.unseen, 10, False, flt=flt, count=count)
            want = brute_force(pos, lex, values, rules, view.bag_size, view.unseen, 10, False, flt)
            assert [(c.kind, c.move.notation if c.move else c.thrown, c.equity_milli) for c in got] == want


def test_pruning_falls_back_when_a_low_score_keeps_a_great_leave(lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a huge value on one leave the pruned search must reach plays far below the score top."""
    rules = game_rules("crossplay")
    base = shipped("crossplay")
    values = LeaveValues("crossplay", "x", base.weights, {**base.table, "ERS": 500_000})
    pos = position(rules.ruleset, None, "ERSQUIT")
    seen = unseen_tiles(pos)
    unseen = [seen.counts["?"]] + [seen.counts[ch] for ch in LETTERS]
    got, _ = rank_by_equity(pos, lex, values, rules, 50, unseen, limit=3)
    assert all(c.kept == "ERS" for c in got)
    assert got == sorted(got, key=Candidate.sort_key)
    assert [c.equity_milli for c in got] == [x[2] for x in brute_force(pos, lex, values, rules, 50, unseen, 3, False)]


def test_end_rules_per_game() -> None:
    unseen = tile_counts("QZ")
    kept = tile_counts("EA")
    assert end_leave_milli(game_rules("scrabble"), [0] * 27, unseen) == 2000 * 20
    assert end_leave_milli(game_rules("scrabble"), kept, unseen) == -2000 * 2
    assert end_leave_milli(game_rules("crossplay"), kept, unseen) == 0
    assert default_bag_size(game_rules("scrabble"), 20) == 13
    assert default_bag_size(game_rules("scrabble"), 5) == 0


# ----------------------------------------------------------------------------- the API


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


def moves(client: TestClient, game: str = "crossplay", **body: Any) -> dict[str, Any]:
    r = client.post(f"/v1/games/{game}/moves", json=body)
    assert r.status_code == 200, r.text
    MovesOut.model_validate(r.json())
    return r.json()


@pytest.mark.parametrize("game", LEAVE_GAMES)
def test_equity_is_score_plus_leave_value_for_every_play(client: TestClient, game: str) -> None:
    body = moves(client, game, rack="AEQSUV?", rank_by="equity", limit=30, exchanges=True)
    values = shipped(game)
    assert body["equity"]["bag_size"] == 100 - 14 if game == "crossplay" else body["equity"]["bag_size"] > 0
    for m in body["moves"]:
        assert m["equity"] == pytest.approx(m["score"] + m["leave_value"], abs=1e-9)
        assert m["leave_value"] == values.value(m["leave"])
    ranks = sorted([m["rank"] for m in body["moves"]] + [x["rank"] for x in body["exchanges"]])
    assert ranks == list(range(1, len(ranks) + 1))
    by_rank = sorted([*body["moves"], *body["exchanges"]], key=lambda x: x["rank"])
    eq = [x["equity"] for x in by_rank]
    assert eq == sorted(eq, reverse=True)
    plain = moves(client, game, rack="AEQSUV?")
    assert "equity" not in plain["moves"][0] and "exchanges" not in plain


def test_exchanges_need_enough_tiles_in_the_bag(client: TestClient) -> None:
    rack = "UUUVVWQ"  # a rack worth throwing back: exchanges rank near the top
    with_bag = moves(client, rack=rack, rank_by="equity", exchanges=True, bag_size=7, limit=200)
    kinds = {x["kind"] for x in with_bag["exchanges"]}
    assert "exchange" in kinds
    assert all(len(x["thrown"]) + len(x["kept"]) == 7 for x in with_bag["exchanges"])
    for bag in (6, 1, 0):
        few = moves(client, rack=rack, rank_by="equity", exchanges=True, bag_size=bag, limit=200)
        assert {x["kind"] for x in few["exchanges"]} <= {"pass"}
    late = moves(client, game="scrabble", rack=rack, rank_by="equity", exchanges=True, bag_size=0, limit=200)
    assert "bag empty" in late["equity"]["end_rule"]


def test_equity_errors(client: TestClient) -> None:
    r = client.post("/v1/games/upwords/moves", json={"rack": "AEIRST", "rank_by": "equity"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "no_leave_values"
    r = client.post("/v1/games/crossplay/moves", json={"rack": "AEIRST", "exchanges": True})
    assert r.status_code == 422 and r.json()["error"]["details"]["field"] == "exchanges"
    r = client.post("/v1/games/crossplay/moves", json={"rack": "AEIRST", "rank_by": "equity", "bag_size": 95})
    assert r.status_code == 422 and r.json()["error"]["details"]["field"] == "bag_size"
    r = client.post("/v1/games/crossplay/moves", json={"rack": "AEIRST", "rank_by": "leave"})
    assert r.status_code == 422


def test_equity_with_a_cgp_position(client: TestClient) -> None:
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AELNOQT/ 0/0 0"
    body = moves(client, "scrabble", cgp=cgp, rank_by="equity", limit=3)
    assert body["moves"][0]["rank"] == 1 and body["equity"]["bag_size"] == 86


# ----------------------------------------------------------------------------- players, training, CLI


@pytest.mark.parametrize("game", LEAVE_GAMES)
def test_the_equity_player_plays_legal_games(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    g = play_game(rules, lex, [EquityPlayer(), GreedyPlayer()], 5)
    replay(g, lex)  # strict: every turn legal, every score right
    assert any(t.kind == PLAY for t in g.turns if t.player == 0)
    assert all(t.kind in (PLAY, EXCHANGE, PASS) for t in g.turns if t.uses_turn)


def test_training_is_reproducible_and_resumes(tmp_path: Path, lex: Lexicon) -> None:
    once = train("crossplay", lex, 4, 2, 7, tmp_path / "a.json", log=lambda s: None)
    again = train("crossplay", lex, 4, 2, 7, tmp_path / "b.json", log=lambda s: None)
    assert dumps(once).replace(once.provenance["date"], "") == dumps(again).replace(again.provenance["date"], "")
    train("crossplay", lex, 4, 1, 7, tmp_path / "c.json", log=lambda s: None)
    resumed = train("crossplay", lex, 4, 2, 7, tmp_path / "c.json", resume=True, log=lambda s: None)
    assert resumed.table == once.table and resumed.weights == once.weights
    parse(dumps(resumed), "crossplay")  # a trained file validates like the shipped ones
    with pytest.raises(ValueError, match="games per round"):
        train("crossplay", lex, 5, 3, 7, tmp_path / "c.json", resume=True, log=lambda s: None)


def test_fit_recovers_a_planted_leave_value() -> None:
    stats = Stats()
    rng = random.Random(1)
    for _ in range(3000):
        leave = tile_counts("".join(rng.choice("AEINRST") for _ in range(rng.randint(1, 3))))
        y = 20 + (8 if leave[19] else 0) + rng.gauss(0, 1)  # holding an S is worth 8 points
        stats.add(leave, y)
    v = fit(stats, "crossplay", "x", {})
    assert v.value("S") - v.value("T") == pytest.approx(8, abs=0.6)
    assert zero("crossplay").value("S") == 0


def test_ab_counts_mirrored_pairs(lex: Lexicon) -> None:
    res = ab_test(game_rules("wwf"), lex, EquityPlayer(), GreedyPlayer(), 2, 0)
    assert res.wins + res.draws + res.losses == 4
    assert res.win_ci[0] <= res.win_rate <= res.win_ci[1]
    same = ab_test(game_rules("wwf"), lex, GreedyPlayer(), GreedyPlayer(), 2, 0)
    assert same.win_rate == 0.5 and same.spread == 0  # mirrored: identical players split every pair


def test_cli_best_rank_by_equity(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--rack", "UUVVWQE", "--rank-by", "equity", "--exchanges", "--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "equity" in out and "exchange" in out
    assert cli.main(["best", "--rack", "AEIRST", "--game", "upwords", "--rank-by", "equity"]) == 2


def test_cli_train_and_ab(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "wwf.json"
    assert cli.main(["train-leaves", "--game", "wwf", "--games", "2", "--rounds", "1", "--seed", "3",
                     "--checkpoint", str(tmp_path / "ck.json"), "--output", str(out)]) == 0
    parse(out.read_text(), "wwf")
    parse((tmp_path / "wwf.round1.json").read_text(), "wwf")
    assert cli.main(["ab", "--game", "wwf", "--pairs", "1", "--leaves", str(out), "--json"]) == 0
    res = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert res["games"] == 2 and res["b"] == "greedy"
    assert cli.main(["selfplay", "--game", "wwf", "--games", "2", "--players", "equity,greedy"]) == 0


def test_rack_order_does_not_change_the_equity_ranking(client: TestClient) -> None:
    a = moves(client, "scrabble", rack="RSTE?AQ", rank_by="equity", exchanges=True, limit=15, breakdowns=False)
    b = moves(client, "scrabble", rack="?QATSRE", rank_by="equity", exchanges=True, limit=15, breakdowns=False)
    assert a == b


def test_own_leave_values_from_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = LeaveValues("wwf", "mine", {}, {**shipped("wwf").table, "S": 99_000})
    (tmp_path / "wwf.json").write_text(dumps(own))
    monkeypatch.setenv("WORDSOLVER_LEAVE_DIR", str(tmp_path))
    unload()
    try:
        assert shipped("wwf").lexicon == "mine" and shipped("wwf").value("S") == 99
        assert shipped("crossplay").lexicon == "word-list"  # no file there: the shipped one
    finally:
        monkeypatch.delenv("WORDSOLVER_LEAVE_DIR")
        unload()
