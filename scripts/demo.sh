#!/bin/sh
# Runs each example tool against a schema and a run request.
set -eu
echo "demo: not wired yet"
