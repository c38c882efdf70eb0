#!/usr/bin/env bash
# Prints the path of the project's pinned k6, building it with `go install` into a cache folder the
# first time (a few minutes). K6_CACHE_DIR overrides the folder (default ~/.cache/tollgate/k6).
set -euo pipefail

K6_VERSION="v1.8.1"
cache_dir="${K6_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tollgate/k6}/${K6_VERSION}"
binary="$cache_dir/bin/k6"

if [[ ! -x "$binary" ]]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "k6.sh: k6 $K6_VERSION is not built yet and Go is not installed (needed for go install)" >&2
    exit 1
  fi
  mkdir -p "$cache_dir/bin"
  echo "k6.sh: building k6 $K6_VERSION with go install (first run only)…" >&2
  GOBIN="$cache_dir/bin" CGO_ENABLED=0 go install "go.k6.io/k6@${K6_VERSION}" >&2
fi
echo "$binary"
