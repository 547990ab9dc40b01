#!/usr/bin/env bash
# Makes sure promtool (Prometheus's own checker) is on PATH, for Docker/prometheus/check.sh and the live
# `promtool check metrics` of Tests/contract/schemathesis.sh. It comes with Debian's `prometheus` package:
# installed with apt-get when missing and run as root; otherwise the apt-get command is printed and this
# exits 1.
set -euo pipefail
command -v promtool >/dev/null && exit 0
if [ "$(id -u)" != 0 ]; then
    echo "promtool is missing; install it with: sudo apt-get install -y prometheus" >&2
    exit 1
fi
echo "promtool: installing Debian's prometheus package"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
command -v promtool >/dev/null
