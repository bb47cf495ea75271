"""The worked examples of ../shared/spec, reproduced to the point through the engine."""

from __future__ import annotations

from engine import Lexicon, breakdown, check_play, find_moves, get_ruleset, placements_from_word, position, score_play
from engine.board import BLANK, parse_board


def rows(n: int, tiles: dict[tuple[int, int], str]) -> list[str]:
    grid = [["."] * n for _ in range(n)]
    for (r, c), ch in tiles.items():
        grid[r - 1][c - 1] = ch
    return ["".join(row) for row in grid]


def place(game: str, board: list[str] | None, row: int, col: int, direction: str, word: str):
    rules = get_ruleset(game)
    cells = parse_board(rules, board)
    return rules, cells, placements_from_word(rules, cells, row, col, direction, word)


def test_quixote_is_the_first_crossplay_result(lex: Lexicon) -> None:
    pos = position(get_ruleset("crossplay"), None, "QUIXOTE")
    result = find_moves(pos, lex, limit=50)
    first = result.moves[0]
    assert (first.row, first.col, first.direction, first.word, first.score) == (8, 6, "across", "QUIXOTE", 110)
    assert first.notation == "8F QUIXOTE"
    by_place = {(m.row, m.col, m.direction): m.score for m in result.moves if m.word == "QUIXOTE"}
    assert by_place[(6, 8, "down")] == 110
    assert by_place[(8, 5, "across")] == 67
    assert by_place[(8, 4, "across")] == 92


def test_quixote_breakdown_reads_35_times_2_plus_sweep(lex: Lexicon) -> None:
    pos = position(get_ruleset("crossplay"), None, "QUIXOTE")
    bd = breakdown(pos, find_moves(pos, lex, limit=1).moves[0])
    (word,) = bd.words
    assert [(x.letter, x.bonus, x.points) for x in word.letters] == [
        ("Q", "DL", 20), ("U", None, 2), ("I", None, 1), ("X", None, 8),
        ("O", "DL", 2), ("T", None, 1), ("E", "DW", 1),
    ]
    assert (word.letter_total, word.word_multiplier, word.score) == (35, 2, 70)
    assert (bd.all_tiles_bonus.name, bd.all_tiles_bonus.points, bd.total) == ("sweep", 40, 110)


def test_crossplay_centre_star_is_not_a_bonus() -> None:
    rules, cells, pl = place("crossplay", None, 8, 6, "across", "QUIXOTE")
    letters = score_play(rules, cells, pl).words[0].letters
    assert letters[2].letter == "I" and letters[2].bonus is None and letters[2].points == 1


def test_quixote_premiums_off_is_face_value_plus_sweep(lex: Lexicon) -> None:
    rules, cells, pl = place("crossplay", None, 8, 6, "across", "QUIXOTE")
    bd = score_play(rules, cells, pl, premiums=False)
    assert (bd.words[0].score, bd.all_tiles_bonus.points, bd.total) == (24, 40, 64)
    pos = position(rules, None, "QUIXOTE")
    assert find_moves(pos, lex, limit=1, premiums=False).moves[0].score == 64


def test_jazz_triple_letter_inside_triple_word_is_153() -> None:
    board = rows(15, {(2, 2): "T"})  # JAZZ hooks onto it: A over T makes AT
    rules, cells, pl = place("crossplay", board, 1, 1, "across", "JAZZ")
    main = score_play(rules, cells, pl).words[0]
    assert main.word == "JAZZ"
    assert [(x.bonus, x.points) for x in main.letters] == [("TL", 30), (None, 1), (None, 10), ("TW", 10)]
    assert (main.letter_total, main.word_multiplier, main.score) == (51, 3, 153)


