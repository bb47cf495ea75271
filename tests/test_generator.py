"""The generator against an independent brute force, the scorer, and properties."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from bruteforce import brute_force_plays
from conftest import SMALL_ALPHABET, small_rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Lexicon, Ruleset, breakdown, get_ruleset, position, score_play
from engine.board import BLANK, format_board, parse_rack
from engine.plays import Position, RawPlay, materialise, raw_squares
from engine.search import every_play
from engine.solver import find_moves

PlayKey = frozenset[tuple[int, int, str, bool]]


def play_key(n: int, raw: RawPlay) -> PlayKey:
    return frozenset((i // n + 1, i % n + 1, chr(64 + (c & 31)), bool(c & BLANK)) for i, c in raw_squares(n, raw))


def generated(pos: Position, lex: Lexicon, premiums: bool = True) -> dict[PlayKey, int]:
    out: dict[PlayKey, int] = {}
    for raw in every_play(pos, lex, premiums):
        key = play_key(pos.rules.size, raw)
        assert key not in out, f"play generated twice: {sorted(key)}"
        out[key] = raw[0]
    return out


def random_position(rng: random.Random, rules: Ruleset, lex: Lexicon, junk: bool) -> Position:
    """Play a few random legal moves, optionally sprinkle random tiles (junk boards are
    not reachable in a game but the rules still define every play on them)."""
    n = rules.size
    cells = [0] * (n * n)
    for _ in range(rng.randint(0, 4)):
        rack = parse_rack(rules, "".join(rng.choice(SMALL_ALPHABET) for _ in range(4)))
        raws = every_play(Position(rules, cells, rack), lex)
        if not raws:
            break
        for i, code in raw_squares(n, rng.choice(raws)):
            cells[i] = code
    if junk:
        for _ in range(rng.randint(1, 6)):
            cells[rng.randrange(n * n)] = rng.randint(1, 26) | (BLANK if rng.random() < 0.2 else 0)
    blanks = rng.choice([0, 0, 1, 1, 2])
    size = rng.randint(1, 5) if blanks < 2 else rng.randint(0, 3)
    rack = "".join(rng.choice(SMALL_ALPHABET) for _ in range(size)) + "?" * blanks
    return Position(rules, cells, parse_rack(rules, rack))


def odd_position(rng: random.Random, rules: Ruleset, lex: Lexicon, letters: int, blanks: Sequence[int]) -> Position:
    """A board no game reaches (stray tiles, blanks on the board) with a rack of 2..``letters``
    common letters and one of ``blanks`` blanks (the writers' tests: tests/test_breakdowns.py,
    tests/test_payloads.py)."""
    base = random_position(rng, rules, lex, junk=True)
    rack = "".join(rng.choice("AEINRSTLDGOUCMP") for _ in range(rng.randint(2, letters))) + "?" * rng.choice(blanks)
    return Position(rules, base.cells, parse_rack(rules, rack))


def rack_text(pos: Position) -> str:
    return "?" * pos.rack[0] + "".join(chr(64 + i) * k for i, k in enumerate(pos.rack) if i)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       n=st.sampled_from([5, 6]), junk=st.booleans(), premiums=st.booleans())
def test_generator_equals_brute_force(seed: int, game: str, n: int, junk: bool, premiums: bool,
                                      small_lex: Lexicon, small_words: set[str], backend: str) -> None:
    rules, data = small_rules(game, n)
    pos = random_position(random.Random(seed), rules, small_lex, junk)
    board = format_board(rules, pos.cells)
    expected = brute_force_plays(data, board, rack_text(pos), small_words, premiums)
    assert generated(pos, small_lex, premiums) == expected, (board, rack_text(pos))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]))
def test_every_generated_play_rescores_identically(seed: int, game: str, lex: Lexicon, backend: str) -> None:
    rules = get_ruleset(game)
    rng = random.Random(seed)
    pos = random_position(rng, rules, lex, junk=False)
    rack = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWY") for _ in range(rng.randint(3, 6))) + "?" * rng.choice([0, 1])
    pos = Position(rules, pos.cells, parse_rack(rules, rack))
    for premiums in (True, False):
        for raw in every_play(pos, lex, premiums):
            move = materialise(rules, pos.cells, raw)
            bd = breakdown(pos, move, premiums)
            assert bd.total == raw[0], move.notation
            assert sum(w.score for w in bd.words) + bd.all_tiles_bonus.points == bd.total
            assert all(w.word.upper() in lex for w in bd.words)
            assert bd.words[0].word == move.word


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]))
def test_rack_order_does_not_matter(seed: int, game: str, lex: Lexicon) -> None:
    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk=False)
    letters = list("".join(rng.choice("AEIOURSTLNDGCMP") for _ in range(6)) + "?")
    first = generated(Position(rules, base.cells, parse_rack(rules, "".join(letters))), lex)
    rng.shuffle(letters)
    assert generated(Position(rules, base.cells, parse_rack(rules, "".join(letters))), lex) == first


def transpose(board: list[str]) -> list[str]:
    return ["".join(row[c] for row in board) for c in range(len(board))]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]))
def test_transposing_the_board_transposes_the_plays(seed: int, game: str, lex: Lexicon, backend: str) -> None:
    """Every game's layout is symmetric about the main diagonal, so scores must match."""
    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk=False)
    rack = "".join(rng.choice("AEIOURSTLNDGCMPX") for _ in range(7))
    board = format_board(rules, base.cells)
    plays = generated(Position(rules, base.cells, parse_rack(rules, rack)), lex)
    flipped_cells = [base.cells[c * 15 + r] for r in range(15) for c in range(15)]
    assert format_board(rules, flipped_cells) == transpose(board)
    flipped = generated(Position(rules, flipped_cells, parse_rack(rules, rack)), lex)
    assert {frozenset((c, r, ch, b) for r, c, ch, b in k): v for k, v in plays.items()} == flipped


