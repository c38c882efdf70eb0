#!/usr/bin/env bash
# Prints the path of the Go usage-event publisher of the billing scenario (bench/load/billing-go),
# built and cached by go-load-tool.sh. BILLING_GO_CACHE_DIR overrides the folder (default
# ~/.cache/tollgate/billing-go). Exits 1 when Go is not installed (the scenario then publishes from
# Node worker threads).
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-load-tool.sh" billing-go "${BILLING_GO_CACHE_DIR:-}"
