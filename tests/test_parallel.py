"""Self-play on several processes: the same seed gives the same games and results for any
number of workers (engine.strategy.parallel)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from app import cli
from engine.game import game_rules
from engine.gcg import write_gcg
from engine.lexicon import Lexicon
from engine.strategy.abtest import ab_test
from engine.strategy.leaves import dumps
from engine.strategy.parallel import batch_size, batches, run_ordered
from engine.strategy.players import EquityPlayer, GreedyPlayer
from engine.strategy.selfplay import Summary, play_games
from engine.strategy.train_leaves import train


@dataclass(frozen=True)
class Square:
    offset: int

    def __call__(self, k: int) -> tuple[int, int]:
        return k, k * k + self.offset


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_results_come_back_in_unit_order(workers: int) -> None:
    got = list(run_ordered(Square(5), 3, 70, workers))
    assert got == [(k, k * k + 5) for k in range(3, 70)]
    assert list(run_ordered(Square(0), 4, 4, workers)) == []


def test_batches_cover_the_range_once() -> None:
    for start, stop, size in [(0, 10, 3), (5, 6, 16), (0, 100, batch_size(100, 2))]:
        flat = [k for b in batches(start, stop, size) for k in b]
        assert flat == list(range(start, stop))
    assert 1 <= batch_size(1, 8) <= batch_size(10_000, 2) <= 16
    with pytest.raises(ValueError, match="at least 1"):
        list(run_ordered(Square(0), 0, 3, 0))


def same_summary(a: Summary, b: Summary) -> bool:
    timing = {"moves_per_second", "games_per_minute", "seconds"}
    da, db = a.to_dict(), b.to_dict()
    return all(da[k] == db[k] for k in da if k not in timing)


@pytest.mark.parametrize("mirrored", [False, True])
def test_selfplay_is_the_same_for_one_and_two_workers(lex: Lexicon, mirrored: bool) -> None:
    rules = game_rules("crossplay")
    games: dict[int, list[str]] = {1: [], 2: []}
    s = {w: play_games(rules, lex, ["equity", "greedy"], 6, seed=11, mirrored=mirrored, workers=w,
                       on_game=lambda k, g, w=w: games[w].append(write_gcg(g, f"{k}")))  # type: ignore[misc]
         for w in (1, 2)}
    assert same_summary(s[1], s[2])
    assert games[1] == games[2] and len(games[1]) == 6


def test_ab_is_the_same_for_one_and_two_workers(lex: Lexicon) -> None:
    rules = game_rules("wwf")
    one = ab_test(rules, lex, EquityPlayer(), GreedyPlayer(), 5, 3, workers=1)
    two = ab_test(rules, lex, EquityPlayer(), GreedyPlayer(), 5, 3, workers=2)
    assert {**one.to_dict(), "seconds": 0} == {**two.to_dict(), "seconds": 0}


def test_training_is_the_same_for_one_and_two_workers_and_resumes_across_them(tmp_path: Path, lex: Lexicon) -> None:
    def text(v: object) -> str:
        d = dumps(v)  # type: ignore[arg-type]
        return d.replace(v.provenance["date"], "")  # type: ignore[attr-defined]

    one = train("scrabble", lex, 6, 2, 4, tmp_path / "a.json", chunk=4, log=lambda s: None, workers=1)
    two = train("scrabble", lex, 6, 2, 4, tmp_path / "b.json", chunk=4, log=lambda s: None, workers=2)
    assert text(one) == text(two)
    train("scrabble", lex, 6, 1, 4, tmp_path / "c.json", chunk=4, log=lambda s: None, workers=2)
    resumed = train("scrabble", lex, 6, 2, 4, tmp_path / "c.json", chunk=4, resume=True, log=lambda s: None, workers=1)
    assert text(resumed) == text(one)

    class Stop(Exception):
        pass

    def stop_mid_round(line: str) -> None:
        if line.startswith("round 2: 4/6"):
            raise Stop  # interrupted after the first checkpoint of round 2

    with pytest.raises(Stop):
        train("scrabble", lex, 6, 2, 4, tmp_path / "d.json", chunk=4, log=stop_mid_round, workers=1)
    resumed = train("scrabble", lex, 6, 2, 4, tmp_path / "d.json", chunk=4, resume=True, log=lambda s: None, workers=2)
    assert text(resumed) == text(one)


def test_cli_workers_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["selfplay", "--game", "wwf", "--games", "2", "--workers", "2", "--json"]) == 0
    with pytest.raises(SystemExit):
        cli.main(["ab", "--game", "wwf", "--pairs", "1", "--workers", "0"])
    assert "at least 1" in capsys.readouterr().err


def test_a_csv_leave_table_is_read_as_an_opponent(tmp_path: Path, lex: Lexicon, capsys: pytest.CaptureFixture[str]) -> None:
    import gzip

    from engine import RulesetError
    from engine.strategy.leaves import from_csv, read_file

    text = "leave,value\nS,8.5\nERS?,30.25\nAEINST,33.8\nQ,-7\nAEINRST,50\nZZ,-1\n"
    v = from_csv(text, "scrabble", "t.csv")
    assert v.value("S") == 8.5 and v.value("?RES") == 30.25 and v.value("TSNIEA") == 33.8 and v.value("Q") == -7
    assert v.value("B") == 0  # not in the table, no model
    assert "AEINRST" not in v.table and "ZZ" not in v.table  # a full rack; more Zs than Scrabble has
    for bad in ("leave,value\nSE,1\n", "leave,value\nES,x\n", "S,1\n"):
        with pytest.raises(RulesetError):
            from_csv(bad, "scrabble", "bad.csv")
    path = tmp_path / "t.csv.gz"
    path.write_bytes(gzip.compress(text.encode()))
    assert read_file(path, "scrabble").table == v.table
    assert cli.main(["ab", "--game", "scrabble", "--pairs", "2", "--against", str(path), "--workers", "2", "--json"]) == 0
    res = json_last(capsys.readouterr().out)
    assert res["games"] == 4 and res["b"] == f"equity({path})"
    assert cli.main(["ab", "--game", "scrabble", "--pairs", "1", "--against", str(tmp_path / "missing.csv")]) == 2


def json_last(out: str) -> dict:
    import json

    return json.loads(out.splitlines()[-1])  # type: ignore[no-any-return]
