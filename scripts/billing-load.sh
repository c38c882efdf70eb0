#!/usr/bin/env bash
# Prints the path of the Go usage-event publisher of the billing scenario (bench/load/billing-go),
# building it with `go build` into a cache folder keyed by its sources' hash, so a changed main.go is
# rebuilt. BILLING_GO_CACHE_DIR overrides the folder (default ~/.cache/tollgate/billing-go). Exits 1
# when Go is not installed (the scenario then publishes from Node worker threads).
set -euo pipefail

src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bench/load/billing-go"
hash="$(cat "$src_dir/go.mod" "$src_dir/go.sum" "$src_dir/main.go" | sha256sum | cut -c1-16)"
cache_dir="${BILLING_GO_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tollgate/billing-go}/$hash"
binary="$cache_dir/billing-go"

if [[ ! -x "$binary" ]]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "billing-load.sh: Go is not installed; cannot build bench/load/billing-go" >&2
    exit 1
  fi
  mkdir -p "$cache_dir"
  echo "billing-load.sh: building bench/load/billing-go…" >&2
  (cd "$src_dir" && CGO_ENABLED=0 go build -trimpath -o "$binary.tmp" . && mv "$binary.tmp" "$binary") >&2
fi
echo "$binary"
