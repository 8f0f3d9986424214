#!/bin/sh
# Big hosts for the cost-per-function benchmarks: the hgx-h100 fixture with
# SR-IOV virtual functions added to its eight ConnectX-7 NICs until the
# host has N PCI functions (66 of its own), as hosts with 8 NICs x 127 VFs
# and more have. VFs go on the PF's bus after it (00.1 to 1f.7), then on
# the next bus numbers above it the host does not use (a VF's routing ID is
# above its PF's), siblings of their PF as the kernel places them.
#
#   bench/bigtree.sh OUT N...     writes OUT/bigN.host and builds OUT/bigN
set -eu
out=${1:?usage: bigtree.sh OUT N...}
shift
here=$(cd "$(dirname "$0")/.." && pwd)
base="$here/tests/fixtures/machines/hgx-h100.host"
mkdir -p "$out"
for n in "$@"; do
	LC_ALL=C awk -v total="$n" '
	function hex2(v) { return sprintf("%02x", v) }
	function val(s,    i, c, v) {
		s = tolower(s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	{ line[NR] = $0 }
	$1 == "pci" {
		npci++
		split($2, a, ":"); if (a[1] == "0000") used[val(a[2])] = 1
		if ($3 ~ /^0000:/ && $0 ~ /class=020700/ && $0 ~ /id=15b3:1021/ && $2 ~ /\.0$/) {
			pf[++npf] = $2; pfline[npf] = NR; par[npf] = $3
			pfbus[npf] = val(a[2]); m = $0
			sub(/ vpd=[^ ]*/, "", m); sub(/ mrrs=[^ ]*/, "", m); sub(/ id=15b3:1021/, " id=15b3:101e", m)
			sub(/^pci [^ ]* [^ ]* /, "", m); vfrest[npf] = m
		}
	}
	END {
		v = total - npci
		if (v < 0 || npf == 0) { print "bigtree: cannot reach " total > "/dev/stderr"; exit 1 }
		for (i = 1; i <= npf; i++) cnt[i] = int(v / npf) + (i <= v % npf)
		for (i = 1; i <= NR; i++) {
			l = line[i]
			for (k = 1; k <= npf; k++) if (pfline[k] == i && cnt[k]) l = l " sriov=" cnt[k] "/" cnt[k]
			print l
		}
		for (k = 1; k <= npf; k++) {
			bus = pfbus[k]; df = 1
			for (j = 0; j < cnt[k]; j++) {
				if (df == 256) {
					free = bus + 1
					while (free in used) free++
					if (free > 255) { print "bigtree: out of bus numbers" > "/dev/stderr"; exit 1 }
					used[free] = 1; bus = free; df = 0
				}
				printf "pci 0000:%s:%s.%d %s %s physfn=%s\n", hex2(bus), hex2(int(df / 8)), df % 8, par[k], vfrest[k], pf[k]
				df++
			}
		}
	}' "$base" >"$out/big$n.host"
	rm -rf "$out/big$n"
	mkdir -p "$out/big$n.tmp"
	LC_ALL=C awk -v out="$out/big$n.tmp" -f "$here/tests/fixtures/sysfs.awk" "$out/big$n.host"
	mv "$out/big$n.tmp" "$out/big$n"
done
