"""The compiled move generator (engine._fastgen via engine.search.compiled) against the Python one.

engine.movegen is the reference (it is checked against a brute force in test_generator.py);
the C core must produce exactly the same plays with the same scores. Skipped as a whole only
when the extension is not built (an install without a C compiler).
"""

from __future__ import annotations

import heapq
import json
import os
import random
import subprocess
import sys
import weakref
from array import array
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    import engine._fastgen  # noqa: F401
except ImportError:  # pragma: no cover - only on installs without a compiler
    pytest.skip("engine._fastgen is not built", allow_module_level=True)

from conftest import SMALL_ALPHABET, small_rules
from test_generator import generated, play_key, random_position

from engine import Lexicon, find_moves, get_ruleset, position, search
from engine.board import parse_rack
from engine.movegen import View, generate_view, views
from engine.plays import Position, RawPlay, raw_squares
from engine.rules import Ruleset
from engine.search import compiled

ROOT = Path(__file__).resolve().parent.parent
BLANKS = {"crossplay": [0, 1, 2, 3], "scrabble": [0, 1, 2], "wwf": [0, 1, 2]}


def python_view(rules: Ruleset, lex: Lexicon, view: View, rack: list[int]) -> list[RawPlay]:
    out: list[RawPlay] = []
    generate_view(rules, lex, view, list(rack), lambda *play: out.append(play))  # type: ignore[arg-type]
    return out


def native_plays(pos: Position, lex: Lexicon, premiums: bool = True) -> tuple[int, list[RawPlay]]:
    count, plays, _ = compiled.generate(pos.rules, lex, pos.cells, list(pos.rack), -1, premiums=premiums)
    return count, plays


def keyed(n: int, raws: list[RawPlay]) -> dict:
    out: dict = {}
    for raw in raws:
        key = play_key(n, raw)
        assert key not in out, f"play generated twice: {sorted(key)}"
        out[key] = raw[0]
    return out


def check_position(pos: Position, lex: Lexicon, premiums: bool, keeps: tuple[int, ...]) -> None:
    rules, n = pos.rules, pos.rules.size
    rack_before = list(pos.rack)
    expected = generated(pos, lex, premiums)
    count, plays = native_plays(pos, lex, premiums)
    assert count == len(plays) == len(expected)
    assert keyed(n, plays) == expected
    # view by view: the very same tuples in the very same order
    for which, view in zip((compiled.ACROSS, compiled.DOWN), views(rules, pos.cells, premiums), strict=True):
        py = python_view(rules, lex, view, pos.rack)
        c, mine, scores = compiled.generate(rules, lex, pos.cells, pos.rack, -1, views=which, premiums=premiums)
        assert mine == py and c == len(py) and scores == []
        floor = sorted(r[0] for r in py)[len(py) // 2] if py else 5  # every play, kept from a floor on
        c, mine, scores = compiled.generate(rules, lex, pos.cells, pos.rack, -1, [floor], views=which,
                                            premiums=premiums)
        assert mine == [r for r in py if r[0] >= floor] and c == len(py) and scores == [floor]
        c0, none, _ = compiled.generate(rules, lex, pos.cells, pos.rack, 0, views=which, premiums=premiums)
        assert c0 == len(py) and none == []
    assert pos.rack == rack_before
    all_scores = sorted(expected.values(), reverse=True)
    for keep in keeps:
        if all_scores:
            cutoff = all_scores[min(keep, len(all_scores)) - 1]
            top = {k for k, v in expected.items() if v >= cutoff}
        # keep=N across both views, the heap carried from the across view to the down view
        scores: list[int] = []
        kept: list[RawPlay] = []
        total = 0
        for which in (compiled.ACROSS, compiled.DOWN):
            c, p, scores = compiled.generate(rules, lex, pos.cells, pos.rack, keep, scores, views=which,
                                         premiums=premiums)
            total += c
            kept += p
            assert len(scores) <= keep
        assert total == len(expected)
        assert sorted(scores, reverse=True) == all_scores[:keep]
        got = keyed(n, kept)
        assert all(expected[k] == v for k, v in got.items())
        if all_scores:
            assert top <= got.keys()
        # pruned, best-first over both views: exactly the plays scoring at least the keep-th
        # best score (ties included), and the same heap
        _, pruned, pscores = compiled.generate(rules, lex, pos.cells, pos.rack, keep, prune=True,
                                           premiums=premiums)
        assert sorted(pscores, reverse=True) == all_scores[:keep]
        got = keyed(n, pruned)
        assert all(expected[k] == v for k, v in got.items())
        if all_scores:
            assert got.keys() == (top if len(all_scores) >= keep else expected.keys())


def random_rack(rng: random.Random, game: str, alphabet: str, blanks: int) -> list[int]:
    size = rng.randint(max(0, 1 - blanks), 7 - blanks if blanks < 2 else 3)
    rack = "".join(rng.choice(alphabet) for _ in range(size)) + "?" * blanks
    return parse_rack(get_ruleset(game), rack)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       junk=st.booleans(), premiums=st.booleans(), data=st.data())
