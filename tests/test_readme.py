"""Every curl and CLI example in README.md and docs/*.md answers as printed.

A ``sh`` block of ``curl`` commands is followed by a ``json`` block with their answers (one
answer per command, each starting on a line with ``{``); ``…`` in a printed answer stands for
anything. The comparison ignores whitespace. A ``sh`` block running ``wordsolver`` is followed
by its exact output. Blocks that need other settings (environment variables, files) are
left to a person.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import started
from fastapi.testclient import TestClient

from app import cli
from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)


def blocks() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for path in FILES for m in BLOCK.finditer(path.read_text())]


def commands(sh: str) -> list[str]:
    """The shell block's commands, with backslash continuations joined."""
    return [c.strip() for c in sh.replace("\\\n", " ").splitlines() if c.strip() and not c.lstrip().startswith("#")]


def examples(kind: str) -> list[tuple[str, str]]:
    found = []
    items = blocks()
    for (lang, body), (_, answer) in zip(items, items[1:], strict=False):
        if lang != "sh":
            continue
        cmds = commands(body)
        if kind == "curl" and cmds and all(c.startswith("curl -s http://127.0.0.1:8000") for c in cmds):
            found.append((body, answer))
        if kind == "cli" and len(cmds) == 1 and cmds[0].startswith(".venv/bin/wordsolver "):
            found.append((body, answer))
    return found


def pattern(printed: str) -> re.Pattern[str]:
    squeezed = re.sub(r"\s+", "", printed)
    return re.compile(".*?".join(re.escape(part) for part in squeezed.split("…")), re.S)


def split_answers(text: str, n: int) -> list[str]:
    if n == 1:
        return [text]
    starts = [i for i, line in enumerate(text.splitlines()) if line.startswith("{")]
    lines = text.splitlines()
    return ["\n".join(lines[a:b]) for a, b in zip(starts, starts[1:] + [len(lines)], strict=True)]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with started(create_app(Settings())) as c:  # the default lexicon loaded (compiled on a fresh machine)
        yield c


def request(client: TestClient, curl: str) -> Any:
    args = shlex.split(curl)
    url = next(a for a in args if a.startswith("http://127.0.0.1:8000"))
    data = args[args.index("-d") + 1] if "-d" in args else None
    path = url.removeprefix("http://127.0.0.1:8000")
    if data is None:
        r = client.get(path)
    else:
        r = client.post(path, content=data, headers={"Content-Type": "application/json"})
    return r.json()


CURL = examples("curl")


def test_the_readme_has_examples() -> None:
    assert len(CURL) >= 10 and len(examples("cli")) >= 2


@pytest.mark.parametrize(("sh", "printed"), CURL, ids=[commands(sh)[0][:70] for sh, _ in CURL])
def test_curl_example_answers_as_printed(client: TestClient, sh: str, printed: str) -> None:
    cmds = commands(sh)
    for cmd, shown in zip(cmds, split_answers(printed, len(cmds)), strict=True):
        actual = re.sub(r"\s+", "", json.dumps(request(client, cmd), ensure_ascii=False))
        assert pattern(shown).fullmatch(actual), f"{cmd}\nprinted: {shown}\nactual:  {actual[:2000]}"


@pytest.mark.parametrize(("sh", "printed"), examples("cli"))
def test_cli_example_prints_as_shown(sh: str, printed: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = shlex.split(commands(sh)[0])[1:]
    assert cli.main(args) == 0
    assert capsys.readouterr().out.rstrip() == printed.rstrip()
