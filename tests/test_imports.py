"""No import cycles in ``engine`` or ``app``.

Every import counts, wherever it stands: at the top of a module, inside a function (a lazy
import is how a cycle usually hides) or under ``TYPE_CHECKING``. A module's edges go to the
project modules it names; ``from package import name`` goes to the submodule when ``name`` is
one, else to the package itself (its ``__init__``). Importing a submodule also runs its
package's ``__init__``, but that edge is Python's, not the code's, and is not counted. The
compiled extensions (``engine/_fastgen.c``, ``engine/_fastlex.c``) import nothing of ours.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "app")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                full = f"{base}.{a.name}"
                out.add(full if full in known else base)
    return (out & known) - {name}


def graph() -> dict[str, set[str]]:
    mods = project_modules()
    compiled = {module_name(p) for pkg in PACKAGES for p in (ROOT / pkg).rglob("_*.c")}  # extensions: leaves
    known = set(mods) | compiled
    return {name: imports(name, path, known) for name, path in mods.items()} | {name: set() for name in compiled}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_checker_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_checker_reads_relative_and_lazy_imports(tmp_path: Path) -> None:
    edges = graph()
    assert "engine.rules" in edges["engine.board"]  # from .rules import ...
    assert "engine" in edges["app.deps"]  # from engine import ... (the package's __init__)


def test_no_import_cycles() -> None:
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_only_the_seam_imports_the_implementations() -> None:
    """Callers ask engine.search; none of them picks or names a generator (engine/search/*
    itself excepted: the seam and the implementations' shared ranking)."""
    private = {"engine.search.compiled", "engine.search.reference", "engine._fastgen"}
    offenders = {m: sorted(e & private) for m, e in graph().items() if e & private and not m.startswith("engine.search")}
    assert not offenders, offenders
