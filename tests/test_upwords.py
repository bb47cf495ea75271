"""Upwords: the rule sheet's examples, one test per placement rule, and the brute force."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from bruteforce_upwords import brute_force_upwords
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    IllegalPlayError,
    Lexicon,
    check_play,
    find_moves,
    from_words,
    get_ruleset,
    placements_from_word,
    position,
)
from engine.board import format_board, parse_rack
from engine.plays import Position, raw_squares
from engine.rules import Ruleset
from engine.search import every_play

UP = get_ruleset("upwords")


def grid(tiles: dict[tuple[int, int], tuple[str, int]], n: int = 10) -> tuple[list[str], list[str]]:
    """Board and heights text from {(row, col): (letter, height)}."""
    b = [["."] * n for _ in range(n)]
    h = [["0"] * n for _ in range(n)]
    for (r, c), (ch, height) in tiles.items():
        b[r - 1][c - 1] = ch
        h[r - 1][c - 1] = str(height)
    return ["".join(x) for x in b], ["".join(x) for x in h]


def word_at(r: int, c: int, word: str, height: int = 1, down: bool = False) -> dict:
    return {((r + k, c) if down else (r, c + k)): (ch, height) for k, ch in enumerate(word)}


def play(lex: Lexicon, tiles: dict, rack: str, r: int, c: int, direction: str, word: str, plural_rule: bool = True):
    board, heights = grid(tiles)
    pos = position(UP, board if tiles else None, rack, heights if tiles else None, plural_rule)
    return check_play(pos, lex, placements_from_word(UP, pos.cells, r, c, direction, word))


def test_dear_flat_is_8(lex: Lexicon) -> None:
    result = play(lex, {}, "DEAR", 5, 4, "across", "DEAR")
    assert result.valid and result.breakdown.total == 8
    assert result.breakdown.words[0].flat is True


def test_net_and_on_is_10(lex: Lexicon) -> None:
    # TWO on row 4; NET on row 5 puts its N under the O: NET 6 + ON 4
    result = play(lex, word_at(4, 3, "TWO"), "NET", 5, 5, "across", "NET")
    assert [(w.word, w.score) for w in result.breakdown.words] == [("NET", 6), ("ON", 4)]
    assert result.breakdown.total == 10


def test_mood_is_not_rescored_when_dear_and_net_are_played() -> None:
    """The sheet's MOOD/DEAR/NET: an unchanged word is not scored again (documented reading)."""
    lex = from_words(["MOOD", "DEAR", "NET", "ON", "OE", "DE"])
    tiles = {**word_at(4, 3, "MOOD"), **word_at(4, 6, "DEAR", down=True)}
    result = play(lex, tiles, "NET", 5, 4, "across", "NET")  # N under O(4,4): ON; E under O(4,5)
    assert "MOOD" not in [w.word for w in result.breakdown.words]


def test_wood_with_w_on_m_is_5(lex: Lexicon) -> None:
    result = play(lex, word_at(5, 4, "MOOD"), "W", 5, 4, "across", "WOOD")
    (word,) = result.breakdown.words
    assert [x.height for x in word.letters] == [2, 1, 1, 1] and word.flat is False
    assert result.valid and result.breakdown.total == 5


def test_qu_bonus_only_when_flat(lex: Lexicon) -> None:
    flat = play(lex, word_at(5, 6, "IT"), "Q", 5, 5, "across", "QUIT")
    assert flat.move.word == "QUIT" and flat.breakdown.words[0].qu_bonus == 2
    assert flat.breakdown.total == 3 * 2 + 2
    stacked = play(lex, word_at(5, 5, "SIT"), "Q", 5, 5, "across", "QUIT")
    assert stacked.breakdown.words[0].qu_bonus == 0 and stacked.breakdown.total == 2 + 1 + 1


def test_seven_tiles_get_20(lex: Lexicon) -> None:
    result = play(lex, {}, "PLAYING", 5, 2, "across", "PLAYING")
    assert result.breakdown.all_tiles_bonus.points == 20 and result.breakdown.total == 14 + 20


def test_qu_tile_takes_one_square(lex: Lexicon) -> None:
    result = play(lex, {}, "QIZ", 5, 5, "across", "QUIZ")
    assert len(result.move.tiles) == 3 and result.move.word == "QUIZ" and result.valid


@pytest.mark.parametrize("tiles, rack, placed, rule", [
    (word_at(5, 4, "CAT"), "C", [(5, 4, "C")], "same letter on same letter"),
    (word_at(5, 4, "CAT", 5), "B", [(5, 4, "B")], "stack too high"),
    (word_at(5, 4, "AT"), "IN", [(5, 4, "I"), (5, 5, "N")], "may not cover every letter of an existing word"),
    (word_at(5, 4, "CAT"), "S", [(5, 7, "S")], "plural rule"),
    ({}, "CAT", [(1, 1, "C"), (1, 2, "A"), (1, 3, "T")], "first play must cover the start square"),
    (word_at(5, 4, "CAT"), "BH", [(5, 4, "B"), (5, 4, "H")], "one new tile per stack per turn"),
])
def test_each_placement_rule_is_refused_by_name(lex, tiles, rack, placed, rule) -> None:
    board, heights = grid(tiles)
    pos = position(UP, board, rack, heights)
    with pytest.raises(IllegalPlayError, match=rule):
        check_play(pos, lex, [((r - 1) * 10 + c - 1, ord(ch) - 64) for r, c, ch in placed])


