"""Load check: concurrent clients posting mid-game positions to a running service.

    python bench/load.py --url http://127.0.0.1:8000 --seconds 30 --concurrency 8
    python bench/load.py --wrk --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 --rounds 5

Each client loops over the positions below (greedy games of Crossplay, Scrabble and Words With
Friends, 4 to 10 plays in; some racks hold blanks) asking for the best 20 plays, until the time
is up; ``--positions bench/positions.json [--stage middle]`` uses that file's positions instead. Prints requests/s, p50/p99 latency and the number of failed requests (any non-200 answer
or transport error). Exits 1 if any request failed.

``--wrk`` sends the same requests with wrk (C, Debian package ``wrk``) instead of the Python
client, which on a small machine is itself the bottleneck (one process, ~400 requests/s on two
shared cores). Several ``--url`` are driven in turn, ``--rounds`` times (A B A B ...), and the
median requests/s of each is printed at the end: two builds of the service side by side in one
session, under the same load from other processes. With each figure comes the CPU time the
service's processes (those listening on the URL's port) spent per request: on a shared machine
that is steadier than requests/s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

POSITIONS = [
    {
        "game": "crossplay",
        "rack": "DMRBIT?",
        "board": [
            "...............",
            "...............",
            ".......B.......",
            ".......O.......",
            ".......T.......",
            "....K.GANEV....",
            ".JOEs..N.......",
            "...FARCY.......",
            "....R..........",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    {
        "game": "scrabble",
        "rack": "ETVAUNE",
        "board": [
            "...............",
            "...............",
            "...............",
            "...............",
            ".GOUJON........",
            "...NOY.........",
            "...E...........",
            "..BAWTIE.......",
            "...S.AFARA.....",
            "..WINK...X.....",
            "...E.....I.....",
            "...R.....L.....",
            "........METOPE.",
            "...............",
            "...............",
        ],
    },
    {
        "game": "wwf",
        "rack": "IUEHAFS",
        "board": [
            "...J...........",
            "..VETO.........",
            ".V.S...........",
            "FaTTY..........",
            ".W.E...........",
            ".A.D...........",
            ".R.............",
            ".DRONIER.......",
            "AS.............",
            "U..............",
            "T..............",
            "O..............",
            "...............",
            "...............",
            "...............",
        ],
    },
    {
        "game": "crossplay",
        "rack": "CLMSL?D",
        "board": [
            "...IGAPO.......",
            "......L.H......",
            ".....FA.A......",
            ".....OcHE......",
            ".....GAYS......",
            "......BE.......",
            "......L........",
            "..SHOVED.......",
            "..T....E.......",
            "..O....X.......",
            "..K....I.......",
            "VIED...E.......",
            "...A...........",
            "...Z...........",
            "...E...........",
        ],
    },
    {
        "game": "scrabble",
        "rack": "NNUPCRT",
        "board": [
            "...............",
            "...............",
            "..........C....",
            ".........JAUK..",
            "..........V....",
            "..........E....",
            "..........A....",
            "......SWIFTY...",
            ".......OF......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
    {
        "game": "wwf",
        "rack": "YTTGAUY",
        "board": [
            "..PILOW..BERM..",
            ".....NOBLER....",
            ".......O.......",
            ".....FAX.......",
            "......HE.......",
            ".....QINS......",
            ".....u..I......",
            "....FAVAS......",
            ".....D.........",
            ".....S.........",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    },
]


async def client(
    http: httpx.AsyncClient, positions: list[dict], deadline: float, offset: int, latencies: list[float], errors: list[str]
) -> None:
    i = offset
    while time.perf_counter() < deadline:
        p = positions[i % len(positions)]
        i += 1
        body = {"board": p["board"], "rack": p["rack"], "limit": 20}
        start = time.perf_counter()
        try:
            r = await http.post(f"/v1/games/{p['game']}/moves", json=body)
            if r.status_code != 200:
                errors.append(f"{r.status_code} {r.text[:200]}")
                continue
        except httpx.HTTPError as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            continue
        latencies.append(time.perf_counter() - start)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[k]


async def run(
    url: str, positions: list[dict], seconds: float, concurrency: int, timeout: float, keepalive: bool = True
) -> int:
    # With keep-alive each client stays on the worker process that accepted its connection;
    # without it, every request is a new connection that any worker may accept.
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency if keepalive else 0)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as http:
        (await http.get("/readyz")).raise_for_status()
        latencies: list[float] = []
        errors: list[str] = []
        start = time.perf_counter()
        deadline = start + seconds
        await asyncio.gather(*(client(http, positions, deadline, k, latencies, errors) for k in range(concurrency)))
        elapsed = time.perf_counter() - start
        health = await http.get("/healthz")
    lat = sorted(latencies)
    total = len(lat) + len(errors)
    print(f"{url}: {concurrency} clients for {elapsed:.1f} s, {len(positions)} positions")
    print(f"requests   {total} ({len(lat)} ok, {len(errors)} errors)")
    print(f"throughput {len(lat) / elapsed:.1f} requests/s")
    if lat:
        print(f"latency    p50 {percentile(lat, 0.50) * 1000:.1f} ms, p99 {percentile(lat, 0.99) * 1000:.1f} ms, "
              f"mean {statistics.fmean(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    print(f"healthz after the run: {health.status_code}")
    for e in errors[:5]:
        print("error:", e)
    return 1 if errors or health.status_code != 200 else 0


WRK_SCRIPT = """
local methods, paths, bodies, i = {}, {}, {}, 0
%s
request = function()
  i = i %% #paths + 1
  if bodies[i] == "" then return wrk.format(methods[i], paths[i]) end
  return wrk.format(methods[i], paths[i], {["Content-Type"] = "application/json"}, bodies[i])
