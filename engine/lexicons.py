"""Named lexicons: the shipped default list plus users' own ``*.txt`` lists.

A :class:`LexiconStore` maps names to word files and loads each on first use (compiling it
when the disk cache lacks it, see ``engine.lexicon``), then keeps it for the life of the
process. The user directory is read again whenever a name is not known yet, so a list added
while the service runs is found without a restart, and a list whose file changes is loaded
again (the old version answers until the new one is ready).

Two ways to ask for a lexicon:

- :meth:`LexiconStore.get` waits for it (the CLI, the engine's own ``default_lexicon``);
- :meth:`LexiconStore.get_ready` (the service) returns it when it is loaded, loads from the
  cache in a moment, or is a small list (at most ``INLINE_COMPILE_WORDS`` lines) that compiles
  in a moment; otherwise it starts the compile in a background thread and raises
  :class:`~engine.errors.LexiconNotReadyError`, so no request waits for a long compile.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import EngineError, LexiconNotReadyError
from .lexicon import (
    DEFAULT_LIMITS,
    CompileLimits,
    Lexicon,
    cached_word_count,
    default_cache_dir,
    digest_bytes,
    load_word_file,
    read_word_bytes,
    unknown,
)

SHIPPED_DIR = Path(__file__).resolve().parent.parent / "lexicons"
DEFAULT_NAME = "word-list"
PROVENANCE = {
    DEFAULT_NAME: "npm package word-list 4.1.0 (MIT), entries matching ^[a-z]{2,15}$; see lexicons/README.md",
}
CACHE_LOAD_WAIT = 10.0  # seconds get_ready waits for a load that needs no compile, or a small list's compile
# An own list of at most this many lines compiles while its first request waits (well under a
# second with the compiled builder, a few seconds in pure Python; docs/word-lists.md); larger
# lists compile in the background and their requests get 503 not_ready with Retry-After meanwhile.
INLINE_COMPILE_WORDS = 20_000
_INLINE_MAX_BYTES = INLINE_COMPILE_WORDS * 64  # a larger file is not read to count its lines
RECHECK = 1.0  # seconds get_ready trusts a loaded list's file to be unchanged (a change is noticed within this)
RETRY_FAILED = 30  # seconds before a compile that ran out of time is tried again
RETRY_FIRST, RETRY_MAX = 0.5, 4.0  # backoff before a load that failed otherwise (a killed child) is tried again
log = logging.getLogger("wordsolver.lexicon")

FileKey = tuple[int, int]  # (mtime_ns, size): a changed file is loaded again


def _file_key(path: Path) -> FileKey | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


@dataclass
class _Entry:
    """One name's state: what is loaded, what failed, and the load in progress."""

    lex: Lexicon | None = None
    key: FileKey | None = None  # the file version ``lex`` (or ``error``) is of
    error: EngineError | None = None
    retry_at: float = math.inf  # when a failure that may pass (a crashed or slow compile) is tried again
    loading: bool = False
    compiling: bool = False  # the load in progress had to compile (or wait for a compile)
    started: float = 0.0
    failures: int = 0  # failures in a row that may pass (the backoff grows with them)
    checked: float = -math.inf  # when ``lex`` was last seen to be of the file as it is (time.monotonic)
    done: threading.Event = field(default_factory=threading.Event)


