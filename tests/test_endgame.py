"""The endgame solver (engine.strategy.endgame) against an exhaustive minimax written here.

The reference knows nothing of the solver: it walks the game through engine.game's own
``apply`` (strict: whose turn, the rack, the score, the final turns, going out and the
scoreless-turns limit are the game module's, not the solver's), tries every play the search
seam generates and the pass, with no pruning, and values finished games with
``engine.game.end_adjustments``. The small cases run it without any memory at all; the
larger ones remember finished subtrees by their whole state (an exact key: a cache of a pure
function, which cannot change a value), or they would take minutes.

Positions come from seeded self-play games (greedy and equity players) at the turn the bag
empties (or later), with both racks cut to 1-3 of their tiles. Crossplay's final round (two
turns) is searched exhaustively with no memory at all, three tiles against three and as dealt.
Scrabble and WWF with three tiles against three mostly are not: a typical such endgame (seed 1,
CEG against NSV) has 9.95e9 lines and 2.03 million distinct states, three minutes of the
memoised reference; so the cases of two and three tiles each are the racks whose tree stays
under ``CAP`` states (stuck racks), counted and printed, the others skipped.
"""

from __future__ import annotations

import itertools
import random
import time
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Lexicon, Ruleset, search
from engine.errors import IllegalPlayError
from engine.game import (
    PASS,
    PLAY,
    GameRules,
    State,
    Turn,
    apply,
    end_adjustments,
    game_rules,
    replay,
    tile_counts,
    tiles_text,
)
from engine.plays import Position, materialise, raw_squares
from engine.strategy.endgame import Endgame, from_state, solve
from engine.strategy.players import make_player
from engine.strategy.selfplay import play_game

# ------------------------------------------------------------------ the reference


def minimax_by_apply(rules: GameRules, lex: Lexicon, state: State, memo: dict | None) -> int:
    """The final spread change for the player to move, every line searched, each turn taken
    by ``engine.game.apply`` (strict). Slow: for the smallest cases."""
    if memo is not None:
        key = (state.cells, state.racks, state.to_move, state.scoreless, state.final_left)
        if key in memo:
            return memo[key]
    p = state.to_move
    turns = [Turn(p, PASS, rack=state.racks[p])]
    if state.racks[p]:
        cells = list(state.cells)
        for raw in search.every_play(state.position(rules), lex):
            move = materialise(rules.ruleset, cells, raw)
            drawn = tiles_text(state.bag)  # one tile in the bag at most: a play draws it
            turns.append(Turn(p, PLAY, rack=state.racks[p], move=move, score=move.score, drawn=drawn))
    best = None
    for turn in turns:
        after = apply(rules, state, turn)
        if after.over:
            adj = end_adjustments(rules, after.racks)
            value = turn.score + adj[p] - adj[1 - p]
        else:
            value = turn.score - minimax_by_apply(rules, lex, after, memo)
        best = value if best is None else max(best, value)
    assert best is not None
    if memo is not None:
        memo[key] = best
    return best


def rack_value(rules: GameRules, rack: tuple[int, ...]) -> int:
    return sum(n * v for n, v in zip(rack, rules.ruleset.values, strict=True))


def end_spread(rules: GameRules, mine: tuple[int, ...], theirs: tuple[int, ...]) -> int:
    """The end-of-game adjustment's spread change for the player owning ``mine``, read from
    the rules data as the rules state it (not through the solver or engine.game)."""
    if rules.rack_adjustment == "none":
        return 0
    if rules.rack_adjustment == "per_tile":
        return rules.ruleset.end_penalty_per_tile * (sum(theirs) - sum(mine))
    if not any(mine):
        return 2 * rack_value(rules, theirs)
    if not any(theirs):
        return -2 * rack_value(rules, mine)
    return rack_value(rules, theirs) - rack_value(rules, mine)


