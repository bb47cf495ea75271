"""A word list compiled into two automata held in flat integer arrays.

- a minimal **DAWG** of the words (forward), for lookups, cross-checks and Upwords;
- a minimal **GADDAG** (Gordon 1994) of the same words, for the Scrabble-family generator:
  for every word ``w`` and split ``1 <= i <= len(w)`` it holds ``rev(w[:i]) + SEP + w[i:]``
  (no SEP when ``i == len(w)``), so a play is grown from its anchor square leftwards, then
  rightwards, and every step is constrained by the letters already on the board.

Each automaton is three arrays (state ``s``, letters as codes 1..26, SEP = 27):

- ``mask[s]``: bit 0 set when ``s`` ends a word; bit ``L`` set when ``s`` has an edge for ``L``.
- ``first[s]``: index in ``child`` of ``s``'s first edge; edges are in code order, so the
  edge for ``L`` is ``child[first[s] + popcount(mask[s] & ((1 << L) - 2))]``.
- ``child[e]``: the state an edge leads to.

The 270k-word default list gives a 78k-state DAWG and a 591k-state GADDAG (about 10 MB of
arrays); compiling takes about 20 s and 400 MB, so it runs in a child process, once per
list content: compiled files are cached on disk under the SHA-256 of the list's bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from array import array
from collections.abc import Iterable
from pathlib import Path

from .errors import UnknownLexiconError

MAGIC = b"DAWG\x03\x00\x00\x00"
MIN_LEN, MAX_LEN = 2, 15
FORMAT_VERSION = "3"
SEP = 27


class Automaton:
    """One minimal acyclic automaton in flat arrays (see the module docstring)."""

    __slots__ = ("root", "mask", "first", "child", "longest")

    def __init__(self, root: int, mask: array, first: array, child: array, longest: array) -> None:
        self.root = root
        self.mask = mask
        self.first = first
        self.child = child
        self.longest = longest  # letters on the longest path from a state to a word's end

    def step(self, state: int, code: int) -> int:
        """The state after ``code`` from ``state``, or -1 when there is no such edge."""
        m = self.mask[state]
        if not (m >> code) & 1:
            return -1
        return self.child[self.first[state] + (m & ((1 << code) - 2)).bit_count()]

    def walk(self, codes: Iterable[int], state: int | None = None) -> int:
        s = self.root if state is None else state
        for code in codes:
            s = self.step(s, code)
            if s < 0:
                return -1
        return s

    def nbytes(self) -> int:
        return sum(a.itemsize * len(a) for a in (self.mask, self.first, self.child, self.longest))


class Lexicon:
    """A compiled word list. Words are uppercase A-Z, 2 to 15 letters.

    The forward DAWG's arrays are also exposed as ``mask``/``first``/``child``/``root``.
    """

    __slots__ = ("name", "word_count", "digest", "dawg", "gaddag", "provenance",
                 "root", "mask", "first", "child")

    def __init__(self, name: str, word_count: int, digest: str, dawg: Automaton,
                 gaddag: Automaton, provenance: str = "") -> None:
        self.name = name
        self.word_count = word_count
        self.digest = digest
        self.dawg = dawg
        self.gaddag = gaddag
        self.provenance = provenance
        self.root, self.mask, self.first, self.child = dawg.root, dawg.mask, dawg.first, dawg.child

    def step(self, state: int, code: int) -> int:
        return self.dawg.step(state, code)

    def walk(self, codes: Iterable[int], state: int | None = None) -> int:
        return self.dawg.walk(codes, state)

    def is_word_codes(self, codes: Iterable[int]) -> bool:
        s = self.walk(codes)
        return s >= 0 and bool(self.mask[s] & 1)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii() or not word.isalpha():
            return False
        return self.is_word_codes(ord(ch) - 64 for ch in word.upper())

    def words(self) -> list[str]:
        """Every word, in alphabetical order (for tests and export)."""
        stack: list[tuple[int, str]] = [(self.root, "")]
        out: list[str] = []
        while stack:
            s, prefix = stack.pop()
            m = self.mask[s]
            if m & 1:
                out.append(prefix)
            for code in range(26, 0, -1):
                if (m >> code) & 1:
                    stack.append((self.step(s, code), prefix + chr(64 + code)))
        return out

    def nbytes(self) -> int:
        return self.dawg.nbytes() + self.gaddag.nbytes()


def normalise(lines: Iterable[str]) -> list[str]:
    """Uppercase, sorted, unique words of 2..15 letters A-Z; other lines are dropped."""
    words = set()
    for line in lines:
        w = line.strip().upper()
        if MIN_LEN <= len(w) <= MAX_LEN and w.isascii() and w.isalpha():
            words.add(w)
    return sorted(words)


class _Node:
    __slots__ = ("final", "edges")

    def __init__(self) -> None:
        self.final = False
        self.edges: list[list] = []  # [code, child]; child is a state id once frozen


def _minimal_automaton(strings: list[str]) -> Automaton:
    """The minimal automaton of sorted unique strings (Daciuk's incremental method).
    Characters map to codes ``ord(ch) - 64``: A..Z are 1..26 and ``[`` is SEP (27)."""
    register: dict[tuple, int] = {}
    finals: list[bool] = []
    edges_of: list[tuple] = []

    def freeze(node: _Node) -> int:
        sig = (node.final, tuple((c, s) for c, s in node.edges))
        sid = register.get(sig)
        if sid is None:
            sid = register[sig] = len(finals)
            finals.append(node.final)
            edges_of.append(sig[1])
        return sid

    path = [_Node()]
    prev = ""
    for w in strings:
        p = 0
        limit = min(len(prev), len(w))
        while p < limit and prev[p] == w[p]:
            p += 1
        for i in range(len(path) - 1, p, -1):  # freeze the old string's unshared tail
            path[i - 1].edges[-1][1] = freeze(path[i])
        del path[p + 1 :]
        node = path[p]
        for ch in w[p:]:
            nxt = _Node()
            node.edges.append([ord(ch) - 64, nxt])
            path.append(nxt)
            node = nxt
        node.final = True
        prev = w
    for i in range(len(path) - 1, 0, -1):
        path[i - 1].edges[-1][1] = freeze(path[i])
    root = freeze(path[0])
    register.clear()

    mask = array("I", bytes(4 * len(finals)))
    first = array("I", bytes(4 * len(finals)))
    longest = array("I", bytes(4 * len(finals)))
    child = array("I")
    for sid, (final, edges) in enumerate(zip(finals, edges_of, strict=True)):  # children come first
        m = 1 if final else 0
        first[sid] = len(child)
        best = 0
        for code, target in edges:
            m |= 1 << code
            child.append(target)
            best = max(best, longest[target] + (code != SEP))
        mask[sid] = m
        longest[sid] = best
    return Automaton(root, mask, first, child, longest)


def gaddag_strings(words: list[str]) -> list[str]:
    sep = chr(64 + SEP)
    out = []
    for w in words:
        n = len(w)
        for i in range(1, n + 1):
            out.append(w[:i][::-1] + (sep + w[i:] if i < n else ""))
    out.sort()
    return out


def compile_words(words: list[str], name: str = "custom", digest: str = "") -> Lexicon:
    """Build the DAWG and the GADDAG of sorted unique uppercase words."""
    dawg = _minimal_automaton(words)
    gaddag = _minimal_automaton(gaddag_strings(words))
    return Lexicon(name, len(words), digest, dawg, gaddag)


def digest_words(words: list[str]) -> str:
    return digest_bytes("\n".join(words).encode())


def digest_bytes(content: bytes) -> str:
    return hashlib.sha256(FORMAT_VERSION.encode() + b"\0" + content).hexdigest()


def save(lex: Lexicon, path: Path) -> None:
    arrays = [array("I", [lex.word_count])]
    for auto in (lex.dawg, lex.gaddag):
        arrays += [array("I", [auto.root, len(auto.mask), len(auto.child)]),
                   auto.mask, auto.first, auto.child, auto.longest]
    if sys.byteorder != "little":
        arrays = [array("I", a) for a in arrays]
        for a in arrays:
            a.byteswap()
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(MAGIC)
        for a in arrays:
            a.tofile(f)
    os.replace(tmp, path)  # atomic: concurrent workers never read half a file


def load(path: Path, name: str, digest: str) -> Lexicon:
    def read(f, n: int) -> array:  # type: ignore[no-untyped-def]
        a = array("I")
        a.fromfile(f, n)
        if sys.byteorder != "little":
            a.byteswap()
        return a

    with open(path, "rb") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise ValueError(f"{path} is not a compiled lexicon")
        (word_count,) = read(f, 1)
        autos = []
        for _ in range(2):
            root, n_states, n_edges = read(f, 3)
            autos.append(Automaton(root, read(f, n_states), read(f, n_states), read(f, n_edges),
                                   read(f, n_states)))
    return Lexicon(name, word_count, digest, autos[0], autos[1])


def read_word_bytes(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wordsolver"


def compile_file(path: Path, cached: Path) -> None:
    """Compile a word file into ``cached`` (what the child process runs)."""
    content = read_word_bytes(path)
    words = normalise(content.decode("utf-8", errors="replace").splitlines())
    save(compile_words(words, "", digest_bytes(content)), cached)


def load_word_file(path: Path, name: str, cache_dir: Path | None = None) -> Lexicon:
    """Compile (or load the cached compilation of) a plain word list, one word per line.

    The cache key is the hash of the file's (decompressed) bytes, so checking the cache costs
    one read and one hash, not a parse. A miss compiles in a child process, so the memory the
    compilation needs is returned to the system before the caller goes on serving.
    """
    content = read_word_bytes(path)
    digest = digest_bytes(content)
    cache = cache_dir or default_cache_dir()
    cached = cache / f"{digest}.dawg"
    if cached.exists():
        try:
            return load(cached, name, digest)
        except (OSError, ValueError, EOFError):
            pass  # a damaged cache file is rebuilt below
    try:
        cache.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH")]))
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from engine.lexicon import compile_file as c; "
             "from pathlib import Path as P; c(P(sys.argv[1]), P(sys.argv[2]))", str(path), str(cached)],
            env=env, check=False,
        )
        if done.returncode == 0:
            return load(cached, name, digest)
    except OSError:
        pass  # no writable cache or no child process: compile here
    words = normalise(content.decode("utf-8", errors="replace").splitlines())
    return compile_words(words, name, digest)


def from_words(words: Iterable[str], name: str = "custom") -> Lexicon:
    """Compile an in-memory word collection (tests, small custom lists); not cached."""
    ws = normalise(words)
    return compile_words(ws, name, digest_words(ws))


def unknown(name: str, known: Iterable[str]) -> UnknownLexiconError:
    return UnknownLexiconError(
        f"unknown lexicon {name!r}; lexicons: {', '.join(sorted(known))}", lexicon=name
    )
