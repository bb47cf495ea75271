"""schemathesis against the live service: every operation of /openapi.json, schemathesis' own
default statuses (schemathesis.toml widens none), 100 examples each.

Two runs, so that one check's finding cannot hide another's (schemathesis stops an operation
at its first failure):

1. every check but ``positive_data_acceptance``: zero failures of any kind;
2. ``positive_data_acceptance`` alone: a request the document accepts must not be refused,
   except for the content only the engine can judge, which no JSON Schema can state (docs/api.md,
   "What the schema cannot say"). Each such refusal must be a 422 with one of the codes below;
   any other refusal of a schema-valid request fails the test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_server import server  # noqa: F401  (the live two-worker service)

ROOT = Path(__file__).resolve().parent.parent

# code -> what the engine judged that the schema cannot state
ENGINE_JUDGED = {
    "too_many_tiles": "more tiles of a letter on the board and rack together than the game has",
    "illegal_play": "a play's fit on this board (start square, running off the edge, tiles held), an endgame's empty bag",
    "invalid_cgp": "a CGP line's content (rows of run-length squares summing to the board's width, racks, scores)",
    "invalid_game_record": "a GCG record's lines and plays",
    "invalid_board": "Upwords: a letter exactly where the stack height is not 0 (two fields, square by square)",
    "invalid_request": "bag_size larger than the tiles unseen in the position",
}


# the operations whose bodies carry such content (a board, a play, a CGP line, a GCG record);
# every other operation (/end, /check, the GETs) must accept every schema-valid request
JUDGING = ("/moves", "/score", "/verify", "/unseen", "/cgp", "/simulate", "/endgame", "/preendgame", "/analyze",
           "/v1/compare")


def schemathesis(server: str, *args: str) -> str:  # noqa: F811
    exe = Path(sys.executable).with_name("schemathesis")
    if not exe.exists():
        if os.environ.get("CI"):
            pytest.fail("schemathesis is part of the test extras; CI must have it")
        pytest.skip("schemathesis is not installed")
    done = subprocess.run(
        [str(exe), "run", f"{server}/openapi.json", "--seed", "1", "--no-color", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    return done.stdout


def failures(out: str) -> str:
    return out[out.find("FAILURES"):out.find("SUMMARY")] if "FAILURES" in out else ""


def test_schemathesis_finds_nothing(server: str) -> None:  # noqa: F811
    out = schemathesis(server, "--checks", "all", "--exclude-checks", "positive_data_acceptance")
    tail = failures(out)[:6000] + out[-2500:]
    assert "FAILURES" not in out and " passed" in tail, tail


def test_schema_valid_requests_are_refused_only_for_what_the_engine_judges(server: str) -> None:  # noqa: F811
    out = schemathesis(server, "--checks", "positive_data_acceptance")
    # it ran: a run that cannot load the schema reports no failures, and no summary of cases
    assert re.search(r"^=+ \d+ (passed|failures?)\b", out, re.M), out[-2500:]
    found = failures(out)
    refusals = re.findall(r"^\[(\d{3})\][^\n]*\n\s*\n\s*`(.*)`$", found, re.M)
    assert found.count("ST202") == len(refusals), found[:6000]
    operations = re.findall(r"^_+ (?:GET|POST) (\S+) _+$", found, re.M)
    assert all(op.endswith(JUDGING) for op in operations), operations
    for status, body in refusals:
        error = json.loads(body)["error"]
        assert status == "422" and error["code"] in ENGINE_JUDGED, (status, body)
        if error["code"] == "invalid_board":
            assert "height" in error["message"], body
        if error["code"] == "invalid_request":
            assert error["details"]["field"] == "bag_size", body
    assert "FAILURES" not in out or refusals, out[-2500:]
