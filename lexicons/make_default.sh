#!/usr/bin/env bash
# Reproduce lexicons/word-list.txt.gz byte for byte from the npm registry.
#   bash lexicons/make_default.sh        (needs npm and python3)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent word-list@4.1.0 >/dev/null && tar xzf word-list-4.1.0.tgz)
python3 - "$tmp/package/words.txt" "$here/word-list.txt.gz" <<'PY'
import gzip, re, sys
words = [w for w in open(sys.argv[1], encoding="utf-8").read().split("\n") if re.fullmatch("[a-z]{2,15}", w)]
with open(sys.argv[2], "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as g:
    g.write(("\n".join(words) + "\n").encode())
print(f"{len(words)} words -> {sys.argv[2]}")
PY
cp "$tmp/package/license" "$here/LICENSE.word-list"
sha256sum "$here/word-list.txt.gz"
