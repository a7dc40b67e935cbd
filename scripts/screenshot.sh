#!/bin/sh
# scripts/screenshot.sh [TOOL]: rewrite docs/browser.png, the tool browser
# serving this repository's own tools (.config/toolhost, the example
# binaries make build puts in bin/), with TOOL (default search) open.
# It needs headless Chromium (Debian: apt-get install -y chromium, or set
# CHROMIUM). HOME and the XDG directories are a temporary directory's: the
# trust it records and the browser's profile go away with it.
set -eu
cd "$(dirname "$0")/.."
tool=${1:-search}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$chromium" ] || { echo "no Chromium found: apt-get install -y chromium, or set CHROMIUM" >&2; exit 1; }
make -s build
home=$(mktemp -d "${TMPDIR:-/tmp}/toolhost-screenshot.XXXXXX")
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$home"' EXIT INT TERM
export HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" \
  XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data"
bin/toolhost --root "$PWD" trust >/dev/null
bin/toolhost --root "$PWD" serve --http 127.0.0.1:0 --allow-execute --audit off 2>"$home/serve.log" &
pid=$!
url=
for _ in $(seq 50); do
  url=$(sed -n 's/^serving .* on \(http:[^ ]*\).*/\1/p' "$home/serve.log")
  [ -z "$url" ] || break
  sleep 0.1
done
[ -n "$url" ] || { cat "$home/serve.log" >&2; exit 1; }
"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --window-size=1280,813 --virtual-time-budget=5000 --user-data-dir="$home/chromium" \
  --screenshot=docs/browser.png "$url/#tool=$tool" 2>/dev/null
echo "docs/browser.png: $url/#tool=$tool"
