"""The ``wordsolver`` command: ranked table, the API's JSON, errors, serve and healthcheck."""

from __future__ import annotations

import json
import socket
import tomllib
from pathlib import Path

import pytest
from conftest import started

from app import VERSION, cli
from app.main import create_app
from app.settings import Settings
from engine import search

MIDGAME = """\
# a Crossplay game six plays in; comments and blank lines are skipped
.......K.......
.......U.......
....G.WE.......
....A.AH.......
....R.V........
....D.e........
....A.R........
..PINDER.......
....T.R........
....S.ST.......
.......E.......
.......P.......
.......E.......
.......F.......
.STOUTLY.......
"""


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(MIDGAME)
    return path


def test_commands_that_answer_do_not_load_the_web_framework(tmp_path: Path) -> None:
    """Importing FastAPI took about half of a one-shot command's second (0.45 of 1.0 s of
    ``import app.cli``, measured with ``python -X importtime``): only ``serve`` needs it."""
    import subprocess
    import sys

    from app.routers.endgame import FINAL_ROUND_BOARD

    board = tmp_path / "final-round.txt"
    board.write_text("\n".join(FINAL_ROUND_BOARD) + "\n")
    code = ("import sys; from app.cli import main; "
            "main(['best', '--game', 'scrabble', '--rack', 'AEINRS?', '--limit', '1']); "
            "main(['endgame', '--game', 'crossplay', '--board', sys.argv[1], '--rack', 'DOORRTY', '--budget', '0.2']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'starlette', 'uvicorn')))")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code, str(board)], cwd=root, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "[]", done.stdout[-500:]


def test_version_says_which_search_answers(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
    assert VERSION == project["version"]
    with search.using("reference"), pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"wordsolver {VERSION}; search: reference (switched to it in this process by engine.search.use)\n"
    if "compiled" in search.IMPLEMENTATIONS:
        with search.using("compiled"), pytest.raises(SystemExit):
            cli.main(["--version"])
        assert capsys.readouterr().out == f"wordsolver {VERSION}; search: compiled\n"


def test_best_prints_a_ranked_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--game", "crossplay", "--rack", "QUIXOTE", "--limit", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["rank", "play", "score", "tiles", "leave"]
    assert lines[2].split() == ["1", "8F", "QUIXOTE", "110", "7", "-"]
    assert lines[3].split() == ["2", "H6", "QUIXOTE", "110", "7", "-"]
    assert lines[-1] == "crossplay, lexicon word-list"


def test_best_with_board_file_and_count(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--rack", "AEINRS?", "--board", str(board_file), "--limit", "2", "--count"]) == 0
    out = capsys.readouterr().out
    assert "1H KAISERiN" in out and "legal plays" in out.splitlines()[-1]


def test_best_json_is_the_api_response(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--game", "wwf", "--rack", "DEGIORT", "--board", str(board_file), "--json",
                     "--limit", "5", "--min-length", "5"]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows = [line for line in MIDGAME.splitlines() if not line.startswith("#")]
    body = {"board": rows, "rack": "DEGIORT", "limit": 5, "filters": {"min_length": 5}}
    with started(create_app(Settings())) as c:
        assert printed == c.post("/v1/games/wwf/moves", json=body).json()


def test_best_reports_bad_input_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--rack", "QUIXOTE1"]) == 2
    assert capsys.readouterr().err.strip() == "error: rack position 8: unexpected character '1' (use a letter or '?' for a blank)"
    assert cli.main(["best", "--rack", "QI", "--limit", "0"]) == 2
    assert "limit" in capsys.readouterr().err
    assert cli.main(["best", "--rack", "QI", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert cli.main(["best", "--rack", "QI", "--board", "/nonexistent/board.txt"]) == 2


def test_serve_starts_uvicorn_on_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict = {}
    monkeypatch.setattr("app.server.run", lambda **kw: seen.update(**kw))
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "9001", "--workers", "3"]) == 0
    assert (seen["host"], seen["port"], seen["workers"]) == ("0.0.0.0", 9001, 3)


def test_serve_binds_a_tcp_socket_so_connections_get_nodelay() -> None:
    """uvicorn's own multi-worker bind leaves proto 0 and asyncio then skips TCP_NODELAY."""
    from app.server import _TcpConfig

    sock = _TcpConfig("app.main:app", host="127.0.0.1", port=0, workers=2).bind_socket()
    try:
        assert sock.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


def test_compile_loads_the_default_lexicon(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["compile"]) == 0
    assert capsys.readouterr().out.startswith("word-list: ")


def test_healthcheck_fails_when_nothing_listens() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert cli.main(["healthcheck", "--url", f"http://127.0.0.1:{port}/healthz", "--timeout", "1"]) == 1


def test_score_prints_the_breakdown_rank_and_what_was_missed(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "--rack", "QUIXOTE", "8C", "QUIXOTE"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "8C QUIXOTE  104 points  (valid)"
    assert "rank 3 of 210; best score 110; you left 6 points on the table" in out
    assert "  better: 8F QUIXOTE  110" in out and "  sweep: +40" in out and "  total: 104" in out


def test_score_json_is_the_api_response(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "--board", str(board_file), "--rack", "AEINRS?", "1H KAISERiN", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    rows = [line for line in MIDGAME.splitlines() if not line.startswith("#")]
    with started(create_app(Settings())) as c:
        assert printed == c.post("/v1/games/crossplay/score",
                                 json={"board": rows, "rack": "AEINRS?", "play": "1H KAISERiN"}).json()


def test_compare_check_and_verify(board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["compare", "8F", "QUIXOTE"]) == 0
    out = capsys.readouterr().out
    assert "crossplay    110  yes    sweep 40" in out and "wwf           83  yes    bingo 35" in out
    assert cli.main(["check", "quixote", "qxz"]) == 1
    assert capsys.readouterr().out.splitlines() == ["quixote: valid", "qxz: not in word-list"]
    assert cli.main(["check", "qi", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["all_valid"] is True
    assert cli.main(["verify", "--board", str(board_file)]) == 0
    assert capsys.readouterr().out.strip() == "no findings"


def test_errors_are_the_api_envelope_under_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["best", "--rack", "QUIXOTES", "--json"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert err["code"] == "invalid_rack" and err["details"]["length"] == 8
    assert cli.main(["score", "8Z", "QI", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["details"]["field"] == "play"
    assert cli.main(["best", "--rack", "QI", "--limit", "0", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "invalid_request"


def test_board_file_with_bom_and_crlf_reads_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xef\xbb\xbf" + MIDGAME.replace("\n", "\r\n").encode())
    assert cli.main(["best", "--board", str(path), "--rack", "AEINRS?", "--limit", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[0] == "1"
    assert cli.read_rows(str(path))[0] == ".......K......."


def test_a_closed_pipe_ends_quietly() -> None:
    import subprocess
    import sys

    cmd = f"{sys.executable} -m app.cli best --rack AEINRST --limit 1000 | head -n 2"
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[0].startswith("rank")
    assert done.stderr == ""
