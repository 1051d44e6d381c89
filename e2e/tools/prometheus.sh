#!/usr/bin/env bash
# `make tools`: promtool and prometheus for the GPUBudget e2e (`make check-rules` and a real Prometheus
# scraping the operator), from Debian's `prometheus` package when they are not on PATH. Tests never
# install it; they fail saying to run `make tools`. Refreshes the apt lists first when the package is
# not known yet (a fresh machine has none), and prints one error line when it cannot be had.
set -euo pipefail

have() { command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; }
fail() { echo "error: $*" >&2; exit 1; }

if have; then
  echo "prometheus: $(command -v prometheus) ($(prometheus --version 2>&1 | head -n1))"
  exit 0
fi
how="install Debian's 'prometheus' package (apt-get install prometheus) or put promtool and prometheus from a Prometheus release on PATH"
command -v apt-get >/dev/null 2>&1 || fail "promtool/prometheus not found and this machine has no apt-get: $how"
[ "$(id -u)" = 0 ] || fail "promtool/prometheus not found and installing them needs root: $how"

candidate() { apt-cache policy prometheus 2>/dev/null | awk '/Candidate:/ { print $2 }'; }
if [ -z "$(candidate)" ] || [ "$(candidate)" = "(none)" ]; then
  echo "prometheus: not installed; refreshing the apt package lists (apt-get update)"
  apt-get update || fail "apt-get update failed (see above): $how"
fi
version="$(candidate)"
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  fail "no 'prometheus' package in this machine's apt sources after apt-get update: $how"
fi
echo "prometheus: installing Debian's prometheus $version (apt-get install prometheus)"
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus \
  || fail "apt-get install prometheus failed (see above): $how"
have || fail "the prometheus package installed no promtool/prometheus on PATH: $how"
echo "prometheus: $(command -v prometheus) ($(prometheus --version 2>&1 | head -n1))"
