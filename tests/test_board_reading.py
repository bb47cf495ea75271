"""Reading a board fast (issue 23) changes nothing: the square codes, the runs of tiles and the
word lookups each equal a plain reading by definition, on random boards and words."""

from __future__ import annotations

import random

import pytest

from engine import GAMES, EngineError, Lexicon, from_words, get_ruleset, search
from engine.board import BLANK, parse_board
from engine.verify import _groups, _runs, _unknown_runs, board_findings


def reference_codes(stacking: bool, rows: list[str]) -> list[int] | tuple[int, int]:
    """Square by square: the codes, or (row, col) of the first character that is not a square."""
    cells = []
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            if ch == ".":
                cells.append(0)
            elif "A" <= ch <= "Z":
                cells.append(ord(ch) - 64)
            elif "a" <= ch <= "z" and not stacking:
                cells.append((ord(ch) - 96) | BLANK)
            else:
                return (r, c)
    return cells


def reference_runs(n: int, cells: list[int]) -> list[list[int]]:
    runs = []
    for line in [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]:
        run: list[int] = []
        for i in [*line, None]:
            if i is not None and cells[i]:
                run.append(i)
            else:
                if len(run) >= 2:
                    runs.append(run)
                run = []
    return runs


@pytest.mark.parametrize("game", GAMES)
def test_board_codes_and_runs_match_a_plain_reading(game: str) -> None:
    rules = get_ruleset(game)
    n = rules.size
    rng = random.Random(23)
    for trial in range(600):
        density = rng.random()
        alphabet = "..ABQZaqz" if trial % 8 else ".Aa?1 é\x00\x7f"
        rows = ["".join(rng.choice(alphabet) if rng.random() < density else "." for _ in range(n)) for _ in range(n)]
        want = reference_codes(rules.stacking, rows)
        if isinstance(want, tuple):
            with pytest.raises(EngineError) as err:
                parse_board(rules, rows)
            assert (err.value.details["row"], err.value.details["col"]) == want
            continue
        cells = parse_board(rules, rows)
        assert cells == want
        assert _runs(n, cells) == reference_runs(n, cells)


def test_word_lookups_match_the_word_set() -> None:
    rng = random.Random(5)
    words = {"".join(rng.choice("ABCDE") for _ in range(rng.randint(2, 6))) for _ in range(300)}
    lex: Lexicon = from_words(words, "small")
    for _ in range(5000):
        word = "".join(rng.choice("ABCDEZ") for _ in range(rng.randint(0, 7)))
        assert lex.is_word_codes([ord(ch) - 64 for ch in word]) == (word in words)


@pytest.mark.skipif("compiled" not in search.IMPLEMENTATIONS, reason="the compiled core is not built")
@pytest.mark.parametrize("game", [g for g in GAMES if not get_ruleset(g).qu_tile])
def test_the_compiled_board_scans_equal_the_python_ones(game: str) -> None:
    """engine._fastgen.findings (through the seam) gives engine.verify the groups and the unknown
    runs the Python scans give, and so the same findings, on random boards of every density."""
    rules = get_ruleset(game)
    n = rules.size
    rng = random.Random(7)
    words = {"".join(rng.choice("ABE") for _ in range(rng.randint(2, 4))) for _ in range(40)}
    lex: Lexicon = from_words(words, "small")
    scan = search.compiled.board_scans
    for _ in range(400):
        density = rng.random() ** 2
        rows = ["".join(rng.choice("ABEab") if rng.random() < density else "." for _ in range(n)) for _ in range(n)]
        cells = parse_board(rules, rows)
        groups, unknown = scan(n, cells, lex)
        assert groups == _groups(n, cells)
        assert unknown == _unknown_runs(n, cells, lex, False)
        with search.using("compiled"):
            fast = board_findings(rules, cells, lex)
        with search.using("reference"):
            assert board_findings(rules, cells, lex) == fast


def test_the_compiled_board_scans_refuse_bad_arguments() -> None:
    if not search.compiled.BUILT:
        pytest.skip("the compiled core is not built")
    from engine import _fastgen

    lex: Lexicon = from_words({"AB"}, "small")
    for args in [(15, b"\0" * 224, lex.mask, lex.first, lex.child, lex.root),
                 (0, b"", lex.mask, lex.first, lex.child, lex.root),
                 (15, b"\0" * 225, lex.mask, lex.first, lex.child, len(lex.mask)),
                 (15, b"\0" * 225, lex.mask, lex.first[:-1], lex.child, lex.root)]:
        with pytest.raises(ValueError):
            _fastgen.findings(*args)
    with pytest.raises(TypeError):
        _fastgen.findings(15, b"\0" * 225)
    with pytest.raises(TypeError):
        _fastgen.findings("15", b"\0" * 225, lex.mask, lex.first, lex.child, lex.root)
    # an edge to a state that is not there: refused, not read out of bounds
    broken = type(lex.child)(lex.child.typecode, [10**6] * len(lex.child))
    cells = b"\0" * 112 + bytes([1, 2]) + b"\0" * 111  # AB across, row 8
    with pytest.raises(ValueError, match="malformed DAWG"):
        _fastgen.findings(15, cells, lex.mask, lex.first, broken, lex.root)
    assert _fastgen.findings(15, cells, lex.mask, lex.first, lex.child, lex.root) == ([[112, 113]], [])
