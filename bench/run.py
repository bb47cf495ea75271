"""The benchmark suite: engine times per fixed position, lexicon load, memory, and HTTP load.

    python bench/run.py                 # everything (engine table, then the HTTP load test)
    python bench/run.py --engine        # engine only
    python bench/run.py --http          # HTTP only
    python bench/run.py --http --client # what a client sees: round trips next to the engine, one worker
    python bench/run.py --http --client --against DIR --rounds 3  # ... next to another checkout's service, in turn
    python bench/run.py --http --client --client-tool wrk  # ... kept-alive round trips timed by wrk (C)
    python bench/run.py --against DIR   # this checkout's search next to another's, interleaved
    python bench/run.py --wolges        # engine top-20 next to wolges' top-1, interleaved
    python bench/run.py --repeat 9 --seconds 30 --workers 2 --clients 8

Reports, never asserts: medians with the spread (min-max) of --repeat runs in a warm
process. "top20" is the best 20 plays *with* their breakdowns (the best-first search);
"count" is the full enumeration that counts every legal play. Positions are in
bench/positions.json (made by bench/make_positions.py).

``--against DIR`` times this checkout's search next to another checkout's (the commit before a
change, say), in one run: each side in a warm child process of its own (the same script, so
neither is favoured), taking turns position by position and round by round, so load from
other processes hits both alike. Four questions per position: the best 20 plays and the best
play by score (``find_moves(..., count=False)``), the best play and the best 20 turns by equity
(``rank_by_equity``, exchanges included; not Upwords), each the median of single calls; then
the median ratio (this / other) per question and blank count. Build the other checkout's
compiled core first (``python setup.py build_ext --inplace`` there).

``--wolges`` times the search alone (``find_moves(position(...), lex, limit=20,
count=False)``, no breakdowns) next to the native generator wolges' top-1 time on the same
positions, in one run: the prebuilt ``wolges-bench --serve`` from ``../shared/native`` (or
``--wolges-dir``) is driven command by command, the two sides taking turns position by
position and round by round, so load from other processes hits both alike. Each figure is the
median of single calls in a warm process; the ratio is per position, then its median per blank
count. The project itself never needs wolges: without the directory this mode says so and
exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
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

from engine import Breakdowns, MoveFilter, find_moves, get_ruleset, position  # noqa: E402
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


def generator_backend() -> str:
    from engine import search  # noqa: PLC0415

    return "C core" if search.implementation() == "compiled" else "pure Python"


def engine_table(repeat: int) -> None:
    t = time.perf_counter()
    store = LexiconStore()
    lex = store.get()
    load_ms = (time.perf_counter() - t) * 1000
    backend = generator_backend()
    print(f"lexicon {lex.name}: {lex.word_count} words, loaded in {load_ms:.0f} ms "
          f"(compiled, from the disk cache), arrays {lex.nbytes() / 1e6:.1f} MB, process RSS {rss_mb():.0f} MB")
    print(f"generator backend: {backend}\n")
    print(f"{'position':24} {'rack':8} {'top20 ms (min-max)':>22} {'count ms (min-max)':>22} {'plays':>7} {'ratio':>6} best")
    for p in POSITIONS:
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"], p.get("heights"))

        def top20():  # type: ignore[no-untyped-def]
            moves = find_moves(pos, lex, limit=20, count=False).moves
            write = Breakdowns(pos)  # as the service writes them
            return [write(m) for m in moves], moves

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
            write = Breakdowns(pos)
            return [write(m) for m in moves]

        m, lo, hi, out = timed(big, max(3, repeat // 2))
        print(f"  {label:48} {m:8.1f} ms ({lo:.1f}-{hi:.1f}), {len(out)} plays")  # type: ignore[arg-type]
    print(f"\nprocess RSS after the suite: {rss_mb():.0f} MB")


def _load_wolges_times(directory: Path):  # type: ignore[no-untyped-def]
    """wolges_times.py (standard library only) as a module, for its data-directory writers."""
    import importlib.util  # noqa: PLC0415

    spec = importlib.util.spec_from_file_location("wolges_times", directory / "wolges_times.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# A warm child timing one checkout's search (this one's or another's: the same script for
# both): one JSON request a line on stdin ({"game", "board", "rack", "heights", "ask", "calls"}),
# one JSON line of per-call microseconds back (and the answer's fingerprint, to compare).
_SIDE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engine import find_moves, get_ruleset, position
from engine.game import game_rules
from engine.lexicons import LexiconStore
from engine.tiles import unseen_tiles
try:
    from engine.strategy.equity import default_bag_size, rank_by_equity
    from engine.strategy.leaves import shipped
except ImportError:  # a checkout from before engine/strategy/
    from engine.equity import default_bag_size, rank_by_equity
    from engine.leaves import shipped
lex = LexiconStore().get()
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    rules = get_ruleset(req["game"])
    pos = position(rules, req["board"], req["rack"], req.get("heights"))
    ask, limit = req["ask"][:-2], int(req["ask"][-2:])
    if ask == "score":
        def call():
            return [m.notation for m in find_moves(pos, lex, limit=limit, count=False).moves]
    else:
        g, seen = game_rules(req["game"]), unseen_tiles(pos)
        unseen = [seen.counts["?"]] + [seen.counts[chr(65 + i)] for i in range(26)]
        bag, values = default_bag_size(g, seen.total), shipped(req["game"])
        def call():
            found, _ = rank_by_equity(pos, lex, values, g, bag, unseen, limit=limit, exchanges=True, count=False)
            return [(c.kind, c.move.notation if c.move else c.thrown) for c in found]
    answer = call()
    us = []
    for _ in range(req["calls"]):
        t = time.perf_counter()
        call()
        us.append((time.perf_counter() - t) * 1e6)
    print(json.dumps({"us": us, "answer": answer}), flush=True)
"""

