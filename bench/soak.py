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
- probes: 16 clients scoring one-blank plays (each ranks every legal play) plus 8 clients of
  expensive searches, while a separate process asks /healthz on a new connection every 20 ms,
  as a kubelet does: the probes' p50/p99/max (issue 21: under 50 ms at p99, none over 1 s).
- shed: 128 keep-alive clients (wrk) of one-blank /score, then of the best 20 plays: the
  longest any request waited (under 2 s) and how many got 503 busy instead of queueing.
- recovery: the default list's compile killed, and a cache disk that is full (a 4 MB tmpfs,
  as root): how soon /readyz is 200 again with nothing but probes asking (under 10 s), and
  that no partial file is left in the cache.

``--check`` exits 1 when a threshold above is missed (the short run in tests/test_soak.py
fails the build that way). Each result line ends with the load average when it was taken.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
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
    def __init__(self, drain: int = 10, env: dict[str, str] | None = None, wait: bool = True) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "WORDSOLVER_ACCESS_LOG": "false", "WORDSOLVER_LOG_LEVEL": "warning",
               "WORDSOLVER_DRAIN_TIMEOUT": str(drain), "WORDSOLVER_BODY_TIMEOUT": "60", **(env or {})}
        self.log = log = Path(tempfile.mkdtemp()) / "service.log"
        cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port), "--workers", "2"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        if wait:
            self.wait_ready(120)

    def wait_ready(self, seconds: float) -> None:
        log = self.log
        deadline = time.monotonic() + seconds
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


FAILED: list[str] = []  # thresholds missed (--check)
STRETCH = [1.0]  # --ci: the thresholds stretched by the machine's load (see stretch())


def stretch() -> float:
    """With --ci, how much a shared machine's load stretches every wait: its load average per
    core (at least 1, at most 8). The thresholds are the issue's, multiplied by it (a probe
    over 3 s fails whatever the load: that is a liveness timeout); a defect
    like the ones issue 21 found (probes timing out at 3 s, 5 s waits at 128 clients) still
    fails, while a machine eight agents share does not fail every run by itself."""
    return STRETCH[0]


def load_average() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def expect(ok: bool, what: str) -> str:
    if not ok:
        FAILED.append(what)
    return "ok" if ok else f"MISSED: {what}"


def probe_loop(url: str, seconds: float, every: float, path: str = "/healthz") -> list[float]:
    """``GET path`` on a new connection every ``every`` seconds, as a kubelet probes: each
    probe's time in ms (3,000 for one that got no answer within 3 s, the probes' timeout)."""
    host, port = url.removeprefix("http://").split(":")
    out: list[float] = []
    deadline = time.perf_counter() + seconds
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode()
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        try:
            with socket.create_connection((host, int(port)), timeout=3) as s:
                s.sendall(request)
                answer = b""
                while not _complete(answer) and (chunk := s.recv(4096)):
                    answer += chunk
                took = (time.perf_counter() - start) * 1000 if answer.startswith(b"HTTP/1.1 200") else 3000.0
        except OSError:
            took = 3000.0
        out.append(took)
        time.sleep(max(0.0, every - (time.perf_counter() - start)))
    return out


def _complete(answer: bytes) -> bool:
    """Whether ``answer`` holds a whole HTTP answer (its head and Content-Length bytes of body): a
    probe is over when its answer is in, as for a kubelet, not when the server closes the socket."""
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    fields = dict(line.partition(b":")[::2] for line in head.split(b"\r\n")[1:])
    fields = {name.strip().lower(): value.strip() for name, value in fields.items()}
    length = fields.get(b"content-length", b"")
    if b"transfer-encoding" in fields or not length.isdigit():
        return False  # no length it can trust: read to the end
    return len(body) >= int(length)


def prober(url: str, seconds: float, every: float = 0.05) -> subprocess.Popen[bytes]:
    """The probes from a process of their own: the load's client loop does not delay them."""
    return subprocess.Popen([sys.executable, __file__, "--probe", url, "--seconds", str(seconds), "--every", str(every)],
                            stdout=subprocess.PIPE)


