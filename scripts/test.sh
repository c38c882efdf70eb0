#!/usr/bin/env bash
# The whole test run: lint, type-check, unit tests, then the adapter contract suites and the
# integration tests on embedded AND real infrastructure (PostgreSQL, Redis, Kafka started by
# scripts/infra.sh), then the end-to-end tests in distributed mode, then the web app in chromium
# with the fuzzing tier and then a smoke run of the benchmark harness beside it.
# Ends with each step's and tier's wall time and "N passed, N failed".
#
# Side by side where the machine has room (two cores): lint, the web app's type-check and the build
# beside the type-check (each mostly one core), the fuzzing tier and then the bench smoke (each driving a distributed
# platform on real infrastructure) beside the browser tier (embedded platform, chromium).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
export NX_DAEMON=false NX_NO_CLOUD=true NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=3072"
reports="$root/reports"; rm -rf "$reports"; mkdir -p "$reports"
failures=()
step() { printf '\n=== %s ===\n' "$1"; }
# Wall time of the steps Jest does not time, for the summary: "name<TAB>seconds" per line.
steps_file="$reports/steps.tsv"
run_started=$(date +%s)
timed() { # name, start (epoch seconds)
  local now; now=$(date +%s)
  printf '%s\t%s\t%s\t%s\n' "$1" "$((now - $2))" "$2" "$now" >>"$steps_file"
}
# How busy the machine's cores were, for the summary's "CPU busy" per step (a step that leaves cores
# idle has room for work beside it; one that keeps both busy only gets faster with less work).
( while :; do printf '%s %s\n' "$(date +%s)" "$(head -n 1 /proc/stat)"; sleep 2; done ) >"$reports/cpu.log" 2>/dev/null &
cpu_sampler_pid=$!

# Real infrastructure takes longest on a fresh machine (apt, Maven): start it first, in the background.
infra_log="$reports/infra.log"
bash scripts/infra.sh up >"$infra_log" 2>&1 &
infra_pid=$!
# The browser tier needs Debian's chromium; installing it (apt) overlaps with everything before that tier.
chromium_log="$reports/chromium.log"
bash scripts/chromium.sh >"$chromium_log" 2>&1 &
chromium_pid=$!
# The monitoring spec (integration tier) checks deploy/prometheus with Debian's promtool (apt, like chromium).
promtool_log="$reports/promtool.log"
bash scripts/promtool.sh >"$promtool_log" 2>&1 &
promtool_pid=$!
# The e2e tier's SDK conformance suite drives the official Python SDKs from a pinned virtual environment (pip).
python_sdks_log="$reports/python-sdks.log"
bash scripts/python-sdks.sh >"$python_sdks_log" 2>&1 &
python_sdks_pid=$!
cleanup() {
  kill "$cpu_sampler_pid" 2>/dev/null || true
  bash scripts/infra.sh down >>"$infra_log" 2>&1 || true
}
trap cleanup EXIT

step "lint, format, type-check and build, side by side"
# Four jobs, each mostly one core, none reading what another writes (the type-checks read sources, the
# build writes dist/): together they keep both cores busy where type-check then build left one idle for
# the lint job's tail. Their outcomes are read before the unit tests.
( started=$(date +%s)
  { npm run -s lint && npx prettier --check . --log-level warn; } >"$reports/lint.log" 2>&1
  echo $? >"$reports/lint.rc"; timed "lint and format" "$started" ) &
lint_pid=$!
# The web app has its own compiler settings (DOM, JSX, bundler resolution) outside the root project:
# its sources and specs are type-checked here (the build's vite and the unit tier's ts-jest only strip types).
( started=$(date +%s)
  npx tsc -p apps/web/tsconfig.spec.json --noEmit >"$reports/web-type-check.log" 2>&1
  echo $? >"$reports/web-type-check.rc"; timed "web type-check" "$started" ) &
web_type_check_pid=$!
( started=$(date +%s)
  node scripts/build.mjs >"$reports/build.log" 2>&1
  echo $? >"$reports/build.rc"; timed "build" "$started" ) &
