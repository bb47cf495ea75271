"""Compiling the default word list: the C builder against the pure-Python one, side by side.

    python bench/compile.py               # C builder, whole compile (child process), cached load
    python bench/compile.py --pure 1      # also the pure-Python builder once (10-40 s)
    python bench/compile.py --repeat 9

Reports medians with the spread (min-max) of --repeat runs; never asserts. "build" is the
automata alone (normalised words in memory); "compile" is what the service runs on a cache
miss (a child process reading the file, building, writing the checked file) plus the load;
"load" is a cache hit (read, checksum, arrays).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import lexicon  # noqa: E402
from engine.lexicons import SHIPPED_DIR  # noqa: E402

WORDS = SHIPPED_DIR / "word-list.txt.gz"


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def show(label: str, times: list[float]) -> float:
    med = statistics.median(times)
    print(f"{label:<34} {med:8.3f} s   ({min(times):.3f}-{max(times):.3f}, n={len(times)})")
    return med


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pure", type=int, default=0, help="runs of the pure-Python builder (slow)")
    args = parser.parse_args()
    words = lexicon.normalise(gzip.decompress(WORDS.read_bytes()).decode().splitlines())
    print(f"{len(words)} words; C builder {'built' if lexicon._fastlex is not None else 'NOT built'}")
    native = None
    if lexicon._fastlex is not None:
        native = show("build, C", timed(lambda: lexicon.compile_words(words, native=True), args.repeat))
    if args.pure:
        pure = show("build, pure Python", timed(lambda: lexicon.compile_words(words, native=False), args.pure))
        if native:
            print(f"{'ratio pure / C':<34} {pure / native:8.1f}x")
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for i in range(args.repeat):
            cache = Path(tmp) / str(i)
            start = time.perf_counter()
            lexicon.load_word_file(WORDS, "word-list", cache)
            runs.append(time.perf_counter() - start)
        show("compile (child process) + load", runs)
        show("load from the cache", timed(lambda: lexicon.load_word_file(WORDS, "word-list", cache), args.repeat))


if __name__ == "__main__":
    main()
