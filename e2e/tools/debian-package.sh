#!/usr/bin/env bash
# `make tools`: a Debian package a test needs, installed when its programs are not on PATH:
#   debian-package.sh <package> "<what it is for>" <program>...
# (prometheus: promtool and prometheus for the GPUBudget e2e; chromium: the browser the docs e2e drives
# with playwright-core, which downloads none). Tests never install anything; they fail saying to run
# `make tools`. Refreshes the apt lists first when the package is not known yet (a fresh machine has
# none), and prints one error line when it cannot be had.
set -euo pipefail

PKG="$1"
FOR="$2"
shift 2
PROGRAMS=("$@")
fail() { echo "error: $*" >&2; exit 1; }
have() { for p in "${PROGRAMS[@]}"; do command -v "$p" >/dev/null 2>&1 || return 1; done; }
# The version on stdout when there is one (chromium's wrapper warns on stderr), else on stderr (prometheus').
show() {
  local p="${PROGRAMS[-1]}" v
  v="$("$p" --version 2>/dev/null | head -n1)" || true
  [ -n "$v" ] || v="$("$p" --version 2>&1 | head -n1)" || true
  echo "$PKG: $(command -v "$p") ($v)"
}

if have; then
  show
  exit 0
fi
names="${PROGRAMS[*]}"
how="install Debian's '$PKG' package (apt-get install $PKG) so that $names are on PATH ($FOR)"
command -v apt-get >/dev/null 2>&1 || fail "$names not found and this machine has no apt-get: $how"
[ "$(id -u)" = 0 ] || fail "$names not found and installing them needs root: $how"

candidate() { apt-cache policy "$PKG" 2>/dev/null | awk '/Candidate:/ { print $2 }'; }
if [ -z "$(candidate)" ] || [ "$(candidate)" = "(none)" ]; then
  echo "$PKG: not installed; refreshing the apt package lists (apt-get update)"
  apt-get update || fail "apt-get update failed (see above): $how"
fi
version="$(candidate)"
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  fail "no '$PKG' package in this machine's apt sources after apt-get update: $how"
fi
echo "$PKG: installing Debian's $PKG $version (apt-get install $PKG)"
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$PKG" \
  || fail "apt-get install $PKG failed (see above): $how"
have || fail "the $PKG package installed no $names on PATH: $how"
show
