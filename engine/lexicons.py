"""Named lexicons: the shipped default list plus users' own ``*.txt`` lists.

A :class:`LexiconStore` maps names to word files and compiles each on first use (cached on
disk by content hash, see ``engine.lexicon``), then keeps it for the life of the process.
"""

from __future__ import annotations

import threading
from pathlib import Path

from .lexicon import Lexicon, load_word_file, unknown

SHIPPED_DIR = Path(__file__).resolve().parent.parent / "lexicons"
DEFAULT_NAME = "word-list"
PROVENANCE = {
    DEFAULT_NAME: "npm package word-list 4.1.0 (MIT), entries matching ^[a-z]{2,15}$; see lexicons/README.md",
}


class LexiconStore:
    def __init__(
        self,
        user_dir: Path | None = None,
        cache_dir: Path | None = None,
        shipped_dir: Path = SHIPPED_DIR,
    ) -> None:
        self.cache_dir = cache_dir
        self.files: dict[str, Path] = {DEFAULT_NAME: shipped_dir / f"{DEFAULT_NAME}.txt.gz"}
        if user_dir is not None and user_dir.is_dir():
            for path in sorted(user_dir.glob("*.txt")):
                self.files.setdefault(path.stem, path)
        self._loaded: dict[str, Lexicon] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        return list(self.files)

    def provenance(self, name: str) -> str:
        return PROVENANCE.get(name, f"user word list {self.files[name].name}")

    def loaded(self, name: str) -> bool:
        return name in self._loaded

    def get(self, name: str | None = None) -> Lexicon:
        key = name or DEFAULT_NAME
        lex = self._loaded.get(key)
        if lex is not None:
            return lex
        if key not in self.files:
            raise unknown(key, self.files)
        with self._lock:
            lex = self._loaded.get(key)
            if lex is None:
                lex = load_word_file(self.files[key], key, self.cache_dir)
                lex.provenance = self.provenance(key)
                self._loaded[key] = lex
        return lex


_default_store: LexiconStore | None = None


def default_lexicon() -> Lexicon:
    """The shipped default word list, loaded once per process."""
    global _default_store
    if _default_store is None:
        _default_store = LexiconStore()
    return _default_store.get()
