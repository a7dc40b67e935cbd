#!/bin/sh
# scripts/isolated.sh COMMAND [ARG...]: run COMMAND (make test's go test
# lines) with HOME and the XDG base directories moved to a fresh empty
# directory, then fail if anything was written there. The tests must keep
# to their own temporary directories (internal/testenv): a file left in
# the fresh home is one a test would have left in the user's.
# The go command's own caches stay where they are, and its telemetry is
# off (config/go/telemetry/mode): its uploader would write there later.
set -eu
home=$(mktemp -d "${TMPDIR:-/tmp}/toolhost-isolated.XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH) GOENV=$(go env GOENV)
export GOCACHE GOMODCACHE GOPATH GOENV
mkdir -p "$home/config/go/telemetry" && echo off >"$home/config/go/telemetry/mode"
rc=0
unset DBUS_SESSION_BUS_ADDRESS # no test's OAuth token in the user's keyring (internal/oauth)
HOME=$home XDG_CONFIG_HOME=$home/config XDG_STATE_HOME=$home/state \
  XDG_CACHE_HOME=$home/cache XDG_DATA_HOME=$home/data "$@" || rc=$?
left=$(cd "$home" && find . -mindepth 1 \
  ! -path ./config ! -path ./config/go ! -path ./config/go/telemetry ! -path ./config/go/telemetry/mode | sort)
if [ -n "$left" ]; then
  echo "the tests wrote into the user's directories (HOME and XDG dirs, moved to $home for this run):" >&2
  echo "$left" | head -40 | sed 's/^\.\//  /' >&2
  echo "isolate the package's tests: func TestMain(m *testing.M) { os.Exit(testenv.Run(m)) } (internal/testenv)" >&2
  exit 1
fi
exit $rc
