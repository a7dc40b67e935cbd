#!/bin/sh
# count_lines: counts the lines of the files in the working directory (the
# workspace root) whose names match a pattern. A toolhost tool of protocol
# v2 in POSIX sh: progress events on stdout, then a structured success.
# Like hello.sh it reads the request with sed, so it takes only plain
# string values (no quotes, no backslashes).

if [ -t 0 ]; then
	echo "count_lines is a toolhost tool: pipe one JSON request into it (see docs/protocol.md)" >&2
	exit 2
fi
export LC_ALL=C
req=$(tr '\n\r\t' '   ')

# fail MESSAGE: the request cannot be understood. Error outcome, exit 2.
fail() {
	printf '{"type":"error","message":"count_lines: %s","trace":[],"transient":false}\n' "$1"
	exit 2
}
# str KEY TEXT: the value of "KEY":"..." in TEXT when it is a plain string.
str() {
	printf '%s' "$2" | sed -n 's/.*"'"$1"'"[[:space:]]*:[[:space:]]*"\([^"\\]*\)".*/\1/p'
}

case $req in
*'"protocol"'*) version=$(str protocol "$req") ;;
*) version=1 ;;
esac
case $version in
1) v2= ;; # a v1 host: no events, text only
2) v2=yes ;;
*) fail 'unsupported protocol version: this binary speaks protocol 1 and 2' ;;
esac

action=$(printf '%s' "$req" | sed -n 's/^ *{[^{}]*"context"[[:space:]]*:[[:space:]]*{[[:space:]]*"action"[[:space:]]*:[[:space:]]*"\([a-z_]*\)".*/\1/p')
case $action in
schema)
	echo '{"protocol":"2","tools":[{"name":"count_lines","title":"Count lines","summary":"Count the lines of files in the workspace root.","parameters":{"pattern":{"type":"string","summary":"Which files: a shell pattern such as *.go.","default":"*"}},"output_schema":{"type":"object","properties":{"files":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},"lines":{"type":"integer"}},"required":["path","lines"]}},"total":{"type":"integer"}},"required":["files","total"]},"annotations":{"readOnlyHint":true}}]}'
	exit 0
	;;
run | format_arguments) ;;
*) fail 'unknown or missing context.action' ;;
esac

tool=$(printf '%s' "$req" | sed -n 's/.*"tool"[[:space:]]*:[[:space:]]*{[[:space:]]*"name"[[:space:]]*:[[:space:]]*"\([^"\\]*\)".*/\1/p')
[ "$tool" = count_lines ] || fail "unknown tool '$tool': this binary offers count_lines"
args=$(printf '%s' "$req" | sed -n 's/.*"arguments"[[:space:]]*:[[:space:]]*{\([^{}]*\)}.*/[\1]/p')
[ -n "$args" ] || fail 'tool.arguments must be a flat JSON object'
pattern='*'
case $args in
*'"pattern"'*) pattern=$(str pattern "$args") ;;
esac
case $pattern in
'' | */* | *' '*) fail 'argument pattern must be a file name pattern without /, spaces, quotes or backslashes' ;;
esac

if [ "$action" = format_arguments ]; then
	printf '{"type":"success","content":"count the lines of %s"}\n' "$pattern"
	exit 0
fi

n=0 # the files, for the progress total
for f in $pattern; do [ -f "$f" ] && n=$((n + 1)); done
i=0 files= total=0 counted=0
for f in $pattern; do
	[ -f "$f" ] || continue
	i=$((i + 1))
	case $f in
	*[\"\\]* | *[![:print:]]*) # would need escaping in JSON: skip it, and say so
		[ -n "$v2" ] && echo '{"type":"log","level":"warning","message":"skipped a file whose name needs escaping"}'
		continue
		;;
	esac
	lines=$(wc -l <"$f" | tr -d ' ')
	[ -n "$v2" ] && printf '{"type":"progress","progress":%d,"total":%d,"message":"%s"}\n' "$i" "$n" "$f"
	files="$files${files:+,}{\"path\":\"$f\",\"lines\":$lines}"
	total=$((total + lines)) counted=$((counted + 1))
done
if [ -n "$v2" ]; then
	printf '{"type":"success","content":"%d lines in %d files","structured":{"files":[%s],"total":%d}}\n' "$total" "$counted" "$files" "$total"
else
	printf '{"type":"success","content":"%d lines in %d files"}\n' "$total" "$counted"
fi
