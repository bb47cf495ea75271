"""Win-probability tables: the shipped files validate, the model is fitted right, and a
damaged or implausible file is refused (engine.strategy.winprob, train_winprob)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine import RulesetError
from engine.game import game_rules
from engine.lexicon import Lexicon
from engine.strategy.players import EquityPlayer
from engine.strategy.selfplay import play_game
from engine.strategy.train_winprob import Counts, calibration, collect, fit_logistic, fit_table, positions
from engine.strategy.winprob import GAMES, SCALE, checksum, decided, dumps, full_unseen, parse, shipped

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", GAMES)
def test_shipped_tables_load_and_answer_sensibly(game: str) -> None:
    t = shipped(game)
    assert t.game == game and t.provenance["games"] >= 500 and "command" in t.provenance
    top = full_unseen(game)
    assert abs(t.probability(0, top) - 0.5) <= 0.1
    for u in (1, 7, 20, 50, top):
        ps = [t.probability(s, u) for s in range(-400, 401, 5)]
        assert all(b >= a for a, b in zip(ps, ps[1:], strict=False))  # monotone in spread
        edge = 0.05 if u <= 50 else 0.15  # a 300-point deficit at the start is unheard of: less certain
        assert ps[0] < edge and ps[-1] > 1 - edge
    # a lead is worth more the fewer tiles are left to play
    assert t.probability(30, 5) > t.probability(30, 60)
    assert t.probability(-30, 5) < t.probability(-30, 60)
    assert t.probability(10_000, 500) == t.probability(t.max_spread, t.max_unseen)  # clamped
    assert t.probability(1, 0) == 1.0  # the player to move leads and nobody else can score


def test_decided_positions_per_game() -> None:
    for game in ("scrabble", "wwf"):
        t = shipped(game)
        assert [t.probability(s, 0) for s in (-5, 0, 5)] == [0.0, 0.5, 1.0]
    t = shipped("crossplay")
    assert t.probability(5, 0) == 1.0
    assert 0.0 < t.probability(-5, 0) < 1.0  # a final turn can still catch up: not decided
    assert decided("crossplay", -5, 0) is None and decided("scrabble", 3, 1) is None


def test_interpolates_between_whole_spreads() -> None:
    t = shipped("scrabble")
    lo, hi = t.probability(10, 30), t.probability(11, 30)
    assert t.probability(10.5, 30) == pytest.approx((lo + hi) / 2)


def test_upwords_has_no_table() -> None:
    with pytest.raises(RulesetError, match="no win-probability table"):
        shipped("upwords")


def resigned(data: dict) -> str:
    body = {k: v for k, v in data.items() if k != "sha256"}
    return json.dumps({**body, "sha256": checksum(body)})


def test_damaged_or_implausible_files_are_refused() -> None:
    text = dumps(shipped("wwf"))
    assert parse(text, "wwf").rows == shipped("wwf").rows
    with pytest.raises(RulesetError, match="checksum"):
        parse(text.replace('"rows":[[', '"rows":[[1,', 1), "wwf")
    with pytest.raises(RulesetError, match="not 'scrabble'"):
        parse(text, "scrabble")
    with pytest.raises(RulesetError, match="not JSON"):
        parse(text[:1000], "wwf")
    data = json.loads(text)
    rows = data["rows"]
    bumped = [r[:] for r in rows]
    bumped[20][100] = bumped[20][101] + 1  # goes down as the spread grows
    with pytest.raises(RulesetError, match="decreases"):
        parse(resigned({**data, "rows": bumped}), "wwf")
    wrong = [r[:] for r in rows]
    wrong[0] = [SCALE // 2] * len(wrong[0])  # the game is over at 0 unseen: not a coin flip
    with pytest.raises(RulesetError, match="decided"):
        parse(resigned({**data, "rows": wrong}), "wwf")
    biased = [[min(SCALE, v + 3000) for v in r] for r in rows]
    biased[0] = rows[0]
    with pytest.raises(RulesetError, match="about 1/2"):
        parse(resigned({**data, "rows": biased}), "wwf")
    with pytest.raises(RulesetError, match="rows"):
        parse(resigned({**data, "rows": rows[:10]}), "wwf")
    with pytest.raises(RulesetError, match="integer"):
        parse(resigned({**data, "rows": [[*r[:-1], 1.5] for r in rows]}), "wwf")


def test_the_fit_recovers_a_planted_curve() -> None:
    rng = random.Random(3)
    a, b = 0.3, 1.7  # per 100 points
    data: dict[int, list[float]] = {}
    for _ in range(20_000):
        s = rng.randint(-150, 150)
        p = 1 / (1 + math.exp(-(a + b * s / 100)))
        c = data.setdefault(s, [0, 0.0])
        c[0] += 1
        c[1] += rng.random() < p
    fa, fb = fit_logistic([(s / 100, int(n), w) for s, (n, w) in data.items()])
    assert fa == pytest.approx(a, abs=0.06) and fb == pytest.approx(b, abs=0.1)


def test_fit_table_is_monotone_and_sets_decided_cells() -> None:
    rng = random.Random(5)
    counts = Counts(games=1)
    for _ in range(30_000):
        u = rng.randint(0, full_unseen("scrabble"))
        s = rng.randint(-200, 200)
        scale = 20 + 2 * u  # spread matters more with fewer tiles left
        counts.add(u, s, float(rng.random() < 1 / (1 + math.exp(-s / scale))))
    t = fit_table("scrabble", counts, {"games": 1})
    assert t.rows[0][t.max_spread] == SCALE // 2 and t.rows[0][t.max_spread + 1] == SCALE
    assert t.probability(40, 5) > t.probability(40, 80) > 0.5
    fitted = calibration(t, counts)
    assert fitted["samples"] == 30_000 and fitted["log_loss"] < math.log(2)
    parse(dumps(replace(t, provenance={"games": 1})), "scrabble")  # what the fit writes loads


def test_the_first_turns_spread_of_zero_does_not_narrow_the_top_rows_window() -> None:
    """Every first turn is at spread 0: those samples say nothing of a curve's slope, so the top
    row's window must gather its samples from rows with leads, as far down as it takes. Counted
    with the spread-0 samples, the window stopped at the flat rows just below the top (the
    shipped Scrabble table then said P(win) = 0.20 at 300 points down before the first turn)."""
    rng = random.Random(3)
    top = full_unseen("scrabble")
    counts = Counts(games=1000)
    for _ in range(1000):
        counts.add(top, 0, float(rng.random() < 0.53))
    for u in range(top - 13, top - 4):  # 250 samples a row: flat just below the top, steep further down
        scale = 150 if u >= top - 8 else 20
        for _ in range(250):
            s = rng.choice((-1, 1)) * rng.randint(1, 80)
            counts.add(u, s, float(rng.random() < 1 / (1 + math.exp(-s / scale))))
    t = fit_table("scrabble", counts, {"games": 1})
    assert t.model["window"][top] == 13  # rows top-12 .. top: the 2,000 samples with a lead
    assert t.probability(-300, top) < 0.05 and t.probability(0, top) == pytest.approx(0.53, abs=0.05)


def test_positions_of_a_game(lex: Lexicon) -> None:
    rules = game_rules("crossplay")
    p = EquityPlayer()
    g = play_game(rules, lex, [p, p], 4, first=0)
    got = positions(g)
    assert len(got) == sum(1 for t in g.turns if t.uses_turn)
    assert got[0] == (full_unseen("crossplay"), 0, got[0][2])
    final = g.final_scores()
    assert got[0][2] == (1.0 if final[0] > final[1] else 0.5 if final[0] == final[1] else 0.0)
    assert all(0 <= u <= full_unseen("crossplay") for u, _, _ in got)
    again = collect("crossplay", lex, 2, 4, log=lambda s: None)
    assert again.to_dict() == collect("crossplay", lex, 2, 4, log=lambda s: None).to_dict()
    assert Counts.from_dict(json.loads(json.dumps(again.to_dict()))).cells == again.cells


def test_the_tool_refits_from_saved_counts(tmp_path: Path) -> None:
    rng = random.Random(8)
    counts = Counts("wwf", 9, games=7)
    for _ in range(20_000):
        u, s = rng.randint(0, full_unseen("wwf")), rng.randint(-100, 100)
        counts.add(u, s, float(rng.random() < 1 / (1 + math.exp(-s / 30))))
    data = tmp_path / "counts.json"
    data.write_text(json.dumps(counts.to_dict()))
    out = tmp_path / "wwf-winprob.json"
    done = subprocess.run([sys.executable, "tools/train_winprob.py", "--game", "wwf", "--refit", "--data", str(data),
                           "--seed", "9", "--output", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    t = parse(out.read_text(), "wwf")
    assert t.provenance["games"] == 7 and t.provenance["seed"] == 9 and t.provenance["fit"]["samples"] == 20_000
    assert t.probability(30, 40) == pytest.approx(1 / (1 + math.exp(-1)), abs=0.03)
