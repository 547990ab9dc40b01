#!/usr/bin/env bash
# The HTTP contract, checked against the real server: openapi.yaml must be a valid OpenAPI 3.1
# document, and schemathesis must find no difference between it and a running Larder mirroring
# the bundled sample upstream; then a real Frankfurter client from PyPI against the same server, and
# Frankfurter's own v1 OpenAPI document (when ../shared has it) against its /v1; then
# `promtool check metrics` on its /metrics, which must find nothing, and every larder_* series the
# alerting rules read must be exported. Run by `make test` after the Swift tests (debug binaries).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-$(swift build --show-bin-path)}
PORT=${CONTRACT_PORT:-18480}
UPSTREAM_PORT=${CONTRACT_UPSTREAM_PORT:-18481}
CACHE=$(mktemp -d /tmp/larder-contract.XXXXXX)

# schemathesis, openapi-spec-validator and a real Frankfurter client (the drop-in promise is checked with
# what people use), pinned in tools/requirements.txt.
python3 tools/check/python-tools.py
schemathesis=$(python3 tools/check/python-tools.py --which schemathesis)
bash tools/check/promtool.sh

python3 - <<'PY'
import yaml
from openapi_spec_validator import validate
validate(yaml.safe_load(open("openapi.yaml")))
print("openapi.yaml: a valid OpenAPI 3.1 document")
PY

pids=()
cleanup() {
    [ ${#pids[@]} -gt 0 ] && kill -TERM "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$CACHE"
}
trap cleanup EXIT

"$BIN/sample-upstream" --root Examples/upstream --port "$UPSTREAM_PORT" --log-level error >/dev/null &
pids+=($!)
"$BIN/larder" serve --port "$PORT" --cache-dir "$CACHE" --log-level error \
    --rates-url "http://127.0.0.1:$UPSTREAM_PORT/rates/eurofxref-hist-90d.xml" \
    --documents-url "http://127.0.0.1:$UPSTREAM_PORT/documents/index.json" >/dev/null &
pids+=($!)
ready() {
    python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/ready', timeout=2)" 2>/dev/null
}
for _ in $(seq 1 100); do ready && break; sleep 0.1; done
ready || { echo "larder did not become ready on port $PORT" >&2; exit 1; }

# Deterministic generation, so a failure reproduces; the checks are the ones the contract promises.
"$schemathesis" run openapi.yaml --url "http://127.0.0.1:$PORT" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,negative_data_rejection \
    --max-examples "${CONTRACT_EXAMPLES:-50}" --generation-deterministic --no-color

python3 Tests/contract/frankfurter_client.py "$PORT"
bash Tests/contract/frankfurter_v2.sh "$PORT"

# Frankfurter's own published v1 document (../shared/reference/frankfurter, not part of the repository)
# against Larder's /v1: every answer must be one Frankfurter's schemas accept, and none a 5xx. Two
# things Frankfurter's own server does not meet either are left out, so they cannot hide the rest:
# `multipleOf: 1e-05` on rates (its rounding, lib/roundable.rb, writes 6 decimals below 0.0001:
# 0.000097 AUD for 1 IDR), and the status list (it answers 422 `bad currency pair`, which the
# document does not name; Larder also refuses a query that is not UTF-8 with 400 before any route).
FRANKFURTER_V1=../shared/reference/frankfurter/v1-openapi.json
if [ -f "$FRANKFURTER_V1" ]; then
    frankfurter_v1=$CACHE/frankfurter-v1-openapi.json
    python3 - "$FRANKFURTER_V1" "$frankfurter_v1" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
document["components"]["schemas"]["rates"]["additionalProperties"].pop("multipleOf")
json.dump(document, open(sys.argv[2], "w"))
PY
    "$schemathesis" run "$frankfurter_v1" --url "http://127.0.0.1:$PORT/v1" \
        --checks not_a_server_error,content_type_conformance,response_schema_conformance \
        --max-examples "${CONTRACT_EXAMPLES:-50}" --generation-deterministic --no-color
else
    echo "Frankfurter's v1 OpenAPI document: not checked ($FRANKFURTER_V1 is absent)"
fi

# Prometheus's own linter on the live metrics, after requests that give the request families more
# routes (every other family has samples from the start: counters at 0, gauges read at scrape time).
get() { python3 -c "import urllib.request,urllib.error,sys
try: sys.stdout.buffer.write(urllib.request.urlopen('http://127.0.0.1:$PORT$1', timeout=5).read())
except urllib.error.HTTPError: pass"; }
for path in /rates /documents /documents/handbook.txt /nowhere /metrics; do get "$path" >/dev/null; done
metrics=$(get /metrics)
lint=0
findings=$(promtool check metrics <<<"$metrics" 2>&1) || lint=$?
if [ "$lint" != 0 ] || [ -n "$findings" ]; then
    echo "promtool check metrics (exit $lint) found:" >&2
    echo "$findings" >&2
    exit 1
fi
# The names the rules read must be the names Larder exports (the rules' own tests use made-up series).
read_by_rules=$(grep -oE 'larder_[a-z_]+' Docker/prometheus/larder-alerts.yaml | sort -u)
missing=$(for name in $read_by_rules; do grep -q "^# TYPE $name " <<<"$metrics" || echo "$name"; done)
if [ -n "$missing" ]; then
    echo "Docker/prometheus/larder-alerts.yaml reads series /metrics does not export:" $missing >&2
    exit 1
fi
echo "promtool check metrics: no findings in $(grep -c '^# TYPE ' <<<"$metrics") families; the" \
    "$(wc -w <<<"$read_by_rules") larder_* series the alerting rules read are all exported"
