"""Leaves that know bingos: the bingo chance is exact (against enumerating every draw), and
the leave model learns its weight and keeps every leave that has it in the table."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from engine.lexicon import Lexicon
from engine.strategy import train_leaves
from engine.strategy.bingo import RACK, bingo_chances
from engine.strategy.leaves import dumps, key_counts, leave_key, parse
from engine.strategy.train_leaves import BINGO, BINGO_FLOOR, Stats, bingo_feature, fit, train

TILES = "AAEEIINRSSTT?"  # a small game: 13 tiles, one blank
KEYS = {"AEINRST", "AEINSST", "EINRSST", "AAEINST"}  # some seven-letter multisets


def small_counts() -> list[int]:
    return key_counts(TILES)


def brute(leave: str) -> float:
    """Every draw of the missing tiles from the pool (tiles told apart), counted."""
    pool = list(TILES)
    for ch in leave:
        pool.remove(ch)
    need = RACK - len(leave)
    draws = list(combinations(range(len(pool)), need))
    hits = sum(1 for d in draws if "".join(sorted(leave + "".join(pool[i] for i in d))) in KEYS)
    return hits / len(draws)


def test_bingo_chances_are_exact() -> None:
    got = bingo_chances(KEYS, small_counts())
    subs = {leave_key(key_counts("".join(c))) for k in KEYS for n in range(1, RACK) for c in combinations(k, n)}
    assert set(got) == subs
    for leave in sorted(subs):
        assert got[leave] == pytest.approx(brute(leave), abs=1e-12), leave
    assert "Q" not in got  # in no word: no chance, no entry
    assert set(bingo_chances(KEYS, small_counts(), min_chance=0.5)) <= set(got)


def test_real_bingo_leaves_outrank_bad_ones(lex: Lexicon) -> None:
    from engine.rules import get_ruleset
    from engine.strategy.bingo import word_keys

    keys = {k for k in word_keys(lex) if set(k) <= set("ADEGINRSTU")}  # a subset, to stay quick
    ch = bingo_chances(keys, get_ruleset("scrabble").counts)
    assert ch["AEINST"] > ch["EINST"] > ch["GIN"] > ch.get("UU", 0.0)
    assert ch["AEINST"] > 0.3


def test_fit_learns_the_bingo_weight_and_tables_every_leave_that_has_it() -> None:
    rng = random.Random(2)
    letters = "AEILNORST"
    keys = sorted({leave_key(key_counts("".join(rng.sample(letters, rng.randint(1, 5))))) for _ in range(3000)})
    chances = {k: rng.uniform(0, 0.8) for k in keys}  # per leave, not explained by its letters
    chances["II"] = 0.01
    stats = Stats()
    for _ in range(20_000):
        key = rng.choice(keys)
        b = bingo_feature(chances[key])
        y = 20 + 2 * key.count("S") - key.count("O") + 30 * b + rng.gauss(0, 1)  # 30 points per unit of the feature
        stats.add(key_counts(key), y, b)
    v = fit(stats, "scrabble", "x", {}, min_count=10**9, chances=chances)  # no leave valued from its own mean
    assert v.weights[BINGO] == pytest.approx(30_000, rel=0.05)
    assert {k for k in keys if chances[k] > BINGO_FLOOR} <= set(v.table) and "II" not in v.table
    hi, lo = max(keys, key=lambda k: chances[k]), min(keys, key=lambda k: chances[k])
    assert v.value(hi) - v.model_milli(key_counts(hi)) / 1000 == pytest.approx(30 * (chances[hi] - BINGO_FLOOR), abs=1.0)
    assert v.value(lo) == v.model_milli(key_counts(lo)) / 1000  # under the floor: the model alone
    parse(dumps(v), "scrabble")


def test_training_with_the_bingo_feature_resumes_and_records_it(tmp_path: Path, lex: Lexicon,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    chances = {ch: 0.1 + 0.01 * i for i, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")} | {"AEINST": 0.9}
    monkeypatch.setattr(train_leaves, "chances_for", lambda lex, game, floor: chances)
    start = train("wwf", lex, 3, 1, 2, tmp_path / "s.json", log=lambda s: None)
    v = train("wwf", lex, 4, 1, 2, tmp_path / "a.json", log=lambda s: None, bingo=True, start=start, start_name="s.json")
    assert BINGO in v.weights and "AEINST" in v.table
    assert v.provenance["bingo_feature"] is True and v.provenance["start"] == "s.json"
    assert "--bingo --start s.json" in v.provenance["command"]
    with pytest.raises(ValueError, match="bingo"):
        train("wwf", lex, 4, 2, 2, tmp_path / "a.json", resume=True, log=lambda s: None)
    again = train("wwf", lex, 4, 1, 2, tmp_path / "b.json", log=lambda s: None, bingo=True, start=start,
                  start_name="s.json", workers=2)
    assert again.table == v.table and again.weights == v.weights
