#!/usr/bin/env bash
# Starts FerretDB v1 (MongoDB wire protocol over SQLite, embedded by main.go) for the mongo store
# contract tests, and prints its pid on stdout so the caller can stop exactly that process:
#
#   pid=$(test/mongo/start.sh)
#   TESSERA_TEST_MONGODB_URI=mongodb://127.0.0.1:27018 npm test
#   kill "$pid"
#
# Env: FERRETDB_BIN (default /tmp/ferretdb-test; built from this directory when missing),
#      FERRETDB_LISTEN (default 127.0.0.1:27018), FERRETDB_DIR (default: a fresh /tmp/ferretdb-data.XXXX).
# Logs go to $FERRETDB_DIR/ferretdb.log. Building needs the Go toolchain and the Go module proxy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${FERRETDB_BIN:-/tmp/ferretdb-test}"
listen="${FERRETDB_LISTEN:-127.0.0.1:27018}"
dir="${FERRETDB_DIR:-$(mktemp -d /tmp/ferretdb-data.XXXXXX)}"
mkdir -p "$dir"

if [ ! -x "$bin" ]; then
  echo "building $bin ..." >&2
  (cd "$here" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=mod" go build -o "$bin" .) >&2
fi

host="${listen%:*}"
port="${listen##*:}"
"$bin" -listen "$listen" -dir "$dir" >"$dir/ferretdb.log" 2>&1 &
pid=$!

# Ready when the port accepts a TCP connection (bash /dev/tcp; no extra tools needed).
for _ in $(seq 1 100); do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "ferretdb exited early; see $dir/ferretdb.log" >&2
    cat "$dir/ferretdb.log" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
    echo "ferretdb listening on $listen (pid $pid, data $dir)" >&2
    echo "$pid"
    exit 0
  fi
  sleep 0.1
done
echo "ferretdb did not accept connections on $listen within 10 s; see $dir/ferretdb.log" >&2
kill "$pid" 2>/dev/null || true
exit 1