def minimax(rules: GameRules, lex: Lexicon, cells: tuple[int, ...], mine: tuple[int, ...], theirs: tuple[int, ...],
            scoreless: int, turns_left: int | None, memo: dict | None) -> int:
    """The final spread change for the owner of ``mine``, to move: every play and the pass,
    every reply, to the end of the game, no pruning."""
    key = (cells, mine, theirs, scoreless, turns_left)
    if memo is not None and key in memo:
        return memo[key]
    if memo is not None and len(memo) > memo.get("cap", len(memo) + 1):
        raise TooLarge
    rs = rules.ruleset
    if turns_left == 1 and rules.rack_adjustment == "none":  # the game's last turn: every play's score, or the pass
        return max([0] + [raw[0] for raw in search.every_play(Position(rs, list(cells), list(mine)), lex)])
    options: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = [(0, cells, mine)]  # the pass
    if any(mine):
        for raw in plays_of(rs, lex, cells, mine, memo):
            board, rack = list(cells), list(mine)
            for sq, code in raw_squares(rs.size, raw):
                assert not board[sq]
                board[sq] = code
                rack[0 if code & 64 else code & 31] -= 1
            assert min(rack) >= 0
            options.append((raw[0], tuple(board), tuple(rack)))
    left = None if turns_left is None else turns_left - 1
    best = None
    for score, board, rack in options:
        played = board is not cells
        zeros = 0 if played else scoreless + 1
        if ((played and not any(rack) and rules.end_on_going_out) or zeros >= rules.scoreless_turns_end
                or (left is not None and left <= 0)):
            value = score + end_spread(rules, rack, theirs)
        else:
            value = score - minimax(rules, lex, board, theirs, rack, zeros, left, memo)
        best = value if best is None else max(best, value)
    assert best is not None
    if memo is not None:
        memo[key] = best
    return best


def plays_of(rs: Ruleset, lex: Lexicon, cells: tuple[int, ...], rack: tuple[int, ...], memo: dict | None) -> list:
    """Every play of ``rack`` on ``cells`` through the search seam (kept in ``memo`` when there is one)."""
    if memo is None:
        return search.every_play(Position(rs, list(cells), list(rack)), lex)
    key = ("plays", cells, rack)
    if key not in memo:
        memo[key] = search.every_play(Position(rs, list(cells), list(rack)), lex)
    return memo[key]  # type: ignore[no-any-return]


class TooLarge(Exception):
    """The exhaustive search met more states than its memo's ``cap`` allows."""


def reference(rules: GameRules, lex: Lexicon, state: State, memo: dict | None) -> int:
    p = state.to_move
    turns_left = state.final_left if rules.final_turns_after_bag_empty else None
    return minimax(rules, lex, state.cells, tuple(tile_counts(state.racks[p])),
                   tuple(tile_counts(state.racks[1 - p])), state.scoreless, turns_left, memo)


# ------------------------------------------------------------------ positions


@cache
def bag_empty_states(game: str, player: str, seeds: tuple[int, ...]) -> tuple[State, ...]:
    from engine import default_lexicon

    lex = default_lexicon()
    rules = game_rules(game)
    out = []
    for seed in seeds:
        g = play_game(rules, lex, [make_player(player, seed), make_player(player, seed)], seed)
        state = next((s for s in replay(g) if s.bag_size == 0 and not s.over), None)
        if state is not None:
            out.append(state)
    return tuple(out)


@cache
def endgame_states(game: str, seeds: tuple[int, ...]) -> tuple[State, ...]:
    """Every state of seeded greedy self-play games with the bag empty and the game not over."""
    from engine import default_lexicon

    rules = game_rules(game)
    lex = default_lexicon()
    return tuple(s for seed in seeds
                 for s in replay(play_game(rules, lex, [make_player("greedy"), make_player("greedy")], seed))
                 if s.bag_size == 0 and not s.over)


