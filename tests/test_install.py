"""tools/install.sh, the install step of `make run` and `make test`: uv when it can be had, venv
and pip otherwise, every step announced. Run against stand-in `uv` and `python` programs that
record what they are asked to do (a real first start takes a minute and the network;
tools/first_run.sh measures that, docs/operations.md has the figures)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A stand-in interpreter: `-m venv` makes an environment whose python is this script again (and a
# pip unless --without-pip), `-m pip ... install ... uv` puts a stand-in uv into it; `-c` (the
# install script's check for the interpreter's own pip) answers as $HAS_PIP says.
FAKE_PYTHON = r"""#!/bin/sh
echo "python $*" >> "$LOG"
[ "$(basename "$0")" = pip ] && set -- -m pip "$@"
case "$1" in
  -c) [ "${HAS_PIP:-0}" = 1 ]; exit ;;
  -m) ;;
  *) exit 0 ;;
esac
case "$2" in
  venv)
    for dir; do :; done
    mkdir -p "$dir/bin" && cp "$0" "$dir/bin/python"
    case " $* " in *" --without-pip "*) ;; *) cp "$0" "$dir/bin/pip" ;; esac ;;
  ensurepip) cp "$0" "$(dirname "$0")/pip" ;;
  pip)
    case " $* " in *" --version "*) [ -e "$(dirname "$0")/pip" ]; exit ;; esac
    case " $* " in *" install "*" uv"|*" install "*" uv "*)
      for arg; do [ "$prev" = --python ] && target=$arg; prev=$arg; done
      cp "$FAKE_UV" "$(dirname "${target:-$0}")/uv" ;;
    esac
    exit "${PIP_FAILS:-0}" ;;
esac
"""
FAKE_UV = r"""#!/bin/sh
echo "uv $*" >> "$LOG"
if [ "$1" = venv ]; then
  for dir; do :; done
  mkdir -p "$dir/bin" && cp "$FAKE_PYTHON" "$dir/bin/python"
  exit 0
fi
exit "${UV_FAILS:-0}"
"""


def install(tmp_path: Path, *args: str, uv_on_path: bool = False, **env: str) -> tuple[list[str], str]:
    """Run tools/install.sh in a copy of the needed files; return the stand-ins' calls and the output."""
    work = tmp_path / "work"
    (work / "tools").mkdir(parents=True)
    shutil.copy(ROOT / "tools" / "install.sh", work / "tools" / "install.sh")
    shutil.copy(ROOT / "constraints.txt", work / "constraints.txt")
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    for name, text in (("python", FAKE_PYTHON), ("uv", FAKE_UV)):
        (fakes / name).write_text(text)
        (fakes / name).chmod(0o755)
    path = tmp_path / "bin"
    path.mkdir()
    if uv_on_path:
        shutil.copy(fakes / "uv", path / "uv")
    log = tmp_path / "log"
    log.touch()
    environment = {
        "PATH": f"{path}:/usr/bin:/bin", "HOME": str(tmp_path), "LOG": str(log), "PY": str(fakes / "python"),
        "FAKE_PYTHON": str(fakes / "python"), "FAKE_UV": str(fakes / "uv"), **env,
    }
    done = subprocess.run(["sh", "tools/install.sh", ".venv", *args], cwd=work, env=environment,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    calls = [line.replace(str(fakes / "python"), "PY").replace(str(path / "uv"), "uv").replace(".venv/bin/uv", "uv")
             for line in log.read_text().splitlines()]
    return calls, done.stdout


@pytest.fixture(autouse=True)
def _no_real_uv() -> None:
    if any(Path(d, "uv").exists() for d in ("/usr/bin", "/bin")):
        pytest.skip("a real uv in /usr/bin or /bin would be found before the stand-in's absence")


def test_the_uv_on_path_makes_the_environment_and_installs_pinned(tmp_path: Path) -> None:
    calls, out = install(tmp_path, uv_on_path=True)
    assert calls == [
        "uv venv --python PY .venv",
        "uv pip install --python .venv/bin/python -c constraints.txt -e . pip",
    ]
    assert "[install] creating .venv (uv venv)" in out and "[install] done in" in out


def test_without_uv_the_interpreters_pip_fetches_it_into_an_environment_without_pip(tmp_path: Path) -> None:
    calls, out = install(tmp_path, "test", HAS_PIP="1")
    assert calls[1:] == [
        "python -m venv --without-pip .venv",
        "python -m pip --python .venv/bin/python install --disable-pip-version-check --progress-bar on "
        "--no-warn-script-location -c constraints.txt uv",
        "uv pip install --python .venv/bin/python -c constraints.txt -e .[test] pip",
    ]
    assert calls[0].startswith("python -c ")  # the check for the interpreter's own pip
    assert "installing uv from PyPI" in out


def test_without_any_pip_venv_makes_one_and_it_fetches_uv(tmp_path: Path) -> None:
    calls, _ = install(tmp_path)
    assert calls[1:] == [
        "python -m venv --clear .venv",
        "python install --disable-pip-version-check --progress-bar on -c constraints.txt uv",  # .venv/bin/pip
        "uv pip install --python .venv/bin/python -c constraints.txt -e . pip",
    ]


def test_a_failing_uv_falls_back_to_pip_with_progress(tmp_path: Path) -> None:
    calls, out = install(tmp_path, uv_on_path=True, UV_FAILS="1")
    assert calls[-3:] == [
        "python -m pip --version",
        "python -m ensurepip",  # uv made the environment without pip
        "python -m pip install --disable-pip-version-check --progress-bar on -c constraints.txt -e .",
    ]
    assert "uv could not install; falling back to pip" in out


def test_the_pip_way_can_be_chosen(tmp_path: Path) -> None:
    calls, out = install(tmp_path, "test", uv_on_path=True, WORDSOLVER_INSTALLER="pip")
    assert calls == [
        "python -m venv .venv",
        "python -m pip install --disable-pip-version-check --progress-bar on -c constraints.txt -e .[test]",
    ]
    assert not any(call.startswith("uv") for call in calls)
    assert "with pip" in out


def test_the_makefile_installs_through_it() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "tools/install.sh" in makefile and "--quiet" not in makefile
    assert os.access(ROOT / "tools" / "install.sh", os.X_OK)
