"""The container recipe and the pins it shares with the README's install (no Docker engine
runs here, so this checks the recipe itself; docs/operations.md reports a build-equivalent run)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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
    assert "-c constraints.txt" in (ROOT / "Makefile").read_text()
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
