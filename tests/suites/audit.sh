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

# proc/version without proc/sys/kernel: the release is its third word, read strictly
audit_json "$fx/r630-gather" >"$tmp/r630.json"
check "r630-gather: kernel from proc/version" grep -q '"kernel":"3.10.0-1160.15.2.el7.x86_64"' "$tmp/r630.json"
check "r630-gather: DMI from sys/devices/virtual" grep -q '"vendor":"Dell Inc.","product":"PowerEdge R630"' "$tmp/r630.json"
cp -R "$fx/r630-gather" "$tmp/r630v"
for v in 'Linux version ' 'Linux 3.10.0 version' 'Linux version	3.10.0' 'SunOS version 5.11 x'; do
	printf '%s\n' "$v" >"$tmp/r630v/proc/version"
	check "proc/version '$v': kernel unknown" sh -c "'$NICFIT' audit --sysfs '$tmp/r630v' -j 2>/dev/null | grep -q '\"kernel\":null'"
done

# a tree without sys/module cannot show whether nvidia_peermem is loaded: GPUDirect's kernel
# support is null, not false, and so is the default of a pair close enough for it; what the
# tree does show stays known (a far pair, nv_peer_mem's peer client, a module list read)
holds() { # name file jq-filter: the filter is true of the file
	check "$1" sh -c "jq -e '$3' '$2' >/dev/null"
}
audit_json "$fx/wrx80-t2l" >"$tmp/wrx80.json"
holds "wrx80-t2l (no sys/module): kernel_support, nvidia_peermem and nv_peer_mem are null" \
	"$tmp/wrx80.json" '.host.gpudirect | .kernel_support == null and .nvidia_peermem == null
		and .nv_peer_mem == null and .nvidia_driver == true'
holds "wrx80-t2l: GPU0-mlx5_0 (PIX) gdr_default null, kernel-support-unknown; GPU1 (NODE) false" \
	"$tmp/wrx80.json" '[.pairs[]|select(.nic_label=="mlx5_0")|[.gpu_label,.gdr_default,.gdr_reason]]
		== [["GPU0",null,"kernel-support-unknown"],["GPU1",false,"distance"]]'
cp -a "$fx/hgx-h100" "$tmp/hgx-nomod"
rm -rf "$tmp/hgx-nomod/sys/module"
audit_json "$tmp/hgx-nomod" >"$tmp/hgx-nomod.json"
holds "hgx-h100 without sys/module: nv_peer_mem's peer client still proves the kernel support" \
	"$tmp/hgx-nomod.json" '(.host.gpudirect | .kernel_support == true and
		.nvidia_peermem == null and .nv_peer_mem == true) and
		([.pairs[]|select(.gdr_default == null)] == [])'
audit_json "$fx/epyc-gen4" >"$tmp/epyc.json"
holds "epyc-gen4 (sys/module read, no peer-memory module): kernel support false, not null" \
	"$tmp/epyc.json" '.host.gpudirect | .kernel_support == false and .nvidia_peermem == false
		and .nv_peer_mem == false'

# a capture with neither sys/module nor sys/class/infiniband cannot show whether an HCA's
# RDMA driver is loaded: unknown (not_checked "rdma", ports null), not "not loaded"; with
# the module list there, mlx5_ib missing from it is the finding
cp -a "$fx/xenial-k44" "$tmp/ib-nomod"
rm -rf "$tmp/ib-nomod/sys/module" "$tmp/ib-nomod/sys/class/infiniband" "$tmp/ib-nomod/sys/class/net/ib0"
find "$tmp/ib-nomod/sys/devices" \( -name infiniband -o -name net \) -prune -exec rm -rf {} +
audit_json "$tmp/ib-nomod" >"$tmp/ib-nomod.json"
holds "HCA without sys/module and sys/class/infiniband: no nic-rdma-not-loaded, no no-rdma-nic" \
	"$tmp/ib-nomod.json" '[.findings[]|select(.code=="nic-rdma-not-loaded" or
		.code=="no-rdma-nic")] == []'
holds "HCA without sys/module and sys/class/infiniband: not_checked rdma, ports null not 0" \
	"$tmp/ib-nomod.json" '([.not_checked[]|select(.check=="rdma")]|length == 1) and
		([.devices[]|select(.bdf=="0000:03:00.0")|.card|.ports_up, .ports_now_gbps] ==
		[null, null])'