def test_single_tile_forming_two_words_is_one_play(small_lex: Lexicon) -> None:
    rules, _ = small_rules("crossplay", 5)
    # A at (3,2) and (2,3): a T at (3,3) makes AT across and AT down
    board = [".....", "..A..", ".A...", ".....", "....."]
    pos = position(rules, board, "T")
    plays = generated(pos, small_lex)
    key = frozenset({(3, 3, "T", False)})
    assert key in plays
    moves = find_moves(pos, small_lex, limit=100).moves
    assert sum(1 for m in moves if {(t.row, t.col) for t in m.tiles} == {(3, 3)}) == 1


def test_empty_board_across_and_down_are_different_plays(lex: Lexicon) -> None:
    pos = position(get_ruleset("crossplay"), None, "QUIXOTE")
    quixotes = [m for m in find_moves(pos, lex, limit=1000).moves if m.word == "QUIXOTE"]
    assert len(quixotes) == 14  # 7 across and 7 down through the centre


def test_blank_and_real_tile_of_the_same_letter_are_distinct_plays(small_lex: Lexicon) -> None:
    rules, _ = small_rules("crossplay", 5)
    board = [".....", ".....", "..A..", ".....", "....."]
    plays = generated(position(rules, board, "T?"), small_lex)
    assert frozenset({(3, 4, "T", False)}) in plays and frozenset({(3, 4, "T", True)}) in plays


def test_authoritative_scorer_matches_brute_force_on_a_full_board(lex: Lexicon) -> None:
    rules = get_ruleset("scrabble")
    board = ["." * 15] * 6 + ["......CAT......", ".......RE......"] + ["." * 15] * 7
    pos = position(rules, board, "SEATING")
    import json

    from bruteforce import brute_force_score

    from engine.rules import RULESET_DIR
    data = json.loads((RULESET_DIR / "scrabble.json").read_text())
    for raw in every_play(pos, lex)[:400]:
        pl = [(i // 15 + 1, i % 15 + 1, chr(64 + (c & 31)), bool(c & BLANK)) for i, c in raw_squares(15, raw)]
        assert brute_force_score(data, board, pl) == raw[0]


@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_premiums_off_scores_face_value(game: str, lex: Lexicon) -> None:
    rules = get_ruleset(game)
    pos = position(rules, None, "RETAINS")
    for raw in every_play(pos, lex, premiums=False)[:50]:
        move = materialise(rules, pos.cells, raw)
        face = sum(rules.values[ord(t.letter) - 64] for t in move.tiles if not t.blank)
        assert raw[0] == face + (rules.bonus_points if move.tiles_used == 7 else 0)
        assert all(x.bonus is None for x in score_play(rules, pos.cells, [
            ((t.row - 1) * 15 + t.col - 1, ord(t.letter) - 64) for t in move.tiles], premiums=False).words[0].letters)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       limit=st.sampled_from([1, 5, 20]))
def test_best_first_top_n_equals_full_enumeration(seed: int, game: str, limit: int, lex: Lexicon,
                                                  backend: str) -> None:
    """Python: the anchor-bounded best-first search; compiled core: the top-N heap."""
    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk=False)
    rack = "".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in range(rng.randint(1, 6)))
    pos = Position(rules, base.cells, parse_rack(rules, rack + "?" * rng.choice([0, 0, 1])))
    pruned = find_moves(pos, lex, limit=limit, count=False)
    full = find_moves(pos, lex, limit=limit, count=True)
    assert pruned.total is None and full.total is not None
    assert pruned.moves == full.moves


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       min_length=st.sampled_from([0, 0, 3, 5]), contains=st.sampled_from(["", "", "E", "ST", "AEE", "QZ"]),
       no_blanks=st.booleans(), square=st.sampled_from([None, None, (8, 8), (7, 9), (9, 6)]))
def test_filters_agree_between_python_and_the_compiled_core(
    seed: int, game: str, min_length: int, contains: str, no_blanks: bool, square: tuple[int, int] | None,
    lex: Lexicon,
) -> None:
    from engine import MoveFilter, search

    if "compiled" not in search.IMPLEMENTATIONS:
        pytest.skip("the compiled core (engine._fastgen) is not built on this machine")
    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk=False)
    rack = "".join(rng.choice("AEIOURSTLNDGCMPXZQ") for _ in range(rng.randint(2, 6))) + "?" * rng.choice([0, 1])
    pos = Position(rules, base.cells, parse_rack(rules, rack))
    flt = MoveFilter(min_length=min_length, contains=contains, square=square, no_blanks=no_blanks)
    results = []
    for name in ("reference", "compiled"):
        with search.using(name):
            results.append(find_moves(pos, lex, limit=15, flt=flt, count=True))
    assert results[0] == results[1]
