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
# nvidia-bug-report.log.gz (render-bundles.sh: one gzip member per section, as the script
# appends them): its lspci -v of the NVIDIA functions, -t and -nn give every pair whose
# locality they carry the class the tree gives it; inside a directory it is read too
known='import json,sys
d=json.load(sys.stdin)
for p in sorted(d["pairs"], key=lambda p: (p["gpu"], p["nic"])):
    if p["locality_known"]: print(p["gpu"], p["nic"], p["path"])'
g=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$dir/hgx-h100.nvidia-bug-report.log.gz")
pg=$(printf '%s' "$g" | python3 -c "$known")
pa=$(printf '%s' "$a" | python3 -c "$pairs")
# every placed pair is one of the tree's (the same class), and all 96 GPU-NIC pairs but the
# 16 whose NIC no -v block gives a NUMA node are placed
if printf '%s\n%s\n' "$pg" "----" "$pa" | python3 -c 'import sys
g, a = sys.stdin.read().split("----\n")
g, a = set(g.split("\n")) - {""}, set(a.split("\n")) - {""}
sys.exit(not (len(g) == 80 and g <= a))'
then ok "nvidia-bug-report.log.gz: the pairs it places agree with the tree"
else no "nvidia-bug-report.log.gz: the pairs it places agree with the tree"; fi
tmp=$(mktemp -d)
cp "$dir/hgx-h100.nvidia-bug-report.log.gz" "$tmp/"
printf 'not a dump\n' >"$tmp/notes.txt"
d=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$tmp" | python3 -c "$known")
if [ -n "$d" ] && [ "$d" = "$pg" ]; then ok "nvidia-bug-report.log.gz in a directory: read"
else no "nvidia-bug-report.log.gz in a directory: read"; fi
# the bounds: more than 16 MiB uncompressed, or a damaged stream: one line, exit 65
yes '0000:00:00.0 Host bridge [0600]: Intel Corporation Device [8086:09a2]' | head -c 17000000 |
	gzip -c >"$tmp/big.log.gz"
head -c 200 "$dir/hgx-h100.nvidia-bug-report.log.gz" >"$tmp/cut.log.gz"
for f in big cut; do
	"$NICFIT" audit --dump "$tmp/$f.log.gz" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc -eq 65 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^nicfit: $tmp/$f.log.gz: " "$tmp/err"
	then ok "$f gzip: refused in one line (exit 65)"
	else no "$f gzip: refused in one line (exit 65): exit $rc"; sed 's/^/# /' "$tmp/err"; fi
done
# a supportconfig (render-bundles.sh: hardware.txt with lscpu, lspci -nn and lspci -vvv under
# "#==[ Command ]" headers), as a directory and packed as supportconfig packs it (.txz)
a=$("$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --sysfs "$BUILD/fixtures/r740xd")
pa=$(printf '%s' "$a" | python3 -c "$pairs") sa=$(printf '%s' "$a" | python3 -c "$socks" | sed 1d)
tar -C "$dir" -cJf "$tmp/scc_r740xd_261201_1200.txz" r740xd.supportconfig
for in in "$dir/r740xd.supportconfig" "$tmp/scc_r740xd_261201_1200.txz"; do
	b=$(TMPDIR="$tmp" "$NICFIT" --json audit --pci-ids tests/fixtures/pci.ids --dump "$in")
	pb=$(printf '%s' "$b" | python3 -c "$pairs") sb=$(printf '%s' "$b" | python3 -c "$socks" | sed 1d)
	if [ -n "$pb" ] && [ "$pa" = "$pb" ] && [ "$sa" = "$sb" ]
	then ok "supportconfig $(basename "$in"): same pairs and sockets"
	else no "supportconfig $(basename "$in"): same pairs and sockets"; fi
done
rm -rf "$tmp"
echo "1..$n"
[ "$fail" -eq 0 ]