def test_plural_s_allowed_when_it_forms_another_word(lex: Lexicon) -> None:
    tiles = {**word_at(5, 4, "CAT"), (4, 7): ("I", 1)}  # the S under I also makes IS
    result = play(lex, tiles, "S", 5, 4, "across", "CATS")
    assert result.valid and [w.word for w in result.breakdown.words] == ["CATS", "IS"]
    moves = find_moves(position(UP, *grid(tiles)[:1], "S", grid(tiles)[1]), lex, limit=200).moves
    assert any(m.word == "CATS" for m in moves)
    plain = find_moves(position(UP, *grid(word_at(5, 4, "CAT"))[:1], "S", grid(word_at(5, 4, "CAT"))[1]), lex, limit=200)
    assert not any(m.word == "CATS" for m in plain.moves)
    off = play(lex, word_at(5, 4, "CAT"), "S", 5, 4, "across", "CATS", plural_rule=False)
    assert off.valid


def test_heights_must_agree_with_the_board() -> None:
    from engine import InvalidBoardError
    board, heights = grid(word_at(5, 4, "CAT"))
    heights[4] = heights[4][:3] + "0" + heights[4][4:]
    with pytest.raises(InvalidBoardError, match="row 5, column 4: height 0 but letter C"):
        position(UP, board, "A", heights)


def small_upwords(n: int) -> Ruleset:
    c = n // 2
    start = tuple(sorted({(c - 1) * n + c - 1, (c - 1) * n + c, c * n + c - 1, c * n + c}))
    return replace(UP, size=n, premium=("",) * (n * n), letter_mult=(1,) * (n * n),
                   word_mult=(1,) * (n * n), start=start)


UP_ALPHABET = "AEIOSTRNLDCPQMH"


@pytest.fixture(scope="module")
def up_words(lex: Lexicon) -> set[str]:
    return {w for w in lex.words() if len(w) <= 6 and set(w) <= set(UP_ALPHABET + "U")}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), n=st.sampled_from([4, 6]))
def test_generator_equals_brute_force(seed: int, n: int, up_words: set[str]) -> None:
    rng = random.Random(seed)
    rules = small_upwords(n)
    lex = from_words(up_words)
    cells, heights = [0] * (n * n), [0] * (n * n)
    for _ in range(rng.randint(0, 12)):  # random legal plays build real stacks
        rack = parse_rack(rules, "".join(rng.choice(UP_ALPHABET) for _ in range(4)))
        raws = every_play(Position(rules, cells, rack, heights), lex)
        if not raws:
            break
        for i, code in raw_squares(n, rng.choice(raws)):
            cells[i] = code
            heights[i] += 1
    rack = "".join(rng.choice(UP_ALPHABET) for _ in range(rng.randint(1, 6)))
    board = format_board(rules, cells)
    hs = ["".join(str(heights[r * n + c]) for c in range(n)) for r in range(n)]
    mine: dict = {}
    for raw in every_play(Position(rules, cells, parse_rack(rules, rack), heights), lex):
        key = frozenset((i // n + 1, i % n + 1, chr(64 + (code & 31))) for i, code in raw_squares(n, raw))
        assert key not in mine
        mine[key] = raw[0]
    assert mine == brute_force_upwords(board, hs, rack, up_words), (board, hs, rack)


def test_generated_upwords_plays_rescore_and_recheck(lex: Lexicon) -> None:
    board, heights = grid({**word_at(5, 3, "MOOD"), **word_at(5, 6, "DEAR", down=True), (5, 4): ("O", 3)})
    pos = position(UP, board, "NETSAIL", heights)
    result = find_moves(pos, lex, limit=1000)
    assert result.total and result.total > 100
    from engine.solver import breakdown
    for m in result.moves:
        check = check_play(pos, lex, [((t.row - 1) * 10 + t.col - 1, ord(t.letter) - 64) for t in m.tiles])
        assert check.valid and check.breakdown.total == m.score == breakdown(pos, m).total


def _s_moves(lex: Lexicon, tiles: dict) -> list[str]:
    board, heights = grid(tiles)
    found = find_moves(position(UP, board, "S", heights), lex, limit=500).moves
    return sorted(f"{m.row},{m.col} {m.direction} {m.word}" for m in found)


def test_plural_s_that_only_pluralises_two_words_is_refused(lex: Lexicon) -> None:
    # CAT across on row 5 (cols 4-6), DOG down in col 7 (rows 2-4): an S at 5,7 makes CATS and DOGS
    tiles = {**word_at(5, 4, "CAT"), **word_at(2, 7, "DOG", down=True)}
    board, heights = grid(tiles)
    pos = position(UP, board, "S", heights)
    with pytest.raises(IllegalPlayError, match="plural rule"):
        check_play(pos, lex, [(4 * 10 + 6, 19)])
    assert not any("CATS" in m or "DOGS" in m for m in _s_moves(lex, tiles))
    off = play(lex, tiles, "S", 5, 4, "across", "CATS", plural_rule=False)
    assert off.valid and sorted(w.word for w in off.breakdown.words) == ["CATS", "DOGS"]


def test_adding_s_to_a_word_ending_in_s_is_not_pluralising(lex: Lexicon) -> None:
    tiles = word_at(5, 4, "HIS")  # HIS -> HISS
    result = play(lex, tiles, "S", 5, 4, "across", "HISS")
    assert result.valid and result.breakdown.words[0].word == "HISS"
    assert "5,4 across HISS" in _s_moves(lex, tiles)


def test_plural_s_standing_in_a_non_plural_word_is_allowed(lex: Lexicon) -> None:
    tiles = {**word_at(5, 4, "CAT"), (6, 7): ("O", 1)}  # the S also starts SO
    result = play(lex, tiles, "S", 5, 4, "across", "CATS")
    assert result.valid and sorted(w.word for w in result.breakdown.words) == ["CATS", "SO"]
    assert "5,4 across CATS" in _s_moves(lex, tiles)
    # ...but a second word that is itself a bare plural does not count (DOGS above)