def probe_results(proc: subprocess.Popen[bytes]) -> list[float]:
    out, _ = proc.communicate(timeout=300)
    return sorted(json.loads(out))


def one_blank_plays(url: str) -> list[tuple[str, dict]]:
    """(path, body) of /score requests with a one-blank rack and a legal play of it: ranking
    the play enumerates every legal play of the rack."""
    out = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for p in POSITIONS:
            rack = p["rack"].replace("?", "")[:6] + "?"
            r = http.post(f"/v1/games/{p['game']}/moves", json={"board": p["board"], "rack": rack, "limit": 5,
                                                                "breakdowns": False})
            if r.status_code == 200 and r.json()["moves"]:
                play = r.json()["moves"][-1]["notation"]
                out.append((f"/v1/games/{p['game']}/score", {"board": p["board"], "rack": rack, "play": play}))
    if not out:
        raise SystemExit("no one-blank play found in the sample positions")
    return out


async def hammer(url: str, requests: list[tuple[str, dict]], clients: int, seconds: float) -> dict:
    """Keep-alive clients sending ``requests`` in turn: statuses and latencies (ms)."""
    statuses: dict[int | str, int] = {}
    lat: list[float] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    deadline = time.perf_counter() + seconds

    async def one(k: int, http: httpx.AsyncClient) -> None:
        i = k
        while time.perf_counter() < deadline:
            path, body = requests[i % len(requests)]
            i += 1
            start = time.perf_counter()
            try:
                r = await http.post(path, json=body)
                status: int | str = r.status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            lat.append((time.perf_counter() - start) * 1000)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 503:
                await asyncio.sleep(0.2)

    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        await asyncio.gather(*(one(k, http) for k in range(clients)))
    lat.sort()
    return {"statuses": statuses, "p99": percentile(lat, 0.99), "max": lat[-1] if lat else float("nan")}


def scenario_probes(seconds: float) -> None:
    svc = Service()
    try:
        scores = one_blank_plays(svc.url)
        heavy = [(f"/v1/games/{p['game']}/moves", {"board": p["board"], **EXPENSIVE, "rack": expensive_rack(p["game"])})
                 for p in POSITIONS]
        alone = probe_results(prober(svc.url, min(seconds, 3.0), 0.02))
        print(f"probes, service idle: p50 {percentile(alone, 0.5):.1f} ms  p99 {percentile(alone, 0.99):.1f} ms  "
              f"max {alone[-1]:.1f} ms  ({load_average()})")
        probes = prober(svc.url, seconds, 0.02)

        async def load() -> tuple[dict, dict]:
            a, b = await asyncio.gather(hammer(svc.url, scores, 16, seconds), hammer(svc.url, heavy, 8, seconds))
            return a, b

        cheap, expensive = asyncio.run(load())
        lat = probe_results(probes)
        p99, worst = percentile(lat, 0.99), lat[-1]
        print(f"16 one-blank /score + 8 expensive /moves clients: /healthz probes {len(lat)}: "
              f"p50 {percentile(lat, 0.5):.1f} ms  p99 {p99:.1f} ms  max {worst:.1f} ms  ({load_average()})")
        print(f"  /score answers {cheap['statuses']} (p99 {cheap['p99']:.0f} ms), "
              f"expensive /moves answers {expensive['statuses']} (p99 {expensive['p99']:.0f} ms)")
        k = stretch()
        # --ci: on a shared machine the idle probes' own p99 shows how far its scheduling alone
        # stretches a probe; four times that is allowed too (a probe stuck behind the searches,
        # as in issue 21, took seconds)
        limit = 50 * k if k == 1.0 else max(50 * k, 4 * percentile(alone, 0.99))
        print(f"  probe p99 under {limit:.0f} ms:", expect(p99 < limit, f"probe p99 {p99:.1f} ms >= {limit:.0f} ms"),
              f"| no probe over {min(3000, 1000 * k):.0f} ms:",
              expect(worst < min(3000, 1000 * k), f"a probe took {worst:.0f} ms"))
    finally:
        svc.stop()