build_pid=$!
started=$(date +%s)
if ! npx tsc -p tsconfig.json; then failures+=("type-check"); fi
timed "type-check" "$started"
wait $build_pid
cat "$reports/build.log"
if [ "$(cat "$reports/build.rc")" != 0 ]; then failures+=("build"); fi
wait $lint_pid
if [ "$(cat "$reports/lint.rc")" != 0 ]; then cat "$reports/lint.log"; failures+=("lint"); else echo "lint: clean"; fi
wait $web_type_check_pid
if [ "$(cat "$reports/web-type-check.rc")" != 0 ]; then
  cat "$reports/web-type-check.log"; failures+=("web type-check")
else
  echo "web type-check: clean"
fi

jest_tier() { # tier name, Jest projects (comma-separated), extra args...
  local tier=$1 projects=$2; shift 2
  # shellcheck disable=SC2086
  npx jest --selectProjects ${projects//,/ } --ci --json --outputFile="$reports/$tier.json" "$@" || failures+=("$tier tests")
}

step "unit tests"
jest_tier unit unit,unit-web --maxWorkers=2

step "real infrastructure"
if wait $infra_pid; then
  cat "$infra_log"
  eval "$(bash scripts/infra.sh env)"
else
  cat "$infra_log"; failures+=("infra")
fi

# The bench smoke drives its non-streaming loads with wrk (Debian's package; apt, shared lock).
wrk_log="$reports/wrk.log"
bash scripts/wrk.sh >"$wrk_log" 2>&1 &
wrk_pid=$!

step "integration tests (embedded and real infrastructure)"
if wait $promtool_pid; then PROMTOOL_PATH="$(tail -n 1 "$promtool_log")"; export PROMTOOL_PATH; else cat "$promtool_log"; failures+=("promtool"); fi
# Three workers on two cores: a third of the tier's time is waiting (outages held open, consumers'
# batching windows, platforms starting), which a third worker fills (26 Nov: 203 s with two, 144 s
# with three, 138 s with four).
jest_tier integration integration --maxWorkers=3

step "end-to-end tests (distributed mode)"
if wait $python_sdks_pid; then SDK_PYTHON="$(tail -n 1 "$python_sdks_log")"; export SDK_PYTHON; else cat "$python_sdks_log"; failures+=("python SDKs"); fi
jest_tier e2e e2e --runInBand

step "browser tests (the web app in chromium, embedded platform) beside fuzzing (every public endpoint, fixed seed, real infrastructure), then the bench smoke (every scenario for a few seconds, no timing assertions)"
# Fuzzing and the bench smoke each drive a distributed platform on the shared Kafka, where one's
# billing would settle the other's usage events: they run one after the other, beside the browser
# tier (embedded platform, in-process bus). A background job cannot add to this shell's failures:
# its outcomes are written to files and read after the wait.
wrk_ready=true
wait $wrk_pid || wrk_ready=false
( npx jest --selectProjects fuzz --ci --json --outputFile="$reports/fuzz.json" --runInBand >"$reports/fuzz.log" 2>&1
  echo $? >"$reports/fuzz.rc"
  started=$(date +%s)
  if $wrk_ready && node bench/run.mjs --smoke --no-portkey --infra env --out "$reports/bench-smoke.md" >"$reports/bench-smoke.log" 2>&1; then
    echo 0 >"$reports/bench-smoke.rc"
  else
    echo 1 >"$reports/bench-smoke.rc"
  fi
  timed "bench smoke" "$started" ) &
beside_browser_pid=$!
if wait $chromium_pid; then
  CHROMIUM_PATH="$(tail -n 1 "$chromium_log")" jest_tier browser browser --runInBand
else
  cat "$chromium_log"; failures+=("chromium")
fi
wait $beside_browser_pid
cat "$reports/fuzz.log"
if [ "$(cat "$reports/fuzz.rc" 2>/dev/null)" != 0 ]; then failures+=("fuzz tests"); fi
if [ "$(cat "$reports/bench-smoke.rc" 2>/dev/null)" = 0 ]; then
  tail -n 5 "$reports/bench-smoke.log"
else
  cat "$wrk_log"; tail -n 60 "$reports/bench-smoke.log" 2>/dev/null; failures+=("bench smoke")
fi

step "summary"
timed "npm test" "$run_started"
node scripts/test-summary.mjs "$reports" "${failures[@]+"${failures[@]}"}"
