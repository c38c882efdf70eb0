# shellcheck shell=bash
# PostgreSQL 15 for tests: a throw-away cluster on a free loopback port, owned by the postgres OS user.
# Sourced by infra.sh. State: <state>/postgres/{port,datadir}; the cluster lives in the directory named
# by `datadir` (inside <state>/postgres, or under /tmp when the postgres user cannot reach the state dir).

PG_BIN="${TOLLGATE_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_USER=postgres
PG_PASSWORD=postgres

postgres_install() {
  [[ -x "$PG_BIN/postgres" && -x "$PG_BIN/initdb" && -x "$PG_BIN/pg_isready" ]] && return 0
  apt_install postgresql
  [[ -x "$PG_BIN/postgres" ]] || die "PostgreSQL binaries not found in $PG_BIN after install (set TOLLGATE_PG_BIN)"
}

# initdb and pg_ctl refuse to run as root: run them as the postgres OS user then.
# `cd /` keeps them from warning about an unreadable working directory; setsid keeps the server out of
# the caller's process group, so a Ctrl-C or a killed CI step does not take it down with it.
postgres_as_owner() {
  if is_root; then
    (cd / && setsid -w runuser -u "$PG_USER" -- "$@")
  else
    (cd / && setsid -w "$@")
  fi
}

postgres_port() { read_file_or_empty "$(service_dir postgres)/port"; }
postgres_datadir() { read_file_or_empty "$(service_dir postgres)/datadir"; }
postgres_logfile() { printf '%s/postgres.log' "$(postgres_datadir)"; }

postgres_url() {
  printf 'postgres://%s:%s@127.0.0.1:%s/postgres' "$PG_USER" "$PG_PASSWORD" "$(postgres_port)"
}

postgres_running() {
  local datadir
  datadir="$(postgres_datadir)"
  [[ -n "$datadir" && -f "$datadir/postmaster.pid" ]] || return 1
  postgres_as_owner "$PG_BIN/pg_ctl" status -D "$datadir" >/dev/null 2>&1
}

postgres_pid() { head -n 1 "$(postgres_datadir)/postmaster.pid" 2>/dev/null || true; }

postgres_healthy() {
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$(postgres_port)" -U "$PG_USER" -d postgres -t 5
}

# A directory the postgres OS user can own and write: inside the state dir when it can reach it.
postgres_make_datadir() {
  local dir="$1"
  mkdir -p "$dir"
  is_root || { printf '%s/data' "$dir"; return 0; }
  chown "$PG_USER:" "$dir"
  if (cd / && runuser -u "$PG_USER" -- test -w "$dir"); then
    printf '%s/data' "$dir"
    return 0
  fi
  local tmp
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/tollgate-postgres.XXXXXX")"
  chown "$PG_USER:" "$tmp"
  log "postgres: the $PG_USER user cannot write $dir; using $tmp/data instead"
  printf '%s/data' "$tmp"
}

postgres_write_config() {
  local datadir="$1" port="$2"
  cat >>"$datadir/postgresql.conf" <<EOF

# --- tollgate test settings (scripts/infra/postgres.sh): speed over durability ---
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = ''
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = 'scram-sha-256'
log_min_messages = warning
log_line_prefix = '%m [%p] %d '
EOF
}

postgres_start() {
  local dir datadir port pwfile
  dir="$(service_dir postgres)"
  rm -rf "$dir"
  datadir="$(postgres_make_datadir "$dir")"
  port="$(free_ports 1)"
  printf '%s\n' "$datadir" >"$dir/datadir"
  printf '%s\n' "$port" >"$dir/port"

  pwfile="$(dirname "$datadir")/pwfile"
  printf '%s\n' "$PG_PASSWORD" >"$pwfile"
  is_root && chown "$PG_USER:" "$pwfile"
  log "postgres: initdb in $datadir"
  if ! postgres_as_owner "$PG_BIN/initdb" -D "$datadir" -U "$PG_USER" --pwfile="$pwfile" \
    --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --no-locale --no-sync \
    >"$dir/initdb.log" 2>&1; then
    log_tail "$dir/initdb.log"
    die "postgres: initdb failed"
  fi
  rm -f "$pwfile"
  postgres_write_config "$datadir" "$port"

  log "postgres: starting on 127.0.0.1:$port"
  if ! postgres_as_owner "$PG_BIN/pg_ctl" start -D "$datadir" -l "$(postgres_logfile)" -w -t "$INFRA_TIMEOUT" \
    >"$dir/pg_ctl.log" 2>&1; then
    log_tail "$dir/pg_ctl.log" 10
    log_tail "$(postgres_logfile)"
    die "postgres: pg_ctl start failed"
  fi
}

postgres_wait() {
  wait_until postgres postgres_healthy postgres_running "$(postgres_logfile)" || die "postgres did not become ready"
  log "postgres: ready at $(postgres_url)"
}

postgres_stop() {
  local dir datadir
  dir="$(service_dir postgres)"
  datadir="$(postgres_datadir)"
  if postgres_running; then
    log "postgres: stopping"
    postgres_as_owner "$PG_BIN/pg_ctl" stop -D "$datadir" -m fast -w -t 60 >/dev/null ||
      die "postgres: pg_ctl stop failed (see $(postgres_logfile))"
  fi
  # The data dir may live outside the state dir (see postgres_make_datadir).
  if [[ "$datadir" == */tollgate-postgres.*/data ]]; then
    rm -rf "$(dirname "$datadir")"
  fi
  rm -rf "$dir"
}

postgres_env() { printf 'export DATABASE_URL=%s\n' "$(postgres_url)"; }

postgres_describe() { printf 'pid %s, %s, data %s' "$(postgres_pid)" "$(postgres_url)" "$(postgres_datadir)"; }
