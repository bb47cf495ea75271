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
arrays). The optional C builder (``engine/_fastlex.c``) builds both in about 0.6 s; the
pure-Python builder here makes identical arrays in 8-30 s. A word file is compiled once per
content and machine, in a child process (its memory goes back to the system), under a
lock file so concurrent workers do not compile it twice; the result is cached on disk under
the SHA-256 of the list's bytes, with a checksum that is verified at every load.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .errors import EngineError, LexiconTooLargeError, UnknownLexiconError, WordFileError

try:
    from . import _fastlex  # type: ignore[attr-defined]
except ImportError:  # not built: the pure-Python builder is used
    _fastlex = None

MAGIC = b"DAWG\x04\x00\x00\x00"
MIN_LEN, MAX_LEN = 2, 15
FORMAT_VERSION = "4"
SEP = 27
MAX_WORDS = 1_000_000  # default limit on a list's size (WORDSOLVER_MAX_LEXICON_WORDS)
PROGRESS_EVERY = 5.0  # seconds between "still compiling" log lines
log = logging.getLogger("wordsolver.lexicon")


def native_available() -> bool:
    """Whether the C builder is built and not switched off by ``WORDSOLVER_PURE_PYTHON``."""
    return _fastlex is not None and not os.environ.get("WORDSOLVER_PURE_PYTHON")


class Automaton:
    """One minimal acyclic automaton in flat arrays (see the module docstring)."""

    __slots__ = ("root", "mask", "first", "child", "longest", "__weakref__")  # weak: the search's packed copies

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
        mask, first, child = self.mask, self.first, self.child  # Automaton.step, inlined: boards check every word
        s = self.root
        for code in codes:
            m = mask[s]
            if not (m >> code) & 1:
                return False
            s = child[first[s] + (m & ((1 << code) - 2)).bit_count()]
        return bool(mask[s] & 1)

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


def _minimal_automaton(strings: list[str]) -> Automaton:
    """The minimal automaton of sorted unique strings (Daciuk's incremental method).
    Characters map to codes ``ord(ch) - 64``: A..Z are 1..26 and ``[`` is SEP (27).

    The open path (the last string's states not yet frozen) is kept as per-depth lists of edge
    codes and targets; a state is frozen, children first, when no later string can add to it,
    and written to the arrays at once under the next id unless an equal state exists. The C
    builder (engine/_fastlex.c) does exactly this, so both give identical arrays."""
    register: dict[tuple[int, ...], int] = {}
    mask, first, child, longest = array("I"), array("I"), array("I"), array("I")
    codes: list[list[int]] = [[]]  # codes[d]: edge letters of the open state at depth d
    kids: list[list[int]] = [[]]  # kids[d]: their targets (the last one is still open)
    final = [False]

    def freeze(d: int) -> int:
        cs, ks = codes[d], kids[d]
        key = (final[d], *cs, *ks)
        sid = register.get(key)
        if sid is None:
            sid = register[key] = len(mask)
            m = 1 if final[d] else 0
            best = 0
            for code, target in zip(cs, ks, strict=True):
                m |= 1 << code
                best = max(best, longest[target] + (code != SEP))
            mask.append(m)
            first.append(len(child))
            longest.append(best)
            child.extend(ks)
        return sid

    prev = ""
    for w in strings:
        p = 0
        limit = min(len(prev), len(w))
        while p < limit and prev[p] == w[p]:
            p += 1
        for d in range(len(prev), p, -1):  # freeze the old string's unshared tail
            kids[d - 1][-1] = freeze(d)
        del codes[p + 1 :], kids[p + 1 :], final[p + 1 :]
        for ch in w[p:]:
            codes[-1].append(ord(ch) - 64)
            kids[-1].append(0)
            codes.append([])
            kids.append([])
            final.append(False)
        final[-1] = True
        prev = w
    for d in range(len(prev), 0, -1):
        kids[d - 1][-1] = freeze(d)
    root = freeze(0)
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