def cut(state: State, keep: tuple[int, int], rng: random.Random, blanks: bool = True) -> State:
    """The state with the player to move keeping ``keep[0]`` of their tiles and the opponent
    ``keep[1]`` (chosen by ``rng``; without ``blanks`` none of them a blank); the bag stays empty."""
    racks = list(state.racks)
    for k, p in enumerate((state.to_move, 1 - state.to_move)):
        tiles = [ch for ch in racks[p] if blanks or ch != "?"]
        rng.shuffle(tiles)
        racks[p] = "".join(sorted(tiles[: keep[k]], key=lambda ch: (ch == "?", ch)))
    return State(cells=state.cells, heights=state.heights, racks=tuple(racks), bag=state.bag, scores=state.scores,
                 to_move=state.to_move, scoreless=state.scoreless, final_left=state.final_left)


# Rack sizes (side to move, opponent) of the small cases: 1-3 tiles each, at most 4 together
# (the exhaustive search of 2 against 3 can take a minute of a busy machine).
SIZES = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)]


def small_cases(game: str, player: str, seeds: tuple[int, ...], per_state: int, most: int,
                blanks: bool = True) -> list[State]:
    rng = random.Random(f"{game}:{player}:{seeds}")
    sizes = [k for k in SIZES if max(k) <= most]
    cases = []
    for state in bag_empty_states(game, player, seeds):
        for _ in range(per_state):
            cases.append(cut(state, rng.choice(sizes), rng, blanks))
    return cases


# ------------------------------------------------------------------ exhaustive agreement


@pytest.mark.parametrize("game", ["scrabble", "wwf"])
def test_tiny_endgames_match_minimax_without_memory(game: str, lex: Lexicon) -> None:
    rules = game_rules(game)
    for state in small_cases(game, "greedy", (1, 2, 3), 3, 1):  # one tile each: no memory at all
        want = minimax_by_apply(rules, lex, state, None)
        assert reference(rules, lex, state, None) == want
        got = solve(from_state(rules, state), lex)
        assert got.proved
        assert got.value == want, (state.racks, [s.notation for s in got.pv])
    for state in small_cases(game, "equity", (4,), 4, 2, False):
        if len(state.racks[0]) + len(state.racks[1]) > 3:
            continue
        want = minimax_by_apply(rules, lex, state, {})
        assert reference(rules, lex, state, {}) == want
        assert solve(from_state(rules, state), lex).value == want


@pytest.mark.parametrize(("game", "player", "seeds"), [
    ("scrabble", "greedy", (3, 4, 5)),
    ("scrabble", "equity", (7, 8)),
    ("wwf", "greedy", (3, 4)),
    ("wwf", "equity", (6,)),
])
def test_small_endgames_match_exhaustive_minimax(game: str, player: str, seeds: tuple[int, ...], lex: Lexicon) -> None:
    rules = game_rules(game)
    cases = small_cases(game, player, seeds, 3, 3, blanks=False)
    assert len(cases) >= 3 * len(seeds) - 3
    for state in cases:
        want = reference(rules, lex, state, {})
        got = solve(from_state(rules, state), lex)
        assert got.proved
        assert got.value == want, (state.racks, [s.notation for s in got.pv])


def plays_count(rules: GameRules, lex: Lexicon, cells: tuple[int, ...], rack: str) -> int:
    return len(search.every_play(Position(rules.ruleset, list(cells), tile_counts(rack)), lex))


