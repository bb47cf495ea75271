#!/bin/sh
# Create the virtual environment if needed and install the project into it (editable), pinned
# by constraints.txt. The Makefile's install step (make run, make test):
#   tools/install.sh VENV [EXTRAS]        e.g. tools/install.sh .venv test
#
# Fast path, uv (a Python package installer from PyPI): the `uv` on PATH, else uv installed from
# PyPI into the new environment by the interpreter's own pip. It creates the environment in a
# tenth of a second and installs in a few seconds, where `python -m venv` and pip take 3-4 s and
# 10 s of CPU (measured in docs/operations.md, "First start"). Fallback, used when uv cannot be
# had or its install fails (for example a package index set only in pip's configuration, which
# uv does not read): `python -m venv` and pip. Either way every step is announced and the
# installer shows its progress (nothing runs silently for a minute).
#   WORDSOLVER_INSTALLER=pip   always venv + pip;   WORDSOLVER_INSTALLER=uv   uv or fail.
# The environment always has pip too, so `.venv/bin/pip install X` works as usual.
set -eu
VENV=${1:-.venv}
EXTRAS=${2:-}
PY=${PY:-python3}
MODE=${WORDSOLVER_INSTALLER:-auto}
if [ -n "$EXTRAS" ]; then TARGET=".[$EXTRAS]"; else TARGET="."; fi

say() { printf '[install] %s\n' "$*"; }
now() { date +%s.%N; }
START=$(now)
took() { awk -v a="$START" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# The uv to use: one on PATH, one already in the environment, or one installed now from PyPI.
find_uv() {
  if command -v uv >/dev/null 2>&1; then command -v uv; return 0; fi
  if [ -x "$VENV/bin/uv" ]; then echo "$VENV/bin/uv"; return 0; fi
  return 1
}

bootstrap_uv() {
  # The interpreter's own pip (pip >= 22.3 installs into another environment with --python):
  # no pip needs to be put into the new environment first, which is what takes `venv` its 3 s.
  if "$PY" -c 'import sys, pip; sys.exit(tuple(map(int, pip.__version__.split(".")[:2])) < (22, 3))' 2>/dev/null; then
    [ -x "$VENV/bin/python" ] || { say "creating $VENV (python -m venv --without-pip)"; "$PY" -m venv --without-pip "$VENV"; }
    say "installing uv from PyPI into $VENV with $PY's pip"
    if "$PY" -m pip --python "$VENV/bin/python" install --disable-pip-version-check --progress-bar on \
        --no-warn-script-location -c constraints.txt uv; then
      return 0
    fi
  fi
  # Else the environment's own pip (made by venv), which then installs uv.
  if [ ! -x "$VENV/bin/pip" ]; then
    say "creating $VENV (python -m venv)"; "$PY" -m venv --clear "$VENV"
  fi
  say "installing uv from PyPI into $VENV"
  "$VENV/bin/pip" install --disable-pip-version-check --progress-bar on -c constraints.txt uv
}

with_uv() {
  uv=$(find_uv) || { bootstrap_uv && uv=$VENV/bin/uv; } || return 1
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV (uv venv)"
    "$uv" venv --python "$PY" "$VENV" || return 1
  fi
  say "installing wordsolver${EXTRAS:+[$EXTRAS]} and its dependencies with uv (this builds the two C extensions)"
  # pip too, so that the environment is an ordinary one for later `.venv/bin/pip install`.
  "$uv" pip install --python "$VENV/bin/python" -c constraints.txt -e "$TARGET" pip
}

with_pip() {
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV (python -m venv)"; "$PY" -m venv "$VENV"
  elif ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    say "adding pip to $VENV"; "$VENV/bin/python" -m ensurepip
  fi
  say "installing wordsolver${EXTRAS:+[$EXTRAS]} and its dependencies with pip (this builds the two C extensions)"
  "$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar on -c constraints.txt -e "$TARGET"
}

case $MODE in
  pip) with_pip ;;
  uv) with_uv ;;
  *) with_uv || { say "uv could not install; falling back to pip"; with_pip; } ;;
esac
say "done in $(took)"
