"""The service while lexicons load: the port answers at once, /readyz and the solving endpoints
say 503 not_ready (with Retry-After) until the lexicon is there, lists added or changed while
it runs are found without a restart, and listing lexicons never compiles."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import started
from fastapi.testclient import TestClient

import engine.lexicons
from app import cli
from app.main import create_app
from app.settings import Settings
from app.store import make_store

QUIXOTE = {"rack": "QUIXOTE", "limit": 1}
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SlowLoads:
    """Stands in for engine.lexicon.load_word_file: every load counts as a compile and waits
    until ``release`` is set, so a test sees the service while a lexicon is compiling."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.release = threading.Event()
        self.calls: list[str] = []

    def __call__(self, path: Path, name: str, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(name)
        on_compile = kwargs.get("on_compile")
        if on_compile is not None:
            on_compile()
        self.release.wait(30)
        return self.real(path, name, *args, **kwargs)


@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> Iterator[SlowLoads]:
    loads = SlowLoads(engine.lexicons.load_word_file)
    monkeypatch.setattr(engine.lexicons, "load_word_file", loads)
    yield loads
    loads.release.set()


def wait_ready(client: TestClient, path: str = "/readyz", seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        r = client.get(path)
        if r.status_code != 503 or time.monotonic() > deadline:
            return r
        time.sleep(0.05)


def not_ready(r: Any) -> dict[str, Any]:
    assert r.status_code == 503, r.text
    assert int(r.headers["retry-after"]) >= 1
    body = r.json()["error"]
    assert body["code"] == "not_ready"
    return dict(body)


def test_health_answers_and_everything_else_says_not_ready_while_the_default_loads(
    slow: SlowLoads, tmp_path: Path
) -> None:
    with TestClient(create_app(Settings(cache_dir=tmp_path / "cache"))) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        assert "still loading" in not_ready(c.get("/readyz"))["message"]
        err = not_ready(c.post("/v1/games/crossplay/moves", json=QUIXOTE))
        assert err["details"]["lexicon"] == "word-list"
        not_ready(c.post("/v1/lexicons/word-list/check", json={"words": ["QI"]}))
        assert c.get("/v1/games/crossplay").status_code == 200  # needs no lexicon
        assert c.get("/v1/lexicons").json()["lexicons"][0]["status"] == "loading"
        slow.release.set()
        assert wait_ready(c).json()["word_count"] > 200_000
        assert c.post("/v1/games/crossplay/moves", json=QUIXOTE).json()["moves"][0]["notation"] == "8F QUIXOTE"
    assert slow.calls == ["word-list"]  # one load, however many requests came meanwhile


def test_loading_progress_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\nQAT\n")
    settings = Settings(lexicon_dir=words, default_lexicon="mine", cache_dir=tmp_path / "cache")
    with caplog.at_level(logging.INFO, logger="wordsolver"), TestClient(create_app(settings)) as c:
        assert wait_ready(c).status_code == 200
    assert "compiling lexicon 'mine'" in caplog.text
    assert "compiled 3 words in" in caplog.text
    assert "lexicon 'mine' ready: 3 words" in caplog.text


def test_a_list_added_while_running_is_found_and_compiled_in_the_background(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.lexicons, "INLINE_COMPILE_WORDS", 3)  # a "large" list: 4 words
    words = tmp_path / "lists"
    words.mkdir()
    settings = Settings(lexicon_dir=words, cache_dir=tmp_path / "cache")
    with started(create_app(settings)) as c:
        assert [x["name"] for x in c.get("/v1/lexicons").json()["lexicons"]] == ["word-list"]
        compiled = set((tmp_path / "cache").glob("*.dawg"))  # the default list's
        (words / "mine.txt").write_text("QI\nZA\nQAT\nZAX\n")
        listed = c.get("/v1/lexicons").json()["lexicons"]
        assert listed[1] == {"name": "mine", "word_count": None, "provenance": "user word list mine.txt",
                             "default": False, "status": "not_compiled", "error": None}
        assert set((tmp_path / "cache").glob("*.dawg")) == compiled  # listing never compiles
        body = {"rack": "ZAXQI", "lexicon": "mine", "limit": 1}
        err = not_ready(c.post("/v1/games/crossplay/moves", json=body))  # the first request starts the compile
        assert err["details"]["retry_after"] >= 1
        deadline = time.monotonic() + 30
        while (info := c.get("/v1/lexicons/mine").json())["status"] == "loading":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert info["status"] == "ready" and info["word_count"] == 4
        assert c.post("/v1/games/crossplay/moves", json=body).json()["lexicon"] == "mine"


def test_a_compiled_list_loads_on_first_use_without_a_503(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\nQAT\n")
    monkeypatch.setenv("WORDSOLVER_LEXICON_DIR", str(words))
    monkeypatch.setenv("WORDSOLVER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cli, "get_settings", Settings)  # read the environment afresh
    assert cli.main(["compile", "mine"]) == 0  # what docs/word-lists.md says to run after adding a list
    assert capsys.readouterr().out.startswith("mine: 3 words, ready in ")
    with TestClient(create_app(Settings(lexicon_dir=words, cache_dir=tmp_path / "cache"))) as c:
        assert c.get("/v1/lexicons/mine").json()["status"] == "compiled"
        assert c.get("/v1/lexicons/mine").json()["word_count"] == 3
        r = c.post("/v1/lexicons/mine/check", json={"words": ["qat"]})
        assert r.status_code == 200 and r.json()["all_valid"] is True


def test_a_changed_list_is_loaded_again(tmp_path: Path) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\n")
    with started(create_app(Settings(lexicon_dir=words, cache_dir=tmp_path / "cache"))) as c:
        assert c.post("/v1/lexicons/mine/check", json={"words": ["qat"]}).json()["all_valid"] is False
        (words / "mine.txt").write_text("QI\nZA\nQAT\n")
        deadline = time.monotonic() + 30
        while c.post("/v1/lexicons/mine/check", json={"words": ["qat"]}).json()["all_valid"] is False:
            assert time.monotonic() < deadline
            time.sleep(0.05)  # the old version answers until the new one is loaded


def test_a_refused_list_is_a_clear_error_and_the_others_keep_working(tmp_path: Path) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "big.txt").write_text("QI\nZA\nQAT\nZAX\n")
    (words / "binary.txt").write_bytes(b"QI\nZA\x00\x01\n")
    (words / "ok.txt").write_text("QI\nZA\nQAT\n")
    settings = Settings(lexicon_dir=words, cache_dir=tmp_path / "cache", max_lexicon_words=3, default_lexicon="ok")
    with started(create_app(settings)) as c:
        r = c.post("/v1/lexicons/big/check", json={"words": ["QI"]})
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "lexicon_too_large" and err["details"]["limit"] == 3 and "limit is 3" in err["message"]
        r = c.post("/v1/lexicons/binary/check", json={"words": ["QI"]})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_word_file"
        assert r.json()["error"]["details"]["line"] == 2
        listed = {x["name"]: x for x in c.get("/v1/lexicons").json()["lexicons"]}
        assert listed["big"]["status"] == "failed" and listed["big"]["error"]["code"] == "lexicon_too_large"
        assert c.post("/v1/games/crossplay/moves", json={"rack": "QAT"}).json()["lexicon"] == "ok"


def test_a_failed_default_lexicon_keeps_readyz_at_503_with_the_cause(tmp_path: Path) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "broken.txt").write_bytes("QI\nZA\n".encode("utf-16"))
    settings = Settings(lexicon_dir=words, cache_dir=tmp_path / "cache", default_lexicon="broken")
    with TestClient(create_app(settings)) as c:
        deadline = time.monotonic() + 30
        while "failed" not in (err := not_ready(c.get("/readyz")))["message"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert err["details"]["cause"]["code"] == "invalid_word_file"


def test_an_unwritable_cache_directory_is_a_loud_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with caplog.at_level(logging.WARNING, logger="wordsolver"), started(create_app(Settings(cache_dir=blocker / "c"))) as c:
        assert wait_ready(c).status_code == 200
    assert "is not writable" in caplog.text and "WORDSOLVER_CACHE_DIR" in caplog.text


def test_the_real_server_binds_its_port_before_the_lexicon_is_compiled(tmp_path: Path) -> None:
    """`wordsolver serve` with an empty cache and the slow pure-Python builder: the health
    check answers within seconds and readiness says 503 not_ready with Retry-After."""
    port = free_port()
    env = {**os.environ, "WORDSOLVER_CACHE_DIR": str(tmp_path / "cache"), "WORDSOLVER_PURE_PYTHON": "1",
           "WORDSOLVER_LOG_LEVEL": "info"}
    cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)  # its own process group: the compile children end with it
    url = f"http://127.0.0.1:{port}"
    try:
        start = time.monotonic()
        while True:
            try:
                health = httpx.get(f"{url}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() - start < 30, "the port was not bound within 30 s"
                time.sleep(0.05)
        assert health.status_code == 200
        ready = httpx.get(f"{url}/readyz", timeout=2)
        assert ready.status_code == 503 and ready.headers["retry-after"] == "1"
        assert ready.json()["error"]["code"] == "not_ready"
        moves = httpx.post(f"{url}/v1/games/crossplay/moves", json=QUIXOTE, timeout=2)
        assert moves.status_code == 503 and moves.json()["error"]["details"]["lexicon"] == "word-list"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_openapi_documents_not_ready_with_retry_after_where_a_lexicon_is_needed() -> None:
    spec = create_app(Settings()).openapi()
    for path, method in [("/v1/games/wwf/moves", "post"), ("/v1/lexicons/{name}/check", "post"), ("/readyz", "get")]:
        assert "Retry-After" in spec["paths"][path][method]["responses"]["503"]["headers"]
    assert "503" not in spec["paths"]["/v1/lexicons"]["get"]["responses"]  # listing never loads
    codes = spec["components"]["schemas"]["ErrorCode"]["enum"]
    assert {"not_ready", "lexicon_too_large", "invalid_word_file"} <= set(codes)


def test_a_load_that_failed_for_a_passing_reason_is_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\n")
    real = engine.lexicons.load_word_file
    calls: list[str] = []

    def crashing(path: Path, name: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        if name == "mine" and calls.count("mine") == 1:
            raise OSError("compiling mine.txt failed (exit status -9)")  # as when the child is killed
        return real(path, name, *args, **kwargs)

    monkeypatch.setattr(engine.lexicons, "load_word_file", crashing)
    with started(create_app(Settings(lexicon_dir=words, cache_dir=tmp_path / "cache"))) as c:
        err = not_ready(c.post("/v1/lexicons/mine/check", json={"words": ["QI"]}))
        assert "exit status -9" in err["message"] and err["details"]["retry_after"] == 1  # 0.5 s, rounded up
        deadline = time.monotonic() + 30
        while (r := c.post("/v1/lexicons/mine/check", json={"words": ["QI"]})).status_code == 503:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert r.json()["all_valid"] is True


def test_compiles_are_counted_in_the_metrics(tmp_path: Path) -> None:
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\n")
    (words / "big.txt").write_text("QI\nZA\nQAT\nZAX\n")

    def count(text: str, result: str) -> float:
        line = next((x for x in text.splitlines() if x.startswith(f'wordsolver_lexicon_compiles_total{{result="{result}"}}')), None)
        return float(line.split()[-1]) if line else 0.0

    settings = Settings(lexicon_dir=words, cache_dir=tmp_path / "cache", max_lexicon_words=3)
    with started(create_app(settings)) as c:
        before = c.get("/metrics").text
        c.app.state.store.get("mine")  # already compiled by started(): nothing new
        (words / "mine.txt").write_text("QI\nZA\nQAT\n")  # changed: compiled again
        c.app.state.store.get("mine")
        after = c.get("/metrics").text
    assert count(after, "ok") == count(before, "ok") + 1
    assert count(before, "refused") >= 1  # big.txt, refused once by started()


def test_compile_refuses_an_unwritable_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("WORDSOLVER_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(cli, "get_settings", Settings)
    assert cli.main(["compile"]) == 2
    assert "not writable" in capsys.readouterr().err


def test_a_small_own_list_answers_its_first_request(tmp_path: Path) -> None:
    """A list of at most INLINE_COMPILE_WORDS lines compiles while its first request waits: 200,
    not 503 not_ready (issue 21); the default list and larger lists still compile in the background."""
    words = tmp_path / "lists"
    words.mkdir()
    with started(create_app(Settings(lexicon_dir=words, cache_dir=tmp_path / "cache"))) as c:
        (words / "five.txt").write_text("QUIXOTE\nQUIT\nTOE\nEXIT\nOX\n")
        r = c.post("/v1/games/crossplay/moves", json={**QUIXOTE, "lexicon": "five"})
        assert r.status_code == 200, r.text
        assert (r.json()["lexicon"], r.json()["moves"][0]["notation"]) == ("five", "8F QUIXOTE")
        assert list((tmp_path / "cache").glob("*.dawg"))  # compiled and cached like any list
        (words / "two.txt").write_text("QI\nZA")
        r = c.post("/v1/lexicons/two/check", json={"words": ["QI", "QAT"]})
        assert r.status_code == 200 and r.json()["all_valid"] is False


def test_the_inline_compile_threshold_counts_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the real threshold is the documented one
    assert engine.lexicons.INLINE_COMPILE_WORDS == 20_000
    assert "20,000 lines" in (ROOT / "docs" / "word-lists.md").read_text()
    monkeypatch.setattr(engine.lexicons, "INLINE_COMPILE_WORDS", 4)
    words = tmp_path / "lists"
    words.mkdir()
    (words / "four.txt").write_text("QI\nZA\nQAT\nZAX\n")
    (words / "four_no_end.txt").write_text("QI\nZA\nQAT\nZAX")
    (words / "five.txt").write_text("QI\nZA\nQAT\nZAX\nAX\n")
    (words / "five_no_end.txt").write_text("QI\nZA\nQAT\nZAX\nAX")
    store = engine.lexicons.LexiconStore(words, tmp_path / "cache")
    assert [store.compiles_inline(n) for n in ("four", "four_no_end", "five", "five_no_end")] == [True, True, False, False]
    assert not store.compiles_inline("word-list")  # the shipped list (270,000 words, gzip)
    (words / "four.txt").write_text("QI\nZA\nQAT\nZAX\nAX\nXI\n")  # a changed file is counted again
    assert not store.compiles_inline("four")


def test_readiness_comes_back_by_itself_after_a_failed_default_load(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: after the compile child was killed, /readyz stayed 503 until some solving
    request arrived (75 s); under Kubernetes no traffic reaches an unready pod. Only /readyz
    is asked here, and it comes back within the backoff (0.5 s, 1 s)."""
    real = engine.lexicons.load_word_file
    calls: list[str] = []

    def crashing(path: Path, name: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        if calls.count(name) <= 2:
            raise OSError(f"compiling {path.name} failed (exit status -9)")
        return real(path, name, *args, **kwargs)

    monkeypatch.setattr(engine.lexicons, "load_word_file", crashing)
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\nQAT\n")
    settings = Settings(lexicon_dir=words, cache_dir=tmp_path / "cache", default_lexicon="mine")
    with TestClient(create_app(settings)) as c:
        start = time.monotonic()
        assert wait_ready(c, seconds=20).status_code == 200
        assert time.monotonic() - start < 10
    assert calls.count("mine") == 3


def test_a_full_cache_disk_leaves_no_partial_file_and_the_service_still_gets_ready(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 21: with the cache disk full the service never got ready, and each failed compile
    left a partial .tmp file (the first filled the disk). Now the list is compiled into memory,
    the cache write fails cleanly, and a warning says so."""
    import errno

    import engine.lexicon

    def full(self: Any, data: Any) -> int:  # every write to the cache directory: disk full
        raise OSError(errno.ENOSPC, "No space left on device")

    cache = tmp_path / "cache"
    words = tmp_path / "lists"
    words.mkdir()
    (words / "mine.txt").write_text("QI\nZA\nQAT\n")
    real_open = open

    def opener(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        f = real_open(file, mode, *args, **kwargs)
        if "w" in mode and str(file).startswith(str(cache)) and str(file).endswith(".tmp"):
            f.write(b"partial")  # a part of the file got out before the disk filled up
            f.write = full.__get__(f)  # type: ignore[method-assign]
        return f

    monkeypatch.setattr(engine.lexicon, "open", opener, raising=False)
    with caplog.at_level(logging.WARNING, logger="wordsolver"), started(
            create_app(Settings(lexicon_dir=words, cache_dir=cache))) as c:
        assert wait_ready(c).status_code == 200
        assert c.post("/v1/lexicons/mine/check", json={"words": ["QAT"]}).json()["all_valid"] is True
    assert not list(cache.glob("*.tmp")) and not list(cache.glob("*.dawg"))
    assert "could not write the compiled lexicon" in caplog.text


def test_an_empty_word_file_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    """Issue 21: an empty word file silently became a 0-word list."""
    words = tmp_path / "lists"
    words.mkdir()
    (words / "empty.txt").write_text("")
    (words / "junk.txt").write_text("1\n-\nA\n")  # no line is a word of 2-15 letters
    with started(create_app(Settings(lexicon_dir=words, cache_dir=tmp_path / "cache"))) as c:
        for name in ("empty", "junk"):
            r = c.post(f"/v1/lexicons/{name}/check", json={"words": ["QI"]})
            assert r.status_code == 422, r.text
            assert r.json()["error"]["code"] == "invalid_word_file"
            assert "has no words" in r.json()["error"]["message"]


def test_a_loaded_list_is_ready_to_search(tmp_path: Path) -> None:
    """The service's store has the search prepare a list as it loads it (the compiled core packs
    its automata, a tenth of a second for the default list), so the first request does not pay;
    then what the process holds is settled out of the cyclic collector's reach (app.store.settle)."""
    import gc

    from app import store as app_store

    assert make_store(Settings()).on_loaded is app_store.loaded
    prepared: list[int] = []
    words = tmp_path / "lists"
    words.mkdir()
    (words / "four.txt").write_text("QI\nZA\nQAT\nZAX\n")
    store = engine.lexicons.LexiconStore(words, tmp_path / "cache")
    store.on_loaded = lambda lex: prepared.append(lex.word_count)
    assert store.get("four").word_count == 4
    assert prepared == [4]
    threshold = gc.get_threshold()
    try:
        gc.unfreeze()
        app_store.loaded(store.get("four"))  # outside a service worker: the collector untouched
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == threshold
        app_store.settle(start=True)  # as app.server's worker does
        app_store.loaded(store.get("four"))
        assert gc.get_freeze_count() > 1000 and gc.get_threshold()[0] == 20_000
    finally:
        app_store._settling = False
        gc.unfreeze()
        gc.set_threshold(*threshold)