end
"""

TIME_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def run_wrk(url: str, positions: list[dict], seconds: float, concurrency: int, threads: int = 2,
            nice: int = 0, requests: list[tuple[str, str, dict | None]] | None = None) -> dict:
    """The same requests as the Python clients (the best 20 plays of each position in turn),
    sent by wrk: requests/s, p50/p99/max latency in ms and the number of failed requests.
    ``requests`` (method, path, JSON body or None), when given, are sent instead, in turn."""
    if requests is None:
        requests = [("POST", f"/v1/games/{p['game']}/moves", {"board": p["board"], "rack": p["rack"], "limit": 20})
                    for p in positions]
    lines = []
    for method, path, payload in requests:
        body = "" if payload is None else json.dumps(payload)
        # Lua long brackets take their text as it is (no escapes): a level of = signs the text
        # does not hold closes them
        level = next(k for k in range(1, 99) if "]" + "=" * k + "]" not in body + path)
        o, c = "[" + "=" * level + "[", "]" + "=" * level + "]"
        lines.append(f"table.insert(methods, '{method}'); table.insert(paths, {o}{path}{c}); "
                     f"table.insert(bodies, {o}{body}{c})")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "post.lua"
        script.write_text(WRK_SCRIPT % "\n".join(lines))
        command = ["wrk", f"-t{threads}", f"-c{concurrency}", f"-d{int(seconds)}s", "--latency", "-s", str(script), url]
        out = subprocess.run((["nice", "-n", str(nice)] if nice else []) + command, capture_output=True, text=True,
                             timeout=seconds + 60).stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        return float(m.group(1)) * TIME_UNITS[m.group(2)] if m else float("nan")

    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(bad.group(1)) if bad else 0) + (sum(int(x) for x in sock.groups()) if sock else 0)
    if not rps:  # no answer at all (nothing listening, wrk failed): a failed run
        errors = max(errors, 1)
    maximum = re.search(r"Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out)
    return {"rps": float(rps.group(1)) if rps else float("nan"), "p50": ms("50%"), "p99": ms("99%"),
            "max": float(maximum.group(1)) * TIME_UNITS[maximum.group(2)] if maximum else float("nan"),
            "errors": errors}


def listeners(port: int) -> set[int]:
    """The processes holding a listening socket on ``port`` (Linux /proc; empty elsewhere)."""
    inodes = set()
    try:
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            for row in Path(table).read_text().splitlines()[1:]:
                parts = row.split()
                if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{parts[9]}]")
        pids = set()
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                try:
                    if any(os.readlink(fd) in inodes for fd in (proc / "fd").iterdir()):
                        pids.add(int(proc.name))
                except OSError:
                    continue
        return pids
    except OSError:
        return set()


def cpu_seconds(pids: set[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def wrk_rounds(urls: list[str], positions: list[dict], seconds: float, concurrency: int, rounds: int,
               threads: int, nice: int) -> int:
    """Each URL in turn, ``rounds`` times; the median requests/s of each at the end."""
    rps: dict[str, list[float]] = {u: [] for u in urls}
    cpu: dict[str, list[float]] = {u: [] for u in urls}
    failed = 0
    for r in range(rounds):
        for url in urls:
            pids = listeners(urlsplit(url).port or 80)
            before = cpu_seconds(pids)
            res = run_wrk(url, positions, seconds, concurrency, threads, nice)
            used = cpu_seconds(pids) - before
            rps[url].append(res["rps"])
            per = used / (res["rps"] * seconds) * 1000 if pids and res["rps"] > 0 else float("nan")
            cpu[url].append(per)
            failed += res["errors"]
            print(f"round {r + 1} {url}: {res['rps']:.1f} requests/s, p50 {res['p50']:.1f} ms, "
                  f"p99 {res['p99']:.1f} ms, max {res['max']:.1f} ms, {res['errors']} errors; "
                  f"service CPU {per:.2f} ms a request", flush=True)
    print(f"\nwrk -t{threads} -c{concurrency}, {seconds:g} s runs, {len(positions)} positions, {rounds} rounds in turn")
    first = statistics.median(rps[urls[0]])
    for url in urls:
        m = statistics.median(rps[url])
        print(f"{url}: median {m:.1f} requests/s (min {min(rps[url]):.1f}, max {max(rps[url]):.1f})"
              f"  {m / first:.2f}x the first; service CPU {statistics.median(cpu[url]):.2f} ms a request")
    return 1 if failed else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", action="append", help="the service (default http://127.0.0.1:8000); with --wrk "
                   "it may be given several times, to drive each in turn")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--timeout", type=float, default=60.0, help="per-request timeout in seconds")
    p.add_argument("--positions", help='JSON file {"positions": [{"game", "board", "rack", "stage"?}]}')
    p.add_argument("--stage", help="with --positions: only positions of this stage (early, middle, late)")
    p.add_argument("--no-keepalive", action="store_true", help="a new connection for every request")
    p.add_argument("--wrk", action="store_true", help="send the requests with wrk (keep-alive) instead of Python")
    p.add_argument("--rounds", type=int, default=1, help="with --wrk: runs of each URL, in turn")
    p.add_argument("--threads", type=int, default=2, help="with --wrk: its threads")
    p.add_argument("--nice", type=int, default=0, help="with --wrk: run it at this niceness (the service first)")
    args = p.parse_args()
    urls = args.url or ["http://127.0.0.1:8000"]
    positions = POSITIONS
    if args.positions:
        with open(args.positions, encoding="utf-8") as f:
            positions = [x for x in json.load(f)["positions"] if not args.stage or x.get("stage") == args.stage]
        if not positions:
            p.error("no positions selected")
    if args.wrk:
        return wrk_rounds(urls, positions, args.seconds, args.concurrency, args.rounds, args.threads, args.nice)
    if len(urls) > 1 or args.rounds > 1:
        p.error("several --url and --rounds need --wrk")
    return asyncio.run(run(urls[0], positions, args.seconds, args.concurrency, args.timeout, not args.no_keepalive))


if __name__ == "__main__":
    sys.exit(main())
