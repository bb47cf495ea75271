"""A word list compiled into a minimal DAWG held in three flat integer arrays.

Why a DAWG and not a GADDAG: the minimal DAWG of the 270k-word default list compiles in a
few seconds of pure Python and is a few MB; a GADDAG is about five times larger and slow to
minimise in Python. The generator (Appel & Jacobson) builds left parts from the rack, which
a DAWG supports directly.

Layout (state ``s``, letters as codes 1..26):

- ``mask[s]``: bit 0 set when ``s`` ends a word; bit ``L`` set when ``s`` has an edge for ``L``.
- ``first[s]``: index in ``child`` of ``s``'s first edge; edges are in letter order, so the
  edge for ``L`` is ``child[first[s] + popcount(mask[s] & ((1 << L) - 2))]``.
- ``child[e]``: the state an edge leads to.

Compiled files are cached on disk under the SHA-256 of the word list's normalised content,
so a list is compiled once per content, whatever its file name.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import sys
from array import array
from collections.abc import Iterable
from pathlib import Path

from .errors import UnknownLexiconError

MAGIC = b"DAWG\x01\x00\x00\x00"
MIN_LEN, MAX_LEN = 2, 15
FORMAT_VERSION = "1"


class Lexicon:
    """A compiled word list. Words are uppercase A-Z, 2 to 15 letters."""

    __slots__ = ("name", "word_count", "digest", "root", "mask", "first", "child", "provenance")

    def __init__(
        self,
        name: str,
        word_count: int,
        digest: str,
        root: int,
        mask: array,
        first: array,
        child: array,
        provenance: str = "",
    ) -> None:
        self.name = name
        self.word_count = word_count
        self.digest = digest
        self.root = root
        self.mask = mask
        self.first = first
        self.child = child
        self.provenance = provenance

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

    def is_word_codes(self, codes: Iterable[int]) -> bool:
        s = self.walk(codes)
        return s >= 0 and bool(self.mask[s] & 1)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii() or not word.isalpha():
            return False
        return self.is_word_codes(ord(ch) - 64 for ch in word.upper())

    def words(self) -> Iterable[str]:
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
        return sum(a.itemsize * len(a) for a in (self.mask, self.first, self.child))


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


def compile_words(words: list[str], name: str = "custom", digest: str = "") -> Lexicon:
    """Build the minimal DAWG of sorted unique uppercase words (Daciuk's incremental method)."""
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
    for w in words:
        p = 0
        limit = min(len(prev), len(w))
        while p < limit and prev[p] == w[p]:
            p += 1
        for i in range(len(path) - 1, p, -1):  # freeze the old word's unshared tail
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

    mask = array("I", bytes(4 * len(finals)))
    first = array("I", bytes(4 * len(finals)))
    child = array("I")
    for sid, (final, edges) in enumerate(zip(finals, edges_of)):
        m = 1 if final else 0
        first[sid] = len(child)
        for code, target in edges:
            m |= 1 << code
            child.append(target)
        mask[sid] = m
    return Lexicon(name, len(words), digest, root, mask, first, child)


def digest_words(words: list[str]) -> str:
    return digest_bytes("\n".join(words).encode())


def digest_bytes(content: bytes) -> str:
    return hashlib.sha256(FORMAT_VERSION.encode() + b"\0" + content).hexdigest()


def save(lex: Lexicon, path: Path) -> None:
    header = array("I", [lex.root, len(lex.mask), len(lex.child), lex.word_count])
    arrays = [header, lex.mask, lex.first, lex.child]
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
    with open(path, "rb") as f:
        if f.read(len(MAGIC)) != MAGIC:
            raise ValueError(f"{path} is not a compiled lexicon")
        header = array("I")
        header.fromfile(f, 4)
        if sys.byteorder != "little":
            header.byteswap()
        root, n_states, n_edges, word_count = header
        arrays = []
        for n in (n_states, n_states, n_edges):
            a = array("I")
            a.fromfile(f, n)
            if sys.byteorder != "little":
                a.byteswap()
            arrays.append(a)
    return Lexicon(name, word_count, digest, root, *arrays)


def read_word_bytes(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wordsolver"


def load_word_file(path: Path, name: str, cache_dir: Path | None = None) -> Lexicon:
    """Compile (or load the cached compilation of) a plain word list, one word per line.

    The cache key is the hash of the file's (decompressed) bytes, so checking the cache costs
    one read and one hash, not a parse.
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
    words = normalise(content.decode("utf-8", errors="replace").splitlines())
    lex = compile_words(words, name, digest)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        save(lex, cached)
    except OSError:
        pass  # a read-only cache only costs a recompile next time
    return lex


def from_words(words: Iterable[str], name: str = "custom") -> Lexicon:
    """Compile an in-memory word collection (tests, small custom lists); not cached."""
    ws = normalise(words)
    return compile_words(ws, name, digest_words(ws))


def unknown(name: str, known: Iterable[str]) -> UnknownLexiconError:
    return UnknownLexiconError(
        f"unknown lexicon {name!r}; lexicons: {', '.join(sorted(known))}", lexicon=name
    )
