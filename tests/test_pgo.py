"""tools/pgo.py, the move generator rebuilt with profile-guided optimisation (make pgo; the
image always does it): it compiles as setup.py does, its module answers exactly as the plain
build on positions it was not trained on, and a failure leaves the installed module as it was.
Its build and workload also check the move generator built other ways: with its bounds checked
one by one (-DSHADOW_CHECK) and under the address and undefined-behaviour sanitizers."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import search

ROOT = Path(__file__).resolve().parent.parent
PGO = ROOT / "tools" / "pgo.py"

spec = importlib.util.spec_from_file_location("pgo", PGO)
assert spec and spec.loader
pgo = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pgo)

# Answers on bench/positions.json (none of them the tool's workload): the best 20 by score, the
# count, the best 20 by equity with exchanges, from a fresh interpreter whose engine._fastgen is
# the module named on the command line (put there as the tool puts it: pgo.use_module).
ANSWERS = r"""
import json, sys
sys.path.insert(0, sys.argv[3])
import pgo
pgo.use_module(sys.argv[1])
from engine import default_lexicon, find_moves, get_ruleset, position, search
from engine.game import game_rules
from engine.strategy.equity import default_bag_size, rank_by_equity
from engine.strategy.leaves import shipped
from engine.tiles import unseen_tiles
assert search.implementation() == "compiled"
lex = default_lexicon()
out = []
for p in json.load(open(sys.argv[2]))["positions"]:
    rules = get_ruleset(p["game"])
    pos = position(rules, p["board"], p["rack"], p.get("heights"))
    top = find_moves(pos, lex, limit=20, count=True)
    out.append([p["id"], top.total, [(m.notation, m.score) for m in top.moves]])
    if p["game"] != "upwords":
        seen = unseen_tiles(pos)
        unseen = [seen.counts["?"]] + [seen.counts[chr(65 + i)] for i in range(26)]
        g = game_rules(rules)
        turns = rank_by_equity(pos, lex, shipped(p["game"]), g, default_bag_size(g, seen.total), unseen, limit=20,
                               exchanges=True, count=False)
        out.append(repr(turns))
