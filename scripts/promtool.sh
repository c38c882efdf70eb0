#!/usr/bin/env bash
# Prints the path of promtool (Debian's prometheus package), installing it first when it is missing
# (the monitoring tests check deploy/prometheus with it). Idempotent: when promtool is already there
# this only prints its path.
set -euo pipefail
source "$(dirname "$0")/lib/debian-tool.sh"

find_promtool() { command -v promtool; }

# --no-install-recommends keeps the exporters it recommends out; promtool comes with the server.
# The package's postinst starts no service in a container without systemd.
print_debian_tool find_promtool prometheus
