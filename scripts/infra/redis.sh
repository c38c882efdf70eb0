# shellcheck shell=bash
# Redis for tests: an in-memory server (no RDB, no AOF) on a free loopback port.
# Sourced by infra.sh. State: <state>/redis/{port,redis.pid,redis.log}.

redis_install() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return 0
  apt_install redis-server
}

redis_port() { read_file_or_empty "$(service_dir redis)/port"; }
redis_pid() { read_file_or_empty "$(service_dir redis)/redis.pid"; }
redis_logfile() { printf '%s/redis.log' "$(service_dir redis)"; }
redis_url() { printf 'redis://127.0.0.1:%s' "$(redis_port)"; }

# Bounded, so a hung server cannot hang up/down.
redis_cli() { timeout 5 redis-cli -h 127.0.0.1 -p "$(redis_port)" "$@"; }

# redis-server rewrites its title to "redis-server 127.0.0.1:<port>".
redis_running() {
  local port
  port="$(redis_port)"
  [[ -n "$port" ]] && pid_matches "$(redis_pid)" "127.0.0.1:$port"
}

redis_healthy() { [[ "$(redis_cli ping 2>/dev/null)" == PONG ]]; }

redis_start() {
  local dir port
  dir="$(service_dir redis)"
  rm -rf "$dir"
  mkdir -p "$dir"
  port="$(free_ports 1)"
  printf '%s\n' "$port" >"$dir/port"
  log "redis: starting on 127.0.0.1:$port"
  # --port 0 would disable TCP, hence an explicit free port. --daemonize makes it its own session.
  if ! redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$(redis_logfile)" --loglevel warning; then
    log_tail "$(redis_logfile)"
    die "redis: redis-server failed to start"
  fi
  # The daemon writes its pid file once it listens; a failed bind exits before that.
  local deadline=$((SECONDS + 10))
  until [[ -s "$dir/redis.pid" ]]; do
    if ((SECONDS >= deadline)); then
      log_tail "$(redis_logfile)"
      die "redis: the server wrote no pid file within 10s"
    fi
    sleep 0.05
  done
}

redis_wait() {
  wait_until redis redis_healthy redis_running "$(redis_logfile)" || die "redis did not become ready"
  log "redis: ready at $(redis_url)"
}

redis_stop() {
  local dir pid
  dir="$(service_dir redis)"
  if redis_running; then
    pid="$(redis_pid)"
    log "redis: stopping"
    if ! { redis_cli shutdown nosave >/dev/null 2>&1 && wait_for_exit "$pid" 10; }; then
      terminate_pid "$pid" 5 redis || true
    fi
  fi
  rm -rf "$dir"
}

redis_env() { printf 'export REDIS_URL=%s\n' "$(redis_url)"; }

redis_describe() { printf 'pid %s, %s' "$(redis_pid)" "$(redis_url)"; }
