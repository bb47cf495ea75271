"""A TypeScript client generated from /openapi.json with default options (openapi-typescript
and openapi-fetch), compiled with ``tsc --strict`` and run against the real service: the
README's QUIXOTE request must come back as 8F QUIXOTE for 110, typed all the way.

Needs Node.js and npm (``.ci/run`` installs them); outside CI the test skips without them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from test_server import server  # noqa: F401  (the live-service fixture)

HERE = Path(__file__).resolve().parent / "ts_client"


def run(cmd: list[str], cwd: Path, timeout: float = 240) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (shutil.which("node") and shutil.which("npm")):
        if os.environ.get("CI"):
            pytest.fail("node and npm are required in CI (.ci/run installs them)")
        pytest.skip("node and npm are not installed")
    work = tmp_path_factory.mktemp("ts_client")
    for name in ("package.json", "package-lock.json", "tsconfig.json", "client.ts"):
        shutil.copy(HERE / name, work / name)
    run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], work)
    return work


def test_generated_typescript_client_compiles_strict_and_finds_quixote(workdir: Path, server: str) -> None:  # noqa: F811
    (workdir / "openapi.json").write_text(httpx.get(f"{server}/openapi.json", timeout=10).text)
    run(["npx", "--no-install", "openapi-typescript", "openapi.json", "-o", "schema.d.ts"], workdir)
    run(["npx", "--no-install", "tsc", "--strict", "-p", "tsconfig.json"], workdir)
    lines = run(["node", "dist/client.js", server], workdir, timeout=60).splitlines()
    best, bad = json.loads(lines[0]), json.loads(lines[1])
    assert best == {"notation": "8F QUIXOTE", "score": 110, "total": 110, "bonus": "sweep",
                    "words": ["QUIXOTE 35x2"], "warnings": 0}
    assert bad == {"status": 422, "code": "invalid_rack"}
