"""Input checks and described-play checks: each names the problem and the square."""

from __future__ import annotations

import json

import pytest

from engine import (
    IllegalPlayError,
    InvalidBoardError,
    InvalidRackError,
    Lexicon,
    TileCountError,
    UnknownGameError,
    check_play,
    end_game,
    get_ruleset,
    placements_from_word,
    position,
    rank_of,
)
from engine.errors import RulesetError
from engine.rules import RULESET_DIR, parse_ruleset

EMPTY = ["." * 15] * 15


def board_with(tiles: dict[tuple[int, int], str]) -> list[str]:
    grid = [["."] * 15 for _ in range(15)]
    for (r, c), ch in tiles.items():
        grid[r - 1][c - 1] = ch
    return ["".join(row) for row in grid]


CAT = board_with({(8, 7): "C", (8, 8): "A", (8, 9): "T"})


def check(board: list[str] | None, rack: str, row: int, col: int, direction: str, word: str, lex: Lexicon,
          game: str = "crossplay"):
    rules = get_ruleset(game)
    pos = position(rules, board, rack)
    return check_play(pos, lex, placements_from_word(rules, pos.cells, row, col, direction, word))


def test_unknown_game() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        get_ruleset("chess")


def test_wrong_board_size() -> None:
    with pytest.raises(InvalidBoardError, match="board has 14 rows; crossplay needs 15"):
        position(get_ruleset("crossplay"), EMPTY[:14], "A")
    bad = list(EMPTY)
    bad[3] = "." * 16
    with pytest.raises(InvalidBoardError, match="row 4 has 16 squares") as e:
        position(get_ruleset("crossplay"), bad, "A")
    assert e.value.details["row"] == 4


def test_unknown_character_names_row_column_and_letter() -> None:
    bad = list(EMPTY)
    bad[6] = "......3........"
    with pytest.raises(InvalidBoardError, match="row 7, column 7: unexpected character '3'") as e:
        position(get_ruleset("scrabble"), bad, "A")
    assert e.value.details == {"row": 7, "col": 7, "letter": "3"}


def test_rack_too_long_and_bad_rack_letters() -> None:
    with pytest.raises(InvalidRackError, match="has 8 tiles; crossplay racks hold 7"):
        position(get_ruleset("crossplay"), None, "ABCDEFGH")
    with pytest.raises(InvalidRackError, match="rack position 2: unexpected character '1'"):
        position(get_ruleset("crossplay"), None, "A1")


def test_too_many_blanks() -> None:
    with pytest.raises(InvalidRackError, match="rack has 3 blanks; scrabble has only 2"):
        position(get_ruleset("scrabble"), None, "???")
    position(get_ruleset("crossplay"), None, "???")  # Crossplay has three


def test_too_many_tiles_of_a_letter_names_letter_and_counts() -> None:
    board = board_with({(8, 8): "Z", (8, 9): "A"})
    with pytest.raises(TileCountError, match=r"2 Z tiles on board \(1\) and rack \(1\); crossplay has only 1") as e:
        position(get_ruleset("crossplay"), board, "Z")
    assert e.value.details["letter"] == "Z"
    board = board_with({(8, 8): "z", (8, 9): "a", (8, 10): "b"})
    with pytest.raises(TileCountError, match="4 blank tiles"):
        position(get_ruleset("crossplay"), board, "?")


def test_first_play_must_cover_the_start_square(lex: Lexicon) -> None:
    with pytest.raises(IllegalPlayError, match="first play must cover the start square 8H"):
        check(None, "CAT", 1, 1, "across", "CAT", lex)


def test_play_must_connect(lex: Lexicon) -> None:
    with pytest.raises(IllegalPlayError, match="at 1A is not connected"):
        check(CAT, "DOG", 1, 1, "across", "DOG", lex)


def test_square_already_holds_a_different_letter(lex: Lexicon) -> None:
    with pytest.raises(IllegalPlayError, match="square 8H already holds A, not O") as e:
        check(CAT, "COT", 7, 8, "down", "DOG", lex)
    assert (e.value.details["row"], e.value.details["col"]) == (8, 8)


