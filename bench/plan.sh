#!/bin/sh
# One plan in process, per named example: median microseconds of reading
# the request, planning and rendering JSON (bench/plan_host.c; the
# catalog is loaded once), and the ratio of the total to the goal of
# 10 us for a whole plan (<= 1.00 meets it). Where valgrind is
# installed (IR=0 skips it), also the instructions one plan takes, which
# do not depend on the machine's load: callgrind counting only inside
# nicfit_plan_input_from_spec, nicfit_plan and nicfit_plan_render, over
# 2 x IR_RUNS plans less over IR_RUNS plans, divided by IR_RUNS. The
# difference leaves out what the first plan of a process does once (the
# catalog's sorted views, built on first use), which the medians leave
# out too: over 10 plans it added some 45,000 instructions to each.
set -eu
: "${BUILD:=build}" "${RUNS:=1000}" "${IR:=1}" "${IR_RUNS:=10}" "${GOAL_US:=10}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -Iinclude -D_POSIX_C_SOURCE=200809L -o "$tmp/plan_host" bench/plan_host.c \
	"$BUILD/libnicfit.a" $(pkg-config --libs jansson smartcols libxml-2.0) -ldl -lpthread -lm
echo "plan: in process, median of $RUNS runs per example; goal ${GOAL_US} us"
"$tmp/plan_host" "$RUNS" >"$tmp/medians"
if [ "$IR" != 0 ] && command -v valgrind >/dev/null 2>&1; then
	# instructions of N plans of example $1 in one process
	ir_of() {
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
			--toggle-collect=nicfit_plan_input_from_spec --toggle-collect=nicfit_plan \
			--toggle-collect=nicfit_plan_render "$tmp/plan_host" "$2" "$1" \
			>/dev/null 2>"$tmp/cg.err" || { cat "$tmp/cg.err" >&2; exit 1; }
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err"
	}
	for x in $(awk 'NR > 1 { print $1 }' "$tmp/medians"); do
		one=$(ir_of "$x" "$IR_RUNS")
		two=$(ir_of "$x" $((2 * IR_RUNS)))
		echo "$x $(((two - one) / IR_RUNS))"
	done >"$tmp/ir"
else
	: >"$tmp/ir"
fi
# FILENAME, not NR == FNR: the instruction file is empty with IR=0 or without valgrind
awk -v goal="$GOAL_US" -v irf="$tmp/ir" 'FILENAME == irf { ir[$1] = $2; next }
	FNR == 1 { printf "%s %10s %8s\n", $0, "goal x", (length(ir) ? "instr" : ""); next }
	{ printf "%s %10.2f", $0, $5 / goal; if ($1 in ir) printf " %8d", ir[$1]; printf "\n" }' \
	"$tmp/ir" "$tmp/medians"
