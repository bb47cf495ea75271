"""Load and fault suite: a real two-worker service on a loopback port, driven by keep-alive
clients, with a worker killed and the service stopped under load. Bounded in time; loopback only.

    .venv/bin/python bench/soak.py                 # every scenario, 20 s each
    .venv/bin/python bench/soak.py --seconds 5 --only clients

Scenarios (each prints one line or a few):
- clients: 8, 32 and 128 keep-alive clients asking for the best 20 plays of mid-game positions:
  requests/s, p50/p99/max latency, errors, and the CPU seconds each worker used (both busy?).
- mixed: 16 clients of cheap requests alone, then with a quarter of the clients sending
  expensive ones (3 blanks, count, limit 1000): the cheap requests' p99 both ways, and how the
  expensive ones were answered (200 or 503 busy).
- kill: 32 clients; one worker is killed with SIGKILL half-way: failed requests, and how soon
  the replacement worker holds connections.
- sigterm: 32 clients and one client stalled half-way through a body; SIGTERM: how long the
  service takes to exit, against its drain time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import POSITIONS, percentile, run_wrk  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXPENSIVE = {"limit": 1000, "count": True}  # every play counted, a thousand with breakdowns


def expensive_rack(game: str) -> str:
    return "EIRST??" if game == "crossplay" else "EIRSTA?"  # what the sample boards leave of the blanks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if "resource_tracker" not in Path(f"/proc/{child}/cmdline").read_text(errors="replace"):
                out.add(int(child))
    return out


class Service:
    def __init__(self, drain: int = 10) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "WORDSOLVER_ACCESS_LOG": "false", "WORDSOLVER_LOG_LEVEL": "warning",
               "WORDSOLVER_DRAIN_TIMEOUT": str(drain), "WORDSOLVER_BODY_TIMEOUT": "60"}
        log = Path(tempfile.mkdtemp()) / "service.log"
        cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port), "--workers", "2"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if len(workers(self.proc.pid)) == 2 and all(
                        httpx.get(f"{self.url}/readyz", timeout=2).status_code == 200 for _ in range(6)):
                    return
            except (httpx.HTTPError, OSError):
                pass
            time.sleep(0.2)
        raise SystemExit(f"service not ready: {log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def drive(url: str, clients: int, seconds: float, expensive_share: float = 0.0,
                during: object = None, stop_at: list[float] | None = None) -> dict:
    """Keep-alive clients for ``seconds``; every ``1/expensive_share``-th client sends expensive requests."""
    cheap: list[float] = []
    slow: list[int] = []
    errors: list[str] = []
    every = round(1 / expensive_share) if expensive_share else 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    deadline = time.perf_counter() + seconds

    async def one(k: int, http: httpx.AsyncClient) -> None:
        i = k
        heavy = every and k % every == 0
        while time.perf_counter() < deadline:
            p = POSITIONS[i % len(POSITIONS)]
            i += 1
            body = {"board": p["board"], **({**EXPENSIVE, "rack": expensive_rack(p["game"])} if heavy
                                            else {"rack": p["rack"], "limit": 20})}
            start = time.perf_counter()
            try:
                r = await http.post(f"/v1/games/{p['game']}/moves", json=body)
            except httpx.HTTPError as exc:
                # after a stop (stop_at), only requests already sent before it count as failures
                if not stop_at or start < stop_at[0]:
                    errors.append(type(exc).__name__)
                await asyncio.sleep(0.05)
                continue
            if heavy:
                slow.append(r.status_code)
                if r.status_code == 503:
                    await asyncio.sleep(float(r.headers.get("retry-after", "1")))
            elif r.status_code == 200:
                cheap.append(time.perf_counter() - start)
            else:
                errors.append(str(r.status_code))

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        tasks = [one(k, http) for k in range(clients)]
        if during is not None:
            tasks.append(during)  # type: ignore[arg-type]
        start = time.perf_counter()
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
    lat = sorted(cheap)
    return {"ok": len(lat), "errors": errors, "rps": len(lat) / elapsed, "p50": percentile(lat, 0.5) * 1000,
            "p99": percentile(lat, 0.99) * 1000, "max": (lat[-1] * 1000) if lat else float("nan"),
            "expensive": {s: slow.count(s) for s in sorted(set(slow))}}


def line(label: str, r: dict) -> str:
    return (f"{label:<34} {r['rps']:7.1f} req/s  p50 {r['p50']:6.1f} ms  p99 {r['p99']:7.1f} ms  "
            f"max {r['max']:7.1f} ms  errors {len(r['errors'])}")


def wrk(url: str, clients: int, seconds: float) -> dict:
    """wrk (C, from Debian's packages) as the load generator: a Python client cannot keep 128
    connections busy on these two cores."""
    r = run_wrk(url, POSITIONS, seconds, clients)
    return {**r, "errors": ["x"] * r["errors"], "ok": 0, "expensive": {}}


def scenario_clients(seconds: float) -> None:
    svc = Service()
    use_wrk = shutil.which("wrk") is not None
    print("load generator:", "wrk -t2" if use_wrk else "httpx (asyncio, one process; install wrk for 128 clients)")
    try:
        for n in (8, 32, 128):
            before = {p: cpu_seconds(p) for p in workers(svc.proc.pid)}
            r = wrk(svc.url, n, seconds) if use_wrk else asyncio.run(drive(svc.url, n, seconds))
            used = {p: cpu_seconds(p) - before.get(p, 0.0) for p in workers(svc.proc.pid)}
            print(line(f"{n} keep-alive clients", r) + "  worker CPU s: "
                  + ", ".join(f"{v:.1f}" for v in used.values()))
    finally:
        svc.stop()


def scenario_mixed(seconds: float) -> None:
    svc = Service()
    try:
        alone = asyncio.run(drive(svc.url, 12, seconds))
        print(line("12 cheap clients alone", alone))
        mixed = asyncio.run(drive(svc.url, 16, seconds, expensive_share=0.25))
        print(line("12 cheap + 4 expensive clients", mixed) + f"  expensive answers: {mixed['expensive']}")
        print(f"cheap p99 with expensive load / alone: {mixed['p99'] / alone['p99']:.2f}x")
    finally:
        svc.stop()


def established(pid: int, port: int) -> int:
    """Established server-side connections on ``port`` that process ``pid`` holds."""
    inodes = set()
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = row.split()
        if parts[3] == "01" and int(parts[1].split(":")[1], 16) == port:
            inodes.add(parts[9])
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        held += target.startswith("socket:[") and target[8:-1] in inodes
    return held


def scenario_kill(seconds: float) -> None:
    svc = Service()
    try:
        first = workers(svc.proc.pid)
        seen: dict[str, float] = {}

        async def kill_half_way() -> None:
            await asyncio.sleep(seconds / 2)
            os.kill(min(first), signal.SIGKILL)
            killed = time.perf_counter()
            while time.perf_counter() - killed < seconds / 2:
                for pid in workers(svc.proc.pid) - first:
                    if established(pid, svc.port):
                        seen["serving"] = time.perf_counter() - killed
                        return
                await asyncio.sleep(0.05)

        r = asyncio.run(drive(svc.url, 32, seconds, during=kill_half_way()))
        print(line("32 clients, a worker killed", r))
        print(f"failed requests: {len(r['errors'])} ({', '.join(sorted(set(r['errors'])))}); "
              f"the replacement held client connections {seen.get('serving', float('nan')):.1f} s after the kill")
    finally:
        svc.stop()


def scenario_sigterm(seconds: float) -> None:
    drain = 5
    svc = Service(drain=drain)
    stalled = socket.create_connection(("127.0.0.1", svc.port))
    stalled.sendall(b"POST /v1/games/crossplay/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 500\r\n\r\n{\"rack\":")
    took: dict[str, float] = {}
    stop_at: list[float] = []

    async def stop_half_way() -> None:
        await asyncio.sleep(seconds / 2)
        start = time.perf_counter()
        stop_at.append(start)
        svc.proc.send_signal(signal.SIGTERM)
        while svc.proc.poll() is None and time.perf_counter() - start < drain + 20:
            await asyncio.sleep(0.05)
        took["exit"] = time.perf_counter() - start

    try:
        r = asyncio.run(drive(svc.url, 32, seconds, during=stop_half_way(), stop_at=stop_at))
        print(line("32 clients, SIGTERM half-way", r))
        print(f"exited {took['exit']:.1f} s after SIGTERM (drain time {drain} s, one client stalled mid-body); "
              f"requests sent before the stop that failed: {len(r['errors'])}")
    finally:
        stalled.close()
        svc.stop()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0, help="per load run")
    p.add_argument("--only", help="comma-separated: clients, mixed, kill, sigterm")
    args = p.parse_args()
    runs = {"clients": scenario_clients, "mixed": scenario_mixed, "kill": scenario_kill, "sigterm": scenario_sigterm}
    for name in (args.only.split(",") if args.only else runs):
        print(f"== {name}", flush=True)
        runs[name](args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
