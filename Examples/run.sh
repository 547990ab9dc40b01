#!/usr/bin/env bash
# `make run`: the sample upstream serving Examples/upstream, Larder in front of it, and a second Larder
# on PORT+2 as a local Frankfurter (mirroring the upstream's Frankfurter v2 surface: eight providers).
# Usage: Examples/run.sh [PORT] [UPSTREAM_PORT]; Ctrl-C stops all three.
set -euo pipefail
PORT=${1:-8080}
UPSTREAM_PORT=${2:-8081}
cd "$(dirname "$0")/.."
BIN=$(swift build -c release --static-swift-stdlib --show-bin-path)
UPSTREAM=http://127.0.0.1:$UPSTREAM_PORT

wait_for_port() {  # port, name
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "$2 did not start listening on 127.0.0.1:$1" >&2
    exit 1
}

pids=()
stop_all() {
    trap - INT TERM EXIT
    [ ${#pids[@]} -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    echo "stopped."
}
trap stop_all INT TERM EXIT

"$BIN/sample-upstream" --root Examples/upstream --host 127.0.0.1 --port "$UPSTREAM_PORT" &
pids+=($!)
wait_for_port "$UPSTREAM_PORT" sample-upstream

"$BIN/larder" serve --host 127.0.0.1 --port "$PORT" --cache-dir ./larder-cache \
    --rates-url "$UPSTREAM/rates/eurofxref-hist-90d.xml" \
    --documents-url "$UPSTREAM/documents/index.json" &
pids+=($!)
wait_for_port "$PORT" larder

FRANKFURTER_PORT=$((PORT + 2))
"$BIN/larder" serve --host 127.0.0.1 --port "$FRANKFURTER_PORT" --cache-dir ./larder-cache-frankfurter \
    --rates-url "$UPSTREAM/;format=frankfurter" &
pids+=($!)
wait_for_port "$FRANKFURTER_PORT" "larder (local Frankfurter)"

cat <<TEXT

Larder is serving on http://127.0.0.1:$PORT (upstream: $UPSTREAM).
Open http://127.0.0.1:$PORT/ in a browser for the status page. Or try:

  curl -i http://127.0.0.1:$PORT/health
  curl -i http://127.0.0.1:$PORT/rates
  curl 'http://127.0.0.1:$PORT/rates?base=USD&symbols=GBP,JPY&amount=100'
  curl http://127.0.0.1:$PORT/rates/2026-11-18        # a past day (immutable)
  curl http://127.0.0.1:$PORT/currencies
  curl -X POST http://127.0.0.1:$PORT/rates/refresh
  curl -i http://127.0.0.1:$PORT/documents
  curl http://127.0.0.1:$PORT/documents/handbook.txt
  curl -H 'Range: bytes=0-99' http://127.0.0.1:$PORT/documents/handbook.txt
  curl -X POST http://127.0.0.1:$PORT/documents/refresh
  curl -i http://127.0.0.1:$PORT/nowhere              # JSON 404
  curl -i -X DELETE http://127.0.0.1:$PORT/health     # JSON 405 with Allow

A local Frankfurter on http://127.0.0.1:$FRANKFURTER_PORT: eight providers (ECB, FRED, BOC, NBP, CNB, the
Riksbank, RBA, CBR) mirrored from the sample upstream's Frankfurter v2 surface, blended as Frankfurter blends:
  curl http://127.0.0.1:$FRANKFURTER_PORT/v2/providers
  curl 'http://127.0.0.1:$FRANKFURTER_PORT/v2/rates?base=USD&quotes=EUR,GBP,JPY&expand=providers'
  curl http://127.0.0.1:$FRANKFURTER_PORT/v2/rate/EUR/CAD
  curl http://127.0.0.1:$FRANKFURTER_PORT/v1/latest         # v1: the ECB provider's rows

The sample upstream directly, and its fault controls:
  curl -i $UPSTREAM/rates/eurofxref-daily.xml
  curl -X PUT $UPSTREAM/_control/faults -d '{"path":"*","status":503,"times":3}'
  curl $UPSTREAM/_control/requests

Press Ctrl-C to stop all three.
TEXT
wait -n "${pids[@]}"
