#!/bin/sh
# The start-up and audit ratios, in one run: whole-process `nicfit audit
# --sysfs TREE --json` against hwloc's `lstopo-no-graphics -i TREE` on the
# same trees (the fixture machines), and `nicfit plan --example --json`
# against `nicfit --version` (the floor of a nicfit process). Both sides of
# a ratio are measured in turn in the same loop, so load on the machine
# weighs on both. POST /api/plan against nginx is bench/serve.sh.
# The audit is also set against the floor under it: bench/reads.c does
# exactly the reads the audit's facts need on each tree, with the same
# relative opens, and nothing else; that process is timed against lstopo
# too, the ceiling of any audit's speed-up over lstopo on that tree
# (bench/floor.sh sets all three side by side, with min and median). With
# valgrind installed (IR=0 skips it), the same pairs are counted in
# instructions too (callgrind's Ir,
# which load on the machine does not change): the whole audit process, the
# whole lstopo process, and the reads alone (bench/reads.c's pass()).
# Prints figures; asserts nothing (compare ratios, not times, across machines).
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=100}" "${BUILD:=build}" "${IR:=1}"
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/nicfit-ratios-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sh tests/fixtures/gen.sh "$tmp/fx" >/dev/null
reads=
if [ -f "$BUILD/libnicfit.a" ] && cc -std=c11 -O2 -Iinclude -D_POSIX_C_SOURCE=200809L \
	-o "$tmp/reads" bench/reads.c "$BUILD/libnicfit.a" $(pkg-config --libs jansson smartcols) \
	-ldl -lpthread -lm 2>"$tmp/cc.err"; then
	reads=$tmp/reads
fi
command -v valgrind >/dev/null 2>&1 || IR=0
# ir CMD...: callgrind's instruction count of a whole process
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*refs: *//p' | tr -d ,
}

# pair N [NAME=VALUE...] cmdA -- [NAME=VALUE...] cmdB: mean microseconds
# of whole processes A and B, run in turn. bench/pair.c times them with
# posix_spawn() and clock_gettime(); without a compiler, a shell loop
# around date(1) does, which adds about a fork and a date process to each
# side and so pulls the ratios towards 1.
pairbin=
timer="the shell"
if cc -std=c11 -O2 -o "$tmp/pair" bench/pair.c 2>>"$tmp/cc.err"; then pairbin=$tmp/pair timer=bench/pair.c; fi
now() { date +%s%N; }
pair() {
	if [ -n "$pairbin" ]; then "$pairbin" "$@"; return; fi
	n=$1; shift
	a= b=
	while [ "$1" != -- ]; do a="$a '$1'"; shift; done
	shift
	for w in "$@"; do b="$b '$w'"; done
	ta=0 tb=0 i=0
	while [ $i -lt "$n" ]; do
		t0=$(now); eval "env $a" </dev/null >/dev/null 2>&1 || true; t1=$(now)
		eval "env $b" </dev/null >/dev/null 2>&1 || true; t2=$(now)
		ta=$((ta + t1 - t0)); tb=$((tb + t2 - t1)); i=$((i + 1))
	done
	echo $((ta / n / 1000)) $((tb / n / 1000))
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

echo "ratios ($RUNS alternating runs each; mean microseconds per whole process, timed by $timer)"
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	# "reads" is a process that does nothing but the audit's reads (bench/reads.c),
	# timed against lstopo too: lstopo/reads is the most any audit of that tree
	# could be faster than lstopo, had it no cost beyond its reads ("ceiling").
	printf '  %-34s %5s %9s %9s %8s %9s %8s\n' "audit --sysfs vs lstopo -i" pci nicfit lstopo \
		"speed-up" reads ceiling
	for d in "$tmp"/fx/*/; do
		npci=$(ls "$d/sys/bus/pci/devices" | wc -l)
		set -- $(pair "$RUNS" "$NICFIT" audit --sysfs "$d" --json -- \
			HWLOC_COMPONENTS=linux,stop lstopo-no-graphics -i "$d" --whole-io --of xml -)
		a=$1 b=$2 r=- c=-
		if [ -n "$reads" ]; then
			l="$tmp/$(basename "$d").list"
			"$reads" list "$d" >"$l"
			set -- $(pair "$RUNS" "$reads" run "$d" "$l" -- \
				HWLOC_COMPONENTS=linux,stop lstopo-no-graphics -i "$d" --whole-io --of xml -)
			r=$1 c="$(ratio "$2" "$1")x"
		fi
		printf '  %-34s %5d %9s %9s %7sx %9s %8s\n' "$(basename "$d")" "$npci" "$a" "$b" \
			"$(ratio "$b" "$a")" "$r" "$c"
	done
	if [ "$IR" = 1 ]; then
		printf '  %-34s %12s %12s %9s\n' "in instructions (callgrind Ir)" nicfit lstopo "fewer"
		for d in "$tmp"/fx/*/; do
			a=$(ir "$NICFIT" audit --sysfs "$d" --json)
			b=$(HWLOC_COMPONENTS=linux,stop; export HWLOC_COMPONENTS
				ir lstopo-no-graphics -i "$d" --whole-io --of xml -)
			printf '  %-34s %12s %12s %8sx\n' "$(basename "$d")" "$a" "$b" "$(ratio "$b" "$a")"
		done
		# the floor under every audit: a nicfit process that does nothing
		# (loading and relocating nicfit and the libraries it links)
		printf '  %-34s %12s\n' "nicfit --version (the floor)" "$(ir "$NICFIT" --version)"
	fi
else
	echo "  audit vs lstopo: lstopo-no-graphics is missing (scripts/deps.sh bench installs hwloc-nox)"
fi
# the audit against its floor (min and median, syscalls, config bytes): bench/floor.sh
set -- $(pair "$RUNS" "$NICFIT" plan --example --json -- "$NICFIT" --version)
printf '  %-34s %9s us, --version %s us: %s x --version\n' "plan --example --json" "$1" "$2" \
	"$(ratio "$1" "$2")"
set -- $(pair "$RUNS" "$NICFIT" catalog show mcx653106a-hdat --json -- "$NICFIT" --version)
printf '  %-34s %9s us, --version %s us: %s x --version\n' "catalog show ID --json (lazy JSON)" \
	"$1" "$2" "$(ratio "$1" "$2")"