def test_native_equals_python_full_board(seed: int, game: str, junk: bool, premiums: bool,
                                         data: st.DataObject, lex: Lexicon) -> None:
    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk)
    blanks = data.draw(st.sampled_from(BLANKS[game]), label="blanks")
    rack = random_rack(rng, game, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", blanks)
    check_position(Position(rules, base.cells, rack), lex, premiums, (1, 5, 20))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       n=st.sampled_from([5, 6, 7]), junk=st.booleans(), data=st.data())
def test_native_equals_python_small_board(seed: int, game: str, n: int, junk: bool,
                                          data: st.DataObject, small_lex: Lexicon) -> None:
    rules, _ = small_rules(game, n)
    rng = random.Random(seed)
    base = random_position(rng, rules, small_lex, junk)
    blanks = data.draw(st.sampled_from(BLANKS[game]), label="blanks")
    rack = random_rack(rng, game, SMALL_ALPHABET, blanks)
    check_position(Position(rules, base.cells, rack), small_lex, True, (1, 3, 10))


def test_bench_positions_counts_and_top_20(lex: Lexicon) -> None:
    positions = json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]
    checked = 0
    for p in positions:
        rules = get_ruleset(p["game"])
        if rules.stacking:
            continue  # Upwords has its own generator (engine.upwords); the C core is not for it
        checked += 1
        pos = position(rules, p["board"], p["rack"])
        with search.using("reference"):
            raws = search.every_play(pos, lex)
        count, plays = native_plays(pos, lex)
        assert count == len(raws), p["id"]
        best = heapq.nlargest(20, (r[0] for r in raws))
        assert heapq.nlargest(20, (r[0] for r in plays)) == best, p["id"]
        c, _, scores = compiled.generate(pos.rules, lex, pos.cells, pos.rack, 20)
        assert c == len(raws)
        assert sorted(scores, reverse=True) == best, p["id"]
        _, kept, scores = compiled.generate(pos.rules, lex, pos.cells, pos.rack, 20, prune=True)
        assert sorted(scores, reverse=True) == best, p["id"]
        assert sorted(r[0] for r in kept) == sorted(s for s in (r[0] for r in raws) if s >= best[-1]), p["id"]
        # the pruned search ranked in C == the full enumeration ranked in Python
        assert find_moves(pos, lex, limit=20, count=False).moves == find_moves(pos, lex, limit=20).moves, p["id"]
    assert checked


def test_empty_board_and_blank_only_racks(lex: Lexicon) -> None:
    for game in ("crossplay", "scrabble", "wwf"):
        rules = get_ruleset(game)
        for rack in ("QUIXOTE", "", "?", "A?", "??"):
            check_position(position(rules, None, rack), lex, True, (1, 7))


