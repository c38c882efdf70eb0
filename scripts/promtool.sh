#!/usr/bin/env bash
# Prints the path of promtool (Debian's prometheus package), installing it first when it is missing
# (the monitoring tests check deploy/prometheus with it). Idempotent: when promtool is already there
# this only prints its path.
set -euo pipefail

if path="$(command -v promtool)"; then
  echo "$path"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "promtool is missing and installing it needs root (apt-get install prometheus)" >&2
  exit 1
fi

# scripts/infra.sh and scripts/chromium.sh may be running apt at the same moment: one apt at a time.
exec 8>"${TMPDIR:-/tmp}/tollgate-apt.lock"
flock 8
if path="$(command -v promtool)"; then
  echo "$path"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
# --no-install-recommends keeps the exporters it recommends out; promtool comes with the server.
# The package's postinst starts no service in a container without systemd.
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends prometheus >&2
command -v promtool
