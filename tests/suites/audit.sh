#!/bin/sh
# nicfit audit and snapshot end to end: exit statuses by the worst finding,
# snapshots (directory and archives) that audit like the original, archives
# made by other tools, the live host and a snapshot of it, well-formed SVG.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # name command... (true/false)
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}
# audit JSON with the root blanked out
audit_json() {
	"$NICFIT" audit --sysfs "$1" --no-pci-ids -j 2>/dev/null | sed 's#"root":"[^"]*"#"root":"R"#'
}

for pair in x11-200g:1 r740xd:1 hgx-h100:1 epyc-gen4:1 kvm-vm:0 xenial-k44:0 r910-qdr:1 wrx80-t2l:1 \
	nonuma-file:1 r740-interleave:0 hpt-nvme:0; do
	m=${pair%:*}; want=${pair#*:}
	"$NICFIT" audit --sysfs "$fx/$m" >/dev/null 2>&1
	rc=$?
	check "$m: exit $want (worst finding)" [ "$rc" = "$want" ]
done

# node lists ending "\n\0" (kernels ~2.6.23 to 2011): four nodes, four packages, and the
# HCA without locality is a warning, not a device on a synthetic node 0
audit_json "$fx/r910-qdr" >"$tmp/r910.json"
check "r910-qdr: NUL-terminated node lists give 4 NUMA nodes" \
	[ "$(grep -o '{"id":[0-9]*,"socket":[0-9]*,"cpus"' "$tmp/r910.json" | wc -l)" = 4 ]
check "r910-qdr: 4 sockets" grep -q '"sockets":4,' "$tmp/r910.json"
check "r910-qdr: numa-locality-unknown" grep -q '"code":"numa-locality-unknown"' "$tmp/r910.json"
# one node over two packages (BIOS node interleaving): 2 sockets
check "r740-interleave: 2 sockets on 1 node" sh -c "'$NICFIT' audit --sysfs '$fx/r740-interleave' -j 2>/dev/null | grep -q '\"sockets\":2,'"

# a dual-port 200G ConnectX-7 (MCX755106AS-HEAT) named alike from VPD (root) and from its
# PSID MT_0000000834 (everyone): the same part, 2 x 200G, no family-maximum 400G
cp -a "$fx/hgx-h100" "$tmp/hgx-user"
find "$tmp/hgx-user/sys/devices" -name vpd -exec rm -f {} +
find "$tmp/hgx-user/sys/devices" -name config -exec truncate -s 64 {} +
cx7_card() { # tree: name, port count and rate of 0000:1e:00.0
	"$NICFIT" audit --sysfs "$1" --no-pci-ids -j 2>/dev/null |
		sed 's/{"bdf":/\n{"bdf":/g' | grep '^{"bdf":"0000:1e:00.0"' |
		grep -o '"name":"[^"]*"\|"ports":[0-9]*\|"port_gbps":[0-9.]*\|"part_source":"[^"]*"' |
		awk '!/^"name"/ || !n++' | tr '\n' ' '
}
root_view=$(cx7_card "$fx/hgx-h100")
user_view=$(cx7_card "$tmp/hgx-user")
check "CX-7 2 x 200G as root: named from VPD with 200G ports" \
	[ "$root_view" = '"name":"ConnectX-7 MCX755106AS-HEAT" "part_source":"vpd" "ports":2 "port_gbps":200.0 ' ]
check "CX-7 2 x 200G without root: the same part from its PSID" \
	[ "$user_view" = '"name":"ConnectX-7 MCX755106AS-HEAT" "part_source":"psid" "ports":2 "port_gbps":200.0 ' ]
check "CX-7 2 x 200G without root: no nic-card-pcie-bound" \
	sh -c "! '$NICFIT' audit --sysfs '$tmp/hgx-user' -j 2>/dev/null | grep -q 'nic-card-pcie-bound'"

# --pci-ids names a FIFO: refused at once (exit 66), not read for ever
mkfifo "$tmp/fifo"
timeout 10 "$NICFIT" audit --sysfs "$fx/xenial-k44" --pci-ids "$tmp/fifo" >/dev/null 2>"$tmp/err"
check "--pci-ids on a FIFO: exit 66 without waiting" [ $? = 66 ]
check "--pci-ids on a FIFO: one line naming it" grep -q "^nicfit: $tmp/fifo: not a regular file\$" "$tmp/err"

# --all lists more functions; it judges the same host, so the verdict stays
verdict() { "$NICFIT" audit --sysfs "$1" --no-pci-ids -j ${2-} 2>/dev/null | grep -o '"verdict":{[^}]*}'; }
for d in "$fx"/*/; do
	m=$(basename "$d")
	check "$m: --all gives the same verdict" [ "$(verdict "$d")" = "$(verdict "$d" --all)" ]
done

# figures that are unknown are null, never 0.0; a bridge with a known link has them
"$NICFIT" audit --sysfs "$fx/hpt-nvme" --all -j >"$tmp/hpt.json" 2>/dev/null
check "hpt-nvme --all: link figures are null or positive, bridges measured" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
keys = ("path_gbps", "path_raw_gbps", "path_max_gbps", "own_max_gbps")
links = {x["bdf"]: x["link"] for x in d["devices"]}
ok = all(l[k] is None or l[k] > 0 for l in links.values() for k in keys)
sw = links["0000:01:00.0"]
ok = ok and sw["own_max_gbps"] > 0 and sw["path_gbps"] > 0
ok = ok and all(links["0000:00:00.0"][k] is None for k in keys)
ok = ok and all(a["unit"] is None or a["unit"] for a in d["assumptions"])
sys.exit(not ok)' "$tmp/hpt.json"

NICFIT_SYSFS_ROOT="$fx/x11-200g" "$NICFIT" audit >/dev/null 2>&1
check "NICFIT_SYSFS_ROOT chooses the tree" [ $? = 1 ]

for m in r740xd hgx-h100; do
	"$NICFIT" snapshot --sysfs "$fx/$m" "$tmp/$m-dir" >"$tmp/out" 2>&1
	check "$m: snapshot to a directory" grep -q "^Wrote $tmp/$m-dir:" "$tmp/out"
	check "$m: the directory audits like the original" \
		[ "$(audit_json "$fx/$m")" = "$(audit_json "$tmp/$m-dir")" ]
	"$NICFIT" snapshot --sysfs "$fx/$m" "$tmp/$m.tar.gz" >/dev/null 2>&1
	check "$m: the .tar.gz audits like the original" \
		[ "$(audit_json "$fx/$m")" = "$(audit_json "$tmp/$m.tar.gz")" ]
	check "$m: the manifest is in the archive" sh -c "tar tzf '$tmp/$m.tar.gz' | grep -q '^$m/nicfit-snapshot.json\$'"
done
"$NICFIT" -j snapshot --sysfs "$fx/el7-v100" "$tmp/el7.tar.xz" >"$tmp/out" 2>&1
check "damaged tree: snapshot lists what it could not read" grep -q '"unreadable_total":2' "$tmp/out"
check "damaged tree: .tar.xz audits" sh -c "'$NICFIT' audit --sysfs '$tmp/el7.tar.xz' >/dev/null 2>&1; [ \$? = 1 ]"

# a tree packed by another tool (tar, bzip2, one top directory), as hwloc-gather-topology does
(cd "$fx" && tar cjf "$tmp/gather.tar.bz2" r740xd)
check "an archive made by tar -j audits" [ "$(audit_json "$fx/r740xd")" = "$(audit_json "$tmp/gather.tar.bz2")" ]
"$NICFIT" snapshot --sysfs "$fx/r740xd" "$tmp/r740xd-dir" >/dev/null 2>&1
check "snapshot refuses an existing destination" [ $? = 64 ]

"$NICFIT" audit --sysfs "$fx/hgx-h100" --format svg >"$tmp/h.svg" 2>/dev/null
if command -v xmllint >/dev/null 2>&1; then
	check "SVG is well-formed XML" xmllint --noout "$tmp/h.svg"
else
	check "SVG ends" grep -q '</svg>' "$tmp/h.svg"
fi
check "SVG draws every GPU" [ "$(grep -c '>GPU[0-9] ·' "$tmp/h.svg")" = 8 ]
"$NICFIT" audit --sysfs "$fx/hgx-h100" --format md >"$tmp/h.md" 2>/dev/null
check "Markdown has the findings section" grep -q '^## Findings' "$tmp/h.md"

# the live host: whatever it is, the audit works and a snapshot of it audits the same
"$NICFIT" audit --no-pci-ids -j >"$tmp/live.json" 2>"$tmp/live.err"
rc=$?
check "this host: audit exits 0, 1 or 2 (got $rc)" [ "$rc" -le 2 ]
check "this host: one JSON document" grep -q '^{"schema":"nicfit.audit.v1"' "$tmp/live.json"
"$NICFIT" snapshot "$tmp/live" >/dev/null 2>&1
check "this host: snapshot" [ -f "$tmp/live/nicfit-snapshot.json" ]
a=$(audit_json /); b=$(audit_json "$tmp/live")
[ "$a" = "$b" ] || { a=$(audit_json /); b=$(audit_json "$tmp/live"); } # one retry: a live host may change
check "this host: the snapshot audits like the host" [ "$a" = "$b" ]
