#!/bin/sh
# dump_xml.sh - audit --dump of hwloc and NCCL topology XML against audit
# --sysfs of the same machine (dump_xml.c). hwloc's own lstopo reads the
# fixture sysfs trees (-i DIR) and writes its XML (--whole-io: by default
# it drops devices it finds unimportant, NVSwitches among them); the
# audit of that XML must give the GPU-NIC pairs and path classes, NUMA
# nodes and sockets of the tree itself, and, since hwloc's XML carries no
# LnkCap or LnkSta, no link finding but a pcie_links entry in
# not_checked. nicfit's own NCCL topology of a tree (audit --format
# nccl-topo) read back gives each pair it keeps (RDMA NICs only) the
# tree's class, except where NCCL's format drops a switch's downstream
# ports (a device behind a second switch: PXB reads as PIX), which
# not_checked says. And one machine in hwloc's formats 1 and 3 gives the
# same audit. TAP.
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pairs='import json,sys
d=json.load(sys.stdin)
for p in sorted(d["pairs"], key=lambda p: (p["gpu"], p["nic"])): print(p["gpu"], p["nic"], p["path"])'
nolinks='import json,sys
d=json.load(sys.stdin)
links=[f for f in d["findings"] if f["code"].startswith(("pcie-", "link-", "gpu-link"))]
sys.exit(bool(links) or not any(x["check"] == "pcie_links" for x in d["not_checked"]))'
socks='import json,sys
d=json.load(sys.stdin)
print(d["host"]["sockets"])
for v in sorted(d["devices"], key=lambda v: v["bdf"]): print(v["bdf"], v["numa_node"], v["socket"])'
# the trees whose every device is in sys/bus/pci (lstopo reads the bus list)
machines="el7-v100 epyc-gen4 hgx-h100 r740xd x11-200g"
audit() { "$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids "$@"; }
if command -v lstopo-no-graphics >/dev/null 2>&1; then
	for m in $machines; do
		lstopo-no-graphics --whole-io -i "$BUILD/fixtures/$m" --of xml >"$tmp/$m.xml" 2>/dev/null
		a=$(audit --sysfs "$BUILD/fixtures/$m" | python3 -c "$pairs")
		b=$(audit --dump "$tmp/$m.xml" | python3 -c "$pairs")
		if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "$m: lstopo's XML gives the same pairs"
		else no "$m: lstopo's XML gives the same pairs"; printf '# sysfs:\n%s\n# hwloc:\n%s\n' "$a" "$b"; fi
		a=$(audit --sysfs "$BUILD/fixtures/$m" | python3 -c "$socks")
		b=$(audit --dump "$tmp/$m.xml" | python3 -c "$socks")
		if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "$m: lstopo's XML gives the same sockets and NUMA nodes"
		else no "$m: lstopo's XML gives the same sockets and NUMA nodes"; printf '# sysfs:\n%s\n# hwloc:\n%s\n' "$a" "$b"; fi
		if audit --dump "$tmp/$m.xml" | python3 -c "$nolinks"; then
			ok "$m: lstopo's XML: no link finding, pcie_links not checked"
		else no "$m: lstopo's XML: no link finding, pcie_links not checked"; fi
	done
else
	ok "# skip lstopo-no-graphics is not installed (hwloc-nox)"
fi
sub='import json,sys
want={}
for p in json.load(open(sys.argv[1]))["pairs"]: want[(p["gpu"], p["nic"])] = p["path"]
d=json.load(sys.stdin)
note=any(x["check"] == "pci_tree" for x in d["not_checked"])
bad=[p for p in d["pairs"] if want.get((p["gpu"], p["nic"])) != p["path"] and
     not (note and want.get((p["gpu"], p["nic"])) == "PXB" and p["path"] == "PIX")]
for p in bad: print("#", p["gpu"], p["nic"], p["path"], want.get((p["gpu"], p["nic"])))
sys.exit(bool(bad) or not d["pairs"])'
for m in hgx-h100 x11-200g r740xd; do
	audit --sysfs "$BUILD/fixtures/$m" >"$tmp/$m.sysfs.json"
	"$NICFIT" audit --sysfs "$BUILD/fixtures/$m" --format nccl-topo >"$tmp/$m.nccl.xml"
	if audit --dump "$tmp/$m.nccl.xml" | python3 -c "$sub" "$tmp/$m.sysfs.json"; then
		ok "$m: its NCCL topology read back gives the tree's classes"
	else no "$m: its NCCL topology read back gives the tree's classes"; fi
done
x=tests/fixtures/dumps/xml
strip='import json,sys
d=json.load(sys.stdin)
for f in d["findings"]: print(f["code"], f["device"])
for p in d["pairs"]: print(p["gpu"], p["nic"], p["path"])
print(d["host"]["sockets"], [(v["bdf"], v["numa_node"], v["socket"], v["netdevs"], v["rdma"]) for v in d["devices"]])'
a=$(audit --dump "$x/hwloc1-24em64t-2n6c2t-pci.xml" | python3 -c "$strip")
b=$(audit --dump "$x/hwloc3-24em64t-2n6c2t-pci.xml" | python3 -c "$strip")
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "hwloc 1.x and 3.x XML of one machine: the same audit"
else no "hwloc 1.x and 3.x XML of one machine: the same audit"; fi
echo "1..$n"
[ "$fail" -eq 0 ]