WRK_COUNTING = """
local bodies, paths, i = {}, {}, 0
%s
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) busy = 0; other = 0 end
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", paths[i], {["Content-Type"] = "application/json"}, bodies[i])
end
function response(status, headers, body)
  if status == 503 then busy = busy + 1 elseif status ~= 200 then other = other + 1 end
end
function done(summary, latency, requests)
  local b, o = 0, 0
  for _, t in ipairs(threads) do b = b + t:get("busy"); o = o + t:get("other") end
  io.write(string.format("COUNTS %%d %%d %%d %%d\\n", summary.requests, b, o, math.floor(latency.max)))
end
"""


def wrk_counting(url: str, requests: list[tuple[str, dict]], clients: int, seconds: float) -> dict:
    """wrk with ``clients`` keep-alive connections: requests, 503s, other non-200s, max latency (ms)."""
    lines = [f"table.insert(bodies, [[{json.dumps(b)}]]); table.insert(paths, '{p}')" for p, b in requests]
    script = Path(tempfile.mkdtemp()) / "post.lua"
    script.write_text(WRK_COUNTING % "\n".join(lines))
    done = subprocess.run(["wrk", "-t2", f"-c{clients}", f"-d{max(1, int(seconds))}s", "--timeout", "10s", "-s",
                          str(script), url], capture_output=True, text=True, timeout=seconds + 60)
    out = done.stdout + done.stderr
    found = re.search(r"COUNTS (\d+) (\d+) (\d+) (\d+)", out)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if not found:
        raise SystemExit(f"wrk gave no counts: {out}")
    total, busy, other, worst = (int(x) for x in found.groups())
    return {"requests": total, "busy": busy, "other": other, "max": worst / 1000,
            "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0}


def scenario_shed(seconds: float) -> None:
    if shutil.which("wrk") is None:
        print("skipped: needs wrk (Debian package wrk): a Python client cannot keep 128 connections busy here")
        return
    svc = Service()
    try:
        scores = one_blank_plays(svc.url)
        moves = [(f"/v1/games/{p['game']}/moves", {"board": p["board"], "rack": p["rack"], "limit": 20}) for p in POSITIONS]
        for label, requests in (("one-blank /score", scores), ("best 20 plays", moves)):
            r = wrk_counting(svc.url, requests, 128, seconds)
            print(f"128 keep-alive clients, {label}: {r['requests'] / max(1, int(seconds)):.0f} req/s, "
                  f"{r['busy']} answered 503 busy, {r['other']} other non-200, {r['socket_errors']} socket errors, "
                  f"longest wait {r['max']:.0f} ms  ({load_average()})")
            k = stretch()
            print(f"  no request waited {2 * k:.1f} s:",
                  expect(r["max"] < 2000 * k, f"{label}: a request waited {r['max']:.0f} ms"),
                  "| every answer 200 or 503 busy:",
                  expect(r["other"] == 0 and r["socket_errors"] == 0, f"{label}: {r['other']} other answers, "
                                                                       f"{r['socket_errors']} socket errors"))
    finally:
        svc.stop()


def compile_children(pid: int) -> list[int]:
    """The processes compiling a word list under the service ``pid``."""
    out = []
    for worker in workers(pid) if Path(f"/proc/{pid}").exists() else set():
        try:
            kids = {int(k) for t in Path(f"/proc/{worker}/task").iterdir() for k in (t / "children").read_text().split()}
        except OSError:
            continue
        for kid in kids:
            try:
                if b"_child_main" in Path(f"/proc/{kid}/cmdline").read_bytes():
                    out.append(kid)
            except OSError:
                pass
    return out


def ready_after(svc: Service, since: float, limit: float) -> float | None:
    """Seconds from ``since`` until /readyz answers 200 ten times in a row (both workers),
    asking nothing else; None if not within ``limit`` seconds of ``since``."""
    good = 0
    while time.monotonic() - since < limit:
        try:
            good = good + 1 if httpx.get(f"{svc.url}/readyz", timeout=2).status_code == 200 else 0
        except httpx.HTTPError:
            good = 0
        if good >= 10:
            return time.monotonic() - since
        time.sleep(0.1)
    return None


def scenario_recovery(seconds: float) -> None:
    # 1. the compile killed: a fresh cache, the first compiling child killed as soon as it shows
    cache = Path(tempfile.mkdtemp(prefix="wordsolver-soak-cache-"))
    svc = Service(env={"WORDSOLVER_CACHE_DIR": str(cache)}, wait=False)
    try:
        deadline = time.monotonic() + 60
        while not (kids := compile_children(svc.proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.02)
        if not kids:
            raise SystemExit(f"no compile seen: {svc.log.read_text()[-2000:]}")
        os.kill(kids[0], signal.SIGKILL)
        killed = time.monotonic()
        took = ready_after(svc, killed, 60)
        stray = sorted(p.name for p in cache.iterdir() if p.suffix == ".tmp")
        print(f"compile killed: /readyz 200 {took if took is not None else float('nan'):.1f} s after the kill, "
              f"asking only /readyz; stray files {stray or 'none'}  ({load_average()})")
        k = stretch()
        print(f"  ready within {10 * k:.0f} s:", expect(took is not None and took < 10 * k, f"not ready {took} s after the kill"),
              "| no stray files:", expect(not stray, f"stray files {stray}"))
    finally:
        svc.stop()
        shutil.rmtree(cache, ignore_errors=True)
    # 2. the cache disk full: a 4 MB tmpfs (the compiled list is ~14 MB), filled, then freed
    if os.geteuid() != 0 or shutil.which("mount") is None:
        print("disk full: skipped (mounting a small tmpfs needs root)")
        return
    disk = Path(tempfile.mkdtemp(prefix="wordsolver-soak-disk-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True).returncode:
        print("disk full: skipped (mount -t tmpfs failed here)")
        return
    try:
        filler = disk / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k"], capture_output=True)
        svc = Service(env={"WORDSOLVER_CACHE_DIR": str(disk)}, wait=False)
        try:
            start = time.monotonic()
            took = ready_after(svc, start, 60)
            stray = sorted(p.name for p in disk.iterdir() if p.suffix in (".tmp", ".dawg"))
            print(f"cache disk full: /readyz 200 after {took if took is not None else float('nan'):.1f} s "
                  f"(compiled into memory); files left {stray or 'none'}  ({load_average()})")
            print("  ready while full:", expect(took is not None, "never ready with the cache disk full"),
                  "| no partial files:", expect(not stray, f"files left {stray}"))
            filler.unlink()  # freed: the service stays ready; a restart then writes the cache
            again = ready_after(svc, time.monotonic(), 10)
            print("  still ready once freed:", expect(again is not None, "not ready after the disk was freed"))
        finally:
            svc.stop()
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)  # lazily: a child may still hold it
        shutil.rmtree(disk, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0, help="per load run")
    p.add_argument("--only", help="comma-separated: clients, mixed, kill, sigterm, probes, shed, recovery")
    p.add_argument("--check", action="store_true", help="exit 1 when a threshold is missed")
    p.add_argument("--ci", action="store_true", help="thresholds stretched by the load average per core (1-8x)")
    p.add_argument("--probe", help=argparse.SUPPRESS)  # the prober's own process
    p.add_argument("--every", type=float, default=0.05, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.probe:
        print(json.dumps(probe_loop(args.probe, args.seconds, args.every)))
        return 0
    runs = {"clients": scenario_clients, "mixed": scenario_mixed, "kill": scenario_kill, "sigterm": scenario_sigterm,
            "probes": scenario_probes, "shed": scenario_shed, "recovery": scenario_recovery}
    if args.ci:
        STRETCH[0] = min(8.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))
        print(f"thresholds stretched {STRETCH[0]:.2f}x ({load_average()}, {os.cpu_count()} cores)")
    for name in (args.only.split(",") if args.only else runs):
        print(f"== {name}", flush=True)
        runs[name](args.seconds)
    if FAILED:
        print("thresholds missed:", "; ".join(FAILED))
    return 1 if args.check and FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
