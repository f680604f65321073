#!/usr/bin/env bash
# Generates the gRPC SDKs' code from proto/ (docs/sdks.md):
#   sdk/typescript-grpc/src/gen   protoc-gen-es (node_modules), through buf
#   sdk/go/gen                    protoc-gen-go + protoc-gen-connect-go, through buf
#   sdk/python/src/tessera_grpc/iam   grpcio-tools (protoc and the gRPC Python plugin in one wheel)
# Every generator is pinned by a file of the repository (package-lock.json, sdk/go/go.sum,
# sdk/python/requirements-codegen.txt), so the output is the same on every machine and CI can
# check that the checked-in code is current: `--out DIR` writes the same tree under DIR instead
# (test/sdk/sdk-codegen.sdk.test.ts compares the two).
#
# Needs: node_modules (npm ci), Go 1.24+ (`GO`, default `go`), Python 3.9+ with grpcio-tools
# (`TESSERA_SDK_PYTHON`; when unset a venv is made once under ~/.cache from the pinned file).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

out="$root"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    *) echo "usage: scripts/generate-sdks.sh [--out DIR]" >&2; exit 64 ;;
  esac
done

go="${GO:-go}"
tmp="$(mktemp -d /tmp/tessera-sdk-gen.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT

# --- Python with grpcio-tools ---------------------------------------------------------------------
python="${TESSERA_SDK_PYTHON:-}"
if [ -z "$python" ]; then
  # Keyed by the pinned file's digest: a new pin makes a new venv, an unchanged one is reused.
  pins="$(sha256sum sdk/python/requirements-codegen.txt | cut -c1-16)"
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/tessera-sdk-codegen/$pins"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import grpc_tools" 2>/dev/null; then
    echo "[sdk] python venv with grpcio-tools in $venv (once)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check -r sdk/python/requirements-codegen.txt
  fi
  python="$venv/bin/python"
fi

# --- Go plugins, from the versions the SDK's module requires -----------------------------------
# Built from sdk/go/go.mod's own requirements, so the generated code always matches the runtime
# the SDK's users compile against (Go's build cache makes this a link step after the first run).
GOFLAGS=-mod=mod "$go" -C sdk/go build -o "$tmp/bin/" \
  google.golang.org/protobuf/cmd/protoc-gen-go connectrpc.com/connect/cmd/protoc-gen-connect-go

# --- TypeScript and Go through buf ---------------------------------------------------------------
export PATH="$tmp/bin:$root/node_modules/.bin:$PATH"
buf generate --template sdk/buf.gen.ts.yaml -o "$out"
buf generate --template sdk/buf.gen.go.yaml -o "$out"

# --- Python --------------------------------------------------------------------------------------
# protoc's Python output imports its siblings by proto package (`from iam.kit.v1 import ...`); the
# SDK ships them inside `tessera_grpc`, so those imports are rewritten to `tessera_grpc.iam...`
# rather than claiming a top-level `iam` package in the user's environment.
py_out="$out/sdk/python/src/tessera_grpc/iam"
mkdir -p "$tmp/py"
(cd proto && find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/protos"
# shellcheck disable=SC2046
"$python" -m grpc_tools.protoc -Iproto --python_out="$tmp/py" --pyi_out="$tmp/py" --grpc_python_out="$tmp/py" $(cat "$tmp/protos")
find "$tmp/py" -type f \( -name '*.py' -o -name '*.pyi' \) -exec sed -i -E 's/^from iam\./from tessera_grpc.iam./' {} +
find "$tmp/py/iam" -type d -exec touch {}/__init__.py \;
rm -rf "$py_out"
mkdir -p "$(dirname "$py_out")"
cp -r "$tmp/py/iam" "$py_out"

echo "[sdk] generated into $out/sdk (typescript-grpc, go, python)" >&2
