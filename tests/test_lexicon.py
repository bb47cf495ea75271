"""Compiling and loading word lists: the C builder against the pure-Python one, the compiled
file's checksum, word-file decoding, the size limit, and one compile per list per machine."""

from __future__ import annotations

import logging
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import LexiconTooLargeError, WordFileError, lexicon
from engine.lexicon import CompileLimits, compile_words, decode_words, load, load_word_file, normalise, save

ROOT = Path(__file__).resolve().parent.parent
needs_native = pytest.mark.skipif(lexicon._fastlex is None, reason="engine._fastlex is not built")
WORD = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=15)


def arrays(lex: lexicon.Lexicon) -> list[object]:
    return [(a.root, a.mask, a.first, a.child, a.longest) for a in (lex.dawg, lex.gaddag)]


@needs_native
@settings(max_examples=60, deadline=None)
@given(st.lists(WORD, max_size=60))
def test_native_and_python_builders_make_identical_arrays(words: list[str]) -> None:
    ws = normalise(words)
    fast, slow = compile_words(ws, native=True), compile_words(ws, native=False)
    assert arrays(fast) == arrays(slow)
    assert fast.words() == slow.words() == ws


@needs_native
def test_native_builder_on_a_large_random_list_matches_python(tmp_path: Path) -> None:
    rng = random.Random(7)
    alphabet = "AEIOUSTRNLBCDGKMPQXZ"  # few letters: long shared prefixes and suffixes
    ws = normalise("".join(rng.choice(alphabet) for _ in range(rng.randint(2, 15))) for _ in range(4000))
    fast, slow = compile_words(ws, native=True), compile_words(ws, native=False)
    assert arrays(fast) == arrays(slow)
    save(fast, tmp_path / "fast.dawg")
    save(slow, tmp_path / "slow.dawg")
    assert (tmp_path / "fast.dawg").read_bytes() == (tmp_path / "slow.dawg").read_bytes()


@needs_native
def test_native_builder_refuses_unsorted_or_bad_input() -> None:
    with pytest.raises(ValueError, match="sorted"):
        lexicon._native_automaton(["ZA", "QI"], False)
    with pytest.raises(ValueError, match="A-Z"):
        lexicon._native_automaton(["Qi"], True)


def test_compiled_file_round_trips(tmp_path: Path) -> None:
    lex = compile_words(normalise(["qi", "za", "qat", "zax"]))
    save(lex, tmp_path / "x.dawg")
    back = load(tmp_path / "x.dawg", "x", "d")
    assert arrays(back) == arrays(lex) and back.word_count == 4 and back.words() == ["QAT", "QI", "ZA", "ZAX"]


