#!/bin/sh
# The audit against its floor and against hwloc's lstopo, on every fixture
# tree and on hosts of 321, 1,089 and 4,161 PCI functions with SR-IOV VFs
# (bench/bigtree.sh), all measured in the same run:
#
#   audit  `nicfit audit --sysfs TREE --json`, a whole process
#   floor  `reads run TREE LIST` (bench/reads.c): a process that opens and
#          reads exactly what the audit's facts need (LIST, from `reads list`,
#          each item once), with the same relative opens, and nothing else
#   lstopo `lstopo-no-graphics -i TREE --whole-io --of xml -` (Debian hwloc)
#
# For each tree: syscalls of each whole process (strace -f -c), bytes of
# config space read (strace: reads and preads of .../config), user
# instructions (callgrind Ir; IR=0 skips), and the wall time of the three
# run in turn RUNS times (bench/turns.c; at least 41): min and median, with
# audit/floor and lstopo/audit of each. Prints figures, asserts nothing
# (tests/suites/reads.sh holds the syscall and config bounds).
#
# BASE=OTHER/nicfit adds that build's audit to the same turns (a before
# and after in one run, under the same load): its syscalls, instructions
# and min/median, and base/audit.
#
#   sh bench/floor.sh            RUNS=41 IR=1 BIG="321 1089 4161" BASE=
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=41}" "${BUILD:=build}" "${IR:=1}" "${BIG:=321 1089 4161}"
: "${BASE:=}"
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/nicfit-floor-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
sh tests/fixtures/gen.sh "$tmp/fx" >/dev/null
[ -n "$BIG" ] && sh bench/bigtree.sh "$tmp/fx" $BIG
rm -f "$tmp"/fx/*.host
cc -std=c11 -O2 -Iinclude -o "$tmp/reads" bench/reads.c "$BUILD/libnicfit.a" \
	$(pkg-config --libs jansson smartcols) -ldl -lpthread -lm
cc -std=c11 -O2 -o "$tmp/turns" bench/turns.c
have() { command -v "$1" >/dev/null 2>&1; }
have lstopo-no-graphics || { echo "floor: lstopo-no-graphics is missing (apt-get install hwloc-nox)" >&2; exit 69; }
have strace || { echo "floor: strace is missing (apt-get install strace)" >&2; exit 69; }
have valgrind || IR=0
HWLOC_COMPONENTS=linux,stop
export HWLOC_COMPONENTS
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
# calls CMD...: syscalls of the whole process
calls() { strace -f -c -o "$tmp/c" "$@" >/dev/null 2>&1 || true; awk '$NF == "total" { print $(NF - 2) }' "$tmp/c"; }
# cfgbytes CMD...: bytes of config space the process read
cfgbytes() {
	strace -f -y -e trace=read,pread64 -o "$tmp/b" "$@" >/dev/null 2>&1 || true
	awk '/\/config>/ && $NF ~ /^[0-9]+$/ { s += $NF } END { print s + 0 }' "$tmp/b"
}
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*refs: *//p' | tr -d ,
}

echo "audit vs floor vs lstopo -i: $RUNS runs in turn; wall microseconds min/median (bench/turns.c)"
[ -n "$BASE" ] && echo "base: $BASE, in the same turns"
printf '%-16s %5s | %6s %6s %6s | %7s %7s | %11s %11s %11s | %15s %15s %15s | %11s %11s' tree pci \
	"sys:au" floor lstopo "cfgB:au" lstopo "Ir:audit" floor lstopo \
	"audit min/med" "floor" "lstopo" "au/floor" "lstopo/au"
[ -n "$BASE" ] && printf ' | %6s %11s %15s %11s' "sys:bs" "Ir:base" "base min/med" "base/au"
echo
for d in "$tmp"/fx/*/; do
	d=${d%/}
	m=$(basename "$d")
	l="$tmp/$m.list"
	"$tmp/reads" list "$d" >"$l"
	npci=$(grep -c '^L sys/bus/pci/devices/' "$l" || true)
	sa=$(calls "$NICFIT" audit --sysfs "$d" --json)
	sf=$(calls "$tmp/reads" run "$d" "$l")
	sl=$(calls lstopo-no-graphics -i "$d" --whole-io --of xml -)
	ba=$(cfgbytes "$NICFIT" audit --sysfs "$d" --json)
	bl=$(cfgbytes lstopo-no-graphics -i "$d" --whole-io --of xml -)
	ia=- if=- il=-
	if [ "$IR" = 1 ]; then
		ia=$(ir "$NICFIT" audit --sysfs "$d" --json)
		if=$(ir "$tmp/reads" run "$d" "$l")
		il=$(ir lstopo-no-graphics -i "$d" --whole-io --of xml -)
	fi
	if [ -n "$BASE" ]; then
		set -- $("$tmp/turns" "$RUNS" "$NICFIT" audit --sysfs "$d" --json -- \
			"$tmp/reads" run "$d" "$l" -- lstopo-no-graphics -i "$d" --whole-io --of xml - -- \
			"$BASE" audit --sysfs "$d" --json)
	else
		set -- $("$tmp/turns" "$RUNS" "$NICFIT" audit --sysfs "$d" --json -- \
			"$tmp/reads" run "$d" "$l" -- lstopo-no-graphics -i "$d" --whole-io --of xml -)
	fi
	printf '%-16s %5s | %6s %6s %6s | %7s %7s | %11s %11s %11s | %7s/%-7s %7s/%-7s %7s/%-7s | %5s/%-5s %5s/%-5s' \
		"$m" "$npci" "$sa" "$sf" "$sl" "$ba" "$bl" "$ia" "$if" "$il" "$1" "$2" "$3" "$4" "$5" "$6" \
		"$(ratio "$1" "$3")" "$(ratio "$2" "$4")" "$(ratio "$5" "$1")" "$(ratio "$6" "$2")"
	if [ -n "$BASE" ]; then
		sb=$(calls "$BASE" audit --sysfs "$d" --json)
		ib=-
		[ "$IR" = 1 ] && ib=$(ir "$BASE" audit --sysfs "$d" --json)
		printf ' | %6s %11s %7s/%-7s %5s/%-5s' "$sb" "$ib" "$7" "$8" \
			"$(ratio "$7" "$1")" "$(ratio "$8" "$2")"
	fi
	echo
done
