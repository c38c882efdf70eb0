#!/usr/bin/env bash
# Embedded mode's idle RSS and how much of it is freed malloc memory the threads' arenas keep
# (bench/ANALYSIS.md, "Embedded idle RSS: what moves it between runs"): starts the platform as the bench
# does (bench/embedded-memory.mjs --no-load), reads VmRSS 25 s after it serves, calls glibc's
# malloc_trim(0) in it through gdb, reads VmRSS again. Build first; needs gdb.
#
#   bash bench/micro/embedded-idle-rss-trim.sh <label> [embedded-memory.mjs options, e.g. --env NAME=VALUE]
set -euo pipefail
cd "$(dirname "$0")/../.."
label=$1; shift
log=$(mktemp)
node bench/embedded-memory.mjs --no-load --idle 30 "$@" >"$log" 2>&1 &
pid=
for _ in $(seq 1 120); do
  grep -q 'serves the bench key' "$log" && pid=$(pgrep -f bench/lib/embedded-platform.mjs | head -n 1) && break
  sleep 1
done
[ -n "$pid" ] || { echo "$label: the platform did not start"; cat "$log"; exit 1; }
sleep 25
rss() { awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$pid/status"; }
before=$(rss)
gdb -p "$pid" -batch -ex 'call (int) malloc_trim(0)' >/dev/null 2>&1
after=$(rss)
wait
rm -f "$log"
echo "$label RSS ${before} MiB, after malloc_trim ${after} MiB, freeable $((before - after)) MiB"