print(json.dumps(out))
"""


def answers(module: Path) -> list:
    done = subprocess.run([sys.executable, "-c", ANSWERS, str(module), str(ROOT / "bench" / "positions.json"),
                           str(PGO.parent)],
                          capture_output=True, text=True, timeout=600, cwd="/")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def gcc_or_skip() -> None:
    if search.implementation() != "compiled":
        pytest.skip("no compiled core installed (no C compiler at install time)")
    if not pgo.is_gcc(pgo.compiler()):
        pytest.skip("the C compiler is not GCC: tools/pgo.py leaves the module as built")


def test_it_compiles_with_setup_pys_flags() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text())
    fastgen = next(node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "")
                   == "Extension" and ast.literal_eval(node.args[0]) == "engine._fastgen")
    args = next(k.value for k in fastgen.keywords if k.arg == "extra_compile_args")
    assert ast.literal_eval(args) == pgo.FLAGS
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert set(pgo.X86_FLAGS) <= literals  # BuildExt's flags on x86-64


def test_the_rebuilt_module_answers_as_the_plain_build(tmp_path: Path) -> None:
    gcc_or_skip()
    out = tmp_path / "_fastgen.so"
    done = subprocess.run([sys.executable, str(PGO), "--output", str(out), "--require"], capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rebuilt with the profile" in done.stdout
    installed = pgo.installed_module()
    assert out.read_bytes() != installed.read_bytes()  # a different build...
    assert answers(out) == answers(installed)  # ...with the same answers, on positions it was not trained on


def test_a_failure_leaves_the_module_as_it_was(tmp_path: Path) -> None:
    gcc_or_skip()
    out = tmp_path / "_fastgen.so"
    empty = tmp_path / "no-lists"
    empty.mkdir()
    for require, code in ((False, 0), (True, 1)):
        args = [sys.executable, str(PGO), "--output", str(out), "--lexicons", str(empty)]
        done = subprocess.run(args + (["--require"] if require else []), capture_output=True, text=True, timeout=600)
        assert done.returncode == code, done.stdout + done.stderr
        assert "not rebuilt, the module stays as it was: the workload failed" in done.stdout
        assert not out.exists() and not list(tmp_path.glob("*.new"))


def test_without_gcc_it_says_so_and_changes_nothing(tmp_path: Path) -> None:
    fake = tmp_path / "cc"
    fake.write_text("#!/bin/sh\necho 'clang version 17.0.0'\n")
    fake.chmod(0o755)
    out = tmp_path / "_fastgen.so"
    done = subprocess.run([sys.executable, str(PGO), "--output", str(out)], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "CC": str(fake), "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "is not GCC" in done.stdout or "no compiled engine._fastgen" in done.stdout
    assert not out.exists()


def test_a_source_that_answers_otherwise_is_refused(tmp_path: Path) -> None:
    """The digest check: a module built from a source other than the installed module's (here,
    counting each play twice, which the self-play's own replay cannot see) is not installed."""
    gcc_or_skip()
    text = (ROOT / "engine" / "_fastgen.c").read_text()
    assert text.count("g->count++;") == 1
    source = tmp_path / "_fastgen.c"
    source.write_text(text.replace("g->count++;", "g->count += 2;"))
    out = tmp_path / "_fastgen.so"
    done = subprocess.run([sys.executable, str(PGO), "--output", str(out), "--source", str(source)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the installed module answers otherwise than _fastgen.c compiled here" in done.stdout
    assert not out.exists()


def test_with_the_pure_python_search_switched_on_it_refuses(tmp_path: Path) -> None:
    """WORDSOLVER_PURE_PYTHON would leave the module unrun by the workload: no profile, and
    the digests equal by the reference's answers alone."""
    gcc_or_skip()
    out = tmp_path / "_fastgen.so"
    done = subprocess.run([sys.executable, str(PGO), "--output", str(out)], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "WORDSOLVER_PURE_PYTHON": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the search answering is 'reference', not the compiled one" in done.stdout
    assert not out.exists()


def test_the_bounds_made_a_square_at_a_time_are_shadow_bounds(tmp_path: Path) -> None:
    """anchor_bounds keeps each extent's weights sorted as it grows (Shadow) instead of sorting
    them at every end (shadow_bound): a build with -DSHADOW_CHECK asks both at every end and
    aborts on a difference. It also keeps the bounds of two anchors sent back to the heap, not
    64 (-DKEPT_SLOTS=2), so that most anchors coming back make theirs again. Through the tool's
    workload (self-play with 0-2 blanks) and the bench positions, it answers as the installed
    module."""
    if search.implementation() != "compiled":
        pytest.skip("no compiled core installed (no C compiler at install time)")
    source = ROOT / "engine" / "_fastgen.c"
    assert "#ifdef SHADOW_CHECK" in source.read_text()
    out = tmp_path / "_fastgen.so"
    pgo.build(source, tmp_path / "_fastgen.o", out, ["-DSHADOW_CHECK", "-DKEPT_SLOTS=2"])
    installed = pgo.installed_module()
    checked, plain = pgo.run_workloads(out, installed, lexicons=ROOT / "lexicons")
    assert checked == plain
    assert answers(out) == answers(installed)


def sanitizer_runtime() -> Path | None:
    """GCC's AddressSanitizer runtime, which must be loaded before Python for a module built
    with it."""
    try:
        out = subprocess.run([*pgo.compiler(), "-print-file-name=libasan.so"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out) if out and Path(out).is_absolute() and Path(out).exists() else None


def test_the_search_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    """The move generator built with -fsanitize=address,undefined (any error aborts): the tool's
    workload (self-play of the four games, 0-2 blanks, payloads, counts, filters, equity) and
    the bench positions answer as the installed module, with no out-of-bounds access, overflow
    or other undefined behaviour on the way."""
    gcc_or_skip()
    runtime = sanitizer_runtime()
    if runtime is None:
        pytest.skip("no libasan next to the C compiler")
    out = tmp_path / "_fastgen.so"
    pgo.build(ROOT / "engine" / "_fastgen.c", tmp_path / "_fastgen.o", out,
              ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"])
    installed = pgo.installed_module()
    plain = pgo.run_workloads(installed, lexicons=ROOT / "lexicons")
    env = {**os.environ, "LD_PRELOAD": str(runtime), "ASAN_OPTIONS": "detect_leaks=0"}
    done = subprocess.run([sys.executable, str(PGO), "--workload", str(out), "--lexicons", str(ROOT / "lexicons")],
                          capture_output=True, text=True, timeout=600, cwd="/", env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == plain[0]
    checked = subprocess.run([sys.executable, "-c", ANSWERS, str(out), str(ROOT / "bench" / "positions.json"),
                              str(PGO.parent)], capture_output=True, text=True, timeout=600, cwd="/", env=env)
    assert checked.returncode == 0, checked.stderr[-3000:]
    assert json.loads(checked.stdout) == answers(installed)
