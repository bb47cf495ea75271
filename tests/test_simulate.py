"""Monte Carlo simulation (engine.strategy.simulate) and its stopping rule (engine.strategy.simstats)."""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

import pytest
from bruteforce import brute_force_plays
from conftest import small_rules

from engine import Lexicon, position
from engine.board import BLANK, LETTER_MASK, format_board
from engine.errors import InvalidRackError, TileCountError
from engine.game import PASS, PLAY, game_rules, replay, tile_counts
from engine.strategy import simulate as sm
from engine.strategy.equity import Candidate
from engine.strategy.leaves import shipped
from engine.strategy.players import EquityPlayer, SimPlayer, make_player
from engine.strategy.selfplay import play_game
from engine.strategy.simstats import Figures, Running, dominated, leader_of, to_prune

POSITIONS = json.loads(Path("bench/positions.json").read_text())["positions"]


def bench_position(game: str, stage: str, blanks: int = 0) -> dict:
    return next(p for p in POSITIONS if p["game"] == game and p["stage"] == stage and p["blanks"] == blanks)


def bench_setup(game: str, stage: str, scores: tuple[int, int] = (120, 100)) -> sm.Setup:
    p = bench_position(game, stage)
    rules = game_rules(game)
    return sm.setup(rules, position(rules.ruleset, p["board"], p["rack"]), scores)


def logistic(spread: float, unseen: int) -> float:
    """A stand-in win probability for the tests: monotone in spread, flatter with more unseen."""
    return 1 / (1 + math.exp(-spread / (8 + unseen)))


def figures_of(snap: sm.Snapshot) -> list[dict]:
    return [line.to_dict() for line in snap.lines]


# ----------------------------------------------------------------------------- the stopping rule


def test_running_mean_and_standard_error_match_statistics() -> None:
    rng = random.Random(5)
    xs = [rng.gauss(10, 3) for _ in range(50)]
    r = Running()
    for x in xs:
        r.add(x)
    assert r.n == 50
    assert r.mean == pytest.approx(statistics.fmean(xs))
    assert r.se == pytest.approx(statistics.stdev(xs) / math.sqrt(50))
    lo, hi = r.bounds(2.0)
    assert lo == pytest.approx(r.mean - 2 * r.se) and hi == pytest.approx(r.mean + 2 * r.se)
    one = Running()
    one.add(3.0)
    assert one.se == 0.0 and one.mean == 3.0


def fig(values: list[float], wins: list[float] | None = None) -> Figures:
    f = Figures()
    for k, v in enumerate(values):
        f.add(v, None if wins is None else wins[k])
    return f


def test_a_candidate_is_pruned_only_when_its_upper_bound_is_below_the_leaders_lower_bound() -> None:
    leader = fig([10, 11, 9, 10, 10, 11, 9, 10])
    close = fig([9, 10, 8, 9, 9, 10, 8, 9])  # intervals overlap
    far = fig([0, 1, -1, 0, 0, 1, -1, 0])
    assert not dominated(leader, close, 2.0)
    assert dominated(leader, far, 2.0)
    figures = {0: leader, 1: close, 2: far}
    assert leader_of(figures, [0, 1, 2]) == 0
    assert to_prune(figures, [0, 1, 2], 2.0, min_samples=8) == [2]
    assert to_prune(figures, [0, 1, 2], 2.0, min_samples=9) == []  # too few samples yet
    assert to_prune(figures, [2], 2.0, min_samples=1) == []  # the last one is never pruned
    # the leader is whichever is best now, not the first candidate
    assert to_prune({0: far, 1: leader}, [0, 1], 2.0, min_samples=8) == [0]


def test_the_win_share_decides_and_the_spread_breaks_exact_win_ties() -> None:
    # higher spread but lower win share: the win share leads
    a = fig([5, 6, 5, 6], wins=[1, 1, 1, 1])
    b = fig([50, 60, 50, 60], wins=[0, 0, 0, 0])
    assert leader_of({0: b, 1: a}, [0, 1]) == 1
    assert dominated(a, b, 2.0) and not dominated(b, a, 2.0)
    # both win every game (exact and equal): the spread tells them apart
    c = fig([30, 31, 30, 31], wins=[1, 1, 1, 1])
    assert leader_of({0: a, 1: c}, [0, 1]) == 1
    assert dominated(c, a, 2.0)
    # equal figures: the earlier (better by equity) leads
    assert leader_of({3: fig([1, 2]), 1: fig([1, 2])}, [3, 1]) == 1


# ----------------------------------------------------------------------------- acceptance