def awkward_cut(rules: GameRules, lex: Lexicon, state: State, keep: tuple[int, int], rng: random.Random,
                most: int) -> State | None:
    """The state with each player keeping ``keep`` of their tiles (no blank), chosen (in
    ``rng``'s order) so that the two racks have at most ``most`` plays multiplied together on
    the board as it is: the exhaustive tree of two racks of three tiles is millions of states
    for most racks, so these are the racks that are stuck (the endgames of I, U and V)."""
    p = state.to_move
    options = []
    for k, who in enumerate((p, 1 - p)):
        tiles = sorted(ch for ch in state.racks[who] if ch != "?")
        subsets = sorted({"".join(c) for c in itertools.combinations(tiles, keep[k])})
        rng.shuffle(subsets)
        options.append([(r, plays_count(rules, lex, state.cells, r)) for r in subsets])
    pair = next(((a, b) for a, na in options[0] for b, nb in options[1] if 0 < na * nb <= most), None)
    if pair is None:
        return None
    racks = list(state.racks)
    racks[p], racks[1 - p] = pair
    return State(cells=state.cells, heights=state.heights, racks=tuple(racks), bag=state.bag, scores=state.scores,
                 to_move=state.to_move, scoreless=state.scoreless, final_left=state.final_left)


# Exhaustive searches of racks of two and three tiles each: per game the positions compared and,
# of them, how many are three against three; past CAP states the exhaustive search gives up on a
# position (counted, not compared).
CAP = 5000


@pytest.mark.parametrize("game", ["scrabble", "wwf"])
def test_racks_of_two_and_three_tiles_match_exhaustive_minimax(game: str, lex: Lexicon) -> None:
    """Racks of 2-3 tiles each (3 against 3, 2 against 3, 3 against 2) from seeded self-play:
    the solver's value is the exhaustive minimax's, every line searched (no pruning, no
    transposition table; finished subtrees remembered by their whole state, exactly)."""
    rules = game_rules(game)
    rng = random.Random(f"awkward:{game}")
    compared: dict[tuple[int, int], int] = {}
    gave_up = 0
    for state in endgame_states(game, tuple(range(1, 61))):
        for keep in ((3, 3), (2, 3), (3, 2)):
            if min(len(state.racks[0]), len(state.racks[1])) < min(keep):
                continue
            case = awkward_cut(rules, lex, state, keep, rng, 150)
            if case is None:
                continue
            try:
                want = reference(rules, lex, case, {"cap": CAP})
            except TooLarge:
                gave_up += 1
                continue
            got = solve(from_state(rules, case), lex)
            assert got.proved
            assert got.value == want, (case.racks, [s.notation for s in got.pv])
            compared[keep] = compared.get(keep, 0) + 1
        if sum(compared.values()) >= 12:
            break
    print(game, compared, "gave up", gave_up)
    assert sum(compared.values()) >= 12 and compared.get((2, 3), 0) and compared.get((3, 2), 0), (compared, gave_up)


def test_crossplay_final_rounds_of_three_tiles_match_minimax_without_memory(lex: Lexicon) -> None:
    """Crossplay's final round with three tiles (or fewer) on each rack: every play and the
    pass, every reply, no memory at all."""
    rules = game_rules("crossplay")
    rng = random.Random("final round 3-3")
    states = bag_empty_states("crossplay", "greedy", tuple(range(1, 17)))
    assert len(states) >= 12
    for state in states:
        case = cut(state, (3, 3), rng)
        got = solve(from_state(rules, case), lex)
        assert got.proved
        assert got.value == reference(rules, lex, case, None), case.racks


def test_the_principal_variation_achieves_the_value(lex: Lexicon) -> None:
    """Replaying the line through engine.game's strict apply scores exactly the value."""
    rules = game_rules("scrabble")
    for state in small_cases("scrabble", "greedy", (3, 4), 4, 3):
        got = solve(from_state(rules, state), lex)
        s = state
        spread = 0
        for step in got.pv:
            p = s.to_move
            turn = (Turn(p, PASS, rack=s.racks[p]) if step.move is None
                    else Turn(p, PLAY, rack=s.racks[p], move=step.move, score=step.score))
            s = apply(rules, s, turn)
            spread += step.score if p == state.to_move else -step.score
        assert s.over, [x.notation for x in got.pv]
        adj = end_adjustments(rules, s.racks)
        spread += adj[state.to_move] - adj[1 - state.to_move]
        assert spread == got.value


