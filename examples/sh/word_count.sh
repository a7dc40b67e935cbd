#!/bin/sh
# word_count: a toolhost tool binary in plain POSIX sh (sh + awk, no jq, no SDK).
#
# It speaks wire protocol v1 (see docs/protocol.md): one JSON request on
# stdin, one JSON document on stdout, logs on stderr.
#
#   schema            → {"tools":[{"name":"word_count",…}]}
#   run               → {"type":"success","content":"lines: 2, words: 5, bytes: 27"}
#                       or, when "text" is missing, a needs_input question
#                       whose answer comes back in tool.answers.text
#   format_arguments  → a one-line rendering of the arguments
#
# Exit status: 0 after any outcome or schema; 2 (with an error outcome on
# stdout) when the request cannot be understood: empty stdin, invalid JSON,
# another protocol version, an unknown action or tool, or an argument of the
# wrong type.
#
# Try it:
#   printf '%s' '{"protocol":"1","context":{"action":"run","root":"/tmp","workspace_id":"w","conversation_id":"c"},"tool":{"name":"word_count","arguments":{"text":"hello world"}}}' | ./word_count.sh
set -u
export LC_ALL=C # byte semantics for awk and wc

# ---------------------------------------------------------------------------
# JSON reading. flatten turns the request into one line per node:
#   PATH<TAB>TYPE<TAB>RAW
# e.g. "tool.arguments.text	string	"hi\n"" (RAW is the JSON token as
# written, so it never holds a newline), "tool	object	". On malformed JSON
# it prints the problem and exits 1.
FLATTEN='
function fail(msg) { print "request is not valid JSON: " msg; failed = 1; exit 1 }
function ws() { while (pos <= n && index(" \t\n\r", substr(s, pos, 1)) > 0) pos++ }
function where() { return pos > n ? "end of input" : "\"" substr(s, pos, 1) "\" at byte " pos }
function str(   start, c) {
	start = pos; pos++
	while (pos <= n) {
		c = substr(s, pos, 1)
		if (c == "\"") { pos++; return substr(s, start, pos - start) }
		if (c == "\\") {
			c = substr(s, pos + 1, 1)
			if (c == "u") {
				if (substr(s, pos + 2, 4) !~ /^[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]$/) fail("invalid \\u escape at byte " pos)
				pos += 6
			} else if (index("\"\\/bfnrt", c) > 0 && c != "") pos += 2
			else fail("invalid escape at byte " pos)
			continue
		}
		if (c < " ") fail("control character in a string at byte " pos)
		pos++
	}
	fail("unterminated string")
}
function emit(path, type, raw) { node[++nodes] = path "\t" type "\t" raw; if (root == "") root = type }
function value(path, depth,   c, key, i) {
	if (depth > 64) fail("nesting too deep at byte " pos)
	ws(); c = substr(s, pos, 1)
	if (c == "{") {
		emit(path, "object", ""); pos++; ws()
		if (substr(s, pos, 1) == "}") { pos++; return }
		for (;;) {
			ws()
			if (substr(s, pos, 1) != "\"") fail("expected a string key, found " where())
			key = str(); key = substr(key, 2, length(key) - 2)
			ws()
			if (substr(s, pos, 1) != ":") fail("expected \":\", found " where())
			pos++
			value(path == "" ? key : path "." key, depth + 1)
			ws(); c = substr(s, pos, 1)
			if (c == ",") { pos++; continue }
			if (c == "}") { pos++; return }
			fail("expected \",\" or \"}\", found " where())
		}
	}
	if (c == "[") {
		emit(path, "array", ""); pos++; ws()
		if (substr(s, pos, 1) == "]") { pos++; return }
		for (i = 0; ; i++) {
			value(path "." i, depth + 1)
			ws(); c = substr(s, pos, 1)
			if (c == ",") { pos++; continue }
			if (c == "]") { pos++; return }
			fail("expected \",\" or \"]\", found " where())
		}
	}
	if (c == "\"") { emit(path, "string", str()); return }
	if (substr(s, pos, 4) == "true") { emit(path, "boolean", "true"); pos += 4; return }
	if (substr(s, pos, 5) == "false") { emit(path, "boolean", "false"); pos += 5; return }
	if (substr(s, pos, 4) == "null") { emit(path, "null", "null"); pos += 4; return }
	if (match(substr(s, pos, 64), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
		if (RLENGTH == 64) match(substr(s, pos), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/) # a longer number
		emit(path, "number", substr(s, pos, RLENGTH)); pos += RLENGTH; return
	}
	fail("unexpected " where())
}
BEGIN { RS = "\001" } # one record for the whole request, however many lines
{ s = (NR > 1 ? s RS : "") $0 }
END {
	if (failed) exit 1
	n = length(s); pos = 1; ws()
	if (pos > n) { print "empty request on stdin: expected one JSON request object"; exit 1 }
	value("", 0); ws()
	if (pos <= n) fail("unexpected data after the JSON value at byte " pos)
	if (root != "object") { print "malformed request: the request is " (root ~ /^[aeiou]/ ? "an " : "a ") root ", want a JSON object"; exit 1 }
	for (i = 1; i <= nodes; i++) print node[i]
}'

# DECODE prints the bytes of one raw JSON string token (UTF-8 for \u escapes;
# \u0000 is dropped, as sh strings cannot hold it).
DECODE='
function hex(h,   i, v) { v = 0; for (i = 1; i <= 4; i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1; return v }
function utf8(cp) {
	if (cp == 0) return ""
	if (cp < 128) return sprintf("%c", cp)
	if (cp < 2048) return sprintf("%c%c", 192 + int(cp / 64), 128 + cp % 64)
	if (cp < 65536) return sprintf("%c%c%c", 224 + int(cp / 4096), 128 + int(cp / 64) % 64, 128 + cp % 64)
	return sprintf("%c%c%c%c", 240 + int(cp / 262144), 128 + int(cp / 4096) % 64, 128 + int(cp / 64) % 64, 128 + cp % 64)
}
{
	s = substr($0, 2, length($0) - 2); n = length(s); start = 1
	for (i = 1; i <= n; i++) {
		if (substr(s, i, 1) != "\\") continue
		if (i > start) printf "%s", substr(s, start, i - start) # the run of plain bytes before it
		c = substr(s, ++i, 1)
		if (c == "n") c = "\n"; else if (c == "t") c = "\t"
		else if (c == "r") c = "\r"; else if (c == "b") c = "\b"
		else if (c == "f") c = "\f"
		else if (c == "u") {
			cp = hex(substr(s, i + 1, 4)); i += 4
			if (cp >= 55296 && cp < 56320 && substr(s, i + 1, 2) == "\\u") {
				lo = hex(substr(s, i + 3, 4))
				if (lo >= 56320 && lo < 57344) { cp = 65536 + (cp - 55296) * 1024 + (lo - 56320); i += 6 }
			}
			c = utf8(cp)
		}
		printf "%s", c
		start = i + 1
	}
	if (start <= n) printf "%s", substr(s, start)
}'

# ESCAPE prints its input as the inside of a JSON string. Like DECODE it
# prints runs of bytes as they come rather than building a string, so its
# time is linear in the input (awk string concatenation copies).
ESCAPE='
BEGIN { for (i = 1; i < 32; i++) esc[sprintf("%c", i)] = sprintf("\\u%04x", i)
	esc["\t"] = "\\t"; esc["\r"] = "\\r"; esc["\b"] = "\\b"; esc["\f"] = "\\f"
	esc["\\"] = "\\\\"; esc["\""] = "\\\"" }
{
	if (NR > 1) printf "\\n"
	n = length($0); start = 1
	for (i = 1; i <= n; i++) {
		c = substr($0, i, 1)
		if (!(c in esc)) continue
		if (i > start) printf "%s", substr($0, start, i - start)
		printf "%s", esc[c]
		start = i + 1
	}
	if (start <= n) printf "%s", substr($0, start)
}'

# PREVIEW prints the first 40 characters of its input line: bytes up to the
# 41st that starts a UTF-8 character, so a character is never cut in two
# (cut -c counts bytes in the C locale, which would leave invalid UTF-8).
PREVIEW='{
	n = length($0)
	for (i = 1; i <= n; i++) { c = substr($0, i, 1); if ((c < "\200" || c >= "\300") && ++k > 40) break }
	printf "%s", substr($0, 1, i - 1)
}'

# kind PATH prints the JSON type of PATH in the request, or nothing.
kind() { printf '%s\n' "$flat" | awk -F '\t' -v k="$1" '$1 == k { print $2; exit }'; }
# raw PATH prints the JSON token at PATH.
raw() { printf '%s\n' "$flat" | awk -F '\t' -v k="$1" '$1 == k { sub(/^[^\t]*\t[^\t]*\t/, ""); print; exit }'; }
# str PATH prints the decoded string at PATH (trailing newlines kept).
str() { raw "$1" | awk "$DECODE"; }
# json_escape TEXT prints TEXT as the inside of a JSON string.
json_escape() { printf '%s' "$1" | awk "$ESCAPE"; }

# a KIND prints a JSON type with its article: "a string", "an array", "null".
a() {
	case $1 in
	null) echo null ;;
	array | object) echo "an $1" ;;
	*) echo "a $1" ;;
	esac
}

