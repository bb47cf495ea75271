"""Rebuild the compiled move generator (engine/_fastgen.c) with profile-guided optimisation.

    .venv/bin/python tools/pgo.py               # replace the installed engine._fastgen
    .venv/bin/python tools/pgo.py --output X.so # write the new module there instead

GCC only (Clang's profiles need llvm-profdata; with another compiler this says so and stops).
Three steps, in a temporary directory: compile with ``-fprofile-generate``, run a fixed
workload with that module, compile again with ``-fprofile-use -fprofile-partial-training``,
with setup.py's flags and Python's own (sysconfig), as ``pip install`` compiles. The workload
(:func:`workload`) is what the service and self-play ask of the core. The new module must then
give the same digest of every answer of the workload as the module it replaces and as the
recording build; only then does it replace the installed file (a rename: a running process
keeps the file it loaded). Any failure leaves the installed module as it was and says why
(``--require``: and exits 1). ``make pgo`` runs it on .venv's module; the Dockerfile's build
stage runs it with ``--require``; ``make run`` keeps the plain build, so that the first start
stays quick.

Why: GCC then lays out the walk's branches and inlines by what the walk really does. Measured
against the plain build (``bench/run.py --against``, docs/engine.md): the top 20 by score takes
0.88-0.97x the time by blank count, the best play 0.80-0.92x.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import os
import platform
import shlex
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# setup.py's extra_compile_args for engine._fastgen (tests/test_pgo.py holds the two equal)
FLAGS = ["-O2"]
X86_FLAGS = ["-mpopcnt"]
GAMES = ("crossplay", "scrabble", "wwf", "upwords")


def say(msg: str) -> None:
    print(f"[pgo] {msg}", flush=True)


def flags() -> list[str]:
    return FLAGS + (X86_FLAGS if platform.machine().lower() in ("x86_64", "amd64") else [])


def compiler() -> list[str]:
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def is_gcc(cc: list[str]) -> bool:
    try:
        out = subprocess.run([*cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "Free Software Foundation" in out and "clang" not in out.lower()


def build(src: Path, obj: Path, out: Path, profile: list[str]) -> None:
    """Compile and link ``src`` as a module at ``out``, as setuptools does, with ``profile`` added.
    Both builds use the same object path: GCC names the profile data after it."""
    cv = sysconfig.get_config_var
    cflags = shlex.split(cv("CFLAGS") or "") + shlex.split(cv("CCSHARED") or "")
    ldshared = shlex.split(os.environ.get("LDSHARED") or cv("LDSHARED") or "cc -shared")
    subprocess.run([*compiler(), *cflags, f"-I{cv('INCLUDEPY')}", "-c", str(src), "-o", str(obj), *flags(),
                    *profile], check=True)
    subprocess.run([*ldshared, str(obj), "-o", str(out), *profile], check=True)


def run_workloads(*modules: Path, lexicons: Path) -> list[str]:
    """The workload's digest with each module as engine._fastgen, each in a fresh interpreter
    (from /, so that a source tree there cannot shadow the installed package), side by side."""
    cwd = "/" if os.name == "posix" else None
    runs = [subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--workload", str(m), "--lexicons",
                              str(lexicons)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
            for m in modules]
    digests = []
    for module, run in zip(modules, runs, strict=True):
        out, err = run.communicate()
        if run.returncode or not out.strip():
            raise RuntimeError(f"the workload failed with {module.name}:\n{err[-2000:]}")
        digests.append(out.strip().splitlines()[-1])
    return digests


def workload(lexicons: Path) -> str:
    """A self-play game of each game (seeded), every turn asked what the service asks: the best
    20 plays and their payloads with breakdowns, with none, one and two of the rack's tiles as
    blanks (not Upwords), filtered, counted; Crossplay's also ranked by equity, as self-play and
    equity requests ask (one game only: the leave table takes 0.7 s to load). Returns the digest
    of every answer."""
    from app import service
    from engine import LexiconStore, MoveFilter, find_moves, get_ruleset, search
    from engine.breakdowns import Breakdowns
    from engine.game import game_rules
    from engine.strategy.equity import rank_by_equity
    from engine.strategy.leaves import shipped
    from engine.strategy.players import Action, EquityPlayer, GreedyPlayer, Player, PlayerView
    from engine.strategy.selfplay import play_game

    if search.implementation() != "compiled":  # WORDSOLVER_PURE_PYTHON, say: the module would never run
        raise RuntimeError(f"the search answering is {search.implementation()!r}, not the compiled one")
    lex = LexiconStore(shipped_dir=lexicons).get()
    search.prepare(lex)
    digest = hashlib.sha256()
    longer = MoveFilter(min_length=5)

    class Asker:
        """Asks the questions of each position it is given, then plays as ``inner``."""

        name = "asker"

        def __init__(self, inner: Player, equity: bool) -> None:
            self.inner, self.equity = inner, equity

        def choose(self, view: PlayerView) -> Action:
            pos, rules = view.position, view.rules
            for blanks in range(1 if rules.ruleset.stacking else 3):
                rack = list(pos.rack)
                for t in range(26, 0, -1):  # the last letters held become blanks
                    while rack[t] and rack[0] < pos.rack[0] + blanks:
                        rack[t] -= 1
                        rack[0] += 1
                asked = dataclasses.replace(pos, rack=rack)
                top = find_moves(asked, lex, limit=20, count=False)
                held = "".join("?" * n if t == 0 else chr(64 + t) * n for t, n in enumerate(rack))
                payload = service.move_payloads(asked, top.moves, held, Breakdowns(asked, True))
                digest.update(repr((top.moves, payload)).encode())
            counted = find_moves(pos, lex, limit=1000, count=True)
            filtered = find_moves(pos, lex, limit=20, flt=longer, count=False)
            digest.update(repr((counted.total, counted.moves, filtered.moves)).encode())
            if self.equity:
                ranked = rank_by_equity(pos, lex, shipped(rules.name), rules, view.bag_size, view.unseen, limit=20,
                                        exchanges=view.can_exchange, count=False)
                digest.update(repr(ranked).encode())
            return self.inner.choose(view)

    for name in GAMES:
        rules = game_rules(get_ruleset(name))
        equity = name == "crossplay"
        inner: Player = EquityPlayer() if equity else GreedyPlayer()
        game = play_game(rules, lex, [Asker(inner, equity), Asker(inner, equity)], seed=2026)
        digest.update(repr(game.turns).encode())
    return digest.hexdigest()


def use_module(path: Path) -> None:
    """The compiled module at ``path`` as this interpreter's engine._fastgen (call it before the
    engine is imported: the engine then finds it in sys.modules)."""
    spec = importlib.util.spec_from_file_location("engine._fastgen", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["engine._fastgen"] = module


def installed_module() -> Path | None:
    spec = importlib.util.find_spec("engine._fastgen")
    return Path(spec.origin) if spec and spec.origin else None


def rebuild(source: Path, lexicons: Path, output: Path | None) -> str | None:
    """Build, check and install the module (at ``output``, else over the installed one); None
    when done, else why not (nothing changed then)."""
    try:
        current = installed_module()
    except ImportError as exc:
        return f"the engine does not import ({exc})"
    if current is None or not current.exists():
        return "no compiled engine._fastgen is installed"
    cc = compiler()
    if not is_gcc(cc):
        return f"{' '.join(cc)} is not GCC"
    target = output or current
    staged = target.with_name(target.name + ".new")
    try:
        with tempfile.TemporaryDirectory(prefix="wordsolver-pgo-") as tmp:
            work = Path(tmp)
            obj, profile = work / "_fastgen.o", f"-fprofile-dir={work / 'profile'}"
            say(f"compiling {source} to record a profile")
            build(source, obj, work / "recording.so", ["-fprofile-generate", profile])
            say("running the workload (self-play of the four games, every turn searched)")
            [recorded] = run_workloads(work / "recording.so", lexicons=lexicons)
            say("compiling with the profile")
            # what the workload never ran is compiled as without a profile, not for size
            build(source, obj, work / "optimised.so",
                  ["-fprofile-use", "-fprofile-partial-training", profile, "-Wno-missing-profile"])
            say(f"checking its answers against {current.name}")
            before, after = run_workloads(current, work / "optimised.so", lexicons=lexicons)
            if before != recorded:
                return (f"the installed module answers otherwise than {source.name} compiled here (digests "
                        f"{before[:12]}, {recorded[:12]}): is it built from this source? Install again first")
            if after != recorded:
                return f"the optimised module answers otherwise (digests {after[:12]}, {recorded[:12]})"
            staged.write_bytes((work / "optimised.so").read_bytes())
            os.replace(staged, target)  # a running process keeps the file it loaded
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        staged.unlink(missing_ok=True)
        return str(exc)
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output", type=Path, help="write the new module here instead of replacing the installed one")
    ap.add_argument("--source", type=Path, default=ROOT / "engine" / "_fastgen.c")
    ap.add_argument("--lexicons", type=Path, default=ROOT / "lexicons", help="the shipped word lists")
    ap.add_argument("--require", action="store_true", help="fail (exit 1) when the module is not rebuilt")
    ap.add_argument("--workload", type=Path, help=argparse.SUPPRESS)  # internal: run it with this module
    args = ap.parse_args()
    if args.workload:
        use_module(args.workload)
        print(workload(args.lexicons))
        return 0
    start = time.perf_counter()
    why = rebuild(args.source.resolve(), args.lexicons.resolve(), args.output)
    if why:
        say(f"not rebuilt, the module stays as it was: {why}")
        return 1 if args.require else 0
    say(f"{args.output or installed_module()} rebuilt with the profile in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
