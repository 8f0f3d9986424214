#!/bin/sh
# Golden CLI tests. Each case is tests/cli/cases/NAME.cmd holding the
# arguments (shell words) and, optionally, a line "# exit N"; the expected
# stdout is NAME.out and the expected stderr NAME.err (when present).
# UPDATE_GOLDEN=1 rewrites the expected files from what nicfit prints now.
set -u
: "${NICFIT:=build/nicfit}"
dir=tests/cli/cases
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cmd in "$dir"/*.cmd; do
	[ -f "$cmd" ] || continue
	name=$(basename "$cmd" .cmd)
	n=$((n + 1))
	want_rc=$(sed -n 's/^# exit \([0-9]*\)$/\1/p' "$cmd")
	[ -n "$want_rc" ] || want_rc=0
	args=$(grep -v '^#' "$cmd")
	stdin=/dev/null
	[ -f "$dir/$name.in" ] && stdin="$dir/$name.in"
	gen=$(sed -n 's/^# stdin: //p' "$cmd")
	if [ -n "$gen" ]; then
		sh -c "$gen" >"$tmp/stdin"
		stdin="$tmp/stdin"
	fi
	eval "set -- $args"
	"$NICFIT" "$@" <"$stdin" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/out" "$dir/$name.out"
		if [ -s "$tmp/err" ] || [ -f "$dir/$name.err" ]; then cp "$tmp/err" "$dir/$name.err"; fi
		sed -i '/^# exit /d' "$cmd"
		[ "$rc" -ne 0 ] && echo "# exit $rc" >>"$cmd"
		echo "ok $n - $name (updated)"
		continue
	fi
	why=
	[ "$rc" = "$want_rc" ] || why="exit $rc, expected $want_rc"
	if [ -z "$why" ] && ! cmp -s "$tmp/out" "$dir/$name.out"; then
		why="stdout differs"
		diff -u "$dir/$name.out" "$tmp/out" | head -40 | sed 's/^/# /'
	fi
	if [ -z "$why" ] && [ -f "$dir/$name.err" ] && ! cmp -s "$tmp/err" "$dir/$name.err"; then
		why="stderr differs"
		diff -u "$dir/$name.err" "$tmp/err" | head -20 | sed 's/^/# /'
	fi
	if [ -z "$why" ]; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: $why"
	fi
done