def test_the_plays_handed_back_are_left_to_reference_counting(lex: Lexicon) -> None:
    """The plays generate hands back (every play, or the best N ranked) hold only numbers,
    strings and such tuples, so they are left out of the cyclic collector's lists (as the
    collector itself would at its first pass): thousands of them, tracked, made each young
    collection walk them all."""
    import gc

    def tuples(x: object) -> list[tuple]:
        return [x, *(t for item in x for t in tuples(item))] if isinstance(x, tuple) else []

    rules = get_ruleset("scrabble")
    pos = position(rules, None, "RETAIN?")
    count, plays = native_plays(pos, lex)
    assert count == len(plays) > 300  # over 256 plays: the placements' pairs are shared too
    _, few = native_plays(position(rules, None, "QI"), lex)
    ranked = compiled.top_by_score(rules, lex, pos.cells, pos.rack, 20)
    held = [t for group in (plays, few, ranked) for raw in group for t in tuples(raw)]
    assert held and not any(gc.is_tracked(t) for t in held)


def _args(lex: Lexicon, rules: Ruleset, cells: list[int], rack: array) -> list:
    return [rules.size, bytes(cells), bytes(rules.letter_mult), bytes(rules.word_mult),
            array("i", rules.start), array("i", rules.values), rack, rules.rack_size,
            rules.bonus_points, compiled.BOTH, compiled._packed_gaddag(lex), -1, False, False, []]


def test_caller_buffers_are_not_modified(lex: Lexicon) -> None:
    rules = get_ruleset("scrabble")
    pos = position(rules, None, "RETAIN?")
    rack = array("i", pos.rack)
    before = rack.tolist()
    for keep, prune in ((-1, False), (5, True)):
        args = _args(lex, rules, pos.cells, rack)
        args[11], args[12] = keep, prune
        count, plays, _ = engine._fastgen.generate(*args)
        assert rack.tolist() == before
        assert count >= len(plays) > 0


def test_bad_arguments_raise(lex: Lexicon) -> None:
    rules, _ = small_rules("scrabble", 5)
    n = 5
    args = _args(lex, rules, [0] * (n * n), array("i", [1] * 27))
    args[4] = array("i", [12])
    engine._fastgen.generate(*args)  # the arguments as given are fine
    for i, bad in ((1, bytes(3)), (4, array("i", [99])), (1, bytes([30] * n * n)),
                   (9, 4), (10, b"not a packed GADDAG"), (14, [1, 2, 3]),
                   (2, bytes([10] * n * n)), (3, bytes(n * n)), (6, array("i", [-1] * 27))):
        broken = list(args)
        broken[i] = bad
        if i == 14:
            broken[11] = 2
        with pytest.raises(ValueError):
            engine._fastgen.generate(*broken)
    floored = list(args)
    floored[11], floored[14] = -1, [5, 6]  # every play takes one floor at most
    with pytest.raises(ValueError, match="at most one score"):
        engine._fastgen.generate(*floored)


def test_pack_checks_the_gaddag_once(lex: Lexicon) -> None:
    g = lex.gaddag
    engine._fastgen.pack(g.mask, g.first, g.child, g.root)
    bad_first = array("I", g.first)
    bad_first[g.root] = len(g.child)  # the root's edges would run off the end
    bad_child = array("I", g.child)
    bad_child[0] = len(g.mask)  # an edge to no state
    for args in ((g.mask, bad_first, g.child, g.root), (g.mask, g.first, bad_child, g.root),
                 (g.mask, g.first, g.child, len(g.mask)), (g.mask, g.first[:-1], g.child, g.root)):
        with pytest.raises(ValueError):
            engine._fastgen.pack(*args)


