#!/usr/bin/env bash
# Time from `git clone` to the first 200 on /readyz with `make run`, with empty pip, uv and
# lexicon caches (README, Two commands). Usage: tools/first_run.sh [REPO] [PORT]
# Prints `make run`'s output as it comes, each line with the seconds since the clone started,
# then a summary line with the load average before and after (the machine may be shared).
# WORDSOLVER_INSTALLER passes through (pip: the fallback without uv, see tools/install.sh).
# Loopback only; the clone and its caches go to a temporary directory, removed at the end.
set -u
SRC=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
PORT=${2:-8000}
DIR=$(mktemp -d /tmp/wordsolver-first-run.XXXX)
export XDG_CACHE_HOME=$DIR/cache PIP_NO_CACHE_DIR=1 UV_CACHE_DIR=$DIR/cache/uv WORDSOLVER_PORT=$PORT
# As on a new user's machine: Python writes its bytecode caches (some shells, like the agents'
# on the development machines, turn that off, which makes every process compile every module).
unset PYTHONDONTWRITEBYTECODE
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
since() { printf '%5.1f' "$(echo "$(now) - $start" | bc)"; }
load_before=$(load)
start=$(now)
git clone -q "$SRC" "$DIR/src"
cd "$DIR/src" || exit 1
: > "$DIR/log"
setsid make run > "$DIR/log" 2>&1 &
pid=$!
stop() {  # the service and everything make started, and the temporary directory: on any exit
  kill -INT -- "-$pid" 2>/dev/null; sleep 2; kill -- "-$pid" 2>/dev/null
  rm -rf "$DIR"
}
trap stop EXIT
trap 'exit 1' INT TERM PIPE HUP
shown=0
show() {  # the log lines not shown yet, stamped with the time they were first seen
  local n
  n=$(wc -l < "$DIR/log")
  if [ "$n" -gt "$shown" ]; then
    sed -n "$((shown + 1)),${n}p" "$DIR/log" | grep -v "wordsolver.access" | cut -c1-160 | sed "s/^/$(since) s  /"
    shown=$n
  fi
}
bound=""
ready=""
while true; do
  show
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/readyz")
  t=$(since)
  if [ "$code" != "000" ] && [ -z "$bound" ]; then bound=$t; echo "$t s  port bound (/readyz $code)"; fi
  if [ "$code" = "200" ]; then ready=$t; echo "$t s  /readyz 200"; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then show; echo "make run exited"; break; fi
  if [ "$(echo "$t > 300" | bc)" = 1 ]; then echo "not ready after 300 s"; break; fi
  sleep 0.1
done
show
# The CPU time `make run` took so far: its processes' own and that of the children they have
# waited for (the installers, the compilers), user and system (a figure the load does not change).
cpu=$(for p in $(ps -s "$pid" -o pid=); do sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null; done |
      awk -v hz="$(getconf CLK_TCK)" '{ t += $12 + $13 + $14 + $15 } END { printf "%.1f", t / hz }')
echo "first run: /readyz 200 after ${ready:-never} s (port bound after ${bound:-never} s); load average $load_before before, $(load) after; make run used ${cpu} s of CPU"
[ -n "$ready" ]