ASKS = ("score20", "score01", "equity01", "equity20")


def against_table(other: Path, rounds: int, calls: int, only: set[str] | None) -> None:
    """This checkout's search next to ``other``'s, interleaved (see the module docstring)."""
    sides = {}
    for name, root in (("this", ROOT), ("other", other.resolve())):
        sides[name] = subprocess.Popen([sys.executable, "-c", _SIDE, str(root)], cwd=root,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(side: str, req: dict) -> dict:  # type: ignore[type-arg]
        child = sides[side]
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(json.dumps(req) + "\n")
        child.stdin.flush()
        line = child.stdout.readline()
        if not line:
            raise SystemExit(f"the {side} side stopped answering")
        return json.loads(line)  # type: ignore[no-any-return]

    try:
        for child in sides.values():  # ready: its lexicon is loaded
            assert child.stdout is not None
            child.stdout.readline()
        print(f"this checkout ({ROOT}) against {other}: median of single calls in us, "
              f"{rounds} rounds x {calls} calls each side, interleaved; x = this / other\n")
        print(f"{'position':22} {'b':>1} " + " ".join(f"{a:>8} {'other':>7} {'x':>5}" for a in ASKS) + "  same")
        ratios: dict[tuple[str, int], list[float]] = {}
        for p in POSITIONS:
            if only is not None and p["id"] not in only:
                continue
            cols, same = [], True
            for a in ASKS:
                if a.startswith("equity") and p["game"] == "upwords":
                    cols.append(f"{'-':>8} {'-':>7} {'-':>5}")
                    continue
                req = {"game": p["game"], "board": p["board"], "rack": p["rack"], "heights": p.get("heights"),
                       "ask": a, "calls": calls}
                times: dict[str, list[float]] = {"this": [], "other": []}
                answers: dict[str, object] = {}
                for r in range(rounds):
                    for side in (("this", "other") if r % 2 == 0 else ("other", "this")):
                        got = ask(side, req)
                        times[side] += got["us"]
                        answers[side] = got["answer"]
                same = same and answers["this"] == answers["other"]
                mine, theirs = statistics.median(times["this"]), statistics.median(times["other"])
                ratios.setdefault((a, p["blanks"]), []).append(mine / theirs)
                cols.append(f"{mine:8.0f} {theirs:7.0f} {mine / theirs:5.2f}")
            print(f"{p['id']:22} {p['blanks']:>1} " + " ".join(cols) + f"  {'yes' if same else 'NO'}", flush=True)
    finally:
        for child in sides.values():
            assert child.stdin is not None
            child.stdin.close()
            child.wait(timeout=30)
    print("\nmedian ratio this / other, per blank count")
    print(f"{'blanks':>6} " + " ".join(f"{a:>9}" for a in ASKS))
    for b in sorted({b for _, b in ratios}):
        print(f"{b:>6} " + " ".join(f"{statistics.median(ratios[(a, b)]):9.2f}" if (a, b) in ratios else f"{'-':>9}"
                                    for a in ASKS))
    every = [x for xs in ratios.values() for x in xs]
    print(f"{'all':>6} {statistics.median(every):9.2f} (median of {len(every)} ratios)")


def wolges_table(directory: Path, rounds: int, calls: int, only: set[str] | None,
                 against: Path | None = None, stat=statistics.median) -> None:  # type: ignore[no-untyped-def]
    """Our top-20 search next to wolges' top-1, per position and per blank count (and next
    to another checkout's top-20 search, with ``against``)."""
    import tempfile  # noqa: PLC0415

    binary = directory / "wolges-bench"
    if not binary.exists() or not (directory / "wolges_times.py").exists():
        raise SystemExit(f"--wolges: no wolges-bench / wolges_times.py in {directory} (see --wolges-dir)")
    wt = _load_wolges_times(directory)
    todo = [p for p in POSITIONS if p["game"] in wt.GAMES and (only is None or p["id"] in only)]
    data = Path(tempfile.gettempdir()) / "wolges-times"
    data.mkdir(parents=True, exist_ok=True)
    wt.write_if_changed(data / "words.txt", wt.word_list(ROOT))
    for game in sorted({p["game"] for p in todo}):
        rules_json = json.loads((ROOT / "engine" / "rulesets" / f"{game}.json").read_text(encoding="utf-8"))
        (data / f"{game}.rules").write_text(wt.rules_text(game, rules_json))
    lines = [f"p{i} {p['game']} {p['rack'].upper()} {'/'.join(p['board'])}\n" for i, p in enumerate(todo)]
    with tempfile.NamedTemporaryFile("w", prefix="wolges-pos-", suffix=".txt", delete=False) as f:
        f.write("".join(lines))
    proc = subprocess.Popen([str(binary), "--serve", "--positions", f.name, str(data)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    other = None
    if against is not None:
        other = subprocess.Popen([sys.executable, "-c", _SIDE, str(against.resolve())], cwd=against,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(cmd: str, child: subprocess.Popen = proc) -> dict:  # type: ignore[type-arg]
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(cmd + "\n")
        child.stdin.flush()
        line = child.stdout.readline()
        if not line:
            raise SystemExit(f"a timing child stopped answering (command {cmd!r})")
        return json.loads(line)

    if other is not None:
        assert other.stdout is not None
        other.stdout.readline()  # ready: its lexicon is loaded

    lex = LexiconStore().get()
    backend = generator_backend()
    print(f"our top-20 search ({backend}) vs wolges top-1; {stat.__name__} of single calls, "
          f"{rounds} rounds x {calls} calls each side, interleaved\n")
    base = f" {'against us':>10} {'x':>5}" if other is not None else ""
    print(f"{'position':22} {'b':>1} {'plays':>6} {'ours top20 us':>13} {'wolges top1 us':>14} "
          f"{'ratio':>6} {'wolges top20 us':>15}{base}  check")
    per_class: dict[int, list[tuple[float, float, float, float]]] = {}
    try:
        for i, p in enumerate(todo):
            rules = get_ruleset(p["game"])
            pos = position(rules, p["board"], p["rack"])
            full = find_moves(pos, lex, limit=1, count=True)
            chk = ask(f"check p{i}")
            top = full.moves[0].score if full.moves else 0
            same = chk["total_moves"] == full.total and chk["top_score"] == top
            ours: list[float] = []
            theirs: list[float] = []
            theirs20: list[float] = []
            before: list[float] = []
            req = json.dumps({"game": p["game"], "board": p["board"], "rack": p["rack"], "ask": "score20", "calls": calls})
            for r in range(rounds):
                def mine() -> None:
                    find_moves(pos, lex, limit=20, count=False)  # warm-up, untimed
                    for _ in range(calls):
                        t = time.perf_counter()
                        find_moves(pos, lex, limit=20, count=False)
                        ours.append((time.perf_counter() - t) * 1e6)

                def wolges() -> None:
                    theirs.extend(ask(f"time p{i} top1 {calls} 5")["us"])
                    theirs20.extend(ask(f"time p{i} top20 {max(1, calls // 2)} 2")["us"])

                def previous() -> None:
                    if other is not None:
                        before.extend(ask(req, other)["us"])

                sides = [mine, wolges, previous]
                for k in range(3):
                    sides[(k + r) % 3]()
            om, wm, w20 = stat(ours), stat(theirs), stat(theirs20)
            bm = stat(before) if before else float("nan")
            per_class.setdefault(p["blanks"], []).append((om, wm, om / wm, bm))
            col = f" {bm:10.0f} {bm / om:5.1f}" if other is not None else ""
            print(f"{p['id']:22} {p['blanks']:>1} {full.total:>6} {om:13.0f} {wm:14.0f} {om / wm:6.1f} "
                  f"{w20:15.0f}{col}  {'ok' if same else 'DIFFERENT (not comparable)'}", flush=True)
    finally:
        try:
            ask("quit")
        except (SystemExit, BrokenPipeError, ValueError):
            pass
        proc.wait(timeout=10)
        if other is not None:
            assert other.stdin is not None
            other.stdin.close()
            other.wait(timeout=30)
        Path(f.name).unlink()
    head = f" {'against us':>10}" if other is not None else ""
    print(f"\n{'blanks':>6} {'positions':>9} {'ours top20 us':>13} {'wolges top1 us':>14} {'median ratio':>12}{head}")
    for b in sorted(per_class):
        rows = per_class[b]
        col = f" {statistics.median(r[3] for r in rows):10.0f}" if other is not None else ""
        print(f"{b:>6} {len(rows):>9} {statistics.median(r[0] for r in rows):13.0f} "
              f"{statistics.median(r[1] for r in rows):14.0f} {statistics.median(r[2] for r in rows):12.1f}{col}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _raw_request(method: str, path: str, body: bytes | None = None) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + (body or b"")


def round_trips(port: int, request: bytes, calls: int, keep_alive: bool) -> list[float]:
    """Client-side round trips (ms) of ``calls`` requests: from the first byte sent to the last
    byte of the answer read (``http.client`` parses the status line and headers and reads the
    body; nothing parses the JSON, so no decoding time is included). ``keep_alive``: one
    connection for all calls (opened before the first), else a new connection per call,
    connect and close included."""
    import http.client  # noqa: PLC0415

    out = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    if keep_alive:
        conn.connect()
    for _ in range(calls):
        t = time.perf_counter()
        if not keep_alive:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.connect()
        assert conn.sock is not None
        conn.sock.sendall(request)
        resp = http.client.HTTPResponse(conn.sock, method="POST" if request.startswith(b"POST") else "GET")
        resp.begin()
        data = resp.read()
        if not keep_alive:
            conn.close()
        out.append((time.perf_counter() - t) * 1000)
        if keep_alive and resp.getheader("connection", "").lower() == "close":  # recycled (connection_max_age)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.connect()
        assert resp.status == 200, (resp.status, data[:200])
    conn.close()
    return out


def wrk_p50(port: int, method: str, path: str, body: dict | None) -> float:
    """The median round trip (ms) of one request sent again and again for a second by wrk (C)
    on one kept-alive connection (``wrk -t1 -c1``: from the request's first byte written to the
    answer's last byte read, as wrk's latency distribution reports it)."""
    r = load.run_wrk(f"http://127.0.0.1:{port}", [], 1, 1, threads=1, requests=[(method, path, body)])
    if r["errors"]:
        raise SystemExit(f"wrk: {r['errors']} failed requests for {method} {path}")
    return float(r["p50"])


def client_table(sides: dict[str, int], calls: int, rounds: int = 1, tool: str = "python") -> None:
    """What a client sees: per position of bench/positions.json, the median round trip of
    ``calls`` requests over a kept-alive connection and with a new connection per request,
    next to the engine's own time for the same question in this process (the search:
    ``find_moves(..., count=False)``); then the medians per blank class. Two questions: the
    best 20 plays with breakdowns, and the best play without breakdowns.

    ``sides`` maps a label to a service's port: with two (``--against``), each request goes to
    both in turn, ``rounds`` times (the first side alternating round by round; with a new
    connection per request, turn by turn call by call), so load from other processes hits
    both alike; the last columns are the ratio of what each service adds (this / other).

    ``tool`` "wrk": the kept-alive round trips are wrk's instead (C: :func:`wrk_p50`, a second
    of requests per side and round, the median of the rounds' medians); the new-connection ones
    stay Python's (wrk keeps its connections)."""
    from engine import default_lexicon  # noqa: PLC0415

    lex = default_lexicon()
    names = list(sides)

    def trips(request: bytes, n: int, keep: bool, wrk: tuple[str, str, dict | None] | None = None) -> dict[str, float]:
        """Median round trip per side, the sides taking turns round by round (``wrk``: the
        request as wrk sends it, when the kept-alive trips are wrk's)."""
        got: dict[str, list[float]] = {name: [] for name in names}
        for r in range(rounds):
            order = names if r % 2 == 0 else names[::-1]  # neither side always goes first
            if keep and wrk is not None and tool == "wrk":
                for name in order:
                    got[name].append(wrk_p50(sides[name], *wrk))
            elif keep:
                for name in order:
                    got[name] += round_trips(sides[name], request, n, keep)
            else:  # a new connection per call: the sides take turns call by call
                for i in range(n):
                    for name in (order if i % 2 == 0 else order[::-1]):
                        got[name] += round_trips(sides[name], request, 1, keep)
        return {name: statistics.median(got[name]) for name in names}

    health = _raw_request("GET", "/healthz")
    for port in sides.values():
        for keep in (True, False):
            round_trips(port, health, 3, keep)  # warm
    hk, hn = trips(health, calls * 4, True, ("GET", "/healthz", None)), trips(health, calls * 4, False)
    kept_by = ("kept-alive: wrk -t1 -c1 (C), the median of a second of requests per round; new connection: "
               if tool == "wrk" else "")
    print(f"What a client sees: {kept_by}Python http.client on loopback, the request bytes prebuilt, timed from the "
          "first byte sent to the last byte read (no JSON decoding); engine = the search alone in this process "
          f"(find_moves, count=False); medians of {calls * rounds} calls" +
          (f", {rounds} rounds taking turns: {' / '.join(names)}" if len(names) > 1 else "") + "\n")
    for name in names:
        print(f"/healthz{' (' + name + ')' if len(names) > 1 else ''}: kept-alive {hk[name]:.3f} ms, "
              f"new connection {hn[name]:.3f} ms")
    if len(names) > 1:
        print(f"/healthz ratio {names[0]} / {names[1]}: kept-alive {hk[names[0]] / hk[names[1]]:.2f}, "
              f"new connection {hn[names[0]] / hn[names[1]]:.2f}")
    print()
    questions = (("top 20 + breakdowns", 20, True), ("top 1, no breakdowns", 1, False))
    rows: dict[tuple[str, int], list[tuple[float, ...]]] = {}
    cols = "".join(f" {'kept ' + n[:5]:>10} {'adds':>6} {'new ' + n[:6]:>10} {'adds':>6}" for n in names)
    print(f"{'position':24} {'question':22} {'engine ms':>9}{cols}")
    for p in POSITIONS:
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"], p.get("heights"))
        for label, limit, breakdowns in questions:
            body: dict = {"board": p["board"], "rack": p["rack"], "limit": limit, "breakdowns": breakdowns}
            if p.get("heights") is not None:
                body["heights"] = p["heights"]
            req = _raw_request("POST", f"/v1/games/{p['game']}/moves", json.dumps(body).encode())
            for port in sides.values():
                round_trips(port, req, 2, True)  # warm: the worker's caches for this position
            em, *_ = timed(lambda: find_moves(pos, lex, limit=limit, count=False), calls)
            path = f"/v1/games/{p['game']}/moves"
            keep, new = trips(req, calls, True, ("POST", path, body)), trips(req, calls, False)
            row = (em, *(x for n in names for x in (keep[n], new[n])))
            rows.setdefault((label, p["blanks"]), []).append(row)
            print(f"{p['id']:24} {label:22} {em:9.3f}" +
                  "".join(f" {keep[n]:10.3f} {keep[n] - em:6.3f} {new[n]:10.3f} {new[n] - em:6.3f}" for n in names))
    ratio = "   adds, kept / new: " + f"{names[0]} / {names[1]}" if len(names) > 1 else ""
    print(f"\n{'question':22} {'blanks':>6} {'positions':>9} {'engine ms':>9}{cols}{ratio}   (medians over positions)")
    for (label, blanks), rs in sorted(rows.items()):
        engine = statistics.median(r[0] for r in rs)
        line = f"{label:22} {blanks:>6} {len(rs):>9} {engine:9.3f}"
        adds = []
        for i in range(len(names)):
            k, nw = 1 + 2 * i, 2 + 2 * i
            adds.append((statistics.median(r[k] - r[0] for r in rs), statistics.median(r[nw] - r[0] for r in rs)))
            line += (f" {statistics.median(r[k] for r in rs):10.3f} {adds[-1][0]:6.3f}"
                     f" {statistics.median(r[nw] for r in rs):10.3f} {adds[-1][1]:6.3f}")
        if len(names) > 1:
            line += f"   {adds[0][0] / adds[1][0]:.2f} / {adds[0][1] / adds[1][1]:.2f}"
        print(line)
    print()


def server_table(c, url: str, mids: list[dict], calls: int) -> None:  # type: ignore[no-untyped-def]
    """The service's own view (its request-duration histogram) of the same kind of request,
    and limit 1000 with and without gzip: where the server's share of a round trip goes."""
    from engine import default_lexicon  # noqa: PLC0415

    lex = default_lexicon()
    print("Server side: the service's own histogram, median of "
          f"{calls} single calls (each after a /metrics scrape), and the mean of {calls} calls in a row\n")
    print(f"{'position':24} {'search ms':>10} {'server ms':>10} {'(min)':>6} {'round trip':>11} {'server adds':>12}"
          f" {'in a row':>9} {'adds':>6}")

    def server_seconds() -> tuple[float, float]:
        """(sum, count) of the service's own request-duration histogram for /moves: from
        request received to response sent, summed over the workers."""
        total = count = 0.0
        for row in c.get(f"{url}/metrics").text.splitlines():
            if row.startswith("wordsolver_request_duration_seconds_") and 'route="/v1/games/{game}/moves"' in row:
                if row.startswith("wordsolver_request_duration_seconds_sum"):
                    total += float(row.split()[-1])
                elif row.startswith("wordsolver_request_duration_seconds_count"):
                    count += float(row.split()[-1])
        return total, count

    def served(game: str, body: dict, headers: dict) -> tuple[float, float, float, float]:
        """Over ``calls`` requests: (median server ms of single calls, each right after a
        /metrics scrape (caches cold), their min, median round trip ms, server ms of
        ``calls`` calls in a row (the histogram's mean: a steady client))."""
        server, trip = [], []
        for _ in range(calls):
            s0, n0 = server_seconds()
            t = time.perf_counter()
            r = c.post(f"{url}/v1/games/{game}/moves", json=body, headers=headers)
            trip.append((time.perf_counter() - t) * 1000)
            s1, n1 = server_seconds()
            assert r.status_code == 200 and n1 - n0 == 1, (r.status_code, r.text[:200])
            server.append((s1 - s0) * 1000)
        s0, n0 = server_seconds()
        for _ in range(calls):
            c.post(f"{url}/v1/games/{game}/moves", json=body, headers=headers)
        s1, n1 = server_seconds()
        return statistics.median(server), min(server), statistics.median(trip), (s1 - s0) / (n1 - n0) * 1000

    plain = {"Accept-Encoding": "identity"}
    for p in mids:
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"])
        sm, *_ = timed(lambda: find_moves(pos, lex, limit=20, count=False), calls)
        server_ms, low, hm, row = served(p["game"], {"board": p["board"], "rack": p["rack"], "limit": 20}, plain)
        print(f"{p['id']:24} {sm:10.2f} {server_ms:10.2f} {low:6.2f} {hm:11.2f} {server_ms - sm:12.2f}"
              f" {row:9.2f} {row - sm:6.2f}")
    print("\nlimit 1000 with breakdowns (an expensive request: the threadpool)")
    for pid in ("crossplay-late-3b", "scrabble-early-2b"):
        p = next(x for x in POSITIONS if x["id"] == pid)
        rules = get_ruleset(p["game"])
        pos = position(rules, p["board"], p["rack"])
        sm, *_ = timed(lambda: find_moves(pos, lex, limit=1000, count=False), calls)
        body = {"board": p["board"], "rack": p["rack"], "limit": 1000}
        for label, headers in (("", plain), (", gzip", {"Accept-Encoding": "gzip"})):
            server_ms, low, hm, row = served(p["game"], body, headers)
            print(f"{pid + label:24} {sm:10.2f} {server_ms:10.2f} {low:6.2f} {hm:11.2f} {server_ms - sm:12.2f}"
                  f" {row:9.2f} {row - sm:6.2f}")


def _start_service(root: Path, port: int, workers: int) -> subprocess.Popen:  # type: ignore[type-arg]
    """``wordsolver serve`` of the checkout at ``root`` (its own .venv when it has one), ready."""
    import httpx  # noqa: PLC0415

    python = root / ".venv" / "bin" / "python"
    server = subprocess.Popen(  # the same start path as `wordsolver serve`
        [str(python) if python.exists() else sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", str(workers)],
        cwd=root, env=dict(os.environ, PYTHONPATH=str(root), WORDSOLVER_LOG_LEVEL="warning"),
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit(f"the service of {root} did not become ready")


def http_suite(seconds: float, workers: int, clients: int, calls: int = 15, port: int = 0,
               client_only: bool = False, against: Path | None = None, rounds: int = 1,
               client_tool: str = "python") -> None:
    import httpx  # noqa: PLC0415

    port = port or free_port()
    server = _start_service(ROOT, port, workers)
    other = _start_service(against.resolve(), free_port(), workers) if against is not None else None
    url = f"http://127.0.0.1:{port}"
    try:
        mids = [p for p in POSITIONS if p["stage"] == "middle" and p["blanks"] == 0 and p["game"] != "upwords"]
        sides = {"this": port}
        if other is not None:
            sides[against.name if against else "other"] = int(other.args[other.args.index("--port") + 1])
        client_table(sides, calls, rounds, client_tool)
        if client_only:
            return
        with httpx.Client(timeout=30) as c:
            server_table(c, url, mids, calls)
        print(f"\nno-blank mid-game positions, {clients} concurrent clients:")
        if shutil.which("wrk"):  # one Python process cannot keep the service busy (bench/load.py --wrk)
            r = load.run_wrk(url, mids, seconds, clients)
            print(f"wrk: {r['rps']:.1f} requests/s, p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, {r['errors']} errors")
        else:
            asyncio.run(load.run(url, mids, seconds, clients, timeout=60))
        try:
            out = subprocess.run(["ps", "-o", "rss=,args=", "--ppid", str(server.pid)], capture_output=True, text=True)
            for line in out.stdout.splitlines():
                print(f"worker RSS: {int(line.split()[0]) / 1024:.0f} MB")
        except OSError:
            pass
    finally:
        for proc in (server, other):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", action="store_true", help="engine table only")
    ap.add_argument("--http", action="store_true", help="HTTP only: what a client sees, the server's share, load")
    ap.add_argument("--client", action="store_true",
                    help="--http: only what a client sees (round trips against the engine's time), one worker")
    ap.add_argument("--wolges", action="store_true",
                    help="our top-20 search next to wolges' top-1 (needs ../shared/native)")
    ap.add_argument("--wolges-dir", type=Path, default=ROOT.parent / "shared" / "native",
                    help="directory with wolges-bench and wolges_times.py (default ../shared/native)")
    ap.add_argument("--rounds", type=int, default=5, help="--wolges, --against: interleaved rounds per position")
    ap.add_argument("--calls", type=int, default=5, help="--wolges, --against: timed calls per side and round")
    ap.add_argument("--only", help="--wolges, --against: comma-separated position ids")
    ap.add_argument("--against", type=Path,
                    help="time this checkout's search next to another checkout's (with --wolges: beside wolges)")
    ap.add_argument("--stat", choices=["median", "min"], default="median",
                    help="--wolges: per-position statistic of the single-call times (min: steadier on a busy machine)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--http-calls", type=int, default=15, help="--http: calls per request for the server time")
    ap.add_argument("--port", type=int, default=0, help="--http: the service's port (default: a free one)")
    ap.add_argument("--client-tool", choices=["python", "wrk"], default="python",
                    help="--http: the kept-alive round trips from Python's http.client (default) or from wrk (C)")
    args = ap.parse_args()
    if args.client_tool == "wrk" and not shutil.which("wrk"):
        ap.error("--client-tool wrk needs wrk on the PATH (Debian package wrk)")
    if args.against is not None and not args.wolges and not args.http:
        against_table(args.against, args.rounds, args.calls, set(args.only.split(",")) if args.only else None)
        if not args.engine and not args.http:
            return
    if args.wolges:
        wolges_dir = args.wolges_dir
        if not wolges_dir.exists() and Path("/work/shared/native").exists():
            wolges_dir = Path("/work/shared/native")
        wolges_table(wolges_dir, args.rounds, args.calls, set(args.only.split(",")) if args.only else None,
                     args.against, min if args.stat == "min" else statistics.median)
        if not args.engine and not args.http:
            return
    both = not args.engine and not args.http
    if args.engine or both:
        engine_table(args.repeat)
    if args.http or both:
        print()
        workers = 1 if args.client else args.workers
        http_suite(args.seconds, workers, args.clients, args.http_calls, args.port, args.client,
                   args.against if args.http else None, args.rounds if args.against is not None else 1,
                   args.client_tool)


if __name__ == "__main__":
    main()
