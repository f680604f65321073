#!/usr/bin/env bash
# Stand-ins for node:20-bookworm-slim and node:20-bookworm, for a machine that reaches the Debian
# mirror and the npm registry but no container registry (CI here): a Debian bookworm minbase
# (debootstrap) with this machine's Node 20 laid out as the official images lay it out
# (/usr/local/bin/node, /usr/local/lib/node_modules/npm, headers in /usr/local/include/node),
# plus python3, make and g++ in the build one. Then the Dockerfile builds unchanged:
#
#   deploy/docker/local-base-images.sh
#   buildah bud --isolation chroot --build-arg NODE_IMAGE=localhost/node:20-bookworm-slim \
#     --build-arg NODE_BUILD_IMAGE=localhost/node:20-bookworm -t localhost/tessera:dev .
#
# Env: STORAGE_DRIVER (buildah's; vfs works without overlay support), ROOTFS (work directory,
# kept and reused when given).
set -euo pipefail
driver="${STORAGE_DRIVER:-vfs}"
work="${ROOTFS:-$(mktemp -d /tmp/tessera-base.XXXXXX)}"
rootfs="$work/slim"
b() { buildah --storage-driver "$driver" "$@"; }

node_bin="$(readlink -f "$(command -v node)")"
node_prefix="$(dirname "$(dirname "$node_bin")")"
[ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" = 20 ] || { echo "needs Node 20 on PATH" >&2; exit 1; }

if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" http://deb.debian.org/debian
fi
install -D "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
rm -rf "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/include/node"
cp -a "$node_prefix/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$node_prefix/include/node" "$rootfs/usr/local/include/node"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# The official images' user 1000.
grep -q '^node:' "$rootfs/etc/passwd" || {
  echo 'node:x:1000:1000::/home/node:/bin/sh' >> "$rootfs/etc/passwd"
  echo 'node:x:1000:' >> "$rootfs/etc/group"
  mkdir -p "$rootfs/home/node" && chown 1000:1000 "$rootfs/home/node"
}
# This machine's CA bundle and npm's use of it: its registry may be reached through a proxy
# with its own CA, which Node's bundled CAs do not know.
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
cafile="$(npm config get cafile 2>/dev/null || true)"
mkdir -p "$rootfs/usr/local/etc"
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ]; then
  cp "$cafile" "$rootfs/etc/ssl/certs/npm-cafile.crt"
  echo "cafile=/etc/ssl/certs/npm-cafile.crt" > "$rootfs/usr/local/etc/npmrc"
fi

commit() { # name
  local ctr
  ctr="$(b from scratch)"
  b copy "$ctr" "$rootfs" / >/dev/null
  b config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$("$node_bin" -v)" --cmd node "$ctr"
  b commit -q --rm "$ctr" "$1" >/dev/null
  echo "made $1"
}
commit localhost/node:20-bookworm-slim
# The build image: the same, plus what node-gyp needs (better-sqlite3 and argon2 compile).
rm -rf "$work/build"
cp -a "$rootfs" "$work/build"
rootfs="$work/build"
chroot "$rootfs" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null 2>&1 && apt-get clean && rm -rf /var/lib/apt/lists/*'
commit localhost/node:20-bookworm
[ -n "${ROOTFS:-}" ] || rm -rf "$work"