@pytest.mark.parametrize(("game", "stage"), [("crossplay", "middle"), ("scrabble", "early"), ("wwf", "late")])
def test_with_zero_plies_the_order_is_the_equity_order(lex: Lexicon, game: str, stage: str) -> None:
    s = bench_setup(game, stage)
    values = shipped(game)
    cands = sm.candidates_for(s, lex, values, 10)
    assert len(cands) == 10
    spread = s.scores[0] - s.scores[1]
    snap = sm.simulate(s, lex, values, sm.Params(candidates=10, plies=0, iterations=20, seed=1), win=None)
    assert snap.done and snap.reason == "exact" and snap.iterations == 1
    assert [line.candidate for line in snap.lines] == cands
    for line in snap.lines:
        assert line.value == pytest.approx(spread + line.candidate.equity_milli / 1000)
    # with a win probability the order is by P(win) after the candidate, which also sees the
    # tiles left unseen (a play drawing more leaves fewer): the equity order among equal draws
    snap = sm.simulate(s, lex, values, sm.Params(candidates=10, plies=0, iterations=20, seed=1), win=logistic)
    wins = [line.win for line in snap.lines]
    assert wins == sorted(wins, reverse=True)

    def drawn(c: Candidate) -> int:
        return c.move.tiles_used if c.move is not None else 0

    for a, b in zip(snap.lines, snap.lines[1:], strict=False):
        if drawn(a.candidate) == drawn(b.candidate):
            assert a.rank < b.rank
    assert [line.candidate for line in snap.lines if drawn(line.candidate) == 2] == [
        c for c in cands if drawn(c) == 2]


def final_round_position(small_lex: Lexicon, small_words: set[str]) -> tuple[object, sm.Setup, list[str], str, dict]:
    """A 7x7 Crossplay board whose tile set is exactly the board, our rack and the opponent's:
    the bag is empty, the opponent's rack is the unseen tiles, one final turn each."""
    rs, data = small_rules("crossplay", 7)
    board = [".......", ".......", "...Q...", "...I...", "..DOTES", ".......", "......."]
    ours, theirs = "AIRTE", "NOSLE"
    used = tile_counts("".join(board).replace(".", "") + ours + theirs)
    rs = replace(rs, counts=tuple(used))
    rules = game_rules(rs)
    pos = position(rs, board, ours)
    s = sm.setup(rules, pos, (200, 195), bag_size=0)
    assert s.final_turns_left == 2 and s.opponent_rack_size == 5
    return rules, s, board, theirs, data


