#!/usr/bin/env bash
# Starts again, on the same port and data, an infrastructure server of scripts/infra.sh that the chaos
# suite killed: what a supervisor does after a crash. `infra.sh up` would start a new, empty one on a
# new port instead.
#
#   TOLLGATE_INFRA_DIR=<state> bash chaos/infra-restart.sh postgres|redis|kafka
set -euo pipefail

INFRA_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../scripts/infra" && pwd)"
INFRA_STATE_DIR="${TOLLGATE_INFRA_DIR:?TOLLGATE_INFRA_DIR names the state directory of the servers}"

source "$INFRA_SCRIPT_DIR/lib.sh"
source "$INFRA_SCRIPT_DIR/postgres.sh"
source "$INFRA_SCRIPT_DIR/redis.sh"
source "$INFRA_SCRIPT_DIR/kafka.sh"

restart_postgres() {
  local datadir deadline=$((SECONDS + 60))
  datadir="$(postgres_datadir)"
  [[ -n "$datadir" ]] || die "postgres: no data directory recorded in $(service_dir postgres)"
  # After a SIGKILL of the postmaster its backends exit on their own; until then the old shared
  # memory is in use and pg_ctl refuses to start.
  until postgres_as_owner "$PG_BIN/pg_ctl" start -D "$datadir" -l "$(postgres_logfile)" -w -t "$INFRA_TIMEOUT" \
    >>"$(service_dir postgres)/pg_ctl.log" 2>&1; do
    ((SECONDS < deadline)) || die "postgres: pg_ctl start kept failing (see $(service_dir postgres)/pg_ctl.log)"
    sleep 0.5
  done
  postgres_wait
}

restart_redis() {
  local dir port
  dir="$(service_dir redis)"
  port="$(redis_port)"
  [[ -n "$port" ]] || die "redis: no port recorded in $dir"
  rm -f "$dir/redis.pid"
  # The same command line as redis_start: an in-memory server, so its data is gone after a crash.
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$(redis_logfile)" --loglevel warning
  local deadline=$((SECONDS + 10))
  until [[ -s "$dir/redis.pid" ]]; do
    ((SECONDS < deadline)) || die "redis: no pid file within 10s"
    sleep 0.05
  done
  redis_wait
}

restart_kafka() {
  local dir
  dir="$(service_dir kafka)"
  [[ -s "$dir/server.properties" ]] || die "kafka: no server.properties in $dir"
  local cluster_id
  # broker.sh formats with --ignore-formatted, which still checks the id against the formatted one.
  cluster_id="$(sed -n 's/^cluster\.id=//p' "$dir/data/meta.properties")"
  [[ -n "$cluster_id" ]] || die "kafka: no cluster.id in $dir/data/meta.properties"
  rm -f "$dir/kafka.pid"
  setsid bash "$INFRA_SCRIPT_DIR/kafka/broker.sh" "$dir" "$KAFKA_JARS" "$cluster_id" "$(kafka_class_data_archive)" \
    </dev/null >>"$dir/logs/console.log" 2>&1 &
  local deadline=$((SECONDS + 10))
  until [[ -s "$dir/kafka.pid" ]]; do
    ((SECONDS < deadline)) || die "kafka: the broker process did not start"
    sleep 0.05
  done
  kafka_wait
}

case "${1:-}" in
  postgres | redis | kafka) "restart_$1" ;;
  *) die "usage: chaos/infra-restart.sh postgres|redis|kafka" ;;
esac
