#!/bin/sh
# make demo: run the toolhost CLI against this repository's own tools
# (.config/toolhost/*.toml registers the example binaries built into bin/).
set -eu
cd "$(dirname "$0")/.."
th=bin/toolhost
step() { printf '\n\033[1m$ %s\033[0m\n' "$*" | { [ -t 1 ] && [ -z "${NO_COLOR:-}" ] && cat || sed 's/\x1b\[[0-9;]*m//g'; }; "$@"; }

# A workspace's .config/toolhost runs nothing until you trust it (read the
# files first: its commands run with your permissions). This is the step a
# person takes once per repository; it is recorded in $XDG_DATA_HOME/toolhost/trust.
step $th trust
step $th list
step $th describe search --explain
step $th call greet name=World
step $th call reverse text=toolhost
step $th call line_count path=go.mod
step $th format write_file --args '{"path":"notes.txt","content":"hello\nworld"}'
# A tool that asks questions: answered here on the command line. On a
# terminal, leave out --answer and toolhost asks interactively.
step $th call jp_greet name=Ada --answer style=formal --answer exclaim=true
step $th call fs_read_file path=../../etc/passwd --json || echo "(exit status $?: the tool refused a path outside the workspace)"
step $th identity
step $th check