# ------------------------------------------------------------------ Crossplay's final round


def test_crossplay_final_rounds_match_brute_force_and_are_proved_fast(lex: Lexicon) -> None:
    rules = game_rules("crossplay")
    full = bag_empty_states("crossplay", "greedy", (1, 2, 3)) + bag_empty_states("crossplay", "equity", (1,))
    rng = random.Random(5)
    states = full + tuple(cut(s, (rng.randint(1, 4), rng.randint(1, 4)), rng)
                          for s in bag_empty_states("crossplay", "greedy", tuple(range(4, 12))))
    assert len(states) >= 10
    for state in states:
        assert state.final_left == 2
        eg = from_state(rules, state)
        t0 = time.monotonic()
        got = solve(eg, lex)
        assert time.monotonic() - t0 < 1.0
        assert got.proved and got.end == "final turns"
        assert got.value == reference(rules, lex, state, {})
        last = from_state(rules, last_state(state))
        assert solve(last, lex).value == reference(rules, lex, last_state(state), {})


def last_state(state: State) -> State:
    return State(cells=state.cells, heights=None, racks=state.racks, bag=state.bag, scores=state.scores,
                 to_move=state.to_move, final_left=1)


def test_crossplay_final_round_counts_no_rack_and_no_going_out_bonus(lex: Lexicon) -> None:
    """A final round's value is the score difference alone: a rack left full costs nothing."""
    rules = game_rules("crossplay")
    state = bag_empty_states("crossplay", "greedy", (1,))[0]
    eg = from_state(rules, state)
    got = solve(eg, lex, first_moves=1000)
    assert got.proved
    assert [s.player for s in got.pv] == [0, 1]
    assert got.value == got.pv[0].score - got.pv[1].score
    assert got.first_moves[0].value == got.value
    assert any(f.move is None for f in got.first_moves)  # the pass is a first move too


# ------------------------------------------------------------------ the search's own switches


@cache
def property_states() -> tuple[tuple[GameRules, State], ...]:
    out = []
    for game in ("scrabble", "wwf", "crossplay"):
        for state in bag_empty_states(game, "greedy", (11, 12, 13)):
            out.append((game_rules(game), state))
    return tuple(out)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, 1000), mine=st.integers(1, 3), theirs=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_value_does_not_depend_on_the_table_or_the_ordering(index: int, mine: int, theirs: int, seed: int,
                                                           lex: Lexicon) -> None:
    rules, state = property_states()[index % len(property_states())]
    eg = from_state(rules, cut(state, (mine, theirs), random.Random(seed), blanks=False))
    full = solve(eg, lex)
    assert full.proved
    assert solve(eg, lex, use_table=False).value == full.value
    assert solve(eg, lex, ordering=False).value == full.value
    assert solve(eg, lex, use_table=False, ordering=False).value == full.value
    assert solve(eg, lex, table_entries=16).value == full.value  # a table that keeps evicting


def test_first_moves_are_valued_exactly_and_a_forced_first_move_matches(lex: Lexicon) -> None:
    rules = game_rules("scrabble")
    state = small_cases("scrabble", "greedy", (3,), 1, 3, blanks=False)[0]
    eg = from_state(rules, state)
    got = solve(eg, lex, first_moves=10)
    assert got.first_moves[0].value == got.value
    values = [f.value for f in got.first_moves]
    assert values == sorted(values, reverse=True)
    for f in got.first_moves[:4]:
        forced = solve(eg, lex, first=f.notation)
        assert forced.value == f.value
        assert forced.pv[0].notation == f.notation
    with pytest.raises(IllegalPlayError):
        solve(eg, lex, first="8H ZZZZZ")


# ------------------------------------------------------------------ the budget


