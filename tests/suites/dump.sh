#!/bin/sh
# dump.sh - audit --dump against audit --sysfs on the same machine: the
# lspci text the real lspci prints for a fixture tree
# (tests/fixtures/dumps/rendered, made by render.sh) must give the same
# GPU-NIC pairs and path classes as the tree itself, and the same PCIe
# link and ACS findings where lspci carries the facts (LnkCap/LnkSta and
# ACSCtl need config space the fixture holds). TAP.
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
dir=tests/fixtures/dumps/rendered
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
pairs='import json,sys
d=json.load(sys.stdin)
for p in sorted(d["pairs"], key=lambda p: (p["gpu"], p["nic"])): print(p["gpu"], p["nic"], p["path"])'
links='import json,sys
d=json.load(sys.stdin)
for f in d["findings"]:
    if f["code"].startswith(("pcie-", "link-", "gpu-link", "acs-")): print(f["code"], f["device"])'
for m in hgx-h100 r740xd; do
	a=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --sysfs "$BUILD/fixtures/$m")
	b=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$dir/$m.lspci-vvv.txt" \
		"$dir/$m.lspci-tv.txt")
	pa=$(printf '%s' "$a" | python3 -c "$pairs") pb=$(printf '%s' "$b" | python3 -c "$pairs")
	if [ -n "$pa" ] && [ "$pa" = "$pb" ]; then ok "$m: same pairs"; else no "$m: same pairs"; fi
	la=$(printf '%s' "$a" | python3 -c "$links") lb=$(printf '%s' "$b" | python3 -c "$links")
	if [ "$m" = r740xd ]; then
		# its tree keeps 64 bytes of config: lspci shows no link, the audit says so
		if printf '%s' "$b" | python3 -c 'import json,sys
sys.exit(not any(x["check"] == "pcie_links" for x in json.load(sys.stdin)["not_checked"]))'
		then ok "$m: links not checked"
		else no "$m: links not checked"; fi
	elif [ -n "$la" ] && [ "$la" = "$lb" ]; then ok "$m: same link findings"
	else no "$m: same link findings"; printf '# sysfs:\n%s\n# dump:\n%s\n' "$la" "$lb"; fi
done
# sockets: lscpu (its counts) and lscpu -p (each CPU's node and socket),
# as util-linux prints them for the tree, give every device the socket
# the tree's own CPUs give it; with lscpu -p the sockets are facts, with
# plain lscpu's counts the audit says the numbering is node order
socks='import json,sys
d=json.load(sys.stdin)
print(d["host"]["sockets"], [x["check"] for x in d["not_checked"] if x["check"] == "sockets"])
for v in sorted(d["devices"], key=lambda v: v["bdf"]): print(v["bdf"], v.get("socket"))'
for m in hgx-h100 r740xd; do
	a=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --sysfs "$BUILD/fixtures/$m" |
		python3 -c "$socks" | sed 1d)
	for cpu in lscpu lscpu-p; do
		want="2 []"
		[ "$cpu" = lscpu ] && want="2 ['sockets']"
		b=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$dir/$m.lspci-vvv.txt" \
			"$dir/$m.lspci-tv.txt" "$dir/$m.$cpu.txt" | python3 -c "$socks")
		if [ -n "$a" ] && [ "$a" = "$(printf '%s\n' "$b" | sed 1d)" ] &&
			[ "$(printf '%s\n' "$b" | sed -n 1p)" = "$want" ]
		then ok "$m: same sockets with $cpu"
		else no "$m: same sockets with $cpu"; printf '# sysfs:\n%s\n# dump:\n%s\n' "$a" "$b"; fi
	done
done
# a sosreport as sos packs it: a .tar.xz whose lspci output sits under
# sos_commands/pci (with a sys/ subset beside it); read by content, not name
tmp=$(mktemp -d)
python3 - "$tmp" <<'PY'
import sys, tarfile, io
out = sys.argv[1] + "/sosreport-gpu07-2026-12-01-abcdef.tar.xz"
files = {
    "sos_commands/pci/lspci_-nnvv": "tests/fixtures/dumps/rendered/hgx-h100.lspci-vvv.txt",
    "sos_commands/pci/lspci_-tv": "tests/fixtures/dumps/rendered/hgx-h100.lspci-tv.txt",
}
with tarfile.open(out, "w:xz") as t:
    for name, src in files.items():
        data = open(src, "rb").read()
        ti = tarfile.TarInfo("sosreport-gpu07-2026-12-01-abcdef/" + name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
    ti = tarfile.TarInfo("sosreport-gpu07-2026-12-01-abcdef/sys/bus/pci")
    ti.type = tarfile.DIRTYPE
    t.addfile(ti)
PY
s=$(TMPDIR="$tmp" "$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$tmp"/sosreport-*.tar.xz)
ps=$(printf '%s' "$s" | python3 -c "$pairs")
a=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --sysfs "$BUILD/fixtures/hgx-h100")
pa=$(printf '%s' "$a" | python3 -c "$pairs")
if [ -n "$ps" ] && [ "$ps" = "$pa" ]; then ok "sosreport archive: same pairs"; else no "sosreport archive: same pairs"; fi
if [ -z "$(ls -A "$tmp" | grep -v '^sosreport-')" ]; then ok "sosreport archive: unpacked copy removed"
else no "sosreport archive: unpacked copy removed"; fi
rm -rf "$tmp"
echo "1..$n"
[ "$fail" -eq 0 ]
