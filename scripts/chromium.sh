#!/usr/bin/env bash
# Prints the path of Debian's chromium, installing it first when it is missing (browser tests).
# Idempotent: when chromium is already there this only prints its path.
set -euo pipefail
source "$(dirname "$0")/lib/debian-tool.sh"

find_chromium() {
  for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

print_debian_tool find_chromium chromium fonts-liberation