mkdir "$tmp/ib-nomod/sys/module"
audit_json "$tmp/ib-nomod" >"$tmp/ib-mod.json"
holds "the same HCA with the module list read and no mlx5_ib: nic-rdma-not-loaded" \
	"$tmp/ib-mod.json" '([.findings[]|select(.code=="nic-rdma-not-loaded")]|length == 1) and
		([.not_checked[]|select(.check=="rdma")] == [])'

# files a capture left out are named as missing, not as unreadable or as numa_node -1
cp -a "$fx/nonuma-file" "$tmp/nolocal"
find "$tmp/nolocal/sys/devices" -name local_cpulist -exec rm -f {} +
audit_json "$tmp/nolocal" >"$tmp/nomask.json"
holds "no numa_node file and no local_cpulist: local_cpus still places the devices" \
	"$tmp/nomask.json" '([.findings[]|select(.code=="numa-locality-unknown")] == []) and
		([.devices[]|select(.bdf=="0000:af:00.0" or .bdf=="0000:18:00.0")|.numa_node] == [0, 1])'
find "$tmp/nolocal/sys/devices" -name local_cpus -exec rm -f {} +
audit_json "$tmp/nolocal" >"$tmp/nolocal.json"
holds "no numa_node file, no local_cpulist, no local_cpus: the warning says the file is missing, not -1" \
	"$tmp/nolocal.json" '[.findings[]|select(.code=="numa-locality-unknown")|.message|
		(test("have no numa_node file in this tree") and (test("-1")|not))] == [true]'
cp -a "$fx/xenial-k44" "$tmp/novendor"
find "$tmp/novendor/sys/devices" \( -name vendor -o -name uevent \) -exec rm -f {} +
audit_json "$tmp/novendor" >"$tmp/novendor.json"
holds "no vendor files: sysfs-unreadable counts them as missing files, not as 0 unreadable" \
	"$tmp/novendor.json" '[.findings[]|select(.code=="sysfs-unreadable")|.message|
		test("has a readable vendor and class [(][0-9]+ without a vendor or device file[)]")]
		== [true]'

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

# a tree packed by another tool (tar, bzip2, one top directory), as hwloc-gather-topology does:
# read as the tree, but without a manifest nobody can tell it from a cut snapshot, so it is
# never clean (a critical snapshot-incomplete), while the same tree unpacked is a tree
(cd "$fx" && tar cjf "$tmp/gather.tar.bz2" r740xd)
"$NICFIT" audit --sysfs "$tmp/gather.tar.bz2" --no-pci-ids -j >"$tmp/gather.json" 2>/dev/null
check "an archive made by tar -j: exit 2, snapshot-incomplete" \
	sh -c "[ $? = 2 ] && grep -q '\"severity\":\"critical\",\"code\":\"snapshot-incomplete\"' '$tmp/gather.json'"
audit_json "$fx/r740xd" >"$tmp/tree.json"
check "an archive made by tar -j: the devices and findings of the tree" python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
sys.exit(a["devices"] != b["devices"] or
         [f for f in b["findings"] if f["code"] != "snapshot-incomplete"] != a["findings"])' \
	"$tmp/tree.json" "$tmp/gather.json"
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

# hostile archives, made here: each is refused with nicfit's message, or audits,
# and no temporary tree is left behind ($TMPDIR is private to these cases)
xt="$tmp/xtmp"; mkdir -p "$xt"; chmod 777 "$xt"
xt_empty() { [ -z "$(ls -A "$xt")" ]; }
python3 - "$tmp" <<'PY'
import io, sys, tarfile, zipfile
d = sys.argv[1]
def tar(name, ents, mode="w:gz"):
    t = tarfile.open(f"{d}/{name}", mode, format=tarfile.PAX_FORMAT)
    for path, kind, arg in ents:
        ti = tarfile.TarInfo(path)
        if kind == "d":
            ti.type, ti.mode = tarfile.DIRTYPE, arg
            t.addfile(ti)
        else:
            ti.size, ti.mode = len(arg), 0o644
            t.addfile(ti, io.BytesIO(arg))
    t.close()
# a zip, streamed (sizes unknown in its headers), under a .tar.gz name and a .zip name
for name in ("stream.tar.gz", "stream.zip"):
    with open(f"{d}/{name}", "wb") as f:
        z = zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED)
        with z.open("x/sys/big", "w", force_zip64=True) as w:
            w.write(b"\0" * (4 << 20))
        z.close()
