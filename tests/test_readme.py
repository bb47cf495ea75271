"""Every example in README.md and docs/*.md runs and answers as printed.

An example is a fenced ``sh`` or ``python`` block, and each is one of:

- **curl**: ``sh`` of ``curl -s http://127.0.0.1:8000...`` commands, followed by a ``json``
  block with their answers (one per command, each starting on a line with ``{``). The app
  answers each through a TestClient; ``…`` in a printed answer stands for anything, and the
  comparison ignores whitespace.
- **cli**: ``sh`` of one ``.venv/bin/wordsolver ...`` command, followed by a block with its
  exact output.
- **python**: run as a script; the comment lines that end the block (``# ...``) are what it
  prints, line for line (no such lines: it prints nothing).
- **not run**: a block with a line ``# not run: <reason>`` (it needs a running server, Docker,
  environment variables, files, minutes). ``EXEMPT`` lists them all, so a new one is a visible
  change here.

Any other ``sh`` or ``python`` block fails, and ``RUN`` pins how many examples each file runs,
so a change to this test that silently runs nothing fails too. Test ids are ``file:line`` of the
block. Also: every relative link points at a file that exists and every ``#anchor`` at a heading
of that file (GitHub's slugs), and the README stays a front page (at most 300 lines).
"""

from __future__ import annotations

import json
import re
import shlex
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
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
BASE = "http://127.0.0.1:8000"

# Examples run per file (curl, cli and python blocks together).
RUN = {
    "README.md": 2,
    "docs/README.md": 0,
    "docs/api.md": 24,
    "docs/cli.md": 3,
    "docs/design.md": 1,
    "docs/engine.md": 2,
    "docs/operations.md": 0,
    "docs/page.md": 0,
    "docs/word-lists.md": 0,
}
# The blocks left to a person: (file, reason).
EXEMPT = [
    ("README.md", "make run serves until stopped, and make test runs the tests that run this file"),
    ("docs/api.md", "make run serves until stopped"),
    ("docs/api.md", "the answer carries timings"),
    ("docs/api.md", "needs npm and a running service (tests/test_ts_client.py does this)"),
    ("docs/cli.md", "reads the games/ written above"),
    ("docs/cli.md", "writes games/ and prints timings"),
    ("docs/engine.md", "benchmarks, minutes of machine time"),
    ("docs/engine.md", "benchmarks, minutes of machine time"),
    ("docs/engine.md", "about 2.5 hours of one core a game on a quiet machine (4-5 CPU-seconds a pair)"),
    ("docs/engine.md", "hours of self-play (a benchmark, not a test)"),
    ("docs/engine.md", "minutes of self-play (a benchmark, not a test)"),
    ("docs/engine.md", "needs a Kubernetes cluster with KubeRay, or a running Ray cluster"),
    ("docs/operations.md", "a load and fault run of minutes (it starts its own service)"),
    ("docs/operations.md", "needs Docker and a Kubernetes cluster"),
    ("docs/operations.md", "needs root, buildah and debootstrap, and minutes"),
    ("docs/operations.md", "needs a Docker engine"),
    ("docs/operations.md", "needs a running service"),
    ("docs/operations.md", "needs a running service (tests/test_schemathesis.py starts one)"),
    ("docs/operations.md", "needs a running service (and the installed command)"),
    ("docs/operations.md", "needs three running services and wrk"),
    ("docs/word-lists.md", "make run serves until stopped"),
    ("docs/word-lists.md", "writes ~/wordlists and the lexicon cache"),
]
# Languages that must be run or exempt; only sh and python can be run.
EXAMPLE_LANGS = {"sh", "bash", "shell", "console", "python", "py"}

FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.S | re.M)
NOT_RUN = re.compile(r"^# not run: (.+)$", re.M)


@dataclass(frozen=True)
class Block:
    file: str  # relative to the repository
    line: int  # of the opening fence
    lang: str
    body: str  # dedented, as a list item's block is indented


@dataclass(frozen=True)
class Example:
    kind: str  # "curl", "cli", "python" or "not run"
    block: Block
    printed: str  # the answer or output shown; for "not run", the reason


def blocks(path: Path) -> list[Block]:
    text = path.read_text()
    name = path.relative_to(ROOT).as_posix()
    return [
        Block(name, text.count("\n", 0, m.start()) + 1, m.group(2), textwrap.dedent(m.group(3)))
        for m in FENCE.finditer(text)
    ]


def commands(sh: str) -> list[str]:
    """The shell block's commands: comment lines dropped, backslash continuations and newlines
    inside quotes (a multi-line ``-d '{...}'``) joined."""
    found: list[str] = []
    pending = ""
    for line in sh.replace("\\\n", " ").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending = f"{pending}\n{line}" if pending else line
        try:
            shlex.split(pending)
        except ValueError:  # a quote still open: the command goes on
            continue
        found.append(pending.strip())
        pending = ""
    assert not pending, f"unclosed quote in {sh!r}"
    return found