# bad_request MESSAGE writes an error outcome and exits 2.
bad_request() {
	printf '{"type":"error","message":"%s","trace":[],"transient":false}\n' "$(json_escape "word_count: $1")"
	exit 2
}

# ---------------------------------------------------------------------------
if [ -t 0 ]; then
	echo "word_count is a toolhost tool: it reads one JSON request on stdin (see docs/protocol.md)." >&2
	exit 2
fi

flat=$(awk "$FLATTEN") || bad_request "$flat"

case $(kind protocol) in
"" | null) ;; # absent (JP hosts send none) or null: protocol 1
*) [ "$(raw protocol)" = '"1"' ] || bad_request "unsupported protocol version $(raw protocol): this binary speaks protocol \"1\"" ;;
esac
[ "$(kind context)" = object ] || bad_request 'the request has no "context" object'
action=$(str context.action)
case $action in
schema)
	cat <<'EOF'
{"tools":[{"name":"word_count","summary":"Count the lines, words and bytes of a text.","description":"Counts like wc(1). When no text is given it asks for one.","parameters":{"text":{"type":"string","summary":"The text to count.","required":false},"what":{"type":"string","summary":"What to count.","enum":["all","lines","words","bytes"],"default":"all"}},"annotations":{"readOnlyHint":true},"examples":"word_count text=\"hello world\""}]}
EOF
	exit 0
	;;
