"""Brute-force move finder and scorer for Crossplay, Scrabble and Words With Friends.

A deliberately simple test oracle for the optimised move generator. It uses no
anchors, cross-check sets, tries, GADDAG or DAWG. It tries every segment of every
row and column and fills the segment's empty squares with every arrangement of
rack tiles (a blank is tried as each letter A-Z). It only needs the rules, so it
does not share code with the engine.

Conventions (these match the rule files in engine/rulesets/):
- Coordinates are 1-indexed (row, col). The board size is len(board), so callers
  can pass small boards. Premium squares outside the board are ignored.
- Board: '.' is an empty square, 'A'-'Z' is a tile, 'a'-'z' is a blank standing for
  that letter. A blank scores 0.
- A placement is (row, col, LETTER, is_blank). A play is the frozenset of its
  placements.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from string import ascii_uppercase

Square = tuple[int, int]
Placement = tuple[int, int, str, bool]
Play = frozenset[Placement]
DIRECTIONS: tuple[Square, ...] = ((0, 1), (1, 0))  # across, down


def _tiles(board: list[str]) -> dict[Square, str]:
    """Occupied squares -> board char (lowercase = blank). Empty and off-board squares are absent."""
    n = len(board)
    assert all(len(row) == n for row in board), "board must be square"
    tiles: dict[Square, str] = {}
    for r, row in enumerate(board, start=1):
        for c, ch in enumerate(row, start=1):
            if ch != '.':
                assert ch.isascii() and ch.isalpha(), f"bad board char {ch!r} at {(r, c)}"
                tiles[(r, c)] = ch
    return tiles


def _premium_map(rules: dict, n: int) -> dict[Square, str]:
    """Square -> 'DL' / 'TL' / 'DW' / 'TW', keeping only squares on an n x n board."""
    premium: dict[Square, str] = {}
    for kind in ('DL', 'TL', 'DW', 'TW'):
        for r, c in rules['premiums'].get(kind, []):
            if 1 <= r <= n and 1 <= c <= n:
                assert (r, c) not in premium, f"square {(r, c)} has two premiums"
                premium[(r, c)] = kind
    return premium


def _words_formed(tiles: dict[Square, str], new: Iterable[Square]) -> list[list[Square]]:
    """Every maximal run (across or down) of length >= 2 that contains a new tile.

    `tiles` must already include the new tiles. For a play of several tiles in one
    line, this is the main word plus each perpendicular cross-word. For a single
    tile, it is the word in each direction that has length >= 2.
    """
    runs: dict[tuple[Square, Square], list[Square]] = {}
    for dr, dc in DIRECTIONS:
        for r, c in new:
            while (r - dr, c - dc) in tiles:  # walk back to the start of the run
                r, c = r - dr, c - dc
            start = (r, c)
            run: list[Square] = []
            while (r, c) in tiles:
                run.append((r, c))
                r, c = r + dr, c + dc
            if len(run) >= 2:
                runs[(start, (dr, dc))] = run
    return list(runs.values())


def _spell(tiles: dict[Square, str], run: list[Square]) -> str:
    return ''.join(tiles[sq].upper() for sq in run)


def _score(rules: dict, n: int, tiles: dict[Square, str], new: set[Square], premiums: bool) -> int:
    """Score the play whose new squares are `new`. `tiles` already includes them."""
    values: dict[str, int] = rules['tile_values']
    premium = _premium_map(rules, n) if premiums else {}
    total = 0
    for run in _words_formed(tiles, new):
        word_sum, word_mult = 0, 1
        for sq in run:
            ch = tiles[sq]
            value = 0 if ch.islower() else values[ch]  # a blank scores 0
            if sq in new:  # premiums count only under tiles placed this turn
                kind = premium.get(sq)
                if kind == 'DL':
                    value *= 2
                elif kind == 'TL':
                    value *= 3
                elif kind == 'DW':
                    word_mult *= 2
                elif kind == 'TW':
                    word_mult *= 3
            word_sum += value
        total += word_sum * word_mult
    if len(new) == rules['rack_size']:
        total += rules['all_tiles_bonus']  # added once, never multiplied
    return total


def brute_force_score(rules: dict, board: list[str], placements: list[Placement],
                      premiums: bool = True) -> int:
    """Score one play, which is assumed to be legal. Placements are (row, col, LETTER, is_blank)."""
    n = len(board)
    tiles = _tiles(board)
    new: set[Square] = set()
    for r, c, letter, is_blank in placements:
        assert 1 <= r <= n and 1 <= c <= n, f"{(r, c)} is off the board"
        assert (r, c) not in tiles and (r, c) not in new, f"{(r, c)} is already occupied"
        assert len(letter) == 1 and letter.upper() in ascii_uppercase, f"bad letter {letter!r}"
        tiles[(r, c)] = letter.lower() if is_blank else letter.upper()
        new.add((r, c))
    return _score(rules, n, tiles, new, premiums)


def _fillings(arrangement: tuple[str, ...]) -> Iterator[tuple[tuple[str, bool], ...]]:
    """Expand each '?' in a rack arrangement to each letter A-Z, giving (LETTER, is_blank) pairs."""
    choices = [[(letter, True) for letter in ascii_uppercase] if ch == '?' else [(ch, False)]
               for ch in arrangement]
    return itertools.product(*choices)


def brute_force_plays(rules: dict, board: list[str], rack: str, words: set[str],
                      premiums: bool = True) -> dict[frozenset[tuple[int, int, str, bool]], int]:
    """Every distinct legal play, mapped to its score."""
    n = len(board)
    tiles = _tiles(board)
    centre: Square = (rules['center'][0], rules['center'][1])
    rack = rack.upper()
    assert len(rack) <= rules['rack_size'], "rack is too long"
    assert all(ch in ascii_uppercase or ch == '?' for ch in rack), f"bad rack {rack!r}"
    # Distinct ordered selections of k rack tiles (duplicate letters give duplicate tuples).
    arrangements = {k: sorted(set(itertools.permutations(rack, k))) for k in range(1, len(rack) + 1)}

    plays: dict[Play, int] = {}
    for dr, dc in DIRECTIONS:
        for line in range(1, n + 1):
            # Square number i along this line (i may be 0 or n + 1, which are off the board).
            def at(i: int) -> Square:
                return (line, i) if (dr, dc) == (0, 1) else (i, line)

            for start in range(1, n + 1):
                for end in range(start, n + 1):
                    # The segment must be the whole run, so the squares just outside it are empty.
                    if at(start - 1) in tiles or at(end + 1) in tiles:
                        continue
                    segment = [at(i) for i in range(start, end + 1)]
                    empties = [sq for sq in segment if sq not in tiles]
                    if not 1 <= len(empties) <= len(rack):
                        continue
                    if not tiles:  # first play: it must cover the centre
                        if centre not in segment:
                            continue
                    elif not any((r + a, c + b) in tiles for r, c in empties
                                 for a, b in ((-1, 0), (1, 0), (0, -1), (0, 1))):
                        continue  # later plays must touch a tile already on the board
                    for arrangement in arrangements[len(empties)]:
                        for filling in _fillings(arrangement):
                            # Quick reject on the main word (the segment itself).
                            letters = iter(letter for letter, _ in filling)
                            main = ''.join(tiles[sq].upper() if sq in tiles else next(letters)
                                           for sq in segment)
                            if len(segment) >= 2 and main not in words:
                                continue
                            placed = {sq: (letter.lower() if blank else letter)
                                      for sq, (letter, blank) in zip(empties, filling, strict=True)}
                            after = {**tiles, **placed}
                            formed = _words_formed(after, placed)
                            if not formed or any(_spell(after, run) not in words for run in formed):
                                continue
                            play: Play = frozenset((r, c, letter, blank)
                                                   for (r, c), (letter, blank) in zip(empties, filling, strict=True))
                            score = _score(rules, n, after, set(placed), premiums)
                            assert plays.get(play, score) == score, "same play scored twice differently"
                            plays[play] = score
    return plays
