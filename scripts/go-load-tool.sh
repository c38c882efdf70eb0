#!/usr/bin/env bash
# Prints the path of a Go load tool of the bench, bench/load/<name>, building it with `go build` into
# a cache folder keyed by its sources' hash (go.mod, go.sum, *.go), so a changed source is rebuilt.
# Usage: go-load-tool.sh <name> [cache folder] (default ~/.cache/tollgate/<name>). Exits 1 when Go is
# not installed (the bench then falls back to its Node version of the tool).
set -euo pipefail

name="$1"
src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bench/load/$name"
hash="$(cd "$src_dir" && cat go.mod $(ls go.sum 2>/dev/null) *.go | sha256sum | cut -c1-16)"
cache_dir="${2:-${XDG_CACHE_HOME:-$HOME/.cache}/tollgate/$name}/$hash"
binary="$cache_dir/$name"

if [[ ! -x "$binary" ]]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "go-load-tool.sh: Go is not installed; cannot build bench/load/$name" >&2
    exit 1
  fi
  mkdir -p "$cache_dir"
  echo "go-load-tool.sh: building bench/load/$name…" >&2
  (cd "$src_dir" && CGO_ENABLED=0 go build -trimpath -o "$binary.tmp" . && mv "$binary.tmp" "$binary") >&2
fi
echo "$binary"