run | format_arguments) ;;
"") bad_request 'unknown action: the request has no context.action (want "schema", "run" or "format_arguments")' ;;
*) bad_request "unknown action \"$action\": want \"schema\", \"run\" or \"format_arguments\"" ;;
esac

[ "$(kind tool.name)" = string ] || bad_request "request has no \"tool\" object with a name for action \"$action\""
name=$(str tool.name)
[ "$name" = word_count ] || bad_request "unknown tool \"$name\": this binary offers \"word_count\""
case $(kind tool.arguments) in
object | null | "") ;;
*) bad_request "field \"tool.arguments\" is $(a "$(kind tool.arguments)"), want a JSON object" ;;
esac

# Arguments, checked for type. A missing text may come from an earlier answer.
text_from=
case $(kind tool.arguments.text) in
string) text_from=tool.arguments.text ;;
null | "")
	case $(kind tool.answers.text) in
	string) text_from=tool.answers.text ;;
	null | "") ;;
	*) bad_request "answer \"text\" must be a string, got $(a "$(kind tool.answers.text)")" ;;
	esac
	;;
*) bad_request "argument \"text\" must be a string, got $(a "$(kind tool.arguments.text)")" ;;
esac
what=all
case $(kind tool.arguments.what) in
string) what=$(str tool.arguments.what) ;;
null | "") ;;
*) bad_request "argument \"what\" must be a string, got $(a "$(kind tool.arguments.what)")" ;;
esac
case $what in
all | lines | words | bytes) ;;
*) bad_request "argument \"what\" must be one of \"all\", \"lines\", \"words\", \"bytes\", got \"$(printf '%s' "$what")\"" ;;
esac

# The text itself; the x keeps trailing newlines through $(...).
text=
if [ -n "$text_from" ]; then
	text=$(str "$text_from"; printf x)
	text=${text%x}
fi

if [ "$action" = format_arguments ]; then
	if [ -z "$text_from" ]; then
		content="count $what (the text will be asked for)"
	else
		preview=$(printf '%s' "$text" | tr '\n\t' '  ' | awk "$PREVIEW")
		content="count $what in $(printf '%s' "$text" | wc -c | tr -d ' ') bytes of text: \"$preview\""
	fi
	printf '{"type":"success","content":"%s"}\n' "$(json_escape "$content")"
	exit 0
fi

if [ -z "$text_from" ]; then
	echo "word_count: no text given; asking for it" >&2
	printf '%s\n' '{"type":"needs_input","question":{"id":"text","text":"Which text should I count?","pre_amble":null,"answer_type":"Text","default":null}}'
	exit 0
fi

bytes=$(printf '%s' "$text" | wc -c | tr -d ' ')
# Words are runs of bytes other than space, tab and newline (wc -w would skip
# non-ASCII words in the C locale).
words=$(printf '%s' "$text" | awk '{ w += NF } END { print w + 0 }')
lines=$(printf '%s' "$text" | wc -l | tr -d ' ')
# A last line without a newline still counts.
if [ "$bytes" -gt 0 ] && [ "$(printf '%s' "$text" | tail -c 1 | od -An -c | tr -d ' ')" != '\n' ]; then
	lines=$((lines + 1))
fi
case $what in
all) content="lines: $lines, words: $words, bytes: $bytes" ;;
lines) content=$lines ;;
words) content=$words ;;
bytes) content=$bytes ;;
esac
printf '{"type":"success","content":"%s"}\n' "$content"
