# shellcheck shell=bash
# Shared helpers for scripts/infra.sh: logging, state paths, free ports, waiting, package installs.
# Sourced, never executed. Expects INFRA_STATE_DIR and INFRA_SCRIPT_DIR to be set by infra.sh.

INFRA_TIMEOUT="${TOLLGATE_INFRA_TIMEOUT:-120}"
INFRA_APT_UPDATED=0

INFRA_STARTED_US="${EPOCHREALTIME/./}"

# Messages go to stderr (stdout carries only export lines), stamped with the seconds since start.
log() {
  local elapsed_ms=$(((${EPOCHREALTIME/./} - INFRA_STARTED_US) / 1000))
  printf 'infra: [%d.%01ds] %s\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)) "$*" >&2
}

die() {
  printf 'infra: error: %s\n' "$*" >&2
  exit 1
}

# Prints the last lines of a log file to stderr, framed, so a failed start explains itself.
log_tail() {
  local file="$1" lines="${2:-40}"
  if [[ -s "$file" ]]; then
    printf 'infra: ---- last %s lines of %s ----\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" >&2
    printf 'infra: ---- end of %s ----\n' "$file" >&2
  else
    printf 'infra: (log %s is empty or missing)\n' "$file" >&2
  fi
}

service_dir() { printf '%s/%s' "$INFRA_STATE_DIR" "$1"; }

# Prints COUNT distinct free TCP ports on 127.0.0.1, one per line. All sockets stay bound until every
# port is known, so the ports differ from each other; another process may still take one afterwards.
free_ports() {
  local count="${1:-1}"
  node -e '
    const net = require("net");
    const count = Number(process.argv[1]);
    const servers = [];
    const bindOne = () => new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => { servers.push(server); resolve(server.address().port); });
    });
    (async () => {
      const ports = [];
      for (let i = 0; i < count; i++) ports.push(await bindOne());
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      process.stdout.write(ports.join("\n") + "\n");
    })().catch((err) => { console.error(err); process.exit(1); });
  ' "$count"
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when PID is alive and its command line contains NEEDLE (guards against a reused PID).
pid_matches() {
  local pid="$1" needle="$2"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$needle"
}

read_file_or_empty() {
  if [[ -r "$1" ]]; then cat "$1"; fi
}

# wait_until DESCRIPTION PROBE ALIVE LOGFILE
# Polls PROBE (a command) until it succeeds. Fails fast, with the log tail, when ALIVE (a command)
# reports the process gone, and after INFRA_TIMEOUT seconds.
wait_until() {
  local description="$1" probe="$2" alive="$3" logfile="$4"
  local deadline=$((SECONDS + INFRA_TIMEOUT))
  until $probe; do
    if ! $alive; then
      log "$description: the process exited before it became ready"
      log_tail "$logfile"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "$description: not ready after ${INFRA_TIMEOUT}s (TOLLGATE_INFRA_TIMEOUT)"
      log_tail "$logfile"
      return 1
    fi
    sleep 0.25
  done
}

# True while PID (or any process of group -PGID) runs. A zombie counts as exited: PID 1 on some
# machines reaps orphans only every second or two.
process_alive() {
  local target="$1" file stat fields
  local files=("/proc/$target/stat")
  [[ "$target" == -* ]] && files=(/proc/[0-9]*/stat)
  for file in "${files[@]}"; do
    { stat="$(<"$file")"; } 2>/dev/null || continue
    # After "pid (comm) ": state, ppid, pgrp, ...; comm may hold spaces and parentheses.
    read -r -a fields <<<"${stat##*) }"
    [[ "${fields[0]}" == Z ]] && continue
    if [[ "$target" != -* || "${fields[2]}" == "${target#-}" ]]; then
      return 0
    fi
  done
  return 1
}

# Waits up to SECONDS for PID (or every process of group -PGID) to exit; true if it did.
wait_for_exit() {
  local pid="$1" seconds="$2"
  local deadline=$((SECONDS + seconds))
  while process_alive "$pid"; do
    ((SECONDS >= deadline)) && return 1
    sleep 0.2
  done
}

# Sends SIGTERM to PID (or to group -PGID), waits, then SIGKILL: for processes without a
# protocol-level shutdown. True when SIGTERM sufficed.
terminate_pid() {
  local pid="$1" grace="$2" name="$3"
  kill -TERM -- "$pid" 2>/dev/null || return 0
  if ! wait_for_exit "$pid" "$grace"; then
    log "$name (pid $pid) still running after ${grace}s: sending SIGKILL"
    kill -KILL -- "$pid" 2>/dev/null || true
    wait_for_exit "$pid" 10 || die "$name (pid $pid) survived SIGKILL"
    return 1
  fi
}

is_root() { [[ "$(id -u)" == 0 ]]; }

# Runs a command as root: directly when we are root, else through non-interactive sudo.
as_root() {
  if is_root; then
    "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    die "need root to run: $* (install it yourself, or run as root)"
  fi
}

# Installs Debian packages unattended; refreshes the package lists once per run.
# Debian starts a package's service on install (a system PostgreSQL on 5432, a Redis on 6379) unless
# /usr/sbin/policy-rc.d forbids it. Only the binaries are wanted here, so when no policy exists, one
# that forbids starts is put in place for the install and removed right after.
apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found: install these yourself: $*"
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300)
  local policy=/usr/sbin/policy-rc.d policy_added=no status=0
  # scripts/chromium.sh may install at the same moment (npm test starts both): one apt at a time.
  exec 8>"${TMPDIR:-/tmp}/tollgate-apt.lock"
  flock 8
  if ((INFRA_APT_UPDATED == 0)); then
    log "apt-get update"
    as_root "${apt[@]}" update >&2 || die "apt-get update failed"
    INFRA_APT_UPDATED=1
  fi
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\n# Temporary, from tollgate scripts/infra.sh: no service starts during its apt-get install.\nexit 101\n' |
      as_root tee "$policy" >/dev/null
    as_root chmod 755 "$policy"
    policy_added=yes
  fi
  log "apt-get install $*"
  as_root "${apt[@]}" install --no-install-recommends "$@" >&2 || status=$?
  [[ "$policy_added" == no ]] || as_root rm -f "$policy"
  exec 8>&-
  ((status == 0)) || die "apt-get install $* failed"
}
