#!/bin/sh
# The README's examples, run (TAP): every fenced block that opens with a
# `$ nicfit ...` line (or `$ VAR=value nicfit ...`), a `$ printf ...`
# pipeline or a `$ curl ...` request is a transcript. Each `$ ` line is a command (a line
# ending in a backslash or a pipe continues it), the lines after it up to
# the next `$ ` line are what it prints, standard error and output
# together (blank lines at the end aside), and the test runs the command
# and compares. So the README cannot drift from the binary.
#
# The conventions a transcript may use:
#  - a line that is exactly `...` stands for any number of lines (an
#    excerpt: the output was cut there);
#  - a block right under the line `<!-- readme: not run (REASON) -->` is
#    shown but not run (a live host, a server that keeps running); the
#    test lists it with its reason;
#  - the blocks run in order, the commands of one block in one bash, all
#    in one scratch directory where `tests` and `build` are the tree's, so
#    a command can read a file an earlier one wrote, and `echo $?` sees
#    the command before it.
# Commands run as the suite runs everything: piped (not wrapped, no
# colour) under LANG=C, with `nicfit` on PATH meaning $NICFIT. For the
# `curl` blocks the test starts `nicfit serve --port 0` and sends what the
# README sends to http://127.0.0.1:8080/ to the port it took.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
root=$(pwd)
readme=$root/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }

case $NICFIT in /*) bin=$NICFIT ;; *) bin=$root/$NICFIT ;; esac
case $BUILD in /*) build=$BUILD ;; *) build=$root/$BUILD ;; esac
mkdir -p "$tmp/bin" "$tmp/blocks"
ln -s "$bin" "$tmp/bin/nicfit"

# Split the transcripts: block B's command C goes to blocks/B.C.cmd and
# its expected output to blocks/B.C.want; blocks/B.skip holds a reason.
awk -v dir="$tmp/blocks" '
	function flush() { if (cmdf != "") { close(cmdf); close(wantf) } cmdf = ""; cont = 0 }
	# a fence closes with at least as many backticks as opened it (CommonMark)
	function closes(l) { return l ~ /^`+[ \t]*$/ && match(l, /^`+/) && RLENGTH >= fence }
	state == "out" || state == "" {
		if ($0 ~ /^<!-- readme: not run \(.*\) -->$/) {
			reason = $0; sub(/^<!-- readme: not run \(/, "", reason); sub(/\) -->$/, "", reason)
		} else if (match($0, /^```+/)) {
			state = "open"; fence = RLENGTH
		}
		next
	}
	state == "open" {
		if ($0 !~ /^\$ (([A-Z_]+=[^ ]* )*nicfit|printf|curl) /) { state = closes($0) ? "out" : "other"; reason = ""; next }
		state = "in"; b++; c = 0
		if (reason != "") { print reason > (dir "/" b ".skip"); close(dir "/" b ".skip") }
		reason = ""
		print NR > (dir "/" b ".line"); close(dir "/" b ".line")
	}
	state == "other" { if (closes($0)) state = "out"; next }
	closes($0) { flush(); state = "out"; next }
	# a command goes on after a line ending in a backslash or a pipe, and
	# while a single quote it opened is not closed (a JSON body for curl)
	cont { print > cmdf; q += gsub(/\047/, "\047"); cont = /(\\|\|)$/ || q % 2; next }
	/^\$ / {
		flush(); c++
		cmdf = dir "/" b "." c ".cmd"; wantf = dir "/" b "." c ".want"
		printf "" > wantf
		print substr($0, 3) > cmdf
		q = gsub(/\047/, "\047")
		cont = /(\\|\|)$/ || q % 2
		next
	}
	{ print > wantf }
' "$readme"

# Does file $1 (the output) match the transcript $2, where a line "..."
# matches any number of lines? Prints the first line that differs.
match() {
	awk -v want="$2" '
		BEGIN { while ((getline l < want) > 0) w[++nw] = l; while (nw && w[nw] == "") nw-- }
		{ o[++no] = $0 }
		# w[i..] matches o[j..]; far is the furthest README line reached,
		# at the furthest output line it was compared with
		function m(i, j,   k) {
			if (i > far || (i == far && j > at)) { far = i; at = j }
			if (i > nw) return j > no
			if (w[i] == "...") { for (k = j; k <= no + 1; k++) if (m(i + 1, k)) return 1; return 0 }
			if (j > no || w[i] != o[j]) return 0
			return m(i + 1, j + 1)
		}
		END {
			while (no && o[no] == "") no--
			if (m(1, 1)) exit 0
			if (far > nw)
				printf "the README shows %d lines; the binary prints more: %s\n", nw, o[at]
			else
				printf "README line %d of the output: %s\nthe binary prints: %s\n", far, w[far],
				       (at <= no ? o[at] : "(nothing more)")
			exit 1
		}
	' "$1"
}

# A server for the README's requests to http://127.0.0.1:8080/.
srv=
if grep -qs '127\.0\.0\.1:8080' "$tmp"/blocks/*.cmd; then
	"$bin" serve --port 0 >/dev/null 2>"$tmp/serve.err" &
	srv=$!
	trap 'kill "$srv" 2>/dev/null; rm -rf "$tmp"' EXIT
	i=0
	while [ $i -lt 100 ] && ! grep -q 'http://127\.0\.0\.1:[0-9]*/' "$tmp/serve.err"; do
		sleep 0.05; i=$((i + 1))
	done
	port=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.err" | head -1)
	if [ -n "$port" ]; then
		for f in "$tmp"/blocks/*.cmd; do
			sed -i "s|127\.0\.0\.1:8080|127.0.0.1:$port|g" "$f"
		done
		ok "nicfit serve for the README's requests (port $port)"
	else
		notok "nicfit serve for the README's requests"; sed 's/^/# /' "$tmp/serve.err"
	fi
fi

ln -s "$root/tests" "$tmp/tests"
mkdir -p "$tmp/build"
ln -s "$build/fixtures" "$tmp/build/fixtures"
blocks=$(ls "$tmp/blocks" | sed -n 's/^\([0-9]*\)\.line$/\1/p' | sort -n)
[ -n "$blocks" ] || { notok "the README has transcripts"; exit 0; }
ran=0
for b in $blocks; do
	line=$(cat "$tmp/blocks/$b.line")
	if [ -f "$tmp/blocks/$b.skip" ]; then
		ok "# SKIP README line $line: not run ($(cat "$tmp/blocks/$b.skip"))"
		continue
	fi
	# one shell per block: the commands in order, each output to its own file
	s=$tmp/blocks/$b.sh
	: >"$s"
	c=1
	while [ -f "$tmp/blocks/$b.$c.cmd" ]; do
		{ echo '{'; cat "$tmp/blocks/$b.$c.cmd"; echo "} >'$tmp/blocks/$b.$c.out' 2>&1"; } >>"$s"
		c=$((c + 1))
	done
	(cd "$tmp" && PATH="$tmp/bin:$PATH" timeout 60 bash "$s") >/dev/null 2>&1
	c=1
	while [ -f "$tmp/blocks/$b.$c.cmd" ]; do
		[ -f "$tmp/blocks/$b.$c.out" ] || : >"$tmp/blocks/$b.$c.out"
		cmd=$(head -1 "$tmp/blocks/$b.$c.cmd" | cut -c1-70)
		if why=$(match "$tmp/blocks/$b.$c.out" "$tmp/blocks/$b.$c.want"); then
			ok "README line $line: \$ $cmd"
		else
			notok "README line $line: \$ $cmd"
			echo "$why" | sed 's/^/# /'
		fi
		ran=$((ran + 1))
		c=$((c + 1))
	done
done
# After `make run` the examples' `nicfit` must be found: the Quick start and make run say how.
sed -n '/^## Quick start/,/^## Examples/p' "$readme" | grep -q '^export PATH="$PWD/build:$PATH"$' &&
	grep -q 'export PATH=' "$root/Makefile" && ok "the Quick start and make run put nicfit on PATH" ||
	notok "the Quick start and make run put nicfit on PATH"
[ "$ran" -gt 20 ] && ok "$ran README commands run and compared" || notok "only $ran README commands found"