class LexiconStore:
    def __init__(
        self,
        user_dir: Path | None = None,
        cache_dir: Path | None = None,
        shipped_dir: Path = SHIPPED_DIR,
        *,
        limits: CompileLimits = DEFAULT_LIMITS,
    ) -> None:
        self.user_dir = user_dir
        self.cache_dir = cache_dir
        self.limits = limits
        self.on_compiled: Callable[[str], None] | None = None  # told "ok" / "refused" / "failed" per compile
        # run on each list loaded, in the loading thread (the service prepares the search there)
        self.on_loaded: Callable[[Lexicon], None] | None = None
        self._shipped = {DEFAULT_NAME: shipped_dir / f"{DEFAULT_NAME}.txt.gz"}
        self.files: dict[str, Path] = {}
        self._entries: dict[str, _Entry] = {}
        self._digests: dict[Path, tuple[FileKey | None, str]] = {}  # word file -> cache key
        self._small: dict[Path, tuple[FileKey | None, bool]] = {}  # word file -> compiles inline
        self._lock = threading.Condition()
        self._keep: set[str] = set()  # names tried again by themselves after a failure that may pass
        self.rescan()

    # ------------------------------------------------------------------------- names

    def rescan(self) -> None:
        """Read the user directory again (the shipped default always comes first)."""
        files = dict(self._shipped)
        if self.user_dir is not None and self.user_dir.is_dir():
            for path in sorted(self.user_dir.glob("*.txt")):
                files.setdefault(path.stem, path)
        self.files = files

    def names(self) -> list[str]:
        self.rescan()
        return list(self.files)

    def path(self, name: str) -> Path:
        """The word file of ``name``; the user directory is read again for a name not seen yet."""
        path = self.files.get(name)
        if path is None:
            self.rescan()
            path = self.files.get(name)
            if path is None:
                raise unknown(name, self.files)
        return path

    def provenance(self, name: str) -> str:
        return PROVENANCE.get(name, f"user word list {self.path(name).name}")

    # ------------------------------------------------------------------------- state

    def loaded(self, name: str) -> bool:
        entry = self._entries.get(name)
        return entry is not None and entry.lex is not None

    def status(self, name: str) -> tuple[str, Lexicon | None]:
        """``("ready" | "loading" | "failed" | "not_loaded", lexicon or None)``; never loads."""
        entry = self._entries.get(name)
        if entry is None:
            return "not_loaded", None
        if entry.lex is not None:
            return "ready", entry.lex
        if entry.loading:
            return "loading", None
        return ("failed" if entry.error is not None else "not_loaded"), None

    def describe(self, name: str) -> tuple[str, int | None]:
        """``(status, word count or None)`` without loading or compiling anything. Status:
        ``ready`` (loaded in this process), ``loading``, ``compiled`` (in the disk cache: loads
        in milliseconds), ``not_compiled``, or ``failed`` (see :meth:`error`)."""
        path = self.path(name)
        state, lex = self.status(name)
        if lex is not None:
            return "ready", lex.word_count
        if state != "not_loaded":
            return state, None
        key = _file_key(path)
        digest = self._digests.get(path)
        if digest is None or digest[0] != key:
            try:
                digest = self._digests[path] = (key, digest_bytes(read_word_bytes(path)))
            except (OSError, EngineError):
                return "failed", None
        count = cached_word_count((self.cache_dir or default_cache_dir()) / f"{digest[1]}.dawg")
        return ("compiled" if count is not None else "not_compiled"), count

    def error(self, name: str) -> EngineError | None:
        entry = self._entries.get(name)
        return entry.error if entry is not None else None

    # ------------------------------------------------------------------------- loading

    def start(self, name: str, keep: bool = False) -> _Entry:
        """Start loading ``name`` in a background thread unless it is loaded and current, or
        loading; returns its entry. Unknown names raise UnknownLexiconError. With ``keep`` (the
        service's default list, which readiness waits for), a load that fails for a reason that
        may pass (the compiling child killed, a compile out of time) is tried again by itself,
        with a backoff of 0.5 s doubling to 4 s, without waiting for a request to ask for it."""
        if keep:
            self._keep.add(name)
        path = self.path(name)
        key = _file_key(path)
        with self._lock:
            entry = self._entries.setdefault(name, _Entry())
            failed = entry.error is not None and time.monotonic() < entry.retry_at
            current = entry.key == key and (entry.lex is not None or failed)
            if current and entry.lex is not None:
                entry.checked = time.monotonic()
            if entry.loading or current:
                return entry
            entry.loading, entry.compiling, entry.started = True, False, time.monotonic()
            entry.done = threading.Event()
        threading.Thread(target=self._load, args=(name, path, key, entry), name=f"lexicon-{name}", daemon=True).start()
        return entry

    def _load(self, name: str, path: Path, key: FileKey | None, entry: _Entry) -> None:
        def compiling() -> None:
            with self._lock:
                entry.compiling = True
                self._lock.notify_all()

        lex: Lexicon | None = None
        error: EngineError | None = None
        retry_at = math.inf  # the list's own faults stay until its file changes
        try:
            lex = load_word_file(path, name, self.cache_dir, limits=self.limits, on_compile=compiling,
                                 on_compiled=self.on_compiled)
            lex.provenance = self.provenance(name) if name in self.files else ""
            if self.on_loaded is not None:
                self.on_loaded(lex)
        except EngineError as exc:
            error = exc
            if "limit_seconds" in exc.details:  # a busy machine may do better later
                retry_at = time.monotonic() + RETRY_FAILED
        except (OSError, ValueError, MemoryError) as exc:  # e.g. the compiling child was killed
            delay = min(RETRY_MAX, RETRY_FIRST * 2 ** min(entry.failures, 16))
            error = LexiconNotReadyError(f"lexicon {name!r} could not be loaded ({exc}); trying again in "
                                         f"{delay:g} s", retry_after=math.ceil(delay), lexicon=name)
            retry_at = time.monotonic() + delay
        if error is not None:
            error.details.setdefault("lexicon", name)
            log.error("lexicon %r not loaded: %s", name, error.message)
        else:
            assert lex is not None
            log.info("lexicon %r ready: %d words (%.2f s)", name, lex.word_count, time.monotonic() - entry.started)
        with self._lock:
            entry.key = key
            if lex is not None:
                entry.lex, entry.error, entry.failures = lex, None, 0
            else:
                entry.error, entry.retry_at = error, retry_at  # a previous version, if any, keeps answering
                entry.failures += 1
            entry.loading = entry.compiling = False
            entry.done.set()
            self._lock.notify_all()
        if lex is None and name in self._keep and retry_at < math.inf:
            timer = threading.Timer(max(0.0, retry_at - time.monotonic()) + 0.01, self._retry, (name,))
            timer.daemon = True
            timer.start()

    def _retry(self, name: str) -> None:
        try:
            self.start(name)
        except EngineError:  # the name is gone (a user list removed): nothing to retry
            pass

    def compiles_inline(self, name: str) -> bool:
        """Whether ``name``'s word file is small enough (at most INLINE_COMPILE_WORDS lines, and
        not gzip-compressed) for its first request to wait for its compile."""
        path = self.path(name)
        key = _file_key(path)
        known = self._small.get(path)
        if known is not None and known[0] == key:
            return known[1]
        small = False
        if key is not None and key[1] <= _INLINE_MAX_BYTES and path.suffix != ".gz":
            try:
                data = path.read_bytes()
                small = data.count(b"\n") + (not data.endswith(b"\n")) <= INLINE_COMPILE_WORDS
            except OSError:
                small = False
        self._small[path] = (key, small)
        return small

    def get_ready(self, name: str | None = None) -> Lexicon:
        """The lexicon if it is loaded, loads from the cache within a moment, or is a small list
        whose compile finishes within a moment (``compiles_inline``); otherwise start loading it
        and raise LexiconNotReadyError (503 with Retry-After in the service). Either wait is
        bounded by CACHE_LOAD_WAIT seconds."""
        key = name or DEFAULT_NAME
        entry = self._entries.get(key)
        if entry is not None and entry.lex is not None and time.monotonic() - entry.checked < RECHECK:
            return entry.lex  # its file was seen unchanged a moment ago: no system call per request
        entry = self.start(key)
        inline = self.compiles_inline(key)
        with self._lock:
            self._lock.wait_for(lambda: not entry.loading or (entry.compiling and not inline) or entry.lex is not None,
                                timeout=CACHE_LOAD_WAIT)
            if entry.lex is not None:
                return entry.lex  # (while a changed file compiles, the old version answers)
            if not entry.loading and entry.error is not None:
                raise entry.error
            waited = time.monotonic() - entry.started
        retry = 1 if waited < 5 else 5
        raise LexiconNotReadyError(
            f"lexicon {key!r} is being compiled ({waited:.0f} s so far); try again in {retry} s",
            retry_after=retry, lexicon=key,
        )

    def get(self, name: str | None = None) -> Lexicon:
        """The lexicon, waiting for it to load (and compile) if need be."""
        key = name or DEFAULT_NAME
        entry = self.start(key)
        entry.done.wait()
        if entry.lex is not None:
            return entry.lex
        assert entry.error is not None
        raise entry.error


_default_store: LexiconStore | None = None


def default_lexicon() -> Lexicon:
    """The shipped default word list, loaded once per process."""
    global _default_store
    if _default_store is None:
        _default_store = LexiconStore()
    return _default_store.get()
