# Sourced by the scripts that print the path of a tool from Debian's packages (chromium.sh,
# promtool.sh, wrk.sh), installing it first when it is missing.
#
# print_debian_tool FIND PACKAGE...: prints what the function FIND prints (the tool's path); when FIND
# finds nothing, installs PACKAGE... with apt (root only; one apt at a time across the project's
# scripts, scripts/infra.sh included) and prints what FIND finds then.
print_debian_tool() {
  local find="$1" path
  shift
  if path="$("$find")"; then
    echo "$path"
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "$find: missing, and installing it needs root (apt-get install $*)" >&2
    return 1
  fi
  exec 8>"${TMPDIR:-/tmp}/tollgate-apt.lock"
  flock 8
  if path="$("$find")"; then
    echo "$path"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@" >&2
  "$find"
}