def _native_automaton(words: list[str], gaddag: bool) -> Automaton:
    assert _fastlex is not None
    root, *buffers = _fastlex.build("\n".join(words).encode("ascii"), gaddag)
    arrays = []
    for buf in buffers:
        a = array("I")
        a.frombytes(buf)
        arrays.append(a)
    mask, first, child, longest = arrays
    return Automaton(root, mask, first, child, longest)


def compile_words(words: list[str], name: str = "custom", digest: str = "", native: bool | None = None) -> Lexicon:
    """Build the DAWG and the GADDAG of sorted unique uppercase words, with the C builder when
    it is available (``native=None``) or as asked; both builders give identical arrays."""
    if native is None:
        native = native_available()
    if native:
        dawg, gaddag = _native_automaton(words, False), _native_automaton(words, True)
    else:
        dawg, gaddag = _minimal_automaton(words), _minimal_automaton(gaddag_strings(words))
    return Lexicon(name, len(words), digest, dawg, gaddag)


def digest_words(words: list[str]) -> str:
    return digest_bytes("\n".join(words).encode())


def digest_bytes(content: bytes) -> str:
    return hashlib.sha256(FORMAT_VERSION.encode() + b"\0" + content).hexdigest()


# ----------------------------------------------------------------------------- compiled files
#
# MAGIC, then uint32 little-endian: word_count, and per automaton (DAWG, GADDAG) root,
# n_states, n_edges, mask[n_states], first[n_states], child[n_edges], longest[n_states];
# then the SHA-256 of everything before it (32 bytes).


class DamagedFileError(ValueError):
    """A compiled file that is truncated, of another format, or fails its checksum."""


