"""The short soak (bench/soak.py --ci --check) in the test suite: probes under mixed load, shed
instead of queue at 128 clients, readiness back by itself after a killed compile and with a
full cache disk. Thresholds are the issue's (probe p99 50 ms, none over 1 s; no wait over 2 s;
ready within 10 s), stretched by the machine's load per core (1-8x; a probe over 3 s fails at any load): the defects issue 21
measured (3 s probe timeouts, 5 s waits, never ready) fail it on any machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(sys.platform != "linux", reason="the soak reads /proc")
def test_the_short_soak_meets_its_thresholds() -> None:
    if os.environ.get("WORDSOLVER_SKIP_SOAK"):
        pytest.skip("WORDSOLVER_SKIP_SOAK is set")
    done = subprocess.run([sys.executable, "bench/soak.py", "--seconds", "4", "--only", "probes,shed,recovery",
                           "--ci", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    print(done.stdout)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
