#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR/infra
# Real PostgreSQL, Redis and Kafka on free loopback ports, for integration tests and the distributed mode.
#
#   bash scripts/infra.sh up|down|env|status [postgres] [redis] [kafka]     (no names = all three)
#
#   up      install what is missing, start what is not already running healthy, wait until ready,
#           then write <state>/env (export lines of every running service) and print it
#   env     print `export DATABASE_URL=… REDIS_URL=… KAFKA_BROKERS=…` lines for running services,
#           for `eval "$(bash scripts/infra.sh env)"`
#   down    stop the services and delete their throw-away data
#   status  show what runs
#
# Variables: TOLLGATE_INFRA_DIR (state, default <repo>/.infra), TOLLGATE_CACHE_DIR (Kafka jars, default
# ~/.cache/tollgate), TOLLGATE_INFRA_TIMEOUT (seconds to wait for readiness, default 120),
# TOLLGATE_KAFKA_VERSION (default 3.9.1), TOLLGATE_PG_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail

INFRA_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/infra" && pwd)"
INFRA_REPO_DIR="$(cd "$INFRA_SCRIPT_DIR/../.." && pwd)"
INFRA_STATE_DIR="${TOLLGATE_INFRA_DIR:-$INFRA_REPO_DIR/.infra}"

source "$INFRA_SCRIPT_DIR/lib.sh"
source "$INFRA_SCRIPT_DIR/postgres.sh"
source "$INFRA_SCRIPT_DIR/redis.sh"
source "$INFRA_SCRIPT_DIR/kafka.sh"

ALL_SERVICES=(postgres redis kafka)

# Prints the header comment of this file.
usage() {
  awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "${BASH_SOURCE[0]}" >&2
  exit "${1:-2}"
}

# Serialises up/down on one state dir, so two callers do not start the same service twice.
# Everything launched while the lock is held must run with `9>&-`: a server inheriting fd 9 would
# hold the lock for as long as it lives.
lock_state_dir() {
  mkdir -p "$INFRA_STATE_DIR"
  exec 9>"$INFRA_STATE_DIR/.lock"
  flock -n 9 && return 0
  log "waiting for another infra.sh working on $INFRA_STATE_DIR"
  flock -w 600 9 || die "another infra.sh still holds $INFRA_STATE_DIR/.lock after 600s"
}

# Prints the export lines of the running services among the given ones.
print_env() {
  local service
  for service in "$@"; do
    if "${service}_running"; then "${service}_env"; fi
  done
}

# <state>/env always describes every running service, whichever subset a command touched.
write_env_file() {
  local env
  env="$(print_env "${ALL_SERVICES[@]}")"
  if [[ -n "$env" ]]; then
    printf '%s\n' "$env" >"$INFRA_STATE_DIR/env"
  else
    rm -f "$INFRA_STATE_DIR/env"
  fi
}

# Services this `up` started that are not ready yet: stopped again if `up` fails, so a failed start
# leaves no half-started server behind.
INFRA_PENDING=()

stop_pending_on_failure() {
  local status=$? service
  ((status != 0)) || return 0
  for service in "${INFRA_PENDING[@]}"; do
    log "$service: stopping it, as \`up\` failed"
    ("${service}_stop") || true
  done
  (write_env_file) || true
  exit "$status"
}

cmd_up() {
  local service
  lock_state_dir
  trap stop_pending_on_failure EXIT
  for service in "$@"; do "${service}_install" 9>&-; done

  # Kafka first: its JVM boots while PostgreSQL and Redis start, then everything is waited for.
  for service in kafka postgres redis; do
    [[ " $* " == *" $service "* ]] || continue
    if "${service}_running"; then
      if "${service}_healthy"; then
        log "$service: already running, reusing it ($("${service}_describe"))"
        continue
      fi
      log "$service: running but not answering: restarting it"
    fi
    "${service}_stop"
    INFRA_PENDING+=("$service")
    "${service}_start" 9>&-
  done
  for service in "${INFRA_PENDING[@]}"; do "${service}_wait"; done
  INFRA_PENDING=()

  write_env_file
  cat "$INFRA_STATE_DIR/env"
}

cmd_env() {
  local service output explicit="$1"
  shift
  if [[ "$explicit" == yes ]]; then
    for service in "$@"; do
      "${service}_running" || die "$service is not running (start it: bash scripts/infra.sh up $service)"
    done
  fi
  output="$(print_env "$@")"
  [[ -n "$output" ]] || die "no service is running (start them: bash scripts/infra.sh up)"
  printf '%s\n' "$output"
}

cmd_down() {
  local service
  lock_state_dir
  for service in "$@"; do "${service}_stop"; done
  write_env_file
  log "down: $*"
}

cmd_status() {
  local service
  for service in "$@"; do
    if "${service}_running"; then
      printf '%-9s running  %s\n' "$service" "$("${service}_describe")"
    else
      printf '%-9s stopped\n' "$service"
    fi
  done
}

main() {
  (($# >= 1)) || usage
  local command="$1" service explicit=no
  shift
  local services=() requested=("$@")
  for service in "${requested[@]}"; do
    [[ " ${ALL_SERVICES[*]} " == *" $service "* ]] ||
      die "unknown service '$service' (expected postgres, redis or kafka)"
  done
  # Always in the canonical order, each once.
  for service in "${ALL_SERVICES[@]}"; do
    if ((${#requested[@]} == 0)) || [[ " ${requested[*]} " == *" $service "* ]]; then
      services+=("$service")
    fi
  done
  ((${#requested[@]} == 0)) || explicit=yes

  case "$command" in
    up) cmd_up "${services[@]}" ;;
    env) cmd_env "$explicit" "${services[@]}" ;;
    down) cmd_down "${services[@]}" ;;
    status) cmd_status "${services[@]}" ;;
    -h | --help | help) usage 0 ;;
    *) die "unknown command '$command' (expected up, down, env or status)" ;;
  esac
}

main "$@"
