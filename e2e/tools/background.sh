#!/usr/bin/env bash
# background.sh LOG COMMAND...: runs a tool's build, or the demo on the LTS, beside the tests (make
# test-all), its output in LOG so it does not interleave with theirs. Prints one line when it is done;
# on failure, LOG's last lines and the command to run by hand, and exits with the command's status.
set -uo pipefail
log="$1"
shift
mkdir -p "$(dirname "$log")"
started=$(date +%s)
if "$@" >"$log" 2>&1; then
  # The tool steps print "<tool> <version>: <binary>" once the binary is there, the demo "=== Done in".
  what=$(grep -E '^[^ ]+ v[0-9][^:]*: /|^=== Done in|^== demo on node' "$log" | tail -n 1)
  echo "done beside the tests in $(($(date +%s) - started)) s: ${what:-$*} (log: $log)"
else
  status=$?
  tail -n 20 "$log" >&2
  echo "error: '$*' failed (exit $status); its whole output is in $log" >&2
  exit "$status"
fi
