#!/bin/sh
# Tessera container entrypoint: the first argument chooses the process.
#   gateway                      the HTTP gateway of a cluster (calls the services over gRPC)
#   directory|token|saml|broker|federation|audit
#                                one service of a cluster (gRPC + Connect on TESSERA_<NAME>_URL)
#   embedded                     the whole suite in one process (SQLite under TESSERA_DATA_DIR)
# Anything else runs as given (e.g. `sh`, for debugging). `exec` makes node PID 1, so SIGTERM
# reaches its handlers, which drain in-flight requests before the process exits.
set -eu
# The folder holding this script is the app (/app in the image).
cd "$(dirname "$0")"
role="${1:-embedded}"
case "$role" in
  gateway)
    shift; exec node dist/gateway/src/main.js "$@" ;;
  embedded)
    shift; exec node dist/gateway/src/main-embedded.js "$@" ;;
  directory|token|saml|broker|federation|audit)
    shift; exec node "dist/services/$role/src/main.js" "$@" ;;
  -h|--help|help)
    sed -n '2,8p' "$0"; exit 0 ;;
  *)
    exec "$@" ;;
esac
