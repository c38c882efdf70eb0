#!/usr/bin/env bash
# Prints the path of Debian's chromium, installing it first when it is missing (browser tests).
# Idempotent: when chromium is already there this only prints its path.
set -euo pipefail

find_chromium() {
  for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

if path="$(find_chromium)"; then
  echo "$path"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "chromium is missing and installing it needs root (apt-get install chromium)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends chromium fonts-liberation >&2
find_chromium
