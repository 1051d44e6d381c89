#!/usr/bin/env bash
# background.sh LOG COMMAND...: runs a tool's build, or the unit tests or the demo on the LTS, beside the
# tests (make test-all), its output in LOG so it does not interleave with theirs. Prints one line when
# it is done; on failure, the failed tests or LOG's last lines and the command to run by hand, and exits
# with the command's status.
set -uo pipefail
log="$1"
shift
mkdir -p "$(dirname "$log")"
started=$(date +%s)
if "$@" >"$log" 2>&1; then
  # The tool steps print "<tool> <version>: <binary>" once the binary is there, the demo "=== Done in".
  # The unit tests on the LTS, their heading ("== unit tests on node v24...").
  what=$(grep -aE '^[^ ]+ v[0-9][^:]*: /|^=== Done in|^== demo on node|^== unit tests on node' "$log" | tail -n 1)
  echo "done beside the tests in $(($(date +%s) - started)) s: ${what:-$*} (log: $log)"
else
  status=$?
  # A test run's failures are listed from vitest's "Failed Tests" heading on: show them all (up to
  # 400 lines); anything else, its last lines.
  if grep -aq 'Failed Tests' "$log"; then
    sed -n '/Failed Tests/,$p' "$log" | head -n 400 >&2
  else
    tail -n 20 "$log" >&2
  fi
  echo "error: '$*' failed (exit $status); its whole output is in $log" >&2
  exit "$status"
fi
