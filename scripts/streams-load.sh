#!/usr/bin/env bash
# Prints the path of the Go streams load generator (bench/load/streams-go), building it with
# `go build` into a cache folder keyed by its sources' hash, so a changed main.go is rebuilt.
# STREAMS_GO_CACHE_DIR overrides the folder (default ~/.cache/tollgate/streams-go). Exits 1 when Go
# is not installed (the bench then runs the Node client, bench/load/streams.mjs).
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bench/load/streams-go"
hash="$(cat "$src_dir/go.mod" "$src_dir/main.go" | sha256sum | cut -c1-16)"
cache_dir="${STREAMS_GO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tollgate/streams-go}/$hash"
binary="$cache_dir/streams-go"

if [[ ! -x "$binary" ]]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "streams-load.sh: Go is not installed; cannot build bench/load/streams-go" >&2
    exit 1
  fi
  mkdir -p "$cache_dir"
  echo "streams-load.sh: building bench/load/streams-go…" >&2
  (cd "$src_dir" && CGO_ENABLED=0 go build -trimpath -o "$binary.tmp" . && mv "$binary.tmp" "$binary") >&2
fi
echo "$binary"