def printed_by(code: str) -> str:
    """The comment lines that end a python block, without their ``# ``: what it prints."""
    lines = code.rstrip("\n").splitlines()
    shown: list[str] = []
    while lines and lines[-1].startswith("#"):
        shown.insert(0, lines.pop()[2:])
    return "\n".join(shown)


def example(block: Block, after: Block | None) -> Example | None:
    """What to do with a block, or None for a block that is no example (or an unrunnable one)."""
    if block.lang not in EXAMPLE_LANGS:
        return None
    if reason := NOT_RUN.search(block.body):
        return Example("not run", block, reason.group(1))
    if block.lang == "python":
        return Example("python", block, printed_by(block.body))
    cmds = commands(block.body) if block.lang == "sh" else []
    if cmds and all(c.startswith(f"curl -s {BASE}") for c in cmds) and after and after.lang == "json":
        return Example("curl", block, after.body)
    if len(cmds) == 1 and cmds[0].startswith(".venv/bin/wordsolver ") and after and after.lang == "":
        return Example("cli", block, after.body)
    return None


def examples(path: Path) -> tuple[list[Example], list[Block]]:
    """The file's examples, and the sh/python blocks that are neither runnable nor exempt."""
    found, stray = [], []
    items = blocks(path)
    for i, block in enumerate(items):
        ex = example(block, items[i + 1] if i + 1 < len(items) else None)
        if ex:
            found.append(ex)
        elif block.lang in EXAMPLE_LANGS:
            stray.append(block)
    return found, stray


ALL = [ex for path in FILES for ex in examples(path)[0]]


def of(kind: str) -> list[Any]:
    return [pytest.param(ex, id=f"{ex.block.file}:{ex.block.line}") for ex in ALL if ex.kind == kind]


def test_every_sh_and_python_block_is_run_or_exempt() -> None:
    stray = [f"{b.file}:{b.line}" for path in FILES for b in examples(path)[1]]
    assert not stray, f"neither run nor marked '# not run: <reason>': {stray}"


def test_each_file_runs_its_examples() -> None:
    run = Counter(ex.block.file for ex in ALL if ex.kind != "not run")
    assert {path.relative_to(ROOT).as_posix(): run[path.relative_to(ROOT).as_posix()] for path in FILES} == RUN


def test_only_the_listed_blocks_are_exempt() -> None:
    assert sorted((ex.block.file, ex.printed) for ex in ALL if ex.kind == "not run") == sorted(EXEMPT)


def test_the_readme_is_a_front_page() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 300


# -- running the examples


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
    url = next(a for a in args if a.startswith(BASE))
    data = args[args.index("-d") + 1] if "-d" in args else None
    path = url.removeprefix(BASE)
    if data is None:
        r = client.get(path)
    else:
        r = client.post(path, content=data, headers={"Content-Type": "application/json"})
    return r.json()


@pytest.mark.parametrize("ex", of("curl"))
def test_curl_example_answers_as_printed(client: TestClient, ex: Example) -> None:
    cmds = commands(ex.block.body)
    for cmd, shown in zip(cmds, split_answers(ex.printed, len(cmds)), strict=True):
        actual = re.sub(r"\s+", "", json.dumps(request(client, cmd), ensure_ascii=False))
        assert pattern(shown).fullmatch(actual), f"{cmd}\nprinted: {shown}\nactual:  {actual[:2000]}"


@pytest.mark.parametrize("ex", of("cli"))
def test_cli_example_prints_as_shown(ex: Example, capsys: pytest.CaptureFixture[str]) -> None:
    args = shlex.split(commands(ex.block.body)[0])[1:]
    assert cli.main(args) == 0
    assert capsys.readouterr().out.rstrip() == ex.printed.rstrip()


@pytest.mark.parametrize("ex", of("python"))
def test_python_example_prints_as_shown(ex: Example, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(ex.block.body, f"{ex.block.file}:{ex.block.line}", "exec"), {"__name__": "__example__"})
    assert capsys.readouterr().out.rstrip("\n") == ex.printed


# -- links


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation other than - and _ dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def prose(path: Path) -> str:
    return FENCE.sub("", path.read_text())


def anchors(path: Path) -> set[str]:
    seen: Counter[str] = Counter()
    found = set()
    for heading in re.findall(r"^#{1,6} +(.+)$", prose(path), re.M):
        s = slug(heading)
        found.add(f"{s}-{seen[s]}" if seen[s] else s)  # GitHub numbers a repeated heading
        seen[s] += 1
    return found


def links(path: Path) -> list[str]:
    text = prose(path)
    return re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_links_point_at_files_and_headings(path: Path) -> None:
    broken = []
    for target in links(path):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        name, _, anchor = target.partition("#")
        dest = (path.parent / name) if name else path
        if not dest.exists() or (anchor and (dest.suffix != ".md" or anchor not in anchors(dest))):
            broken.append(target)
    assert not broken
