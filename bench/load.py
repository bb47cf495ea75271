"""Load check: concurrent clients posting mid-game positions to a running service.

    python bench/load.py --url http://127.0.0.1:8000 --seconds 30 --concurrency 8

Each client loops over the positions below (greedy games of Crossplay, Scrabble and Words With
Friends, 4 to 10 plays in; some racks hold blanks) asking for the best 20 plays, until the time
is up; ``--positions bench/positions.json [--stage middle]`` uses that file's positions instead. Prints requests/s, p50/p99 latency and the number of failed requests (any non-200 answer
or transport error). Exits 1 if any request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time

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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://127.0.0.1:8000")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--timeout", type=float, default=60.0, help="per-request timeout in seconds")
    p.add_argument("--positions", help='JSON file {"positions": [{"game", "board", "rack", "stage"?}]}')
    p.add_argument("--stage", help="with --positions: only positions of this stage (early, middle, late)")
    p.add_argument("--no-keepalive", action="store_true", help="a new connection for every request")
    args = p.parse_args()
    positions = POSITIONS
    if args.positions:
        with open(args.positions, encoding="utf-8") as f:
            positions = [x for x in json.load(f)["positions"] if not args.stage or x.get("stage") == args.stage]
        if not positions:
            p.error("no positions selected")
    return asyncio.run(run(args.url, positions, args.seconds, args.concurrency, args.timeout, not args.no_keepalive))


if __name__ == "__main__":
    sys.exit(main())
