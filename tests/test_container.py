"""The container recipe and the pins it shares with the README's install (no Docker engine
runs here, so this checks the recipe itself; docs/operations.md reports a build-equivalent run)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pkg, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned with =="
            out[name(pkg)] = version
    return out


def test_every_dependency_is_pinned() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    assert sorted(name(r) for r in wanted if name(r) not in pins()) == []


def test_install_and_image_use_the_same_pins() -> None:
    assert "tools/install.sh" in (ROOT / "Makefile").read_text()
    install = (ROOT / "tools" / "install.sh").read_text()
    assert install.count("-c constraints.txt") == 4  # uv's install, pip's, and uv's own two ways
    docker = (ROOT / "Dockerfile").read_text()
    assert "-c constraints.txt" in docker
    assert "!constraints.txt" in (ROOT / ".dockerignore").read_text()


def test_image_installs_dependencies_before_the_source_and_checks_the_compiled_core() -> None:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    build_end = [i for i, line in enumerate(lines) if line.startswith("FROM")][1]
    build = lines[:build_end]
    deps = next(i for i, line in enumerate(build) if "pip install" in line and "-c constraints.txt" in line)
    source = next(i for i, line in enumerate(build) if line.startswith("COPY engine"))
    assert deps < source
    assert any("import engine._fastgen" in line and "engine._fastlex" in line for line in build)
    runtime = "\n".join(lines[build_end:])
    assert "gcc" not in runtime and "apt-get install" not in runtime
    assert "org.opencontainers.image.title" in runtime and "USER 10001" in runtime


# --- the image, really built and run ------------------------------------------------------------
# No Docker engine and no Docker Hub here: Debian's buildah builds the Dockerfile (with
# --isolation chroot: no container runtime or namespaces needed) on a stand-in for python:3.11-slim that debootstrap makes from
# Debian 12's packages, in a private container storage of its own (a temporary directory, so no
# image of the machine's is touched), and `buildah run` runs the image's command. The stand-in
# trusts what the machine trusts: the machine's CA bundle and /etc/pip.conf go into the
# stand-in only (the recipe copies nothing of the machine's). The stand-in's root file system
# is cached under the cache directory, in a folder named by a hash of everything that made it,
# so later runs skip debootstrap (minutes), and made again after STANDIN_MAX_DAYS so that it
# follows Debian's updates. docs/operations.md (Docker) has the timings.
#   WORDSOLVER_IMAGE_TEST=required  fail instead of skipping when the tools are missing (.ci/run
#                                   sets it where it could install them)
#   WORDSOLVER_IMAGE_TEST=off       skip

STANDIN_SUITE = "bookworm"  # Debian 12, what python:3.11-slim is built on
# Like python:3.11-slim: Python with its headers and venv, `python`, CA certificates, and no C
# compiler (the recipe's build stage installs gcc itself, and that step is part of the test).
STANDIN_PACKAGES = ("python3", "python3-venv", "python3-dev", "python-is-python3", "ca-certificates")
STANDIN_RECIPE = 1  # bump when the way the stand-in is made changes
STANDIN_MAX_DAYS = 30
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
PIP_CONF = Path("/etc/pip.conf")
IMAGE_UID = 10001


def image_tools_missing() -> str | None:
    """Why the image cannot be built here, or None when it can."""
    if os.environ.get("WORDSOLVER_IMAGE_TEST") == "off":
        return "WORDSOLVER_IMAGE_TEST=off"
    if os.geteuid() != 0:
        return "needs root (debootstrap makes the stand-in base image)"
    missing = [tool for tool in ("buildah", "debootstrap") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (Debian: apt-get install buildah debootstrap; .ci/run does)"
    return None


def debian_mirror() -> str:
    return os.environ.get("WORDSOLVER_DEBIAN_MIRROR", "http://deb.debian.org/debian")


def standin_key() -> str:
    """A hash of everything that makes the stand-in base: change any of it and a new one is made."""
    h = hashlib.sha256()
    for part in (str(STANDIN_RECIPE), STANDIN_SUITE, ",".join(STANDIN_PACKAGES), debian_mirror(), platform.machine()):
        h.update(part.encode() + b"\0")
    for path in (CA_BUNDLE, PIP_CONF):
        h.update(path.read_bytes() if path.exists() else b"-")
        h.update(b"\0")
    return h.hexdigest()[:16]


def cache_root() -> Path:
    if os.environ.get("WORDSOLVER_CACHE_DIR"):
        return Path(os.environ["WORDSOLVER_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wordsolver"


def standin_rootfs() -> Path:
    """The stand-in's root file system: from the cache, else made now with debootstrap and
    cached. Made in a sibling folder and renamed into place only when complete, so an
    interrupted run never leaves a half-made base that a later run would trust; under a lock,
    so two runs at once make it once."""
    folder = cache_root() / "image-standin" / standin_key()
    rootfs, complete = folder / "rootfs", folder / "complete"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if complete.exists() and time.time() - complete.stat().st_mtime < STANDIN_MAX_DAYS * 86400:
            return rootfs
        complete.unlink(missing_ok=True)
        _debootstrap(folder, rootfs)
        complete.write_text(f"debootstrap {STANDIN_SUITE} {' '.join(STANDIN_PACKAGES)} from {debian_mirror()}\n")
    return rootfs


def _debootstrap(folder: Path, rootfs: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="rootfs.", dir=folder))
    try:
        done = subprocess.run(
            ["debootstrap", "--variant=minbase", "--include=" + ",".join(STANDIN_PACKAGES),
             STANDIN_SUITE, str(work), debian_mirror()],
            capture_output=True, text=True, timeout=1200,
        )
        assert done.returncode == 0, f"debootstrap failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        work.chmod(0o755)  # the image's / (mkdtemp made it private)
        # what the machine trusts, into the stand-in only
        if CA_BUNDLE.exists():
            shutil.copyfile(CA_BUNDLE, work / "etc/ssl/certs/ca-certificates.crt")
        if PIP_CONF.exists():
            shutil.copyfile(PIP_CONF, work / "etc/pip.conf")
        # like the real slim image: no package lists or downloaded packages
        for junk in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for entry in (work / junk).glob("*"):
                if entry.is_file():
                    entry.unlink()
        if rootfs.exists():
            shutil.rmtree(rootfs)
        work.rename(rootfs)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


class Buildah:
    """buildah on a private container storage (removed by close())."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.flags = ["--root", str(where / "storage"), "--runroot", str(where / "run"), "--storage-driver", "overlay"]

    def __call__(self, *args: str, timeout: float = 900) -> str:
        done = subprocess.run(["buildah", *self.flags, *args], capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, f"buildah {' '.join(args)} failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done.stdout.strip()

    def popen(self, *args: str, log: Path) -> subprocess.Popen[bytes]:
        with log.open("wb") as out:
            return subprocess.Popen(["buildah", *self.flags, *args], stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def close(self) -> None:
        subprocess.run(["buildah", *self.flags, "rm", "--all"], capture_output=True, timeout=120)
        subprocess.run(["buildah", *self.flags, "rmi", "--all", "--force"], capture_output=True, timeout=120)
        shutil.rmtree(self.where, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str, body: dict[str, object] | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except OSError:
        return 0, b""


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def uid_of(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def test_image_builds_and_answers_quixote(tmp_path: Path) -> None:
    why = image_tools_missing()
    if why is not None:
        if os.environ.get("WORDSOLVER_IMAGE_TEST") == "required":
            pytest.fail(f"the image cannot be built here: {why}")
        pytest.skip(f"the image is not built here: {why}")
    timings: dict[str, float] = {}
    start = time.monotonic()
    rootfs = standin_rootfs()
    timings["stand-in root file system (debootstrap, or the cache)"] = time.monotonic() - start
    buildah = Buildah(tmp_path / "buildah")
    serving: subprocess.Popen[bytes] | None = None
    try:
        start = time.monotonic()
        ctr = buildah("from", "scratch")
        mount = buildah("mount", ctr)
        subprocess.run(["cp", "-a", f"{rootfs}/.", mount], check=True, timeout=600)
        buildah("umount", ctr)
        buildah("config", "--env", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "--cmd", "python3", ctr)
        buildah("commit", "--quiet", "--rm", ctr, "docker.io/library/python:3.11-slim")
        timings["stand-in image committed"] = time.monotonic() - start

        start = time.monotonic()
        built = buildah("bud", "--isolation", "chroot", "--pull-never", "--format", "docker", "-t", "localhost/wordsolver:test", "-f", str(ROOT / "Dockerfile"), str(ROOT), timeout=1800)
        assert "rebuilt with the profile" in built, built[-3000:]  # tools/pgo.py (--require fails the build otherwise)
        timings["buildah bud (the Dockerfile, from the working tree)"] = time.monotonic() - start

        # the runtime image: everything serving needs, nothing of the build
        ctr = buildah("from", "--pull-never", "localhost/wordsolver:test")
        config = json.loads(buildah("inspect", "--type", "image", "localhost/wordsolver:test"))["Docker"]["config"]
        assert config["User"] == f"{IMAGE_UID}:{IMAGE_UID}" and config["Cmd"] == ["wordsolver", "serve"]
        assert config["Healthcheck"]["Test"] == ["CMD", "wordsolver", "healthcheck"]
        image_root = Path(buildah("mount", ctr))
        assert list((image_root / "opt/venv/lib").glob("python3*/site-packages/engine/_fastgen*.so"))
        assert list((image_root / "opt/venv/lib").glob("python3*/site-packages/engine/_fastlex*.so"))
        assert not (image_root / "src").exists() and not list((image_root / "usr/bin").glob("gcc*"))
        assert any((image_root / "app/cache").rglob("*")), "the default word list is compiled at build time"
        buildah("umount", ctr)

        # serve it as the image says (its user, its command), on a loopback port of the machine
        port = free_port()
        lists = tmp_path / "lists"
        lists.mkdir()
        (lists / "five.txt").write_text("QUIXOTE\nQUIT\nTOE\nEXIT\nOX\n")
        lists.chmod(0o755)
        start = time.monotonic()
        serving = buildah.popen(
            "run", "--isolation", "chroot", "--env", f"WORDSOLVER_PORT={port}", "--env", "WORDSOLVER_HOST=127.0.0.1",
            "--volume", f"{lists}:/app/user-lexicons:ro", ctr, "--", "wordsolver", "serve", log=tmp_path / "serve.log",
        )
        base = f"http://127.0.0.1:{port}"
        while http("GET", f"{base}/readyz")[0] != 200:
            assert serving.poll() is None, (tmp_path / "serve.log").read_text()[-4000:]
            assert time.monotonic() - start < 120, "not ready after 120 s:\n" + (tmp_path / "serve.log").read_text()[-4000:]
            time.sleep(0.2)
        timings["buildah run until /readyz 200"] = time.monotonic() - start
        assert json.loads(http("GET", f"{base}/readyz")[1])["search"] == "compiled"  # the C core answers in the image

        status, body = http("POST", f"{base}/v1/games/crossplay/moves", {"rack": "QUIXOTE", "limit": 1})
        assert status == 200, body
        best = json.loads(body)["moves"][0]
        assert (best["notation"], best["score"]) == ("8F QUIXOTE", 110)
        # the page, the offline API docs, the metrics (a writable multiprocess directory as a
        # non-root user) and an own word list compiled into the image's cache at first use
        for path in ("/", "/docs", "/metrics", "/v1/lexicons/word-list"):
            assert http("GET", base + path)[0] == 200, path
        status, body = http("POST", f"{base}/v1/games/crossplay/moves", {"rack": "QUIXOTE", "limit": 1, "lexicon": "five"})
        assert status == 200 and json.loads(body)["moves"][0]["word"] == "QUIXOTE", body  # small: compiled inline

        # every process of the service runs as the image's unprivileged user
        workers = [pid for pid in descendants(serving.pid) if b"wordsolver" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert workers and {uid_of(pid) for pid in workers} == {IMAGE_UID}, [(pid, uid_of(pid)) for pid in workers]
    finally:
        if serving is not None:
            if serving.poll() is None:
                os.killpg(serving.pid, signal.SIGTERM)
                try:
                    serving.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(serving.pid, signal.SIGKILL)
                    serving.wait(timeout=30)
        buildah.close()
        print("image test timings: " + "; ".join(f"{what} {seconds:.1f} s" for what, seconds in timings.items()))


def test_the_standin_is_cached_by_what_made_it_and_never_half_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache logic of the image test, without root: a stand-in is made once per key, made
    again when a part of its recipe changes or it is too old, and an interrupted make leaves
    nothing that a later run would take for a stand-in."""
    me = sys.modules[__name__]
    made: list[Path] = []

    def fake(folder: Path, rootfs: Path) -> None:
        if os.environ.get("FAIL_DEBOOTSTRAP"):
            raise AssertionError("debootstrap failed")
        rootfs.mkdir(exist_ok=True)
        made.append(rootfs)

    monkeypatch.setenv("WORDSOLVER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(me, "_debootstrap", fake)
    first = me.standin_rootfs()
    assert me.standin_rootfs() == first and made == [first]
    monkeypatch.setattr(me, "STANDIN_PACKAGES", (*me.STANDIN_PACKAGES, "curl"))
    other = me.standin_rootfs()
    assert other != first and made == [first, other]
    complete = first.parent / "complete"
    monkeypatch.setattr(me, "STANDIN_PACKAGES", me.STANDIN_PACKAGES[:-1])
    os.utime(complete, (time.time() - (me.STANDIN_MAX_DAYS + 1) * 86400,) * 2)
    assert me.standin_rootfs() == first and len(made) == 3  # too old: made again
    os.utime(complete, (time.time() - (me.STANDIN_MAX_DAYS + 1) * 86400,) * 2)
    monkeypatch.setenv("FAIL_DEBOOTSTRAP", "1")
    with pytest.raises(AssertionError):
        me.standin_rootfs()
    assert not complete.exists()  # the next run makes it again rather than trusting it
