#!/usr/bin/env bash
# Prints, on its last line, the python of a virtual environment holding the official Python SDKs
# (openai, anthropic, google-genai) pinned in e2e/sdk-conformance/requirements.txt; the e2e tier's
# SDK conformance suite runs its Python clients with it. The environment is made once per pinned
# set and Python version under .cache/python-sdks/ (git-ignored) and reused after. On a machine
# without python3's venv module (Debian's python3-venv) it installs that with apt first, as
# scripts/chromium.sh does for chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
requirements="$root/e2e/sdk-conformance/requirements.txt"

# Debian splits ensurepip (which `python3 -m venv` needs to put pip in the environment) into python3-venv.
python_with_venv() {
  command -v python3 >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 && command -v python3
}

if ! python="$(python_with_venv)"; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "python3 with its venv module is missing and installing it needs root (apt-get install python3-venv)" >&2
    exit 1
  fi
  # scripts/infra.sh, chromium.sh and promtool.sh may be running apt at the same moment: one apt at a time.
  exec 8>"${TMPDIR:-/tmp}/tollgate-apt.lock"
  flock 8
  if ! python_with_venv >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends python3 python3-venv >&2
  fi
  exec 8>&-
  python="$(python_with_venv)" || { echo "python3 -m venv still does not work after installing python3-venv" >&2; exit 1; }
fi

# A new pin or another Python gets its own environment; an older one is left for `rm -rf .cache`.
key="$({ "$python" -c 'import os, sys; print(os.path.realpath(sys.executable), sys.version)'; cat "$requirements"; } | sha256sum | cut -c1-16)"
cache="$root/.cache/python-sdks"
venv="$cache/$key"
mkdir -p "$cache"

# Two runs at once (a developer's and the test script's) build the environment once.
exec 9>"$cache/.lock"
flock 9
if [ ! -f "$venv/.complete" ] || ! "$venv/bin/python" -c '' 2>/dev/null; then
  rm -rf "$venv"
  echo "python-sdks.sh: creating $venv from $(basename "$requirements") with $("$python" --version)" >&2
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --only-binary=:all: -r "$requirements" >&2
  "$venv/bin/python" -m pip check >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/python"
