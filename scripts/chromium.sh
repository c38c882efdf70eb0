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

# scripts/infra.sh may be installing PostgreSQL or Redis at the same moment: one apt at a time.
exec 8>"${TMPDIR:-/tmp}/tollgate-apt.lock"
flock 8
if path="$(find_chromium)"; then
  echo "$path"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends chromium fonts-liberation >&2
find_chromium
