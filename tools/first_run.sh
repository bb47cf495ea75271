#!/usr/bin/env bash
# Time from `git clone` to the first 200 on /readyz with `make run`, with empty pip and
# lexicon caches (README, Two commands). Usage: tools/first_run.sh [REPO] [PORT]
# Loopback only; the clone and its caches go to a temporary directory, removed at the end.
set -u
SRC=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
PORT=${2:-8000}
DIR=$(mktemp -d /tmp/wordsolver-first-run.XXXX)
export XDG_CACHE_HOME=$DIR/cache PIP_NO_CACHE_DIR=1 WORDSOLVER_PORT=$PORT
now() { date +%s.%N; }
start=$(now)
git clone -q "$SRC" "$DIR/src"
cd "$DIR/src" || exit 1
setsid make run > "$DIR/log" 2>&1 &
pid=$!
bound=""
while true; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/readyz")
  t=$(echo "$(now) - $start" | bc)
  if [ "$code" != "000" ] && [ -z "$bound" ]; then bound=$t; echo "port bound after ${t} s (/readyz $code)"; fi
  if [ "$code" = "200" ]; then echo "/readyz 200 after ${t} s"; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "make run exited"; cat "$DIR/log"; break; fi
  if [ "$(echo "$t > 300" | bc)" = 1 ]; then echo "not ready after 300 s"; break; fi
  sleep 0.1
done
kill -INT -- "-$pid" 2>/dev/null; sleep 2; kill -- "-$pid" 2>/dev/null
grep -E "lexicon|compil" "$DIR/log"
rm -rf "$DIR"
