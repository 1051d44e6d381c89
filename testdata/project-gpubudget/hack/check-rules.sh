#!/usr/bin/env bash
# Checks the Prometheus rules and the Grafana dashboard's queries with promtool:
#   promtool check rules  - the PrometheusRule's groups (its spec, the format promtool reads)
#   promtool test rules   - test/prometheus/gpubudget_rules_test.yaml: each alert fires on the series it should
#   promtool check rules  - every dashboard query, as recording rules, so a typo in a panel is caught too
# promtool comes with Prometheus (Debian/Ubuntu: the `prometheus` package).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v promtool >/dev/null 2>&1; then
  echo "error: promtool not found on PATH. Install it first: apt-get install prometheus (Debian/Ubuntu), or put promtool from a Prometheus release (https://prometheus.io/download/) on PATH." >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# The PrometheusRule's spec is the rule file, indented by two spaces.
sed -n '/^spec:/,$p' config/prometheus/gpubudget_rules.yaml | tail -n +2 | sed 's/^  //' > "$tmp/rules.yaml"
promtool check rules "$tmp/rules.yaml"
cp test/prometheus/gpubudget_rules_test.yaml "$tmp/"
promtool test rules "$tmp/gpubudget_rules_test.yaml"

node -e '
const d = JSON.parse(require("fs").readFileSync("config/grafana/gpubudget-dashboard.json", "utf8"));
const exprs = d.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
const rules = exprs.map((e, i) => "  - record: dashboard:panel_" + i + "\n    expr: " + JSON.stringify(e.replaceAll("$__rate_interval", "5m").replaceAll("$namespace", ".*")));
console.log("groups:\n- name: dashboard\n  rules:\n" + rules.join("\n"));
' > "$tmp/dashboard.yaml"
promtool check rules "$tmp/dashboard.yaml"
