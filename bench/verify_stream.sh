#!/bin/sh
# verify on a large NCCL log, against grep on the same file, in one run:
#
#   MB=1024 RUNS=5 IRMB=20 [INTERLEAVE=1] sh bench/verify_stream.sh
#
# bench/verify_log_gen.awk writes an NCCL_DEBUG=INFO log of a 16-node
# all_reduce_perf run of MB megabytes (NCCL's own line formats, each
# rank's prefix, channel, per-QP and init lines, the job's own lines
# between them, an nccl-tests table at the end; INTERLEAVE=1 prints the
# ranks' channel lines in turn, as racing ranks do). Then, on that file:
#
#   time   the least wall time of RUNS runs of `nicfit verify` and of
#          `grep -c "NCCL INFO"`, run in turn so that load on the machine
#          weighs on both, and their ratio;
#   memory the peak resident set (/usr/bin/time -v) of verify on the large
#          file and on a 1 MB one: flat means the same figure;
#   Ir     with valgrind (IR=0 skips it), callgrind's instruction count of
#          verify and of grep -c on an IRMB-megabyte log, a byte: a count
#          that load on the machine does not change.
#
# Prints figures; asserts nothing (no timing belongs in a test).
set -eu
: "${NICFIT:=build/nicfit}" "${MB:=1024}" "${RUNS:=5}" "${IRMB:=20}" "${IR:=1}" "${INTERLEAVE:=0}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicfit-verify-stream-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
here=$(dirname "$0")
gen() { awk -v mb="$1" -v nodes=16 -v interleave="$INTERLEAVE" -f "$here/verify_log_gen.awk" >"$2"; }
gen "$MB" "$tmp/big.log"
gen 1 "$tmp/small.log"
bytes=$(wc -c <"$tmp/big.log")
lines=$(wc -l <"$tmp/big.log")
echo "log: $bytes bytes, $lines lines ($MB MB asked)"

# ms CMD...: wall milliseconds of one run (output to a file: GNU grep stops at
# the first match when its output is /dev/null)
ms() {
	s=$(date +%s%N)
	"$@" >"$tmp/ms.out" 2>&1 || true
	e=$(date +%s%N)
	echo $(((e - s) / 1000000))
}
vbest=; gbest=
i=0
while [ $i -lt "$RUNS" ]; do
	v=$(ms "$NICFIT" verify "$tmp/big.log")
	g=$(ms grep -c "NCCL INFO" "$tmp/big.log")
	[ -z "$vbest" ] || [ "$v" -lt "$vbest" ] && vbest=$v
	[ -z "$gbest" ] || [ "$g" -lt "$gbest" ] && gbest=$g
	i=$((i + 1))
done
echo "time (least of $RUNS): verify ${vbest} ms, grep -c ${gbest} ms," \
	"verify/grep = $(awk -v a="$vbest" -v b="$gbest" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
"$NICFIT" verify "$tmp/big.log" >"$tmp/out" 2>&1 || true
head -n 3 "$tmp/out" | sed 's/^/  /'

if [ -x /usr/bin/time ]; then
	rss() { /usr/bin/time -v "$@" 2>&1 >"$tmp/rss.out" | sed -n 's/.*Maximum resident set size (kbytes): //p'; }
	echo "peak RSS: verify on $MB MB $(rss "$NICFIT" verify "$tmp/big.log") kB," \
		"on 1 MB $(rss "$NICFIT" verify "$tmp/small.log") kB;" \
		"grep -c on $MB MB $(rss grep -c "NCCL INFO" "$tmp/big.log") kB"
fi

command -v valgrind >/dev/null 2>&1 || IR=0
if [ "$IR" = 1 ]; then
	gen "$IRMB" "$tmp/ir.log"
	irbytes=$(wc -c <"$tmp/ir.log")
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >"$tmp/ir.out" |
			sed -n 's/.*refs: *//p' | tr -d ,
	}
	vir=$(ir "$NICFIT" verify "$tmp/ir.log")
	gir=$(ir grep -c "NCCL INFO" "$tmp/ir.log")
	echo "instructions on $irbytes bytes: verify $vir" \
		"($(awk -v a="$vir" -v b="$irbytes" 'BEGIN { printf "%.1f", a / b }') a byte)," \
		"grep -c $gir ($(awk -v a="$gir" -v b="$irbytes" 'BEGIN { printf "%.1f", a / b }') a byte)"
fi