def test_a_damaged_compiled_file_is_detected_logged_and_rebuilt(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    words = tmp_path / "mine.txt"
    words.write_text("QI\nZA\nQAT\n")
    cache = tmp_path / "cache"
    load_word_file(words, "mine", cache)
    (cached,) = cache.glob("*.dawg")
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0x40  # same size, one bit changed
    cached.write_bytes(bytes(data))
    with pytest.raises(lexicon.DamagedFileError, match="checksum"):
        load(cached, "mine", "")
    with caplog.at_level(logging.WARNING, logger="wordsolver"):
        lex = load_word_file(words, "mine", cache)
    assert lex.words() == ["QAT", "QI", "ZA"]
    assert "damaged" in caplog.text
    load(cached, "mine", "")  # rebuilt: verifies again


def test_truncated_or_foreign_compiled_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.dawg"
    save(compile_words(["QI", "ZA"]), path)
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(lexicon.DamagedFileError):
        load(path, "x", "")
    path.write_bytes(b"DAWG\x03\x00\x00\x00" + bytes(100))
    with pytest.raises(lexicon.DamagedFileError, match="format"):
        load(path, "x", "")


# ----------------------------------------------------------------------------- word files


def test_utf8_bom_and_crlf_read_every_word() -> None:
    assert normalise(decode_words(b"\xef\xbb\xbfQI\r\nZA\r\nqat\r\n")) == ["QAT", "QI", "ZA"]


@pytest.mark.parametrize(
    "content, line, fragment",
    [
        (b"QI\nZA\nQ\x00AT\n", 3, "binary"),
        ("QI\nZA\n".encode("utf-16"), 1, "UTF-16"),
        (b"QI\nZA\nCAF\xe9\n", 3, "not UTF-8: byte 0xe9 on line 3"),
    ],
)
def test_binary_and_undecodable_files_are_refused_with_the_line(content: bytes, line: int, fragment: str) -> None:
    with pytest.raises(WordFileError, match=fragment) as info:
        decode_words(content, "mine.txt")
    assert info.value.details["line"] == line and "mine.txt" in info.value.message


def test_a_bad_word_file_is_reported_from_the_compiling_child(tmp_path: Path) -> None:
    words = tmp_path / "bad.txt"
    words.write_bytes(b"QI\n\xff\xfeZA\n")
    with pytest.raises(WordFileError, match="line 2") as info:
        load_word_file(words, "bad", tmp_path / "cache")
    assert info.value.details["line"] == 2


def test_a_list_over_the_word_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    words = tmp_path / "big.txt"
    words.write_text("QI\nZA\nQAT\nZAX\nAX\n")
    with pytest.raises(LexiconTooLargeError, match="limit is 4") as info:
        load_word_file(words, "big", tmp_path / "cache", limits=CompileLimits(max_words=4))
    assert info.value.details["limit"] == 4 and info.value.details["words"] == 5
    assert "WORDSOLVER_MAX_LEXICON_WORDS" in info.value.message
    assert load_word_file(words, "big", tmp_path / "cache", limits=CompileLimits(max_words=5)).word_count == 5
    with pytest.raises(LexiconTooLargeError):  # a cached compile is also held to the limit
        load_word_file(words, "big", tmp_path / "cache", limits=CompileLimits(max_words=4))


def test_an_unwritable_cache_still_compiles(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    words = tmp_path / "mine.txt"
    words.write_text("QI\nZA\n")
    assert not lexicon.cache_writable(blocker / "cache")
    assert load_word_file(words, "mine", blocker / "cache").words() == ["QI", "ZA"]


def test_concurrent_processes_compile_a_list_once(tmp_path: Path) -> None:
    rng = random.Random(3)
    words = tmp_path / "mine.txt"
    words.write_text("\n".join("".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in range(rng.randint(2, 15)))
                               for _ in range(30000)))
    script = (
        "import logging, sys; from pathlib import Path; from engine.lexicon import load_word_file\n"
        "logging.basicConfig(level=logging.INFO, format='%(message)s')\n"
        "print(load_word_file(Path(sys.argv[1]), 'mine', Path(sys.argv[2])).word_count)\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(words), str(tmp_path / "cache")], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert len({out for out, _ in outs}) == 1
    logs = "".join(err for _, err in outs)
    assert logs.count("compiling lexicon 'mine'") == 1, logs


def test_a_compile_over_the_memory_limit_is_refused_naming_the_limit(tmp_path: Path) -> None:
    default = ROOT / "lexicons" / "word-list.txt.gz"
    with pytest.raises(LexiconTooLargeError, match="more than 80 MB") as info:
        load_word_file(default, "word-list", tmp_path / "cache", limits=CompileLimits(memory_mb=80))
    assert info.value.details["limit_mb"] == 80 and "WORDSOLVER_MAX_COMPILE_MB" in info.value.message
    assert not list((tmp_path / "cache").glob("*.dawg"))


def test_a_compile_over_the_time_limit_is_stopped_naming_the_limit(tmp_path: Path) -> None:
    default = ROOT / "lexicons" / "word-list.txt.gz"
    with pytest.raises(LexiconTooLargeError, match="within 0.01 s") as info:
        load_word_file(default, "word-list", tmp_path / "cache", limits=CompileLimits(seconds=0.01))
    assert info.value.details["limit_seconds"] == 0.01


def test_a_refusal_is_recorded_so_other_processes_do_not_compile_again(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    words = tmp_path / "big.txt"
    words.write_text("QI\nZA\nQAT\n")
    limits = CompileLimits(max_words=2)
    with pytest.raises(LexiconTooLargeError):
        load_word_file(words, "big", tmp_path / "cache", limits=limits)
    with caplog.at_level(logging.INFO, logger="wordsolver"), pytest.raises(LexiconTooLargeError, match="limit is 2"):
        load_word_file(words, "big", tmp_path / "cache", limits=limits)
    assert "compiling" not in caplog.text
    assert load_word_file(words, "big", tmp_path / "cache", limits=CompileLimits(max_words=3)).word_count == 3


def test_a_long_compile_logs_its_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(lexicon, "PROGRESS_EVERY", 0.05)
    monkeypatch.setenv("WORDSOLVER_PURE_PYTHON", "1")  # the child takes a while
    rng = random.Random(5)
    words = tmp_path / "mine.txt"
    words.write_text("\n".join("".join(rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ") for _ in range(rng.randint(2, 15)))
                               for _ in range(3000)))
    with caplog.at_level(logging.INFO, logger="wordsolver"):
        load_word_file(words, "mine", tmp_path / "cache")
    assert "still compiling mine.txt" in caplog.text