def test_bag_empty_two_plies_in_crossplay_is_the_exact_value_of_the_final_round(
    small_lex: Lexicon, small_words: set[str],
) -> None:
    rules, s, board, theirs, data = final_round_position(small_lex, small_words)
    values = shipped("crossplay")
    every = sm.candidates_for(s, small_lex, values, 10_000)  # every play, and the pass (last: it scores 0)
    assert every[-1].kind == PASS and len(every) > 40
    cands = every[:20] + every[20:-1:len(every) // 10] + every[-1:]  # the best, a spread of the rest, the pass
    snap = sm.simulate(s, small_lex, values, sm.Params(plies=2, iterations=50, seed=9), cands, win=logistic)
    assert snap.reason == "exact" and snap.iterations == 1
    rs = rules.ruleset
    for line in snap.lines:
        c = line.candidate
        after = list(s.position.cells)
        if c.move is not None:
            for t in c.move.tiles:
                after[(t.row - 1) * rs.size + t.col - 1] = (ord(t.letter) - 64) | (BLANK if t.blank else 0)
        rows = format_board(rs, after)
        # every reply the opponent has, by brute force; in the final round equity is the score
        replies = brute_force_plays(data, rows, theirs, small_words)
        best_reply = max(replies.values(), default=0)
        exact = s.scores[0] - s.scores[1] + c.score - best_reply
        assert line.value == exact, (line.text, rows)
        assert line.value_se == 0.0
        assert line.win == (1.0 if exact > 0 else 0.5 if exact == 0 else 0.0)
    assert all(code & LETTER_MASK for code in s.position.cells if code)  # the board parsed


def test_bag_empty_one_ply_in_scrabble_is_exact_with_going_out_and_the_rack_adjustment(
    small_lex: Lexicon, small_words: set[str],
) -> None:
    """Scrabble's end rule: going out ends the game, the player out gains the other rack's value
    and the other loses it; otherwise the tiles kept are valued by the end rule (twice their
    face value). Every reply by brute force; the opponent picks the best by that equity."""
    rs, data = small_rules("scrabble", 7)
    board = [".......", ".......", "...Q...", "...I...", "..DOTES", ".......", "......."]
    ours, theirs = "AERT", "NOSLE"
    rs = replace(rs, counts=tuple(tile_counts("".join(board).replace(".", "") + ours + theirs)))
    rules = game_rules(rs)
    assert rules.end_on_going_out and rules.rack_adjustment == "going_out"
    s = sm.setup(rules, position(rs, board, ours), (200, 195), bag_size=0)
    values = shipped("scrabble")
    every = sm.candidates_for(s, small_lex, values, 10_000)
    out = [c for c in every if c.kind == PLAY and not c.kept]  # plays that go out
    cands = every[:15] + every[15::max(1, len(every) // 8)] + out[:3]
    snap = sm.simulate(s, small_lex, values, sm.Params(plies=1, iterations=5, seed=2), cands, win=None)
    assert snap.reason == "exact"

    def face(tiles: str) -> int:
        return sum(rs.values[0 if ch == "?" else ord(ch) - 64] for ch in tiles)

    spread = s.scores[0] - s.scores[1]
    went_out = 0
    they_out: list[bool] = []
    for line in snap.lines:
        c = line.candidate
        if c.kind == PLAY and not c.kept:  # we go out: the game ends, we gain their rack
            went_out += 1
            assert line.value == spread + c.score + 2 * face(theirs)
            continue
        after = list(s.position.cells)
        if c.move is not None:
            for t in c.move.tiles:
                after[(t.row - 1) * rs.size + t.col - 1] = (ord(t.letter) - 64) | (BLANK if t.blank else 0)
        options: dict[int, set[float]] = {}
        outs: dict[int, set[bool]] = {}
        for placed, score in brute_force_plays(data, format_board(rs, after), theirs, small_words).items():
            left = list(theirs)
            for _, _, letter, blank in placed:
                left.remove("?" if blank else letter)
            if left:  # the game goes on: each side's kept tiles at twice their face value, against
                eq = 1000 * score - 2000 * face("".join(left))
                value = spread + c.score - score + (c.leave_milli + 2000 * face("".join(left))) / 1000
            else:  # they go out: they gain our rack's value and we lose it
                eq = 1000 * score + 2000 * face(c.kept)
                value = spread + c.score - score - 2 * face(c.kept)
            options.setdefault(eq, set()).add(value)
            outs.setdefault(eq, set()).add(not left)
        expected = options[max(options)] if options else {spread + c.score + c.leave_milli / 1000 + 2 * face(theirs)}
        assert line.value in expected, (line.text, expected)
        they_out.append(bool(outs) and True in outs[max(outs)])
    assert len(snap.lines) > 10
    assert went_out >= 3 and sum(they_out) >= 3  # both ways of ending were checked


def test_identical_candidates_get_identical_figures(lex: Lexicon) -> None:
    s = bench_setup("crossplay", "middle")
    values = shipped("crossplay")
    cands = sm.candidates_for(s, lex, values, 3)
    twice = [cands[0], cands[1], cands[0], cands[2]]
    snap = sm.simulate(s, lex, values, sm.Params(plies=2, iterations=24, seed=4, min_samples=1000), twice,
                       win=logistic)
    by_rank = {line.rank: line for line in snap.lines}
    a, b = by_rank[1], by_rank[3]
    assert a.candidate == b.candidate
    assert (a.iterations, a.value, a.value_se, a.win, a.win_se) == (b.iterations, b.value, b.value_se, b.win, b.win_se)
    assert a.iterations == 24 and a.value_se > 0


@pytest.mark.parametrize("game", ["crossplay", "scrabble"])
def test_same_seed_same_answer_with_one_worker_and_two(lex: Lexicon, game: str) -> None:
    s = bench_setup(game, "middle")
    values = shipped(game)
    params = sm.Params(candidates=6, plies=2, iterations=40, seed=11, checkpoint=8, min_samples=8, z=1.0)
    one = list(sm.simulation(s, lex, values, replace(params, workers=1), win=logistic))
    two = list(sm.simulation(s, lex, values, replace(params, workers=2), win=logistic))
    assert two[-1].workers == 2
    assert [figures_of(x) for x in one] == [figures_of(x) for x in two]
    assert [x.iterations for x in one] == [0, 8, 16, 24, 32, 40][: len(one)]
    if game == "crossplay":  # the stopping rule acted between checkpoints (so they were the same too)
        assert sum(line.active for line in one[-1].lines) < 6
    again = sm.simulate(s, lex, values, params, win=logistic)
    assert figures_of(again) == figures_of(one[-1])
    other = sm.simulate(s, lex, values, replace(params, seed=12), win=logistic)
    assert figures_of(other) != figures_of(one[-1])


def test_the_stopping_rule_prunes_and_ends_with_one_left(lex: Lexicon) -> None:
    s = bench_setup("crossplay", "middle")
    values = shipped("crossplay")
    snaps = list(sm.simulation(s, lex, values, sm.Params(candidates=8, plies=1, iterations=400, seed=2, z=0.5,
                                                          min_samples=8), win=None))
    last = snaps[-1]
    assert last.done and last.reason in ("one_left", "iterations")
    dropped = [line for line in last.lines if not line.active]
    assert dropped, "z = 0.5 prunes something within 400 iterations"
    for line in dropped:  # dropped at the checkpoint where its samples stop, simulated until then
        at = {x.iterations: {y.rank: y for y in x.lines} for x in snaps}
        assert not at[line.iterations][line.rank].active
        assert all(x.iterations >= line.iterations or x.iterations == 0 or {y.rank: y for y in x.lines}[line.rank].active
                   for x in snaps)
    assert last.lines[0].active and last.lines[0].iterations == last.iterations
    # every snapshot's active set only shrinks
    actives = [{line.rank for line in x.lines if line.active} for x in snaps]
    assert all(b <= a for a, b in zip(actives, actives[1:], strict=False))


def test_a_two_second_budget_answers_within_two_point_two(lex: Lexicon) -> None:
    s = bench_setup("scrabble", "middle")
    values = shipped("scrabble")
    t0 = time.monotonic()
    snap = sm.simulate(s, lex, values, sm.Params(candidates=10, plies=4, iterations=10**6, seconds=2.0, workers=2,
                                                 seed=1, min_samples=10**9))
    took = time.monotonic() - t0
    assert snap.reason == "time" and snap.iterations > 0
    assert took < 2.2, took


# ----------------------------------------------------------------------------- the game's rules, to the end


@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_positions_near_the_end_simulate_through_the_games_end_rule(lex: Lexicon, game: str) -> None:
    """From self-play states with 0 to 8 tiles in the bag: every rollout applies strictly
    (scores, draws, final turns, going out) and a game that ends is valued by its final score."""
    rules = game_rules(game)
    player = EquityPlayer()
    seen = 0
    for seed in (3, 4, 5):  # games until three such states (a game's shape follows the shipped leaves)
        g = play_game(rules, lex, [player, player], seed)
        states = replay(g)
        for k, st in enumerate(states[:-1]):
            if st.over or g.turns[k].kind not in (PLAY, PASS, "exchange") or st.bag_size > 8:
                continue
            me = st.to_move
            pos = st.position(rules, me)
            scores = (st.scores[me], st.scores[1 - me])
            s = sm.setup(rules, pos, scores, bag_size=st.bag_size, final_turns_left=st.final_left,
                         scoreless=st.scoreless)
            snap = sm.simulate(s, lex, shipped(game), sm.Params(candidates=4, plies=4, iterations=4, seed=k),
                               win=logistic)
            assert snap.done and snap.lines
            for line in snap.lines:
                assert line.win is not None and 0.0 <= line.win <= 1.0
            seen += 1
        if seen >= 3:
            break
    assert seen >= 3


def test_setup_checks_what_it_is_told(lex: Lexicon) -> None:
    p = bench_position("scrabble", "middle")
    rules = game_rules("scrabble")
    pos = position(rules.ruleset, p["board"], p["rack"])
    s = sm.setup(rules, pos)
    assert s.opponent_rack_size == 7 and s.bag_size == sum(s.unseen) - 7
    with pytest.raises(TileCountError):
        sm.setup(rules, pos, bag_size=sum(s.unseen) + 1)
    with pytest.raises(TileCountError):
        sm.setup(rules, pos, bag_size=sum(s.unseen) - 8)  # 8 tiles on the opponent's rack
    with pytest.raises(InvalidRackError):
        sm.setup(rules, pos, opponent="????")  # Scrabble has two blanks
    known = sm.setup(rules, pos, opponent="E")
    snap = sm.simulate(known, lex, shipped("scrabble"), sm.Params(candidates=3, plies=1, iterations=8, seed=1),
                       win=None)
    assert snap.iterations == 8 and snap.lines[0].win is None


def test_every_deal_gives_the_opponent_the_known_tiles_and_keeps_the_tile_count() -> None:
    rules = game_rules("crossplay")
    s = sm.setup(rules, position(rules.ruleset, None, "AEINRST"), opponent="QZ")
    racks = set()
    for i in range(30):
        opp, order = sm.deal(s, 5, i)
        assert len(opp) == 7 and "Q" in opp and "Z" in opp
        together = [a + b for a, b in zip(tile_counts(opp), tile_counts(sm._text(order)), strict=True)]
        assert together == list(s.unseen)
        assert sm.deal(s, 5, i) == (opp, order)
        racks.add(opp)
    assert len(racks) > 20


# ----------------------------------------------------------------------------- the sim player


def test_the_sim_player_plays_whole_games_the_same_way_each_time(lex: Lexicon) -> None:
    rules = game_rules("crossplay")
    a = make_player("sim:k=3:plies=1:iterations=8", 1)
    assert isinstance(a, SimPlayer) and (a.candidates, a.plies, a.iterations) == (3, 1, 8)
    one = play_game(rules, lex, [a, EquityPlayer()], 5)
    two = play_game(rules, lex, [make_player("sim:k=3:plies=1:iterations=8", 1), EquityPlayer()], 5)
    assert one.turns == two.turns and one.final_scores() == two.final_scores()
    replay(one)  # every turn was legal


def test_the_sim_player_with_one_candidate_is_the_equity_player(lex: Lexicon) -> None:
    rules = game_rules("scrabble")
    sim_game = play_game(rules, lex, [make_player("sim:k=1:iterations=5"), EquityPlayer()], 8)
    equity_game = play_game(rules, lex, [EquityPlayer(), EquityPlayer()], 8)
    assert sim_game.turns == equity_game.turns


@pytest.mark.parametrize("spec", ["sim:k=0", "sim:plies=x", "sim:depth=3", "sim:iterations"])
def test_a_bad_sim_player_budget_is_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="sim player"):
        make_player(spec)


# ----------------------------------------------------------------------------- leave tables, built fast for rollouts


def reference_table(values: object, rules: object, rack: list[int], bag_size: int, unseen: list[int]) -> dict:
    """The leave table as it was first written (every sub-rack's key and value from its counts)."""
    from itertools import product

    from engine.plays import subrack_strides
    from engine.strategy.equity import end_leave_milli
    from engine.strategy.leaves import leave_key

    held = [i for i, n in enumerate(rack) if n]
    strides, size = subrack_strides(rack)
    by_index, kept_by_index, subracks = [0] * size, [""] * size, []
    for combo in product(*(range(rack[i] + 1) for i in held)):
        kept = [0] * 27
        for i, n in zip(held, combo, strict=True):
            kept[i] = n
        used = tuple(i for i in held for _ in range(rack[i] - kept[i]))
        milli = values.milli(kept) if bag_size > 0 else end_leave_milli(rules, kept, unseen)  # type: ignore[attr-defined]
        thrown = [a - b for a, b in zip(rack, kept, strict=True)]
        subracks.append((used, milli, leave_key(kept), leave_key(thrown)))
        index = sum(thrown[i] * strides[i] for i in held)
        by_index[index] = milli
        kept_by_index[index] = leave_key(kept)
    return {"values": by_index, "kept": kept_by_index, "subracks": sorted(subracks)}


@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_the_leave_table_is_the_reference_one(game: str) -> None:
    from engine.strategy.equity import LeaveTable

    rules = game_rules(game)
    values = shipped(game)
    rng = random.Random(game)
    tiles = "".join(ch * n for ch, n in zip("?ABCDEFGHIJKLMNOPQRSTUVWXYZ", rules.ruleset.counts, strict=True))
    for k in range(300):
        rack = tile_counts("".join(rng.sample(tiles, rng.randint(1, 7))))
        unseen = tile_counts("".join(rng.sample(tiles, 7)))
        bag = 0 if k % 3 == 0 else 40
        for _ in range(2):  # the second time from the memo
            t = LeaveTable(values, rules, rack, bag, unseen)
            ref = reference_table(values, rules, rack, bag, unseen)
            assert t.values.values == ref["values"] and t.kept_by_index == ref["kept"]
            assert sorted(t.subracks) == ref["subracks"]
            assert t.subracks[-1][2] == ref["kept"][0] and t.subracks[0][2] == ""  # keeps all; keeps nothing


def test_cancel_stops_a_run_at_its_next_iteration(lex: Lexicon) -> None:
    import threading

    s = bench_setup("crossplay", "middle")
    cancel = threading.Event()
    snaps = []
    for snap in sm.simulation(s, lex, shipped("crossplay"), sm.Params(candidates=4, plies=2, iterations=10**6,
                                                                          seed=1, checkpoint=4), cancel=cancel):
        snaps.append(snap)
        if snap.iterations >= 8:
            cancel.set()
    assert snaps[-1].done and snaps[-1].reason == "stopped" and snaps[-1].iterations <= 12
