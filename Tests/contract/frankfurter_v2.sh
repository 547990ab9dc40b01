#!/usr/bin/env bash
# Frankfurter v2's own contract against a running Larder: schemathesis with Frankfurter's published
# v2 OpenAPI document (../shared/reference/frankfurter/v2-openapi.json, skipped when absent), every
# path of it under /v2, every answer conforming and none a 5xx; then a v2 command-line client from
# PyPI (exrate), unmodified but for its base URL. Run by Tests/contract/schemathesis.sh with the
# port of the Larder it started. Usage: frankfurter_v2.sh PORT
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${1:?usage: frankfurter_v2.sh PORT}
DOCUMENT=../shared/reference/frankfurter/v2-openapi.json
schemathesis=$(python3 tools/check/python-tools.py --which schemathesis)

if [ -f "$DOCUMENT" ]; then
    # Frankfurter's document is the judge: every path it lists, its schemas and statuses. Not
    # negative_data_rejection: Frankfurter itself answers 200 to values its document's enums leave
    # out (`scope=x` lists the active currencies), and Larder answers as Frankfurter does.
    paths=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['paths']))" "$DOCUMENT")
    PYTHONPATH=. SCHEMATHESIS_HOOKS=Tests.contract.v2_hooks "$schemathesis" run "$DOCUMENT" --url "http://127.0.0.1:$PORT/v2" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --max-examples "${CONTRACT_EXAMPLES:-50}" --generation-deterministic --no-color
    echo "Frankfurter's v2 OpenAPI document: all $paths paths conform against Larder"
else
    echo "Frankfurter's v2 OpenAPI document: skipped ($DOCUMENT absent)"
fi

python3 Tests/contract/exrate_client.py "$PORT"