def test_letters_not_in_rack(lex: Lexicon) -> None:
    with pytest.raises(IllegalPlayError, match="rack has no S left for the tile at 8J"):
        check(CAT, "Q", 8, 7, "across", "CATS", lex)


def test_gap_and_not_in_one_line() -> None:
    from engine.solver import check_geometry
    rules = get_ruleset("crossplay")
    cells = position(rules, CAT, "").cells
    with pytest.raises(IllegalPlayError, match="gap at 9I"):
        check_geometry(rules, cells, [(8 * 15 + 7, 1), (8 * 15 + 9, 1)])
    with pytest.raises(IllegalPlayError, match="not in one row or column"):
        check_geometry(rules, cells, [(8 * 15 + 7, 1), (9 * 15 + 9, 1)])


def test_word_running_off_the_board(lex: Lexicon) -> None:
    with pytest.raises(IllegalPlayError, match="runs off the 15x15 board at 8P"):
        check(CAT, "STING", 8, 12, "across", "STING", lex)


def test_phony_is_scored_and_marked_invalid(lex: Lexicon) -> None:
    result = check(CAT, "SXQ", 8, 7, "across", "CATSXQ", lex)
    assert not result.valid and result.invalid_words == ["CATSXQ"]
    assert result.breakdown.total > 0


def test_valid_play_with_played_through_dots(lex: Lexicon) -> None:
    result = check(CAT, "S", 8, 7, "across", "...S", lex)
    assert result.valid and result.move.word == "CATS" and result.move.tiles_used == 1
    # C 3 + A 1 + T 1 (old tiles, no bonus) + S 1 doubled on the DL at 8,10
    assert result.breakdown.words[0].letters[3].bonus == "DL"
    assert result.breakdown.total == 3 + 1 + 1 + 2


def test_rank_of_a_play(lex: Lexicon) -> None:
    rules = get_ruleset("crossplay")
    pos = position(rules, None, "QUIXOTE")
    result = check_play(pos, lex, placements_from_word(rules, pos.cells, 8, 6, "across", "QUIXOTE"))
    rank, best, total = rank_of(pos, lex, result.move)
    assert (rank, best) == (1, 110) and total > 100