tar("deep.tar.gz", [("x/sys/", "d", 0o755), ("x/sys/" + "d/" * 300, "d", 0o755)])
tar("modes.tar.gz", [("x/sys/", "d", 0o755), ("x/sys/locked/", "d", 0),
                     ("x/sys/ro/", "d", 0o555), ("x/sys/ro/f", "f", b"1\n")])
tar("modes-bad.tar.gz", [("x/sys/", "d", 0o755), ("x/sys/locked/", "d", 0),
                         ("x/sys/ro/", "d", 0o555), ("x/sys/ro/f", "f", b"1\n"),
                         ("x/../../escape", "f", b"x")])
t = tarfile.open(f"{d}/many.tar.gz", "w:gz", format=tarfile.GNU_FORMAT)
for i in range(100001):
    t.addfile(tarfile.TarInfo(f"x/sys/{i}"))
t.close()
PY
printf 'not an archive\n' >"$tmp/text.tar.gz"
for a in stream.tar.gz stream.zip text.tar.gz; do
	TMPDIR=$xt "$NICFIT" audit --sysfs "$tmp/$a" >/dev/null 2>"$tmp/err"
	rc=$?
	check "$a: exit 65, 'not a snapshot archive' (got $rc: $(cat "$tmp/err"))" \
		sh -c "[ $rc = 65 ] && grep -q 'not a snapshot archive' '$tmp/err' && ! grep -q mtree '$tmp/err'"
	check "$a: nothing left in \$TMPDIR" xt_empty
done
TMPDIR=$xt "$NICFIT" audit --sysfs "$tmp/deep.tar.gz" >/dev/null 2>"$tmp/err"
rc=$?
check "300 levels deep: exit 65, refused as too deep (got $rc)" sh -c "[ $rc = 65 ] && grep -q deeper '$tmp/err'"
check "300 levels deep: nothing left in \$TMPDIR" xt_empty
# the entry cap stops the read; a hang (no cap) would meet timeout(1), not a time bound
TMPDIR=$xt timeout 600 "$NICFIT" audit --sysfs "$tmp/many.tar.gz" >/dev/null 2>"$tmp/err"
rc=$?
check "100,001 empty entries: exit 65, refused by the entry cap (got $rc)" \
	sh -c "[ $rc = 65 ] && grep -q 'more than 100000 entries' '$tmp/err'"
check "100,001 empty entries: nothing left in \$TMPDIR" xt_empty
# as a user who is not root, read-only and mode-000 directories are no obstacle to cleaning up
as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
chmod 755 "$tmp"; chmod 644 "$tmp/modes.tar.gz" "$tmp/modes-bad.tar.gz"
TMPDIR=$xt as_user "$NICFIT" audit --sysfs "$tmp/modes.tar.gz" >/dev/null 2>&1
check "mode-000 and read-only directories, not root: audited, nothing left" xt_empty
TMPDIR=$xt as_user "$NICFIT" audit --sysfs "$tmp/modes-bad.tar.gz" >/dev/null 2>"$tmp/err"
check "the same with a bad entry after them: refused, nothing left" \
	sh -c "grep -q unsafe '$tmp/err' && [ -z \"\$(ls -A '$xt')\" ]"

# a PCI tree past the depth bound: the one-line error names the tree (or the archive) it is in
cp -a "$fx/kvm-vm" "$tmp/deep"
p=sys/devices/pci0000:00/0000:00:02.0; rel=../../../devices/pci0000:00/0000:00:02.0
for i in $(seq 1 34); do
	b=$(printf '0000:%02x:00.0' $((i + 16)))
	p=$p/$b; rel=$rel/$b
	mkdir -p "$tmp/deep/$p"
	printf '0x060400\n' >"$tmp/deep/$p/class"
	ln -s "$rel" "$tmp/deep/sys/bus/pci/devices/$b"
done
"$NICFIT" audit --sysfs "$tmp/deep" >/dev/null 2>"$tmp/err"
check "a PCI tree 35 levels deep: exit 65, the error names the tree" \
	sh -c "[ $? = 65 ] && [ \"\$(cat '$tmp/err')\" = 'nicfit: $tmp/deep: PCI tree deeper than 32 levels' ]"