def dumps(lex: Lexicon) -> bytes:
    """The compiled file's bytes (format above, checksum last)."""
    arrays = [array("I", [lex.word_count])]
    for auto in (lex.dawg, lex.gaddag):
        arrays += [array("I", [auto.root, len(auto.mask), len(auto.child)]),
                   auto.mask, auto.first, auto.child, auto.longest]
    if sys.byteorder != "little":
        arrays = [array("I", a) for a in arrays]
        for a in arrays:
            a.byteswap()
    body = MAGIC + b"".join(a.tobytes() for a in arrays)
    return body + hashlib.sha256(body).digest()


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` to ``path`` through a temporary file renamed into place (concurrent workers
    never read half a file); on any failure (a full or read-only disk) the temporary file is
    removed, so no partial file is left behind."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def save(lex: Lexicon, path: Path) -> None:
    write_atomic(path, dumps(lex))


def load(path: Path, name: str, digest: str) -> Lexicon:
    """Read a compiled file; :class:`DamagedFileError` unless every byte checks out."""
    return loads(path.read_bytes(), name, digest, str(path))


def loads(data: bytes, name: str, digest: str, path: str = "the compiled lexicon") -> Lexicon:
    """A compiled file's bytes as a lexicon; :class:`DamagedFileError` unless every byte checks out."""
    if len(data) < len(MAGIC) + 4 + 32 or data[: len(MAGIC)] != MAGIC:
        raise DamagedFileError(f"{path} is not a compiled lexicon of format {FORMAT_VERSION}")
    body, checksum = memoryview(data)[:-32], data[-32:]
    if hashlib.sha256(body).digest() != checksum:
        raise DamagedFileError(f"{path} fails its checksum")
    pos = len(MAGIC)

    def read(n: int) -> array:
        nonlocal pos
        if pos + 4 * n > len(body):
            raise DamagedFileError(f"{path} is truncated")
        a = array("I")
        a.frombytes(body[pos : pos + 4 * n])
        pos += 4 * n
        if sys.byteorder != "little":
            a.byteswap()
        return a

    (word_count,) = read(1)
    autos = []
    for _ in range(2):
        root, n_states, n_edges = read(3)
        autos.append(Automaton(root, read(n_states), read(n_states), read(n_edges), read(n_states)))
    if pos != len(body):
        raise DamagedFileError(f"{path} has {len(body) - pos} bytes too many")
    return Lexicon(name, word_count, digest, autos[0], autos[1])


# ----------------------------------------------------------------------------- word files


def read_word_bytes(path: Path) -> bytes:
    raw = path.read_bytes()
    if path.suffix != ".gz":
        return raw
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError) as exc:
        raise WordFileError(f"{path.name} is not a readable gzip file: {exc}", file=path.name) from None


def decode_words(content: bytes, source: str = "the word list") -> list[str]:
    """The lines of a word file: UTF-8 with or without a BOM, any line ends. Binary data and
    other encodings are refused with the line they are on, rather than read as garbage."""
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise WordFileError(f"{source} is UTF-16; save it as UTF-8 (one word per line)", file=source, line=1)
    nul = content.find(b"\0")
    if nul >= 0:
        line = content.count(b"\n", 0, nul) + 1
        raise WordFileError(f"{source} is binary, not text (a NUL byte on line {line})", file=source, line=line)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        byte = content[exc.start]
        raise WordFileError(f"{source} is not UTF-8: byte 0x{byte:02x} on line {line}", file=source, line=line) from None
    return text.splitlines()


def words_of(content: bytes, source: str, max_words: int = MAX_WORDS) -> list[str]:
    """The normalised words of a word file's bytes, refused above ``max_words``."""
    words = normalise(decode_words(content, source))
    if not words:  # an empty list would silently answer every request with no plays
        raise WordFileError(f"{source} has no words (one word of 2-15 letters A-Z per line)", file=source, line=1)
    if len(words) > max_words:
        raise too_many_words(source, len(words), max_words)
    return words


def too_many_words(source: str, count: int, limit: int) -> LexiconTooLargeError:
    return LexiconTooLargeError(
        f"{source} has {count} words; the limit is {limit} (setting WORDSOLVER_MAX_LEXICON_WORDS)",
        file=source, words=count, limit=limit,
    )


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wordsolver"


def cache_writable(cache: Path) -> bool:
    """Whether compiled lexicons can be written to ``cache`` (creating it if needed)."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cache, prefix=".probe-"):
            pass
        return True
    except OSError:
        return False


def cached_word_count(cached: Path) -> int | None:
    """The word count in a compiled file's header (not verified), or None without the file."""
    try:
        with open(cached, "rb") as f:
            head = f.read(len(MAGIC) + 4)
    except OSError:
        return None
    if len(head) < len(MAGIC) + 4 or head[: len(MAGIC)] != MAGIC:
        return None
    return int.from_bytes(head[len(MAGIC) :], "little")


def compile_file(path: Path, cached: Path, max_words: int = MAX_WORDS) -> int:
    """Compile a word file into ``cached``; the word count."""
    content = read_word_bytes(path)
    words = words_of(content, path.name, max_words)
    save(compile_words(words, "", digest_bytes(content)), cached)
    return len(words)


def compile_bytes(path: Path, max_words: int = MAX_WORDS) -> bytes:
    """Compile a word file into the compiled file's bytes (what the child process runs)."""
    content = read_word_bytes(path)
    return dumps(compile_words(words_of(content, path.name, max_words), "", digest_bytes(content)))


@dataclass(frozen=True)
class CompileLimits:
    """What one compile may use: words in the list, seconds, and memory of the child process
    (MB of address space; 0 for no limit). Each refusal names its setting."""

    max_words: int = MAX_WORDS
    seconds: float | None = None
    memory_mb: int = 0


DEFAULT_LIMITS: CompileLimits = CompileLimits()


def _child_main(argv: list[str]) -> int:
    """The child's entry point, argv ``WORDS - MAX_WORDS MEMORY_MB``: compile and write the
    compiled file's bytes to standard output (the parent keeps them in memory and caches them
    if it can: a full or read-only cache disk still gets its lexicon), or print the error as
    JSON (exit status 3)."""
    path, memory_mb = Path(argv[0]), int(argv[3])
    try:
        if memory_mb:
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        try:
            data = compile_bytes(path, int(argv[2]))
        except MemoryError:
            raise LexiconTooLargeError(
                f"{path.name} needs more than {memory_mb} MB to compile (setting WORDSOLVER_MAX_COMPILE_MB)",
                file=path.name, limit_mb=memory_mb,
            ) from None
    except EngineError as exc:
        print(json.dumps({"type": type(exc).__name__, "message": exc.message, "details": exc.details}))
        return 3
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()
    return 0


_ERRORS: dict[str, type[EngineError]] = {"LexiconTooLargeError": LexiconTooLargeError, "WordFileError": WordFileError}


@contextmanager
def _compile_lock(lock_path: Path, on_wait: Callable[[], None]) -> Iterator[None]:
    """An exclusive lock on ``lock_path`` across processes (flock; released if the holder dies)."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): every process compiles for itself
        yield
        return
    with open(lock_path, "a+b") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait()
            fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def _try_load(cached: Path, name: str, digest: str) -> Lexicon | None:
    if not cached.exists():
        return None
    try:
        return load(cached, name, digest)
    except (OSError, ValueError, EOFError) as exc:
        log.warning("compiled lexicon %s for %r is damaged (%s): removing it and compiling again", cached, name, exc)
        try:
            cached.unlink()
        except OSError:
            pass
        return None


def _compile_in_child(path: Path, limits: CompileLimits) -> bytes:
    """The compiled file's bytes, from a child process (its memory goes back to the system)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    # Ctrl-C at the service's terminal reaches the child too: it ends quietly, and so does the
    # service's own shutdown.
    child = subprocess.Popen(
        [sys.executable, "-c", "import signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
         "from engine.lexicon import _child_main as m; sys.exit(m(sys.argv[1:]))",
         str(path), "-", str(limits.max_words), str(limits.memory_mb)],
        env=env, stdout=subprocess.PIPE,
    )
    start = time.monotonic()
    with child:
        while True:
            left = None if limits.seconds is None else limits.seconds - (time.monotonic() - start)
            try:
                out, _ = child.communicate(timeout=PROGRESS_EVERY if left is None else max(0.0, min(PROGRESS_EVERY, left)))
                break
            except subprocess.TimeoutExpired:
                elapsed = time.monotonic() - start
                if limits.seconds is not None and elapsed >= limits.seconds:
                    child.kill()
                    child.communicate()
                    raise LexiconTooLargeError(
                        f"{path.name} did not compile within {limits.seconds:g} s (setting WORDSOLVER_MAX_COMPILE_SECONDS)",
                        file=path.name, limit_seconds=limits.seconds,
                    ) from None
                log.info("still compiling %s (%.0f s so far)", path.name, elapsed)
    done = subprocess.CompletedProcess(child.args, child.returncode, out)
    if done.returncode == 3:
        err = json.loads(done.stdout)
        raise _ERRORS.get(err["type"], WordFileError)(err["message"], **err["details"])
    if done.returncode != 0:
        raise OSError(f"compiling {path.name} failed (exit status {done.returncode})")
    return bytes(done.stdout)


def load_word_file(
    path: Path,
    name: str,
    cache_dir: Path | None = None,
    *,
    limits: CompileLimits = DEFAULT_LIMITS,
    on_compile: Callable[[], None] | None = None,
    on_compiled: Callable[[str], None] | None = None,
) -> Lexicon:
    """Load the cached compilation of a plain word list (one word per line), compiling it first
    when the cache lacks it.

    The cache key is the hash of the file's (decompressed) bytes, so checking the cache costs
    one read and one hash, not a parse. A miss compiles in a child process, under a lock file
    so that one process per machine compiles a given list while the others wait for its file;
    ``on_compile`` is called before compiling or waiting (the caller may report "not ready"),
    ``on_compiled`` after this process compiled, with ``"ok"``, ``"refused"`` (a limit or a bad
    file) or ``"failed"`` (e.g. the child was killed): what a metric counts.
    A damaged cached file is logged, removed and compiled again. ``limits`` bound the compile.
    """
    content = read_word_bytes(path)
    digest = digest_bytes(content)
    cache = cache_dir or default_cache_dir()
    cached = cache / f"{digest}.dawg"
    lex = _try_load(cached, name, digest)
    if lex is None:
        if on_compile is not None:
            on_compile()
        if cache_writable(cache):
            refused = cache / f"{digest}.refused.json"
            with _compile_lock(cache / f"{digest}.lock", lambda: log.info("waiting for another process compiling %r", name)):
                lex = _try_load(cached, name, digest)  # the process we waited for compiled it
                if lex is None:
                    _raise_refusal(refused, limits)  # ... or refused it under the same limits
                    try:
                        lex = _compile_and_load(path, cached, name, digest, limits, on_compiled)
                    except (LexiconTooLargeError, WordFileError) as exc:
                        if "limit_seconds" not in exc.details:  # a slow machine may do better next time
                            _record_refusal(refused, limits, exc)
                        raise
        else:  # a read-only cache: compiled into memory, every start again
            lex = _compile_and_load(path, None, name, digest, limits, on_compiled)
    if lex.word_count > limits.max_words:  # compiled under a higher limit
        raise too_many_words(path.name, lex.word_count, limits.max_words)
    return lex


def _record_refusal(refused: Path, limits: CompileLimits, exc: EngineError) -> None:
    """Remember why a list was refused, so other workers do not compile it again to learn it."""
    record = {"limits": [limits.max_words, limits.seconds, limits.memory_mb],
              "type": type(exc).__name__, "message": exc.message, "details": exc.details}
    try:
        write_atomic(refused, json.dumps(record).encode())
    except OSError:
        pass


def _raise_refusal(refused: Path, limits: CompileLimits) -> None:
    """Raise the recorded refusal of this list's content if it was made under the same limits."""
    try:
        record = json.loads(refused.read_text())
    except (OSError, ValueError):
        return
    if record.get("limits") == [limits.max_words, limits.seconds, limits.memory_mb]:
        raise _ERRORS.get(record["type"], WordFileError)(record["message"], **record["details"])


def _compile_and_load(path: Path, cached: Path | None, name: str, digest: str, limits: CompileLimits,
                      on_compiled: Callable[[str], None] | None = None) -> Lexicon:
    """Compile in a child process, load the result from memory, then write it to ``cached``
    if that is possible: a cache that is full or read-only costs a compile at every start (a
    warning says so), never the lexicon, and leaves no partial file."""
    log.info("compiling lexicon %r from %s", name, path.name)
    start = time.monotonic()
    result = "failed"
    try:
        data = _compile_in_child(path, limits)
        lex = loads(data, name, digest, f"the compiled {path.name}")
        result = "ok"
        if cached is not None:
            try:
                write_atomic(cached, data)
            except OSError as exc:
                log.warning("could not write the compiled lexicon %r to the cache (%s): it is kept in memory, "
                            "and compiled again at the next start", name, exc)
    except EngineError:
        result = "refused"
        raise
    finally:
        if on_compiled is not None:
            on_compiled(result)
    log.info("compiled %d words in %.1f s (lexicon %r)", lex.word_count, time.monotonic() - start, name)
    return lex


def from_words(words: Iterable[str], name: str = "custom") -> Lexicon:
    """Compile an in-memory word collection (tests, small custom lists); not cached."""
    ws = normalise(words)
    return compile_words(ws, name, digest_words(ws))


def unknown(name: str, known: Iterable[str]) -> UnknownLexiconError:
    return UnknownLexiconError(
        f"unknown lexicon {name!r}; lexicons: {', '.join(sorted(known))}", lexicon=name
    )
