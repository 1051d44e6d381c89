#!/usr/bin/env bash
# `make tools`: chromium for the docs e2e (e2e/docs.test.ts drives it with playwright-core, which
# downloads no browser), from Debian's `chromium` package when /usr/bin/chromium is missing. Tests never
# install it; they fail saying to run `make tools`. Refreshes the apt lists first when the package is
# not known yet (a fresh machine has none), and prints one error line when it cannot be had.
set -euo pipefail

BIN=/usr/bin/chromium
fail() { echo "error: $*" >&2; exit 1; }

if [ -x "$BIN" ]; then
  echo "chromium: $BIN ($("$BIN" --version 2>/dev/null | head -n1))"
  exit 0
fi
how="install Debian's 'chromium' package (apt-get install chromium) so that $BIN exists"
command -v apt-get >/dev/null 2>&1 || fail "$BIN not found and this machine has no apt-get: $how"
[ "$(id -u)" = 0 ] || fail "$BIN not found and installing it needs root: $how"

candidate() { apt-cache policy chromium 2>/dev/null | awk '/Candidate:/ { print $2 }'; }
if [ -z "$(candidate)" ] || [ "$(candidate)" = "(none)" ]; then
  echo "chromium: not installed; refreshing the apt package lists (apt-get update)"
  apt-get update || fail "apt-get update failed (see above): $how"
fi
version="$(candidate)"
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  fail "no 'chromium' package in this machine's apt sources after apt-get update: $how"
fi
echo "chromium: installing Debian's chromium $version (apt-get install chromium)"
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium \
  || fail "apt-get install chromium failed (see above): $how"
[ -x "$BIN" ] || fail "the chromium package installed no $BIN: $how"
echo "chromium: $BIN ($("$BIN" --version 2>/dev/null | head -n1))"
