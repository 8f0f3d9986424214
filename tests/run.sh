#!/bin/sh
# Run every test suite and print one closing line "N passed, N failed".
#
# Suites speak TAP ("ok N - name" / "not ok N - name"): cmocka unit tests,
# golden CLI tests, fuzz corpus replays, fixture and oracle tests, the web
# server tests. NICFIT and BUILD come from the Makefile.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
export NICFIT BUILD LANG=C LC_ALL=C NO_COLOR=1 CMOCKA_MESSAGE_OUTPUT=TAP
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() { # name command... (a suite still running after SUITE_TIMEOUT seconds fails)
	name=$1; shift
	echo "# suite $name"
	timeout --foreground "${SUITE_TIMEOUT:-1800}" "$@" >"$log.out" 2>&1
	rc=$?
	[ $rc = 124 ] && echo "not ok - $name did not finish within ${SUITE_TIMEOUT:-1800} s" >>"$log.out"
	cat "$log.out"
	if ! grep -qE '^(not )?ok ' "$log.out"; then
		echo "not ok - $name produced no results (exit $rc)"
	elif [ $rc -ne 0 ] && ! grep -q '^not ok' "$log.out"; then
		echo "not ok - $name exited $rc"
	fi
	rm -f "$log.out"
}

{
	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		run "$(basename "$t")" "$t"
	done
	for t in "$BUILD"/tests/fuzz_*; do
		[ -x "$t" ] || continue
		n=$(basename "$t"); n=${n#fuzz_}
		run "replay $n" "$t" "tests/fuzz/corpus/$n"
	done
	# SANITIZE=1 with clang installed: the same corpora under clang's sanitizers.
	for t in "$BUILD"/clang/fuzz_*; do
		[ "${SANITIZE:-}" = 1 ] && [ -x "$t" ] || continue
		n=$(basename "$t"); n=${n#fuzz_}
		run "clang replay $n" "$t" "tests/fuzz/corpus/$n"
	done
	for s in tests/suites/*.sh; do
		[ -f "$s" ] || continue
		run "$(basename "$s" .sh)" sh "$s"
	done
} | tee "$log"

pass=$(grep -cE '^ok ' "$log")
fail=$(grep -cE '^not ok ' "$log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
