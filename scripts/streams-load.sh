#!/usr/bin/env bash
# Prints the path of the Go streams load generator (bench/load/streams-go), built and cached by
# go-load-tool.sh. STREAMS_GO_CACHE_DIR overrides the folder (default ~/.cache/tollgate/streams-go).
# Exits 1 when Go is not installed (the bench then runs the Node client, bench/load/streams.mjs).
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-load-tool.sh" streams-go "${STREAMS_GO_CACHE_DIR:-}"
