"""The benchmark suite: engine times per fixed position, lexicon load, memory, and HTTP load.

    python bench/run.py                 # everything (engine table, then the HTTP load test)
    python bench/run.py --engine        # engine only
    python bench/run.py --http          # HTTP only
    python bench/run.py --repeat 9 --seconds 30 --workers 2 --clients 8

Reports, never asserts: medians with the spread (min-max) of --repeat runs in a warm
process. "top20" is the best 20 plays *with* their breakdowns (the best-first search);
"count" is the full enumeration that counts every legal play. Positions are in
bench/positions.json (made by bench/make_positions.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402

from engine import MoveFilter, breakdown, find_moves, get_ruleset, position  # noqa: E402
from engine.lexicons import LexiconStore  # noqa: E402

POSITIONS = json.loads((ROOT / "bench" / "positions.json").read_text())["positions"]


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn, repeat: int) -> tuple[float, float, float, object]:  # type: ignore[no-untyped-def]
    times = []
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times), max(times), out


def engine_table(repeat: int) -> None:
    t = time.perf_counter()
    store = LexiconStore()
    lex = store.get()
    load_ms = (time.perf_counter() - t) * 1000
    try:
        from engine import native  # noqa: PLC0415

        backend = "C core" if native.available else "pure Python"
    except ImportError:
        backend = "pure Python"
    print(f"lexicon {lex.name}: {lex.word_count} words, loaded in {load_ms:.0f} ms "
          f"(compiled, from the disk cache), arrays {lex.nbytes() / 1e6:.1f} MB, process RSS {rss_mb():.0f} MB")
    print(f"generator backend: {backend}\n")
    print(f"{'position':24} {'rack':8} {'top20 ms (min-max)':>22} {'count ms (min-max)':>22} {'plays':>7} {'ratio':>6} best")
    for p in POSITIONS:
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"], p.get("heights"))

        def top20():  # type: ignore[no-untyped-def]
            moves = find_moves(pos, lex, limit=20, count=False).moves
            return [breakdown(pos, m).to_dict(rules.stacking) for m in moves], moves

        def count():  # type: ignore[no-untyped-def]
            return find_moves(pos, lex, limit=20, count=True).total

        tm, tlo, thi, (_, moves) = timed(top20, repeat)  # type: ignore[misc]
        cm, clo, chi, total = timed(count, repeat)
        best = moves[0].score if moves else "-"
        print(f"{p['id']:24} {p['rack']:8} {tm:8.1f} ({tlo:6.1f}-{thi:6.1f}) {cm:8.1f} ({clo:6.1f}-{chi:6.1f})"
              f" {total:>7} {cm / tm:6.2f} {best}")
    every = MoveFilter(min_length=5, contains="EST", no_blanks=False)
    patho = [
        ("limit 1000 + breakdowns, crossplay-late-3b", "crossplay-late-3b", 1000, None),
        ("limit 1000 + breakdowns, scrabble-early-2b", "scrabble-early-2b", 1000, None),
        ("filters + count + limit 1000, crossplay-early-3b", "crossplay-early-3b", 1000, every),
        ("filters + count + limit 1000, crossplay-middle-3b", "crossplay-middle-3b", 1000, every),
    ]
    print("\npathological requests")
    for label, pid, limit, flt in patho:
        p = next(x for x in POSITIONS if x["id"] == pid)
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"])

        def big():  # type: ignore[no-untyped-def]
            moves = find_moves(pos, lex, limit=limit, count=flt is not None, flt=flt).moves
            return [breakdown(pos, m).to_dict() for m in moves]

        m, lo, hi, out = timed(big, max(3, repeat // 2))
        print(f"  {label:48} {m:8.1f} ms ({lo:.1f}-{hi:.1f}), {len(out)} plays")  # type: ignore[arg-type]
    print(f"\nprocess RSS after the suite: {rss_mb():.0f} MB")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_suite(seconds: float, workers: int, clients: int) -> None:
    import httpx  # noqa: PLC0415

    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen(  # the same start path as `wordsolver serve`
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--workers", str(workers)],
        cwd=ROOT, env=dict(env, WORDSOLVER_LOG_LEVEL="warning"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            raise SystemExit("service did not become ready")
        mids = [p for p in POSITIONS if p["stage"] == "middle" and p["blanks"] == 0 and p["game"] != "upwords"]
        bodies = [{"board": p["board"], "rack": p["rack"], "limit": 20} for p in mids]
        # what HTTP adds: one client, sequential requests, against the engine alone
        from engine import default_lexicon  # noqa: PLC0415

        lex = default_lexicon()
        print(f"HTTP: uvicorn, {workers} workers, loopback\n")
        print(f"{'position':24} {'engine ms':>10} {'http ms':>10} {'added':>8}")
        with httpx.Client(timeout=30) as c:
            for p, b in zip(mids, bodies, strict=True):
                rules = get_ruleset(p["game"])
                pos = position(rules, p["board"], p["rack"])

                def eng():  # type: ignore[no-untyped-def]
                    moves = find_moves(pos, lex, limit=20, count=False).moves
                    return [breakdown(pos, m).to_dict() for m in moves]

                em, *_ = timed(eng, 15)
                hm, *_ = timed(lambda: c.post(f"{url}/v1/games/{p['game']}/moves", json=b), 15)
                print(f"{p['id']:24} {em:10.1f} {hm:10.1f} {hm - em:8.1f}")
        print(f"\nno-blank mid-game positions, {clients} concurrent clients:")
        asyncio.run(load.run(url, mids, seconds, clients, timeout=60))
        try:
            out = subprocess.run(["ps", "-o", "rss=,args=", "--ppid", str(server.pid)], capture_output=True, text=True)
            for line in out.stdout.splitlines():
                print(f"worker RSS: {int(line.split()[0]) / 1024:.0f} MB")
        except OSError:
            pass
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="store_true", help="engine table only")
    ap.add_argument("--http", action="store_true", help="HTTP load test only")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clients", type=int, default=8)
    args = ap.parse_args()
    both = not args.engine and not args.http
    if args.engine or both:
        engine_table(args.repeat)
    if args.http or both:
        print()
        http_suite(args.seconds, args.workers, args.clients)


if __name__ == "__main__":
    main()
