#!/bin/sh
# The audit reads what its facts need, once: on every fixture tree and on
# hosts of 321 and 1,089 PCI functions with SR-IOV VFs (bench/bigtree.sh),
# the syscalls `nicfit audit --sysfs TREE` makes on the tree (strace -f -y:
# every call whose descriptor or path is in the tree) stay within 1.1x of
# the minimal count: bench/reads.c lists what discovery reads, once each
# with why, and does exactly those reads with the same relative opens,
# counting its syscalls. Counts, not times. Config space is read by the
# registers used: at most 256 bytes a function on average, whatever the
# tree holds. Skipped without strace or a C compiler.
# `nicfit audit --trace-reads` lists those reads: its distinct reads are
# the list, its count line counts its lines, and the report on stdout is
# the one without the option (on each tree and on a snapshot archive).
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }
if ! cc -std=c11 -O2 -Iinclude -o "$tmp/reads" bench/reads.c "$BUILD/libnicfit.a" \
		$(pkg-config --libs jansson smartcols) -ldl -lpthread -lm 2>"$tmp/cc.err"; then
	skip "no C compiler"
	exit 0
fi
# traced TREE LIST NAME: --trace-reads on TREE against the list bench/reads.c made
traced() {
	"$NICFIT" audit --sysfs "$1" >"$tmp/plain.out" 2>/dev/null
	"$NICFIT" audit --sysfs "$1" --trace-reads >"$tmp/tr.out" 2>"$tmp/tr.err"
	lines=$(grep -c '^nicfit: read ' "$tmp/tr.err")
	said=$(sed -n 's/^nicfit: \([0-9]*\) reads of sysfs, [0-9]* bytes$/\1/p' "$tmp/tr.err")
	grep '^nicfit: read ' "$tmp/tr.err" | cut -f1 | sed 's/^nicfit: read //' | sort -u >"$tmp/tr.keys"
	cut -f1 "$2" | sort >"$tmp/list.keys"
	if [ "$lines" -gt 0 ] && [ "$said" = "$lines" ] && cmp -s "$tmp/tr.keys" "$tmp/list.keys" &&
		cmp -s "$tmp/plain.out" "$tmp/tr.out"; then
		ok "$3: --trace-reads: $said reads, $(wc -l <"$tmp/list.keys") distinct as listed, same report"
	else
		no "$3: --trace-reads: ${said:-no} count for $lines lines, $(wc -l <"$tmp/tr.keys") distinct, $(wc -l <"$tmp/list.keys") listed"
	fi
}
strace=1
if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
	skip "no strace (or it cannot trace here): syscall counts"
	strace=0
fi
sh bench/bigtree.sh "$tmp/big" 321 1089 >/dev/null 2>&1 || no "bench/bigtree.sh builds big hosts"
for d in "$fx"/*/ "$tmp"/big/big*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	m=$(basename "$d")
	"$tmp/reads" list "$d" >"$tmp/$m.list" 2>/dev/null || { no "$m: reads list"; continue; }
	traced "$d" "$tmp/$m.list" "$m"
	[ "$strace" = 1 ] || continue
	floor=$("$tmp/reads" run "$d" "$tmp/$m.list")
	strace -f -y -o "$tmp/$m.st" "$NICFIT" audit --sysfs "$d" --json >/dev/null 2>&1
	calls=$(grep -cF "$d" "$tmp/$m.st")
	npci=$(grep -c '^L sys/bus/pci/devices/' "$tmp/$m.list")
	cfg=$(awk '$1 == "P" { s += $4 } END { print s + 0 }' "$tmp/$m.list")
	if awk -v a="$calls" -v f="$floor" 'BEGIN { exit !(a <= 1.1 * f) }'; then
		ok "$m: $calls syscalls, minimal $floor"
	else
		no "$m: $calls syscalls, over 1.1x the minimal $floor"
	fi
	if awk -v c="$cfg" -v p="$npci" 'BEGIN { exit !(p == 0 || c <= 256 * p) }'; then
		ok "$m: $cfg bytes of config for $npci functions"
	else
		no "$m: $cfg bytes of config for $npci functions (over 256 a function)"
	fi
done
# a snapshot archive: unpacked, its reads are the tree's
if "$NICFIT" snapshot --sysfs "$fx/x11-200g" "$tmp/s.tar.gz" >/dev/null 2>&1; then
	traced "$tmp/s.tar.gz" "$tmp/x11-200g.list" "snapshot of x11-200g"
else
	no "snapshot of x11-200g"
fi
echo "1..$n"