def test_quiz_with_blank_u() -> None:
    # plain squares: letter total 21
    rules, cells, pl = place("crossplay", rows(15, {(9, 8): "S"}), 10, 1, "across", "QuIZ")
    bd = score_play(rules, cells, pl)
    assert bd.words[0].letters[1].blank and bd.words[0].letters[1].points == 0
    # blank on a triple letter (2,7) still 21
    rules, cells, pl = place("crossplay", None, 1, 7, "down", "QuIZ")
    word = score_play(rules, cells, pl).words[0]
    assert word.letters[1].bonus == "TL" and word.letters[1].points == 0
    assert (word.letter_total, word.score) == (21, 21)
    # blank on a double word (2,2): 21 x 2 = 42, and four tiles are no sweep
    rules, cells, pl = place("crossplay", None, 2, 1, "across", "QuIZ")
    bd = score_play(rules, cells, pl)
    assert bd.words[0].letters[1].bonus == "DW"
    assert (bd.words[0].letter_total, bd.words[0].word_multiplier, bd.words[0].score) == (21, 2, 42)
    assert bd.all_tiles_bonus.points == 0 and bd.total == 42


def test_plain_quiz_letter_total_21() -> None:
    rules, cells, pl = place("crossplay", None, 10, 1, "across", "QuIZ")
    assert all(not rules.premium[i] for i, _ in pl)
    assert score_play(rules, cells, pl).words[0].letter_total == 21


def test_tax_and_xi_count_the_triple_letter_twice(lex: Lexicon) -> None:
    board = rows(15, {(2, 5): "T", (2, 6): "A", (3, 7): "I"})
    rules = get_ruleset("crossplay")
    pos = position(rules, board, "X")
    check = check_play(pos, lex, placements_from_word(rules, pos.cells, 2, 5, "across", "TAX"))
    assert [(w.word, w.score) for w in check.breakdown.words] == [("TAX", 26), ("XI", 25)]
    assert all(x.points == 24 for w in check.breakdown.words for x in w.letters if x.letter == "X")
    assert check.breakdown.total == 51 and check.valid
    best = find_moves(pos, lex, limit=1).moves[0]
    assert (best.word, best.score) == ("TAX", 51)


def test_scrabble_examples() -> None:
    rules, cells, pl = place("scrabble", None, 2, 6, "across", "QUIZ")
    bd = score_play(rules, cells, pl)
    assert [x.bonus for x in bd.words[0].letters] == ["TL", None, None, None] and bd.total == 42
    rules, cells, pl = place("scrabble", None, 4, 1, "across", "HAZE")
    bd = score_play(rules, cells, pl)
    assert [x.bonus for x in bd.words[0].letters] == ["DL", None, None, "DW"]
    assert (bd.words[0].letter_total, bd.total) == (20, 40)
    rules, cells, pl = place("scrabble", None, 5, 5, "across", "FRIENDS")
    bd = score_play(rules, cells, pl)
    assert [x.bonus for x in bd.words[0].letters] == ["DW", None, None, None, None, None, "DW"]
    assert (bd.words[0].letter_total, bd.words[0].word_multiplier, bd.words[0].score) == (11, 4, 44)
    assert (bd.all_tiles_bonus.name, bd.all_tiles_bonus.points, bd.total) == ("bingo", 50, 94)


def test_scrabble_centre_is_a_double_word_and_wwf_bonus_is_35(lex: Lexicon) -> None:
    scrabble = find_moves(position(get_ruleset("scrabble"), None, "QUIXOTE"), lex, limit=1).moves[0]
    bd = breakdown(position(get_ruleset("scrabble"), None, "QUIXOTE"), scrabble)
    assert any(x.bonus == "DW" and (x.row, x.col) == (8, 8) for x in bd.words[0].letters)
    wwf_pos = position(get_ruleset("wwf"), None, "QUIXOTE")
    wwf = breakdown(wwf_pos, find_moves(wwf_pos, lex, limit=1).moves[0])
    assert (wwf.all_tiles_bonus.name, wwf.all_tiles_bonus.points) == ("bingo", 35)


def test_breakdown_parts_add_up_for_blank_marks() -> None:
    rules, cells, pl = place("crossplay", None, 8, 6, "across", "QUiXOTE")
    bd = score_play(rules, cells, pl)
    assert pl[2][1] & BLANK
    for w in bd.words:
        assert sum(x.points for x in w.letters) == w.letter_total
        assert w.letter_total * w.word_multiplier == w.score
    assert sum(w.score for w in bd.words) + bd.all_tiles_bonus.points == bd.total
