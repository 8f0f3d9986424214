#!/bin/sh
# nicfit audit against hwloc's lstopo on the same sysfs trees (the fixture
# machines), measured in one run: the mean wall-clock time of a whole
# `nicfit audit --sysfs DIR --json` process and of `lstopo-no-graphics -i DIR
# --whole-io --of xml`, their ratio, and nicfit's in-process time per host
# (discovery + judgement + JSON, without process start-up and catalog load;
# the goal is under 5 ms per host).
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=50}" "${BUILD:=build}"
# The trees go to a RAM file system when there is one: sysfs lives in memory too.
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/nicfit-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fx="$tmp/fixtures"
sh tests/fixtures/gen.sh "$fx" >/dev/null
cc -std=c11 -O2 -Iinclude -D_POSIX_C_SOURCE=200809L -o "$tmp/audit_host" bench/audit_host.c \
	"$BUILD/libnicfit.a" $(pkg-config --libs jansson smartcols libxml-2.0) -ldl -lpthread -lm
have_lstopo=1
command -v lstopo-no-graphics >/dev/null 2>&1 || have_lstopo=0

# Whole processes are timed in turn by bench/pair.c (posix_spawn, the clock
# around waitpid), so lstopo's environment costs no env(1) process and load
# on the machine weighs on both; without it, a shell loop times them.
pairbin=
if cc -std=c11 -O2 -o "$tmp/pair" bench/pair.c 2>/dev/null; then pairbin=$tmp/pair; fi
now() { date +%s%N; }
mean_us() { # runs command... -> mean microseconds
	n=$1; shift
	i=0
	t0=$(now)
	while [ $i -lt "$n" ]; do
		env "$@" >/dev/null 2>&1 </dev/null || true
		i=$((i + 1))
	done
	t1=$(now)
	echo $(((t1 - t0) / n / 1000))
}

echo "audit: nicfit audit vs lstopo -i on the same tree ($RUNS runs each; microseconds)"
printf '  %-11s %5s %9s %9s %7s %10s %10s\n' machine pci nicfit lstopo ratio "in-proc" "best"
worst=0
for d in "$fx"/*/; do
	name=$(basename "$d")
	npci=$(ls "$d/sys/bus/pci/devices" | wc -l)
	if [ $have_lstopo = 1 ] && [ -n "$pairbin" ]; then
		set -- $("$pairbin" "$RUNS" "$NICFIT" audit --sysfs "$d" --json -- \
			HWLOC_COMPONENTS=linux,stop lstopo-no-graphics -i "$d" --whole-io --of xml -)
		t_n=$1 t_l=$2
	else
		t_n=$(mean_us "$RUNS" "$NICFIT" audit --sysfs "$d" --json)
		t_l=-
		[ $have_lstopo = 1 ] && t_l=$(mean_us "$RUNS" HWLOC_COMPONENTS=linux,stop \
			lstopo-no-graphics -i "$d" --whole-io --of xml -)
	fi
	ratio=-
	[ "$t_l" != - ] && ratio=$(awk -v a="$t_n" -v b="$t_l" 'BEGIN { printf "%.2f", a / b }')
	set -- $("$tmp/audit_host" "$d" 200)
	[ "$2" -gt "$worst" ] && worst=$2
	printf '  %-11s %5d %9s %9s %7s %10s %10s\n' "$name" "$npci" "$t_n" "$t_l" "$ratio" "$2" "$1"
done
awk -v w="$worst" 'BEGIN { printf "  slowest in-process median: %.2f ms per host (%s 5 ms)\n", w / 1000, w < 5000 ? "under" : "OVER" }'
