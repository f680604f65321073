#!/bin/sh
# Assembles what the runtime image holds into OUT, the same steps whether the Dockerfile's build
# stage runs them or CI does (which cannot build an image here, see docs/deployment.md):
#   OUT/package.json, package-lock.json   (so `npm prune` and node's "type": "module" apply)
#   OUT/dist/{gateway,services,gen}       compiled JavaScript, no tests
#   OUT/dist/console                      the admin console (Vite's output, served by the gateway)
#   OUT/gateway/src/pages/templates       the hosted pages (read at run time, never compiled)
#   OUT/node_modules                      production dependencies only (native modules as built)
#   OUT/entrypoint.sh, OUT/healthcheck.mjs
# Usage: assemble-app.sh OUT [DIST]  - with DIST (an existing `tsc` output of the whole tree) its
# non-test files are copied instead of compiling again; the compiler options are the same.
set -eu
out="$1"
dist="${2:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
mkdir -p "$out"
if [ -n "$dist" ]; then
  mkdir -p "$out/dist"
  for d in gateway services gen; do cp -R "$dist/$d" "$out/dist/"; done
  find "$out/dist" -name '*.test.js' -o -name '*.test.js.map' | xargs rm -f
fi
if [ -n "$dist" ] && [ -d "$dist/console" ]; then
  cp -R "$dist/console" "$out/dist/"
else
  npx vite build --config console/vite.config.mjs --logLevel warn --outDir "$out/dist/console"
fi
if [ -z "$dist" ]; then
  [ -d gen ] || npx buf generate
  npx tsc -p deploy/docker/tsconfig.image.json --outDir "$out/dist"
fi
cp package.json package-lock.json "$out/"
mkdir -p "$out/gateway/src/pages"
cp -R gateway/src/pages/templates "$out/gateway/src/pages/"
# Hard links when on one file system: pruning unlinks the dev packages' names in OUT only.
cp -al node_modules "$out/node_modules" 2>/dev/null || cp -a node_modules "$out/node_modules"
# npm rewrites its hidden lockfile in place: a copy, so the source tree's is left alone.
if [ -f node_modules/.package-lock.json ]; then
  rm -f "$out/node_modules/.package-lock.json"
  cp node_modules/.package-lock.json "$out/node_modules/.package-lock.json"
fi
(cd "$out" && npm prune --omit=dev --no-audit --no-fund --loglevel=error)
cp deploy/docker/entrypoint.sh deploy/docker/healthcheck.mjs "$out/"
chmod 0755 "$out/entrypoint.sh"
