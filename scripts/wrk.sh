#!/usr/bin/env bash
# Prints the path of wrk (Debian's package), installing it first when it is missing: it drives the
# bench's non-streaming loads. Idempotent: when wrk is already there this only prints its path.
set -euo pipefail
source "$(dirname "$0")/lib/debian-tool.sh"

find_wrk() { command -v wrk; }

print_debian_tool find_wrk wrk
