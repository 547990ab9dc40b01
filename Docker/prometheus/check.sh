#!/usr/bin/env bash
# Larder's Prometheus files checked with Prometheus's own tool: `promtool check rules` on the alerting
# rules, `promtool test rules` on their unit tests (every alert fired and cleared), and `promtool check
# config` on the Prometheus configuration that loads them. Runs from any working directory.
# Run by `make test`. promtool comes with Debian's `prometheus` package (tools/check/promtool.sh installs it
# when missing and run as root; otherwise it prints the apt-get command and the check fails).
set -euo pipefail
cd "$(dirname "$0")/../.."

bash tools/check/promtool.sh

promtool check rules Docker/prometheus/larder-alerts.yaml
# rule_files in the test file and in the configuration are relative to their own directory.
promtool test rules Docker/prometheus/larder-alerts.test.yaml
promtool check config Docker/prometheus/prometheus.yaml
echo "prometheus-check: $(promtool --version 2>&1 | head -n 1): the rules, their tests and the configuration pass"