def test_pack_checks_the_dawg_it_reads_for_the_words_letters(lex: Lexicon) -> None:
    g, d = lex.gaddag, lex.dawg
    bad_child = array("I", d.child)
    bad_child[0] = len(d.mask)  # an edge to no state
    cycle = array("I", d.child)
    cycle[d.first[d.root]] = d.root  # the root's first letter leads back to the root: words without end
    for dawg in ((d.mask, d.first, bad_child, d.root), (d.mask, d.first, cycle, d.root),
                 (d.mask, d.first, d.child, len(d.mask)), (d.mask, d.first[:-1], d.child, d.root)):
        with pytest.raises(ValueError):
            engine._fastgen.pack(g.mask, g.first, g.child, g.root, *dawg)
    with pytest.raises(TypeError):  # without its root, state 0 (a word's end: no letters) would read no word
        engine._fastgen.pack(g.mask, g.first, g.child, g.root, d.mask, d.first, d.child)


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
def test_the_words_letters_never_miss_a_word(lex: Lexicon) -> None:
    """The packed lexicon's filter of the words' letters, which the bounds ask whether a whole
    rack with one or two blanks makes any word with an extent's letters: every word less one or
    two of its letters is found (a Bloom filter never answers no wrongly); of racks that make no
    word, few pass (measured 4 of 10,577 on the default list)."""
    packed = compiled._packed_gaddag(lex)
    codes = lambda letters: bytes(ord(c) - 64 for c in letters)  # noqa: E731
    words = lex.words()
    rng = random.Random(5)
    for w in rng.sample(words, 5000) + [w for w in words if len(w) == 2]:
        i = rng.randrange(len(w))
        rest = w[:i] + w[i + 1:]
        assert engine._fastgen.word_letters(packed, codes(rest), 1), w
        j = rng.randrange(len(rest))
        assert engine._fastgen.word_letters(packed, codes(rest[:j] + rest[j + 1:]), 2), w
    made = {"".join(sorted(w)) for w in words}
    bag = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ"
    passed = none = 0
    for _ in range(4000):
        rack = "".join(rng.choice(bag) for _ in range(6))
        if not any("".join(sorted(rack + c)) in made for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
            none += 1
            passed += engine._fastgen.word_letters(packed, codes(rack), 1)
    assert none > 1000 and passed <= none // 100
    assert engine._fastgen.word_letters(packed, codes("QQQQQQ"), 1) is False
    assert engine._fastgen.word_letters(packed, codes("QQQQ"), 3) is True  # three blanks: not asked
    with pytest.raises(ValueError):
        engine._fastgen.word_letters(packed, bytes([27]), 1)
    g = lex.gaddag
    bare = engine._fastgen.pack(g.mask, g.first, g.child, g.root)  # without the DAWG: never no
    assert engine._fastgen.word_letters(bare, codes("QQQQQQ"), 1) is True


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
def test_the_packed_lists_kept_are_the_recently_used(lex: Lexicon) -> None:
    """Nine packed lists are kept; a tenth drops the least recently used, so a service's
    default list stays while user lists come and go."""
    from engine.lexicon import from_words

    default = compiled._packed_gaddag(lex)
    lists = []
    for k in range(12):
        lists.append(from_words(["QI", "ZA", "AB"[: 1 + k % 2] + "X" * (k + 1)], f"small{k}"))
        compiled._packed_gaddag(lists[-1])
        assert compiled._packed_gaddag(lex) is default  # used again: kept
    assert len(compiled._packs) <= 9
    for _ in range(5):  # lists dropped from the nine and packed again leave no finalizers behind
        for small in lists:
            compiled._packed_gaddag(small)
            assert compiled._packed_gaddag(lex) is default
    ours = [f for f in weakref.finalize._registry.values() if f.func is compiled._forget_pack]  # type: ignore[attr-defined]
    assert len(ours) == 2 * len(compiled._packs)


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
def test_a_list_let_go_takes_its_packed_copy_with_it(lex: Lexicon) -> None:
    """The packed copies hold no list (a functools.lru_cache keyed by the automata kept a
    replaced user list, 30-40 MB, and its packed copy until nine newer lists pushed them out)."""
    import gc

    from engine.lexicon import from_words

    small = from_words(["QI", "ZA", "QAT"], "let-go")
    compiled._packed_gaddag(small)
    key, gone = (id(small.gaddag), id(small.dawg)), weakref.ref(small.gaddag)
    assert key in compiled._packs
    del small
    gc.collect()
    assert gone() is None and key not in compiled._packs
    assert find_moves(position(get_ruleset("scrabble"), None, "QAT"), from_words(["QAT"], "again"), limit=1).moves
    # a list freed while this thread holds the cache's lock (the review's case: a collection
    # started by an allocation inside the locked block freed a list in a reference cycle, and
    # a plain lock waited for itself): in a child, so that a hang fails by its timeout
    code = (
        "from engine.lexicon import from_words; from engine.search import compiled\n"
        "small = from_words(['QI', 'ZA', 'QAT'], 'a'); compiled._packed_gaddag(small)\n"
        "with compiled._packs_lock:\n    del small\n"
        "print('done' if not compiled._packs else 'kept')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "done", out.stderr


def test_pure_python_switch() -> None:
    code = "from engine import search; print(search.implementation())"
    env = dict(os.environ, WORDSOLVER_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "reference", out.stderr
    env["WORDSOLVER_PURE_PYTHON"] = ""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "compiled", out.stderr


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["crossplay", "scrabble", "wwf"]),
       limit=st.sampled_from([1, 3, 20]), filtered=st.booleans(), data=st.data())
def test_pruned_top_n_equals_full_enumeration_with_blanks(
    seed: int, game: str, limit: int, filtered: bool, data: st.DataObject, lex: Lexicon,
) -> None:
    """find_moves without count (best-first, pruned) returns exactly the full enumeration's
    top N, blanks included, on both backends, and the two backends agree."""
    from engine import MoveFilter

    rules = get_ruleset(game)
    rng = random.Random(seed)
    base = random_position(rng, rules, lex, junk=False)
    blanks = data.draw(st.sampled_from(BLANKS[game]), label="blanks")
    pos = Position(rules, base.cells, random_rack(rng, game, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", blanks))
    flt = MoveFilter(min_length=3, contains="E") if filtered else None
    results = []
    for name in ("compiled", "reference"):
        if name == "reference" and blanks > 1:
            continue  # the Python generator is slow with many blanks; it is checked play for play above
        with search.using(name):
            pruned = find_moves(pos, lex, limit=limit, flt=flt, count=False)
            full = find_moves(pos, lex, limit=limit, flt=flt, count=True)
        assert pruned.moves == full.moves
        results.append(pruned.moves)
    assert all(r == results[0] for r in results)


UP_ALPHABET = "AEIOSTRNLDCPQMHUBGY"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), plural_rule=st.booleans())
def test_upwords_native_equals_python(seed: int, plural_rule: bool, lex: Lexicon) -> None:
    """The compiled Upwords generator emits exactly engine.upwords.generate's plays, scores and
    order, on boards built from random legal plays (real stacks, the Qu tile included)."""
    from engine import upwords

    rules = get_ruleset("upwords")
    n = rules.size
    rng = random.Random(seed)
    cells, heights = [0] * (n * n), [0] * (n * n)

    def python_plays(rack: list[int]) -> list[RawPlay]:
        out: list[RawPlay] = []
        upwords.generate(rules, lex, cells, heights, list(rack), lambda *p: out.append(p), plural_rule)  # type: ignore[arg-type]
        return out

    for _ in range(rng.randint(0, 10)):
        rack = parse_rack(rules, "".join(rng.choice(UP_ALPHABET) for _ in range(rng.randint(1, 7))))
        before = list(rack)
        mine = compiled.upwords(rules, lex, cells, heights, rack, plural_rule)
        assert rack == before
        assert mine == python_plays(rack)
        if not mine:
            continue
        for i, code in raw_squares(n, rng.choice(mine)):
            cells[i] = code
            heights[i] += 1


@pytest.mark.skipif(compiled._fastgen is None, reason="the compiled core is not built")
@pytest.mark.parametrize("count", [True, False])
def test_the_compiled_search_stops_at_its_deadline(lex: Lexicon, count: bool) -> None:
    """Inside one anchor's walk too: an empty board with three blanks has one anchor a view
    (six tiles: a full rack's whole-rack plays come from the words, 4 ms for AEIR???)."""
    import time

    from engine import TimeBudgetExceeded, find_moves, get_ruleset, position

    pos = position(get_ruleset("crossplay"), None, "EIR???")
    search.prepare(lex)  # the packed copy is made before the clock starts
    start = time.monotonic()
    with pytest.raises(TimeBudgetExceeded):
        find_moves(pos, lex, limit=1000, count=count, deadline=start + 0.002)
    assert time.monotonic() - start < 0.05  # a full search takes 24-27 ms here
    if not count:  # and in the whole-rack plays found from the words (AEIR???: 3-4 ms in all)
        start = time.monotonic()
        with pytest.raises(TimeBudgetExceeded):
            find_moves(position(get_ruleset("crossplay"), None, "AEIR???"), lex, limit=1000, count=False,
                       deadline=start + 0.0005)
        assert time.monotonic() - start < 0.05
        for limit in (1, 20):  # few plays recorded: the walk itself asks (it ran 10-13 ms past a 1 ms budget)
            start = time.monotonic()
            with pytest.raises(TimeBudgetExceeded):
                find_moves(position(get_ruleset("crossplay"), None, "AEI???"), lex, limit=limit, count=False,
                           deadline=start + 0.001)
            assert time.monotonic() - start < 0.05
    assert find_moves(pos, lex, limit=5, count=count, deadline=time.monotonic() + 60).moves


@pytest.mark.skipif(compiled._fastgen is None, reason="the compiled core is not built")
@pytest.mark.skipif(sys.platform == "win32", reason="the walk keeps the interpreter lock without a C monotonic clock")
def test_the_compiled_search_lets_other_threads_run(lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk releases the interpreter lock (issue 21: eight expensive searches pushed the
    service's /healthz to 756 ms): a Python thread keeps counting while the call into C runs.
    Measured on a busy two-core machine (load average 9.5): holding the lock, the counter
    kept 17% of its pace alone during the calls; released, 41-47%."""
    import threading
    import time

    from engine import TimeBudgetExceeded

    inside = [0.0, 0]  # seconds in C, counter ticks meanwhile
    ticks = 0
    real = compiled._fastgen.generate

    def timed(*args: object) -> object:
        before, start = ticks, time.perf_counter()
        try:
            return real(*args)
        finally:
            inside[0] += time.perf_counter() - start
            inside[1] += ticks - before

    monkeypatch.setattr(compiled._fastgen, "generate", timed)
    pos = position(get_ruleset("crossplay"), None, "AEIR???")
    find_moves(pos, lex, limit=1, count=True)  # warm
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.02)
        before, start = ticks, time.perf_counter()
        time.sleep(0.3)  # as long as the calls below: a shorter window caught a lull at load average 5
        pace = (ticks - before) / (time.perf_counter() - start)  # the counter alone
        inside[:] = [0.0, 0]
        while inside[0] < 0.3:
            find_moves(pos, lex, limit=1, count=True)  # one long walk in C (50-190 ms here)
    finally:
        stop.set()
        t.join()
    assert inside[1] / inside[0] > 0.3 * pace, (inside, pace)
    with pytest.raises(TimeBudgetExceeded):  # and the deadline still holds without the lock
        find_moves(pos, lex, limit=1000, count=True, deadline=time.monotonic() + 0.002)


@pytest.mark.skipif(compiled._fastgen is None, reason="the compiled core is not built")
def test_the_compiled_upwords_search_stops_at_its_deadline(lex: Lexicon) -> None:
    """Issue 21: the Upwords search overran a 50 ms budget by 174-758 ms (the C walk had no
    deadline). A clock that passes the deadline after the first start square stops it there."""
    from array import array as arr

    from engine import TimeBudgetExceeded

    rules = get_ruleset("upwords")
    pos = position(rules, None, "AEIRSTL")
    d = lex.dawg
    args = (rules.size, bytes(pos.cells), bytes(pos.heights or [0] * rules.size ** 2), arr("i", rules.start),
            arr("i", list(pos.rack)), rules.rack_size, rules.bonus_points, rules.max_height, rules.qu_bonus, True,
            d.mask, d.first, d.child, d.root)
    everything = compiled._fastgen.upwords(*args)
    ticks = iter(range(1_000_000))
    calls = []

    def clock() -> float:
        calls.append(1)
        return float(next(ticks))

    with pytest.raises(TimeoutError):
        compiled._fastgen.upwords(*args, clock, 0.5)  # the second reading is past it
    assert len(calls) == 2
    assert compiled._fastgen.upwords(*args, clock, 1e12) == everything  # a far deadline changes nothing
    import time

    with pytest.raises(TimeBudgetExceeded):
        compiled.upwords(rules, lex, pos.cells, pos.heights or [0] * rules.size ** 2, list(pos.rack),
                         deadline=time.monotonic() - 1)


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_whole_rack_plays_found_from_the_words_equal_the_walks(game: str, lex: Lexicon) -> None:
    """The pruned search finds the plays of a full rack with at most three blanks from the
    words made of its letters and each extent's (whole_rack_plays), not by the walk: racks
    taken from 7- and 8-letter words (so the bingos go alone or through a board letter), none
    to two of their letters made blanks (three in Crossplay, which has three; the rack's other
    copies of a letter give a play per blank square), on random boards with a fifth of their
    tiles blanks; the top 60 by score, with premiums off too and with filters, equal the full
    enumeration's. (Tried: a blank put on only the first square of its letter fails this; so
    does an extent covering no anchor, and two blanks put only on squares in the order of
    their letters.)"""
    from engine import MoveFilter
    from engine.board import BLANK

    rules = get_ruleset(game)
    rng = random.Random(7)
    words = [w for w in lex.words() if len(w) in (7, 8)]
    filters = [None, MoveFilter(no_blanks=True), MoveFilter(min_length=8), MoveFilter(contains="E")]
    bingos = 0
    most = 4 if game == "crossplay" else 3
    for k in range(36):
        base = random_position(rng, rules, lex, junk=False)
        cells = [c | BLANK if c and rng.random() < 0.2 else c for c in base.cells]
        letters = rng.sample(rng.choice(words), 7)
        letters[: k % most] = "?" * (k % most)
        pos = Position(rules, cells, parse_rack(rules, "".join(letters)))
        for premiums, flt in ((True, None), (False, None), (True, filters[k % len(filters)])):
            pruned = find_moves(pos, lex, limit=60, premiums=premiums, flt=flt, count=False)
            full = find_moves(pos, lex, limit=60, premiums=premiums, flt=flt, count=True)
            assert pruned.moves == full.moves, (k, premiums, flt)
            bingos += sum(len(m.tiles) == 7 for m in full.moves)
    assert bingos > 150  # the path was exercised


def assert_equity_pruned_is_full(pos: Position, lex: Lexicon, limit: int, note: object) -> None:
    """The best ``limit`` turns by equity (shipped leaves, no exchanges) from the pruned search
    equal the full enumeration's."""
    from engine.game import game_rules
    from engine.strategy.equity import default_bag_size, rank_by_equity
    from engine.strategy.leaves import shipped
    from engine.tiles import unseen_tiles

    grules = game_rules(pos.rules)
    seen = unseen_tiles(pos)
    unseen = [seen.counts["?"]] + [seen.counts[chr(65 + i)] for i in range(26)]
    bag, values = default_bag_size(grules, seen.total), shipped(pos.rules.name)
    fast, _ = rank_by_equity(pos, lex, values, grules, bag, unseen, limit=limit, exchanges=False, count=False)
    slow, _ = rank_by_equity(pos, lex, values, grules, bag, unseen, limit=limit, exchanges=False, count=True)
    assert [c.move for c in fast] == [c.move for c in slow], note


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_pruning_where_the_rack_cannot_be_used_up_keeps_every_play(game: str, lex: Lexicon) -> None:
    """The walk drops the whole-rack bonus from its bound where a tile still on the rack is on
    no GADDAG edge below (the packed GADDAG's letters reachable from each state), and the
    bounds drop an extent where no word is made of the whole rack and its letters (the packed
    lexicon's words' letters): racks that make bingos, with 0-2 blanks, on random boards; the
    top N by score and by equity with that pruning equal the full enumeration's, a third of the
    boards' tiles blanks. (Tried: with the words' letters answering no for every rack with one
    blank, this fails; and with the board's blanks left out of them.)"""
    from engine.board import BLANK

    rules = get_ruleset(game)
    rng = random.Random(23)
    racks = ["AEINRST", "EIRST??", "AEILNR?", "DEINORS", "ACEHLRT", "OTLECO?", "AEGINR?", "ENORSTU"]
    for k in range(40):
        base = random_position(rng, rules, lex, junk=False)
        # a third of the board's tiles blanks: their letters count in the words' letters, not their value
        cells = [c | BLANK if c and rng.random() < 0.3 else c for c in base.cells]
        pos = Position(rules, cells, parse_rack(rules, racks[k % len(racks)]))
        for limit in (1, 20):
            pruned = find_moves(pos, lex, limit=limit, count=False)
            full = find_moves(pos, lex, limit=limit, count=True)
            assert pruned.moves == full.moves, (k, limit)
        assert_equity_pruned_is_full(pos, lex, 5, k)


@pytest.mark.skipif(not compiled.BUILT, reason="the compiled core is not built")
@pytest.mark.parametrize("game", ["crossplay", "scrabble", "wwf"])
def test_blanks_walked_once_for_every_square_they_can_take(game: str, lex: Lexicon) -> None:
    """With blanks on the rack, the pruned walk gives a blank only to a letter with no tile of
    its own left and records the plays with the blanks elsewhere from that one walk (record in
    engine/_fastgen.c): racks of two to six tiles with one to three blanks (as many as the game
    has), repeating letters (a word with more copies of a letter than the rack, so a blank can
    be on any of them), on random boards with a fifth of their tiles blanks; the top 100 by
    score, with premiums off and with filters, and the top 10 by equity, equal the full
    enumeration's. (Tried: recording only the play as walked fails this, so do the blanks kept
    off the squares of letters still on the rack, and the plays with the blanks moved skipped
    by the walked play's score instead of the score with every square's own tile.)"""
    from engine import MoveFilter
    from engine.board import BLANK

    rules = get_ruleset(game)
    rng = random.Random(31)
    racks = ["E?", "SE?", "EES?", "ORST?", "AEEST?", "LLOTE?", "NNOI?", "PPAE?", "DEIST?", "RATE?",
             "E??", "SE??", "EES??", "ORS??", "LLOT??", "PAE??", "ER???", "S???", "TEE???"]
    racks = [r for r in racks if r.count("?") <= rules.blanks]
    filters = [MoveFilter(no_blanks=True), MoveFilter(contains="E"), MoveFilter(min_length=4)]
    moved = 0
    for k in range(2 * len(racks)):
        base = random_position(rng, rules, lex, junk=False)
        cells = [c | BLANK if c and rng.random() < 0.2 else c for c in base.cells]
        pos = Position(rules, cells, parse_rack(rules, racks[k % len(racks)]))
        for premiums, flt in ((True, None), (False, None), (True, filters[k % len(filters)])):
            pruned = find_moves(pos, lex, limit=100, premiums=premiums, flt=flt, count=False)
            full = find_moves(pos, lex, limit=100, premiums=premiums, flt=flt, count=True)
            assert pruned.moves == full.moves, (k, premiums, flt)
            moved += sum(any(t.blank for t in m.tiles) for m in full.moves)
        assert_equity_pruned_is_full(pos, lex, 10, k)
    assert moved > 1000  # plays with the blank were among those compared
