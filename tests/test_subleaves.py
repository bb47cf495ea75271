"""Leaves measured per sub-rack (``train-leaves --method subleaves``): every sub-rack is
credited once, a planted leave value is recovered, and training is reproducible, resumable and
the same on one worker or two."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from engine.lexicon import Lexicon
from engine.strategy.leaves import dumps, key_counts, leave_key, parse
from engine.strategy.subleaves import SubStats, fit_subleaves, subleaves, train_subleaves


def test_subleaves_are_every_smaller_sub_rack_once() -> None:
    rack = "AEENRS?"
    want = {leave_key(key_counts("".join(c))) for n in range(7) for c in combinations(rack, n)}
    got = subleaves(rack)
    assert len(got) == len(set(got)) and set(got) == want and "" in got and rack not in got
    assert len(subleaves("ABCDEFG")) == 2**7 - 1


def test_fit_recovers_a_planted_leave_value() -> None:
    rng = random.Random(3)
    st = SubStats()
    for _ in range(4000):
        rack = leave_key(key_counts("".join(rng.choice("AEINRSTU") for _ in range(7))))
        milli = 20_000 + (8_000 if "S" in rack else 0) + rng.randint(-500, 500)  # an S is worth 8 points
        st.add(rack, milli)
    v = fit_subleaves(st, "scrabble", "x", {}, log=lambda s: None)
    # holding S: 8 points more than a rack without one; the empty leave is every rack, a share of which has one
    with_s = [r for r in st.n if "S" in r and len(r) == 1]
    assert with_s == ["S"]
    assert v.value("S") == pytest.approx(8 * (1 - st.n["S"] / st.n[""]), abs=0.3)
    assert abs(v.value("T") - v.value("TU")) < 0.8 and v.value("ST") == pytest.approx(v.value("S"), abs=0.8)
    parse(dumps(v), "scrabble")  # a trained file validates like the shipped ones


def test_training_is_reproducible_resumes_and_ignores_workers(tmp_path: Path, lex: Lexicon) -> None:
    quiet = {"log": lambda s: None, "chunk": 2}
    once = train_subleaves("crossplay", lex, 4, 2, 7, tmp_path / "a.json", **quiet)  # type: ignore[arg-type]
    two = train_subleaves("crossplay", lex, 4, 2, 7, tmp_path / "b.json", workers=2, **quiet)  # type: ignore[arg-type]
    assert once.table == two.table and once.weights == two.weights
    train_subleaves("crossplay", lex, 4, 1, 7, tmp_path / "c.json", **quiet)  # type: ignore[arg-type]
    resumed = train_subleaves("crossplay", lex, 4, 2, 7, tmp_path / "c.json", resume=True, **quiet)  # type: ignore[arg-type]
    assert resumed.table == once.table and resumed.weights == once.weights
    assert once.provenance["command"].startswith("wordsolver train-leaves --method subleaves --game crossplay")
    with pytest.raises(ValueError, match="checkpoint"):
        train_subleaves("crossplay", lex, 5, 3, 7, tmp_path / "c.json", resume=True, **quiet)  # type: ignore[arg-type]