def test_a_budget_that_runs_out_answers_unproved_within_it(lex: Lexicon) -> None:
    rules = game_rules("scrabble")
    state = bag_empty_states("scrabble", "greedy", (2,))[0]  # 7 and 6 tiles, two blanks
    eg = from_state(rules, state)
    assert sum(eg.racks[0]) + sum(eg.racks[1]) >= 12
    t0 = time.monotonic()
    got = solve(eg, lex, deadline=t0 + 0.5)
    assert time.monotonic() - t0 < 0.5 + 0.3
    assert not got.proved
    assert got.pv and got.pv[0].player == 0


def test_an_endgame_built_by_hand(lex: Lexicon) -> None:
    """Both racks given directly: the opponent's one tile goes out next turn unless blocked."""
    rules = game_rules("scrabble")
    state = bag_empty_states("scrabble", "greedy", (3,))[0]
    eg = Endgame(rules, state.cells, (tuple(tile_counts("Q")), tuple(tile_counts("E"))))
    got = solve(eg, lex)
    assert got.proved
    assert got.value == reference(rules, lex, State(cells=state.cells, heights=None, racks=("Q", "E"),
                                                    bag=(0,) * 27, scores=(0, 0), to_move=0), {})


def test_upwords_endgames_match_minimax_through_the_game_rules(lex: Lexicon) -> None:
    """Upwords: stacking plays, -5 a tile left, two passes end the game: as engine.game plays it."""
    rules = game_rules("upwords")
    cases = small_cases("upwords", "greedy", (1, 2, 3), 3, 2)
    assert len(cases) >= 6
    for state in cases:
        if len(state.racks[0]) + len(state.racks[1]) > 3:
            continue
        got = solve(from_state(rules, state), lex)
        assert got.proved
        assert got.value == minimax_by_apply(rules, lex, state, {}), (state.racks, [s.notation for s in got.pv])


# ------------------------------------------------------------------ one tile in the bag


@pytest.mark.parametrize("game", ["scrabble", "wwf", "crossplay"])
def test_one_tile_in_the_bag_every_move_against_every_draw(game: str, lex: Lexicon) -> None:
    """Each first move's value under each possible bag tile equals the minimax through
    engine.game.apply of that draw's game (the play drawing the tile, the final turns once the
    bag is empty), and the expectation weighs the draws by their counts."""
    from engine.strategy.preendgame import solve_preendgame

    rules = game_rules(game)
    rng = random.Random(game)
    checked = 0
    for seed in range(1, 40):
        g = play_game(rules, lex, [make_player("greedy"), make_player("greedy")], seed)
        state = next((s for s in replay(g) if s.bag_size == 1 and not s.over), None)
        if state is None:
            continue
        if checked == 3:
            break
        p = state.to_move
        bag_tile = tiles_text(state.bag)
        mine = "".join(rng.sample(state.racks[p], min(1, len(state.racks[p]))))
        theirs = "".join(rng.sample(state.racks[1 - p], min(1, len(state.racks[1 - p]))))
        unseen = tuple(tile_counts(theirs + bag_tile))
        cells = state.cells
        pre = solve_preendgame(rules, lex, cells, tuple(tile_counts(mine)), unseen, spread=0, candidates=10_000)
        assert pre.proved and pre.candidates
        assert sum(pre.draws.values()) == 2
        for letter in pre.draws:
            opp = list(unseen)
            opp[tile_counts(letter).index(1)] -= 1
            racks = ["", ""]
            racks[p], racks[1 - p] = tiles_text(tile_counts(mine)), tiles_text(opp)
            s0 = State(cells=cells, heights=None, racks=tuple(racks), bag=tuple(tile_counts(letter)),
                       scores=(0, 0), to_move=p)
            want = minimax_by_apply(rules, lex, s0, {})
            assert max(c.by_draw[letter] for c in pre.candidates) == want
        best = pre.candidates[0]
        assert best.expected == sum(pre.draws[ch] * v for ch, v in best.by_draw.items()) / 2
        checked += 1
    assert checked == 3