(cd "$tmp" && tar czf deep.tar.gz deep)
TMPDIR=$xt "$NICFIT" audit --sysfs "$tmp/deep.tar.gz" >/dev/null 2>"$tmp/err"
check "the same tree as an archive: the error names the archive, nothing left" \
	sh -c "[ \"\$(cat '$tmp/err')\" = 'nicfit: $tmp/deep.tar.gz: PCI tree deeper than 32 levels' ] &&
	       [ -z \"\$(ls -A '$xt')\" ]"

# a name that is not UTF-8 (sysfs names are any bytes) survives a .tar.gz
cp -a "$fx/x11-200g" "$tmp/raw"
ff=$(printf 'l\377o')
mv "$tmp/raw/sys/devices/virtual/net/lo" "$tmp/raw/sys/devices/virtual/net/$ff"
rm "$tmp/raw/sys/class/net/lo"
ln -s "../../devices/virtual/net/$ff" "$tmp/raw/sys/class/net/$ff"
"$NICFIT" snapshot --sysfs "$tmp/raw" "$tmp/raw.tar.gz" >/dev/null 2>"$tmp/err"
check "a non-UTF-8 name: snapshot to .tar.gz ($(cat "$tmp/err"))" [ -f "$tmp/raw.tar.gz" ]
check "a non-UTF-8 name: the archive audits like the tree" \
	[ "$(audit_json "$tmp/raw")" = "$(audit_json "$tmp/raw.tar.gz")" ]
check "a non-UTF-8 name: kept byte for byte" sh -c "LC_ALL=C tar --quoting-style=literal -tzf '$tmp/raw.tar.gz' 2>/dev/null | LC_ALL=C grep -q 'class/net/$ff\$'"

# serve --allow-audit --sysfs ARCHIVE: unpacked at start-up, removed at exit; a bad one refused
TMPDIR=$xt timeout 20 "$NICFIT" serve --allow-audit --port 0 --sysfs "$tmp/stream.tar.gz" >/dev/null 2>"$tmp/err"
rc=$?
check "serve --sysfs with a bad archive: refused at start-up, exit 65 (got $rc)" \
	sh -c "[ $rc = 65 ] && grep -q 'not a snapshot archive' '$tmp/err'"
"$NICFIT" snapshot --sysfs "$fx/r740xd" "$tmp/serve.tar.gz" >/dev/null 2>&1
TMPDIR=$xt "$NICFIT" serve --allow-audit --port 0 --sysfs "$tmp/serve.tar.gz" 2>"$tmp/serve.err" &
spid=$!
port=; i=0
while [ -z "$port" ] && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
	port=$(sed -n 's|^nicfit serve: listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.err")
done
code=$(curl -s -o "$tmp/api.json" -w '%{http_code}' "http://127.0.0.1:$port/api/audit" 2>/dev/null)
check "serve --sysfs ARCHIVE: GET /api/audit answers 200 (got $code)" [ "$code" = 200 ]
check "serve --sysfs ARCHIVE: the audit of the snapshot's tree" \
	[ "$(sed 's#"root":"[^"]*"#"root":"R"#' "$tmp/api.json")" = "$(audit_json "$fx/r740xd")" ]
kill "$spid"; wait "$spid" 2>/dev/null
check "serve --sysfs ARCHIVE: the unpacked tree is removed at exit" xt_empty

# verify --sysfs takes a snapshot archive as audit and plan do (one host-opening path):
# the same expectation, report and exit status as from the tree it was made of
"$NICFIT" snapshot --sysfs "$fx/r740xd" "$tmp/verify.tar.gz" >/dev/null 2>&1
vin=tests/fixtures/verify/nccl-1453-h100-3node-ranktags.txt
"$NICFIT" verify --sysfs "$fx/r740xd" --nodes 3 "$vin" >"$tmp/v-dir.out" 2>&1
vdir=$?
"$NICFIT" verify --sysfs "$tmp/verify.tar.gz" --nodes 3 "$vin" >"$tmp/v-arc.out" 2>&1
varc=$?
check "verify --sysfs ARCHIVE: exit as from the tree ($vdir, got $varc: $(head -c 200 "$tmp/v-arc.out"))" \
	[ "$vdir" = "$varc" ]
check "verify --sysfs ARCHIVE: the report of the tree" cmp -s "$tmp/v-dir.out" "$tmp/v-arc.out"
check "plan --sysfs ARCHIVE: the plan of the tree" \
	[ "$("$NICFIT" plan --sysfs "$fx/r740xd" -j 2>&1)" = "$("$NICFIT" plan --sysfs "$tmp/verify.tar.gz" -j 2>&1)" ]
