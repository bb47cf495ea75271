"""Random and hostile game records and positions: only the engine's own errors, never a crash."""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import EngineError
from engine.analyze import grade
from engine.cgp import parse_cgp, write_cgp
from engine.errors import CGPError, GameRecordError
from engine.game import game_rules
from engine.gcg import read_gcg

NICKS = st.sampled_from(["a", "b", "c", "ann"])
RACKS = st.text(alphabet="AEIRSTQZX?abc1", max_size=10)
POSITIONS = st.sampled_from(["8D", "D8", "8H", "H8", "1A", "A1", "15O", "O15", "8d", "Z9", "0A", "16A", "8", "DD"])
WORDS = st.text(alphabet="AEIRSTQZXae.?-", min_size=0, max_size=9)
SCORES = st.sampled_from(["+0", "+10", "-5", "12", "+x", "--", "-", "-AE", "-3", "(challenge)", "(time)", "(AE)"])
TOKENS = st.one_of(RACKS, POSITIONS, WORDS, SCORES, st.integers(-50, 500).map(str))


@st.composite
def lines(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return f"#player{draw(st.integers(0, 3))} {draw(NICKS)} Name"
    if kind == 1:
        return draw(st.sampled_from(["#note hello", "continued note", "#lexicon NWL23", "#rack1 AEI", "", "#title x"]))
    if kind < 6:  # well-formed play lines near the centre, so records often import and get graded
        word = draw(st.sampled_from(["AT", "TEA", "SEAT", "..T", "aT", "RATES", "S", "QI"]))
        pos = draw(st.sampled_from(["8H", "H8", "8G", "G8", "7H", "H7", "9H", "5E", "E5"]))
        rack = draw(st.sampled_from(["AEIRST?", "AEST", "", "QI"]))
        return f">{draw(st.sampled_from(['a', 'b']))}: {rack} {pos} {word} +{draw(st.integers(0, 30))} {draw(st.integers(0, 90))}"
    toks = draw(st.lists(TOKENS, max_size=6))
    return f">{draw(NICKS)}: " + " ".join(toks)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.lists(lines(), max_size=12), game=st.sampled_from(["scrabble", "crossplay", "upwords"]))
def test_random_records_raise_only_record_errors(text: list[str], game: str, lex) -> None:  # type: ignore[no-untyped-def]
    try:
        imported = read_gcg("\n".join(text), game_rules(game))
    except GameRecordError as exc:
        assert "line" in exc.details
        return
    try:
        grade(imported, lex, best=1, deadline=time.monotonic() + 2)
    except EngineError:
        pass


CGP_CHARS = "0123456789ABCDEFabcz?/ ;-[]lexmcnzbb"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=CGP_CHARS, max_size=80))
def test_random_cgp_raise_only_cgp_errors(text: str) -> None:
    try:
        cgp = parse_cgp(text)
    except CGPError as exc:
        assert exc.details["field"] in ("board", "racks", "scores", "zeros", "operations")
        assert isinstance(exc.details["position"], int)
        return
    assert parse_cgp(write_cgp(cgp)) == cgp


_RECORD: list[str] = []


def _record(lex) -> list[str]:  # type: ignore[no-untyped-def]
    if not _RECORD:
        from engine.gcg import write_gcg
        from engine.strategy.players import GreedyPlayer, RandomPlayer
        from engine.strategy.selfplay import play_game

        game = play_game(game_rules("scrabble"), lex, [RandomPlayer(1), GreedyPlayer()], 1)
        _RECORD.extend(write_gcg(game).splitlines())
    return _RECORD


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 5), st.sampled_from(list("AZ?.-+()0x "))), max_size=4))
def test_mutated_records_raise_only_record_errors(edits: list[tuple[int, int, str]], lex) -> None:  # type: ignore[no-untyped-def]
    lines = list(_record(lex))
    for where, how, ch in edits:
        k = where % len(lines)
        line = lines[k]
        if how == 0:
            del lines[k]
        elif how == 1:
            lines.insert(k, lines[(k * 7) % len(lines)])
        elif how == 2 and line:
            i = where % len(line)
            lines[k] = line[:i] + ch + line[i + 1:]
        elif how == 3 and line:
            i = where % len(line)
            lines[k] = line[:i] + line[i + 1:]
        elif how == 4:
            toks = line.split()
            if len(toks) > 2:
                toks[1], toks[-2] = toks[-2], toks[1]
            lines[k] = " ".join(toks)
        else:
            lines[k] = line.replace("greedy2", "greedy1")
    try:
        imported = read_gcg("\n".join(lines), game_rules("scrabble"))
    except GameRecordError as exc:
        assert "line" in exc.details
        return
    grade(imported, lex, best=1, deadline=time.monotonic() + 2)