def test_ranking_a_play_from_the_plays_scoring_as_much_is_ranking_it_among_all(lex: Lexicon) -> None:
    """rank_play reads only the plays scoring at least as much as the play (engine.search.
    plays_scoring): the same rank, best score, count and better plays as among every play,
    legal plays at every rank or not, and a play that is not legal (every play then)."""
    from engine import search
    from engine.plays import materialise, top_moves
    from engine.solver import Ranking, place_among, rank_play

    def among_all(pos, move, better: int) -> Ranking:  # the way it was done before
        raws = search.every_play(pos, lex)
        n = pos.rules.size
        target = sorted(((t.row - 1) * n + t.col - 1, t.letter, t.blank) for t in move.tiles)
        rank = place_among(pos, raws, target, move.score)
        k = better if rank is None else min(better, rank - 1)
        return Ranking(rank, max(r[0] for r in raws), len(raws), top_moves(pos, raws, k))

    checked = 0
    for game, board, rack in (("scrabble", CAT, "ERS?AT"), ("crossplay", None, "QUIXOTE"), ("wwf", CAT, "AEIRST?")):
        rules = get_ruleset(game)
        pos = position(rules, board, rack)
        raws = search.every_play(pos, lex)
        for raw in raws[:: max(1, len(raws) // 12)]:
            move = materialise(rules, pos.cells, raw)
            for better in (0, 3, 50):
                assert rank_play(pos, lex, move, better=better) == among_all(pos, move, better), (game, move.notation)
                checked += 1
        # not a word: no rank, and the best plays of all as the better ones
        col, word = (8, "XQZ") if board is None else (9, ".ZZ")  # XQZ, or CAT made CATZZ
        bogus = check_play(pos, lex, placements_from_word(rules, pos.cells, 8, col, "across", word), use_rack=False)
        assert not bogus.valid
        got = rank_play(pos, lex, bogus.move, better=5)
        assert got == among_all(pos, bogus.move, 5) and got.rank is None and len(got.better) == 5
    assert checked > 90


def test_a_plays_score_only_says_where_to_look_first(lex: Lexicon) -> None:
    """place_among with the play's score (as rank_play and game analysis give it) ranks every
    play as it does without; a wrong score only costs time; a play that is not legal has no rank."""
    from engine import search
    from engine.board import BLANK, LETTER_MASK
    from engine.plays import raw_squares
    from engine.solver import place_among
    from engine.tiles import LETTERS

    rules = get_ruleset("scrabble")
    pos = position(rules, CAT, "ERS?AT")
    raws = search.every_play(pos, lex)
    assert len(raws) > 500
    for raw in raws[::37]:
        target = sorted((i, LETTERS[(c & LETTER_MASK) - 1], bool(c & BLANK)) for i, c in raw_squares(rules.size, raw))
        want = place_among(pos, raws, target)
        assert want is not None
        assert place_among(pos, raws, target, raw[0]) == want
        assert place_among(pos, raws, target, raw[0] + 1) == want
    assert place_among(pos, raws, [(0, "Q", False)], 10) is None


def test_malformed_ruleset_fails_loudly() -> None:
    data = json.loads((RULESET_DIR / "crossplay.json").read_text())
    data["premiums"]["DL"].append([16, 1])
    with pytest.raises(RulesetError, match="outside the 15x15 board"):
        parse_ruleset("crossplay", data)
    data = json.loads((RULESET_DIR / "crossplay.json").read_text())
    data["tile_counts"]["E"] += 1
    with pytest.raises(RulesetError, match="add up to 101"):
        parse_ruleset("crossplay", data)
    data = json.loads((RULESET_DIR / "crossplay.json").read_text())
    data["premiums"]["DL"].remove([1, 8])
    data["premium_counts"]["DL"] -= 1
    with pytest.raises(RulesetError, match="not symmetric"):
        parse_ruleset("crossplay", data)


@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf", "upwords"])
def test_rulesets_load_and_match_the_research_summary(game: str) -> None:
    rules = get_ruleset(game)
    expected = {"crossplay": (15, 100, 3, 40, "sweep"), "scrabble": (15, 100, 2, 50, "bingo"),
                "wwf": (15, 104, 2, 35, "bingo"), "upwords": (10, 100, 0, 20, "all seven tiles")}[game]
    assert (rules.size, rules.total_tiles, rules.blanks, rules.bonus_points, rules.bonus_name) == expected
    assert rules.rack_size == 7
    assert rules.start_is_bonus == (game == "scrabble")


def test_end_game_adjustments() -> None:
    assert [a.adjustment for a in end_game(get_ruleset("crossplay"), ["", "QZ"])] == [0, 0]
    assert [a.adjustment for a in end_game(get_ruleset("scrabble"), ["", "QZ", "A"])] == [21, -20, -1]
    assert [a.adjustment for a in end_game(get_ruleset("wwf"), ["E", "QZ"])] == [-1, -20]
    assert [a.adjustment for a in end_game(get_ruleset("upwords"), ["", "QZA"])] == [0, -15]


def test_time_budget_gives_a_clear_error(lex: Lexicon) -> None:
    import time

    from engine import TimeBudgetExceeded, find_moves
    pos = position(get_ruleset("crossplay"), CAT, "ABC???")
    with pytest.raises(TimeBudgetExceeded, match="time budget"):
        find_moves(pos, lex, limit=20, count=True, deadline=time.monotonic() - 1)


def test_a_bad_character_is_named_before_the_rack_length() -> None:
    with pytest.raises(InvalidRackError, match="rack position 8: unexpected character '!'") as e:
        position(get_ruleset("crossplay"), None, "QUIXOTE!")
    assert e.value.details == {"position": 8, "letter": "!"}
