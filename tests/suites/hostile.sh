#!/bin/sh
# Hostile input to every command that takes input: each must end with
# exit 64, 65 or 66 and exactly one line on stderr, with no raw control
# byte in it - never a crash, a hang or a silent wrong answer.
set -u
: "${NICFIT:=build/nicfit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ctl=$(printf '[\001-\010\013-\037\177]')

# check NAME COMMAND... (stdin from $tmp/in when it exists)
check() {
	name=$1; shift
	n=$((n + 1))
	if [ -f "$tmp/in" ]; then
		timeout 20 "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
	else
		timeout 20 "$@" </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
	fi
	lines=$(wc -l <"$tmp/err")
	case $rc in
	64|65|66)
		if [ "$lines" -eq 1 ] && grep -q '^nicfit: ' "$tmp/err" &&
		   ! LC_ALL=C grep -q "$ctl" "$tmp/err"; then
			echo "ok $n - $name (exit $rc)"
		else
			echo "not ok $n - $name: $lines stderr lines"
			sed 's/^/# /' "$tmp/err" | head -5
		fi ;;
	*)
		echo "not ok $n - $name: exit $rc"
		sed 's/^/# /' "$tmp/err" | head -5 ;;
	esac
	rm -f "$tmp/in"
}

big=$(head -c 131000 /dev/zero | tr '\0' 'x')
check "huge --server" "$NICFIT" plan --server "$big"
check "huge --size" "$NICFIT" calc load --size "$big" --link 10G
check "huge part" "$NICFIT" calc nic --part "$big" --slot gen3x16
check "negative servers" "$NICFIT" plan --servers -5
check "zero servers" "$NICFIT" plan --servers 0
check "huge servers" "$NICFIT" plan --servers 99999999999999999999
check "float servers" "$NICFIT" plan --servers 2.5
check "negative gen" "$NICFIT" calc pcie --gen -1
check "huge width" "$NICFIT" calc pcie --gen 3 --width 1024
check "nan mtu" "$NICFIT" calc link --speed 10G --mtu nan
check "inf speed" "$NICFIT" calc link --speed infG
check "negative size" "$NICFIT" calc load --size -40GB --link 10G
check "huge params" "$NICFIT" calc fit --params 1e30B --gpus 1xa40
check "zero gpus" "$NICFIT" calc fit --params 70B --gpus 0xa40
check "huge gpus" "$NICFIT" calc fit --params 70B --gpus 99999999xa40
check "huge context" "$NICFIT" calc fit --model llama-3-70b --gpus 1xa40 --context 1e12
check "negative concurrency" "$NICFIT" calc fit --model llama-3-70b --gpus 1xa40 --concurrency -1
check "huge nodes" "$NICFIT" calc allreduce --size 1GB --nodes 1e12 --link 10G
check "control bytes in option" "$NICFIT" plan --server "$(printf 'r740\033[31mxd')"
check "empty value" "$NICFIT" plan --server ""
check "missing value" "$NICFIT" plan --server
check "assume without value" "$NICFIT" plan --assume mps
check "assume huge" "$NICFIT" plan --assume "mps=1e400"

printf '{"server": "r740xd", "servers": ' >"$tmp/in"
check "truncated spec" "$NICFIT" plan --spec -
head -c 100000 /dev/zero | tr '\0' '[' >"$tmp/in"
check "deeply nested spec" "$NICFIT" plan --spec -
head -c 4096 /dev/urandom >"$tmp/in"
check "binary spec" "$NICFIT" plan --spec -
printf '{"servers": 1e999}' >"$tmp/in"
check "overflowing number" "$NICFIT" plan --spec -
printf '{"servers": -3}' >"$tmp/in"
check "negative number in spec" "$NICFIT" plan --spec -
printf '{"gpus_per_server": 9223372036854775807}' >"$tmp/in"
check "int64 max in spec" "$NICFIT" plan --spec -
printf '{"server": "r740xd", "server": "r740"}' >"$tmp/in"
check "duplicate key" "$NICFIT" plan --spec -
printf '\357\273\277{"server": "r740xd"}' >"$tmp/in"
check "byte order mark" "$NICFIT" plan --spec -
head -c 2000000 /dev/zero | tr '\0' ' ' >"$tmp/in"
check "2 MB spec" "$NICFIT" plan --spec -
printf '{"assume": [%s"mps=256"]}' "$(i=0; while [ $i -lt 300 ]; do printf '"mps=256",'; i=$((i + 1)); done)" >"$tmp/in"
check "too many settings" "$NICFIT" plan --spec -

printf '{"schema":"nicfit.catalog.v1","nics":[{"id":"x","ports":1e300}]}' >"$tmp/cat.json"
check "catalog overlay with absurd number" "$NICFIT" --catalog "$tmp/cat.json" plan
head -c 3000 /dev/zero | tr '\0' '{' >"$tmp/cat.json"
check "nested catalog" "$NICFIT" --catalog "$tmp/cat.json" catalog list
check "catalog is a directory" "$NICFIT" --catalog "$tmp" catalog list
check "catalog missing" "$NICFIT" --catalog "$tmp/nope.json" catalog list

# ---- names from a hostile or foreign world ---------------------------------
# Bytes that are not UTF-8 and terminal control sequences in sysfs names
# (tests/fixtures/hostile.sh): every format must come out whole, valid
# UTF-8, with no raw control byte, no C1 control, no bidi control and no
# zero-width character; JSON
# must parse and the SVG must be XML. Exit 0, 1 or 2: the audit still runs.
: "${BUILD:=build}"
sh tests/fixtures/hostile.sh "$BUILD/fixtures/kvm-vm" "$tmp/h"
cat >"$tmp/clean.py" <<'PY'
import sys
fmt, path = sys.argv[1], sys.argv[2]
b = open(path, 'rb').read()
if not b and fmt != 'nhc':  # NHC prints nothing for a check that passed
    sys.exit('no output')
try:
    s = b.decode('utf-8')
except UnicodeDecodeError as e:
    sys.exit('not UTF-8: %s' % e)
def bad(c):
    o = ord(c)
    if o < 0x20:
        return c not in '\n' + ('\r' if fmt == 'csv' else '') + ('\t' if fmt == 'svg' else '')
    if fmt == 'json':  # JSON carries code points; jansson escapes C0 and DEL is kept out below
        return False
    return (0x7f <= o <= 0x9f or o in (0x61c, 0x200e, 0x200f, 0xfeff) or 0x2028 <= o <= 0x202e
            or 0x2066 <= o <= 0x2069 or 0x200b <= o <= 0x200d or 0x2060 <= o <= 0x2064)
found = sorted(set(c for c in s if bad(c)))
if found or '\x7f' in s:
    sys.exit('raw controls: %r' % found)
if fmt == 'json':
    import json
    json.loads(s)
if fmt == 'svg':
    import xml.etree.ElementTree as ET
    ET.fromstring(b)
if fmt == 'csv':  # RFC 4180: every quote paired, so a name cannot split or add a field
    import csv, io
    for row in csv.reader(io.StringIO(s, newline=''), strict=True):
        for c in row:  # and no cell a spreadsheet would run as a formula
            if c[:1] in ('=', '+', '@', '\t', '\r') or (
                    c[:1] == '-' and c[1:] and not c[1:].replace('.', '', 1).isdigit()):
                sys.exit('formula cell: %r' % c[:40])
if fmt == 'nfd':  # node-feature-discovery's label grammar (Kubernetes label name and value)
    import re
    name = r'[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?'
    value = r'(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?'
    for line in s.splitlines():
        if line.startswith('#'):  # the feature file's comments
            continue
        if not re.fullmatch(r'([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?' + name + '=' + value, line):
            sys.exit('not an NFD label: %r' % line[:80])
PY
# clean NAME FMT COMMAND...: exit 0, 1 or 2 and clean output in FMT
clean() {
	name=$1; fmt=$2; shift 2
	n=$((n + 1))
	timeout 20 "$@" </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
	case $rc in
	0|1|2)
		why=$(python3 "$tmp/clean.py" "$fmt" "$tmp/out" 2>&1) || why=${why:-bad output}
		if [ -z "$why" ] && LC_ALL=C grep -q "$ctl" "$tmp/err"; then
			why="raw control bytes on stderr"
		fi
		if [ -z "$why" ]; then
			echo "ok $n - $name (exit $rc)"
		else
			echo "not ok $n - $name: $why"
		fi ;;
	*)
		echo "not ok $n - $name: exit $rc"
		sed 's/^/# /' "$tmp/err" | head -5 ;;
	esac
}
# a baseboard node's plan picture: PCIe switches drawn around their GPUs and NICs, still XML
clean "plan dgx-h100 --format svg (PCIe switches)" svg "$NICFIT" plan --server dgx-h100 \
	--servers 2 --model llama-3.1-70b --workload training --format svg
for t in latin1 escape; do
	for f in text json md csv svg prom nhc nfd; do
		clean "audit $t --format $f" $f "$NICFIT" audit --sysfs "$tmp/h/$t" \
			--pci-ids "$tmp/h/pci.ids" --all --format "$f"
	done
	"$NICFIT" audit --sysfs "$tmp/h/$t" --pci-ids "$tmp/h/pci.ids" --json \
		>"$tmp/h/$t.json" 2>/dev/null
done
# a dump's own text (names, VPD, firmware, uname), not the PCI ID table's, in every format
for f in text json md csv svg prom nhc nfd; do
	clean "audit --dump of a hostile paste --format $f" $f "$NICFIT" audit --dump \
		"$tmp/h/dump.txt" --all --format "$f"
done
n=$((n + 1))
if "$NICFIT" audit --dump "$tmp/h/dump.txt" --json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
nic = [x for x in d["devices"] if x["bdf"] == "0000:99:00.0"][0]
names = [n["name"] for n in nic["netdevs"]]
sys.exit(not (nic["rdma"] and nic["vpd"] and any("\x1b" in n for n in names)
              and d["host"]["kernel"].startswith("5.15")
              and nic["rdma"][0]["fw_ver"].startswith("22.3")))'; then
	echo "ok $n - the hostile paste's names reach the model (so the checks above see them)"
else
	echo "not ok $n - the hostile paste was not read as intended"
fi
# escaped once: the paste holds no backslash, so a \x5c in the text is an escape escaped again
n=$((n + 1))
"$NICFIT" audit --dump "$tmp/h/dump.txt" --all >"$tmp/out" 2>/dev/null
if ! grep -q 'x5c' "$tmp/out" && grep -q 'MCX6\\x1b]0;t\\x07' "$tmp/out"; then
	echo "ok $n - the hostile paste's text is escaped once, in tables too"
else
	echo "not ok $n - the hostile paste's text is escaped twice or not at all"
	grep 'x5c' "$tmp/out" | head -3 | sed 's/^/# /'
fi
n=$((n + 1))
if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
states = [r["state"] for x in d["devices"] for r in x["rdma"]]
sys.exit(not states or any(s not in (None, "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER")
                           for s in states))' "$tmp/h/escape.json"; then
	echo "ok $n - rdma[].state is a kernel state name or null"
else
	echo "not ok $n - rdma[].state passes junk through"
fi
for f in text json md csv; do
	clean "fleet of hostile audits --format $f" $f "$NICFIT" fleet --format "$f" \
		"$tmp/h/latin1.json" "$tmp/h/escape.json"
done
# a catalog overlay with control characters in its strings is refused, in
# one escaped line (docs/catalog.md: every string is one line of text)
printf '{"schema":"nicfit.catalog.v1","nics":[{"id":"evil-nic","name":"Evil\\u001b]0;x\\u0007 NIC \\u009b",
"part":"EV\\u001b[2JIL-1","vendor":"Ev\\u001b[31mil","family":"Evil\\u0007","protocol":"EN","ports":2,
"cage":"QSFP28","port_gbps":100,"speeds_gbps":[100],"ib_rate":null,"pcie_gen":4,"pcie_width":16,
"rdma":["roce"],"vpi":false,"form_factor":"pcie-hhhl","driver":"mlx5_core","role":["frontend","backend"],
"source":"test \\u001b[5m","unverified":[],"notes":["n\\u001b[8mote"]}]}\n' >"$tmp/evil.json"
check "catalog overlay with control characters" "$NICFIT" --catalog "$tmp/evil.json" catalog list
# and so is one with bidirectional controls or zero-width characters, which
# would make a part name show other than its bytes
printf '{"schema":"nicfit.catalog.v1","nics":[{"id":"evil-nic","name":"Evil \\u202e NIC",
"part":"EV\\u200bIL-1","vendor":"Ev\\ufeffil","family":"Evil\\u2066","protocol":"EN","ports":2,
"cage":"QSFP28","port_gbps":100,"speeds_gbps":[100],"ib_rate":null,"pcie_gen":4,"pcie_width":16,
"rdma":["roce"],"vpi":false,"form_factor":"pcie-hhhl","driver":"mlx5_core","role":["frontend","backend"],
"source":"test \\u2066","unverified":[],"notes":["n\\u200fote"]}]}\n' >"$tmp/evil.json"
check "catalog overlay with bidi and zero-width characters" "$NICFIT" --catalog "$tmp/evil.json" catalog list
# what the catalog accepts reaches catalog output escaped: markup (HTML,
# Markdown, XML) and a formula for spreadsheets
printf '{"schema":"nicfit.catalog.v1","nics":[{"id":"evil-nic","name":"=cmd|x NIC <script>&`|",
"part":"+EVIL-1","vendor":"@Ev<b>il","family":"-2+3","protocol":"EN","ports":2,
"cage":"QSFP28","port_gbps":100,"speeds_gbps":[100],"ib_rate":null,"pcie_gen":4,"pcie_width":16,
"rdma":["roce"],"vpi":false,"form_factor":"pcie-hhhl","driver":"mlx5_core","role":["frontend","backend"],
"source":"test","unverified":[],"notes":["n&ote"]}]}\n' >"$tmp/evil.json"
for f in text json md csv; do
	clean "catalog list with a hostile overlay --format $f" $f "$NICFIT" \
		--catalog "$tmp/evil.json" catalog list --format "$f"
done
for f in text json md; do
	clean "catalog show of a hostile part --format $f" $f "$NICFIT" \
		--catalog "$tmp/evil.json" catalog show evil-nic --format "$f"
done

# the pastes without lspci (a topo -m matrix alone, RDMA tools alone): the
# names of the paste are the devices, in every format, the line formats of
# other systems included; promtool reads the metrics
for p in paste-matrix paste-rdma paste-tree paste-iblink paste-mlxfw; do
	for f in text json md csv svg prom nhc nfd; do
		clean "audit --dump of a hostile $p --format $f" $f "$NICFIT" audit --dump \
			"$tmp/h/$p.txt" --all --format "$f"
	done
	if command -v promtool >/dev/null 2>&1; then
		n=$((n + 1))
		"$NICFIT" audit --dump "$tmp/h/$p.txt" --format prom >"$tmp/out" 2>/dev/null
		if promtool check metrics <"$tmp/out" >"$tmp/err" 2>&1; then
			echo "ok $n - promtool accepts the metrics of a hostile $p"
		else
			echo "not ok $n - promtool refuses the metrics of a hostile $p"
			sed 's/^/# /' "$tmp/err" | head -5
		fi
	fi
done
n=$((n + 1))
if "$NICFIT" audit --dump "$tmp/h/paste-rdma.txt" --json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
names = [f["device"] or "" for f in d["findings"] if f["code"] == "rdma-port-down"]
sys.exit(not (any("<script>" in x and "\x1b" in x for x in names) and any(x.startswith("=mlx5_2") for x in names)
              and any(x.startswith("=mlx5_1") and len(x) == 63 for x in names)
              and any(x == "(unnamed RDMA device)" for x in names)
              and any(f["code"] == "acs-redirect" and f["device"] == "0000:00:07.1" for f in d["findings"])))'; then
	echo "ok $n - the hostile RDMA names reach the findings (so the checks above see them)"
else
	echo "not ok $n - the hostile RDMA paste was not read as intended"
fi

n=$((n + 1))
if "$NICFIT" audit --dump "$tmp/h/paste-iblink.txt" --json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
f = d["findings"]
sys.exit(not (any(x["code"] == "ib-link-degraded" and "\x1b" in x["device"] for x in f)
              and sum(x["code"] == "ib-link-degraded" for x in f) == 2
              and any(x["code"] == "ib-port-no-link" and x["device"].startswith("gpu") and x["device"].endswith("nnn") for x in f)
              and any(x["code"] == "rdma-port-state-changed" and x["device"].startswith("=mlx5_2\x1b") for x in f)
              and any("\x1b" in l["remote"]["node"] for l in d["ib_links"] if l["remote"])))'; then
	echo "ok $n - the hostile iblinkinfo names reach the findings and ib_links (so the checks above see them)"
else
	echo "not ok $n - the hostile iblinkinfo paste was not read as intended"
fi

n=$((n + 1))
if "$NICFIT" audit --dump "$tmp/h/paste-mlxfw.txt" --json 2>/dev/null | python3 -c 'import json, sys
d = json.load(sys.stdin)
a = d["adapters"]
f = [x for x in d["findings"] if x["code"] == "nic-fw-mixed"]
sys.exit(not (len(a) == 3 and len(f) == 1 and "\x1b" in f[0]["message"] and "<script>" in f[0]["message"]
              and "card 0000:17:00.0" in f[0]["message"]
              and any(x["bdf"] == "0000:17:00.0" and x["bdf_from"] == "mst status" and "\x1b" in x["description"] for x in a)
              and any(x["tool"] == "flint" and x["pci_device_name"].startswith("=mlx5_2\x1b") for x in a)
              and any(x["code"] == "link-ber-high" and "\x1b" in x["device"] for x in d["findings"])
              and any(x["code"] == "link-down-counted" for x in d["findings"])
              and any("\x1b" in (p["fec"] or "") + (p["device"] or "") for p in d["mlxlink_ports"])))'; then
	echo "ok $n - the hostile firmware-tool names reach the adapters and nic-fw-mixed (so the checks above see them)"
else
	echo "not ok $n - the hostile mlxfwmanager and flint paste was not read as intended"
fi

# ---- bounded work ---------------------------------------------------------------
# A megabyte of one shape repeated (matrix rows, RDMA devices, NCCL lines
# from thousands of hosts, iperf intervals, nccl-tests rows and Rank lines)
# ends within the timeout with an answer: a report that parses (exit 0-3)
# or one line refusing it (64-66). Each takes well under a second.
# bounded NAME AWK-PROGRAM COMMAND...: the paste on stdin
bounded() {
	name=$1; prog=$2; shift 2
	n=$((n + 1))
	LC_ALL=C awk "BEGIN { $prog }" </dev/null | head -c 1100000 >"$tmp/big"
	timeout 20 "$@" <"$tmp/big" >"$tmp/out" 2>"$tmp/err"; rc=$?
	case $rc in
	0|1|2|3)
		if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/out" 2>/dev/null; then
			echo "ok $n - $name (exit $rc)"
		else
			echo "not ok $n - $name: exit $rc, no JSON report"
		fi ;;
	64|65|66)
		if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
			echo "ok $n - $name (exit $rc, refused)"
		else
			echo "not ok $n - $name: exit $rc, $(wc -l <"$tmp/err") stderr lines"
		fi ;;
	*)
		echo "not ok $n - $name: exit $rc"
		sed 's/^/# /' "$tmp/err" | head -3 ;;
	esac
}
bounded "1 MB of topo -m rows" 'printf "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\n";
	for (i = 0; i < 40000; i++) printf "GPU%d\t X \tSYS\tSYS\t0-55\t0\n", i % 2' \
	"$NICFIT" audit --dump - --json
bounded "1 MB of topo -m columns and NIC legend lines" 'printf "\t";
	for (i = 0; i < 20000; i++) printf "GPU%d\t", i; printf "NIC0\n";
	for (i = 0; i < 50000; i++) printf "  NIC%d: mlx5_%d\n", i, i' \
	"$NICFIT" audit --dump - --json
bounded "1 MB of ibdev2netdev lines" 'for (i = 0; i < 40000; i++)
	printf "mlx5_%d port 1 ==> ib%d (Down)\n", i, i' "$NICFIT" audit --dump - --json
bounded "1 MB of ibv_devinfo devices" 'for (i = 0; i < 20000; i++)
	printf "hca_id:\tmlx5_%d\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_DOWN (1)\n", i' \
	"$NICFIT" audit --dump - --json
bounded "1 MB of NCCL NET/IB lines" 'for (i = 0; i < 12000; i++)
	printf "h%d:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB ib0:10.0.0.1<0>\n", i' \
	"$NICFIT" verify --json -
bounded "1 MB of NCCL comm lines from as many hosts" 'for (i = 0; i < 14000; i++)
	printf "host%d:1:1 [0] NCCL INFO comm 0x55 rank %d nRanks 99999 nNodes 99999 localRanks 1 localRank 0 MNNVL 0\n", i, i' \
	"$NICFIT" verify --json -
bounded "1 MB of per-GPU GPUDirect RDMA lines" 'for (i = 0; i < 12000; i++)
	printf "h%d:1:1 [%d] NCCL INFO GPU Direct RDMA Enabled for GPU %d / HCA %d (distance 4 <= 4), read 1\n", i, i, i, i' \
	"$NICFIT" verify --json -
bounded "one 1 MB NET/IB line of HCAs" 'printf "h:1:1 [0] NCCL INFO NET/IB : Using";
	for (i = 0; i < 70000; i++) printf " [%d]mlx5_%d:1/IB", i, i; printf " ; OOB ib0:1<0>\n"' \
	"$NICFIT" verify --json -
bounded "1 MB of iperf3 intervals" 'printf "Connecting to host 10.0.0.1, port 5201\n[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n";
	for (i = 0; i < 14000; i++) printf "[  5]   0.00-1.00   sec  1.10 GBytes  9.41 Gbits/sec    0   1.17 MBytes\n"' \
	"$NICFIT" verify --json -
bounded "1 MB of iperf3 sender lines of as many streams" 'printf "[ ID] Interval           Transfer     Bitrate         Retr\n";
	for (i = 0; i < 12000; i++) printf "[%3d]   0.00-10.00  sec  11.0 GBytes  9.41 Gbits/sec    0             sender\n", i' \
	"$NICFIT" verify --json -
bounded "1 MB of iperf2 [SUM] lines" 'printf "[ ID] Interval       Transfer     Bandwidth\n";
	for (i = 0; i < 20000; i++) printf "[SUM]  0.0-10.0 sec  11.0 GBytes  9.44 Gbits/sec\n"' \
	"$NICFIT" verify --json -
bounded "1 MB of nccl-tests rows" 'printf "#  Rank  0 Group  0 Pid   1 on a device  0 [0x18] NVIDIA H100\n";
	for (i = 0; i < 9000; i++) printf "  1073741824     268435456     float     sum      -1   5000.0  214.75  214.75      0   5000.0  214.75  214.75      0\n"' \
	"$NICFIT" verify --json -
bounded "1 MB of nccl-tests Rank lines (separate jobs and ranks)" 'for (i = 0; i < 16000; i++)
	printf "#  Rank %5d Group  0 Pid   1 on host%d device  %d [0x18] NVIDIA H100\n", i % 3 ? i : 0, i, i' \
	"$NICFIT" verify --json -

# ---- input that holds nothing to audit ---------------------------------------
# An empty tree, one whose files are all empty, one without PCI devices:
# never "clean" - the critical sysfs-unreadable, exit 2, in text and JSON.
for t in empty zeroed nopci; do
	n=$((n + 1))
	timeout 20 "$NICFIT" audit --sysfs "$tmp/h/$t" --json >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc -eq 2 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not any(f["code"] == "sysfs-unreadable" and f["severity"] == "critical"
                 for f in d["findings"]))' "$tmp/out"; then
		echo "ok $n - audit of the $t tree is not clean (exit 2, sysfs-unreadable)"
	else
		echo "not ok $n - audit of the $t tree: exit $rc"
		head -c 300 "$tmp/out" | sed 's/^/# /'
	fi
done
check "audit --sysfs ''" "$NICFIT" audit --sysfs ""

# ---- verify: pasted logs and benchmark output ---------------------------------
# Unreadable or hostile pastes end with one escaped line; hostile text that
# parses (control bytes and bidi marks in HCA names, WARN lines, table cells)
# never reaches the report raw, in any format.
head -c 4096 /dev/urandom | tr -d 'N#<{[' >"$tmp/in"
check "verify binary input" "$NICFIT" verify -
printf '\033]0;evil\007 \033[31mnot a log\n' >"$tmp/in"
check "verify control bytes in a non-log" "$NICFIT" verify -
# (a document cut after its "version" is read as far as it goes: test_verify)
printf '{"start": {"connected": [{"socket": 5, "local_host": "\033[31m' >"$tmp/in"
check "verify truncated iperf3 JSON" "$NICFIT" verify -
head -c 100000 /dev/zero | tr '\0' '[' | sed 's/^/{"a":/' >"$tmp/in"
check "verify deeply nested JSON" "$NICFIT" verify -
: >"$tmp/in"
check "verify empty input" "$NICFIT" verify -
check "verify a directory" "$NICFIT" verify "$tmp"
check "verify nan ratio" "$NICFIT" verify --low-ratio nan -
check "verify huge nodes" "$NICFIT" verify --nodes 99999999999999999999 -
check "verify unknown speed" "$NICFIT" verify --link 7Q -
{
	printf 'h:1:1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n'
	printf 'h:1:1 [0] NCCL INFO NET/IB : Using [0]ml\033[2Jx5_0:1/IB [1]\342\200\256evil:1/RoCE ; OOB ib0:1<0>\n'
	printf 'h:1:1 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 \047ml\033[2Jx5_0\047 (no \033[31mmodule)\n'
	printf 'h:1:1 [0] NCCL INFO NCCL_IB_HCA set by environment to \033]0;t\007\n'
	printf 'h:1:1 [0] misc/x.cc:1 NCCL WARN \033[5m\342\200\256blink\n'
	printf '       8192  2048 float sum -1 1.0 \0330.2 0.2 0 1.0 0.2 0.2 0\n'
	printf '# Avg bus bandwidth    : 0.2\n'
} >"$tmp/evil.log"
for f in text md json; do
	clean "verify hostile NCCL log --format $f" $f "$NICFIT" verify --format "$f" --link NDR \
		--nodes 2 "$tmp/evil.log"
done
# the new shapes' names: hosts in NCCL log prefixes and nccl-tests Rank
# lines, HCA names in NET/IB and per-GPU GPUDirect lines, GPU names, iperf
# hosts (tests/fixtures/hostile.sh)
for p in nccl.log tests.txt iperf3.txt iperf2.txt; do
	for f in text md json; do
		clean "verify hostile $p --format $f" $f "$NICFIT" verify --format "$f" --link 400G \
			--nodes 2 "$tmp/h/$p"
	done
done
n=$((n + 1))
if "$NICFIT" verify --format text --link 400G --nodes 2 "$tmp/h/nccl.log" 2>/dev/null |
   grep -q 'nccl-gdr-disabled' && "$NICFIT" verify --format text "$tmp/h/tests.txt" 2>/dev/null |
   grep -q '2 ranks on 2 nodes'; then
	echo "ok $n - the hostile NCCL log and nccl-tests paste are read as intended"
else
	echo "not ok $n - the hostile NCCL log or nccl-tests paste was not read as intended"
fi
# its two hosts' names are an escape sequence's tail and a 300-byte run:
# neither is a host name, and the six records of the second are not six hosts
n=$((n + 1))
h=$("$NICFIT" --json verify --link 400G "$tmp/h/nccl.log" 2>/dev/null | grep -o '"hosts":[0-9]*' | head -n 1)
if [ "$h" = "\"hosts\":0" ]; then
	echo "ok $n - the hostile NCCL log's prefixes are no host names"
else
	echo "not ok $n - the hostile NCCL log is read as $h hosts"
fi

# ---- bounded before it works: CPU and silent partial data ----------------------
# Each attack below is reproduced at the size it was found at and must end
# with its refusal (or its finding) by counts and messages, never by a
# time: the CPU each took (getrusage of the child) is printed as a note.
: "${BUILD:=build}"
b="$tmp/bounded"
mkdir -p "$b"
okn() { n=$((n + 1)); echo "ok $n - $1"; }
non() { n=$((n + 1)); echo "not ok $n - $1"; }
# cpu COMMAND...: run it (stdin /dev/null, stderr $b/err), rc in $rc, its CPU seconds in $cpu
cpu() {
	python3 -c 'import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)  # what python itself ran at its start
p = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=open(sys.argv[1], "wb"))
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(p.returncode, "%.3f" % (r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime))' "$b/err" "$@" >"$b/cpu"
	read -r rc cpu <"$b/cpu"
}
python3 - "$b" <<'PY'
import gzip, io, sys, tarfile
d = sys.argv[1]
# 125,000 short keys in a megabyte (the spec reader compared each with all before it)
a = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
def key(i):
    s = ""
    while True:
        s = a[i % 62] + s
        i //= 62
        if not i:
            return s
open(f"{d}/keys.json", "w").write("{" + ",".join('"%s":1' % key(i) for i in range(125000)) + "}")
# entities in a DTD internal subset, the markup written in UTF-7 ("+ADw-!ENTITY")
import base64
def u7(c):
    return "+" + base64.b64encode(c.encode("utf-16-be")).decode().rstrip("=") + "-"
decl = '<!DOCTYPE system [\n<!ENTITY a "' + "a" * 64 + '">\n'
prev = "a"
for i in range(1, 8):
    decl += '<!ENTITY e%d "%s">\n' % (i, ("&%s;" % prev) * 16)
    prev = "e%d" % i
decl += "]>\n"
body = ('<system version="1"><cpu numaid="0"><pci busid="0000:17:00.0" class="0x030200" '
        'vendor="0x10de" device="0x2330" link_speed="&%s;" link_width="16"/></cpu></system>\n' % prev)
open(f"{d}/utf7.xml", "w").write('<?xml version="1.0" encoding="UTF-7"?>\n' +
                                  "".join(u7(c) if c in '<>!&[];"' else c for c in decl + body))
# 4,000 gzip bombs (17 MiB of zeros each) in a sosreport-like tar.gz
inner = gzip.compress(b"\0" * (17 << 20), 9)
for k in (40, 4000):
    with tarfile.open(f"{d}/bombs{k}.tar.gz", "w:gz") as t:
        for i in range(k):
            ti = tarfile.TarInfo(f"sosreport-x/var/log/bomb{i:04d}.log.gz")
            ti.size = len(inner)
            t.addfile(ti, io.BytesIO(inner))
# the same bombs with a forged trailer: each says it holds 1,000 bytes, so the
# archive's sum of what they say passes, and each inflates to 17 MiB
liar = bytearray(inner)
liar[-4:] = (1000).to_bytes(4, "little")
for k in (40, 4000):
    with tarfile.open(f"{d}/liars{k}.tar.gz", "w:gz") as t:
        for i in range(k):
            ti = tarfile.TarInfo(f"sosreport-x/var/log/liar{i:04d}.log.gz")
            ti.size = len(liar)
            t.addfile(ti, io.BytesIO(bytes(liar)))
open(f"{d}/liar.log.gz", "wb").write(bytes(liar))
# 1,000,001 empty entries, as raw ustar headers
def hdr(name):
    h = bytearray(512)
    h[0:len(name)] = name.encode()
    h[100:108] = b"0000644\0"; h[108:116] = b"0000000\0"; h[116:124] = b"0000000\0"
    h[124:136] = b"00000000000\0"; h[136:148] = b"00000000000\0"
    h[148:156] = b" " * 8; h[156:157] = b"0"; h[257:263] = b"ustar\0"; h[263:265] = b"00"
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)
with gzip.open(f"{d}/million.tar.gz", "wb", 1) as f:
    for i in range(1000001):
        f.write(hdr("x/sys/%d" % i))
    f.write(b"\0" * 1024)
PY

cpu "$NICFIT" plan --spec "$b/keys.json"
if [ "$rc" = 65 ] && grep -q 'more than 256 settings' "$b/err" && [ "$(wc -l <"$b/err")" = 1 ]; then
	okn "125,000 keys in a 1 MB --spec: refused at the 257th, exit 65 # note: ${cpu} s of CPU"
else
	non "125,000 keys in a 1 MB --spec: exit $rc: $(head -c 200 "$b/err")"
fi
cpu "$NICFIT" audit --dump "$b/utf7.xml"
if [ "$rc" = 65 ] && grep -q 'DTD internal subset' "$b/err"; then
	okn "entities hidden in UTF-7: refused, nothing expanded, exit 65 # note: ${cpu} s of CPU"
else
	non "entities hidden in UTF-7: exit $rc: $(head -c 200 "$b/err")"
fi
cpu "$NICFIT" audit --dump "$b/bombs4000.tar.gz"
if [ "$rc" = 65 ] && grep -q 'decompressed from its gzip files' "$b/err" &&
   grep -q 'after 8 entries' "$b/err"; then
	okn "4,000 gzip bombs in a tar.gz: refused at the eighth, exit 65 # note: ${cpu} s of CPU ($(wc -c <"$b/bombs4000.tar.gz") bytes)"
else
	non "4,000 gzip bombs: exit $rc: $(head -c 200 "$b/err")"
fi
# a forged ISIZE is caught while the archive is read, at the first entry,
# naming it: not after the archive is unpacked, and not after the reader's
# 128 MiB (eight bombs) have been inflated
cpu "$NICFIT" audit --dump "$b/liars4000.tar.gz"
if [ "$rc" = 65 ] && grep -q 'liars4000.tar.gz/sosreport-x/var/log/liar0000.log.gz: inflates past the 1000 bytes its gzip trailer says' "$b/err"; then
	okn "4,000 gzip bombs with forged sizes in a tar.gz: the first refused while inflating, named, exit 65 # note: ${cpu} s of CPU"
else
	non "4,000 gzip bombs with forged sizes: exit $rc: $(head -c 200 "$b/err")"
fi
# Refused while the archive is read: the refusal costs the same whether
# 40 or 4,000 entries follow (instructions counted by valgrind, not timed;
# unpacking the 4,000 first cost 1.5 billion instructions, 200x the 40)
# ir COMMAND...: the instructions it executed (valgrind's callgrind), in $ir
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$b/cg"
	ir=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$b/cg")
}
counted=0
command -v valgrind >/dev/null 2>&1 && [ "${SANITIZE:-}" != 1 ] && counted=1
if [ $counted = 1 ]; then
	for f in bombs liars; do
		ir "$NICFIT" audit --dump "$b/${f}40.tar.gz"; i40=$ir
		ir "$NICFIT" audit --dump "$b/${f}4000.tar.gz"; i4k=$ir
		if [ -n "$i40" ] && [ -n "$i4k" ] && [ "$i4k" -le $((i40 * 3 / 2)) ]; then
			okn "$f: 4,000 entries refused for the instructions of 40, nothing unpacked # note: $i4k vs $i40 instructions"
		else
			non "$f: 4,000 entries cost ${i4k:-?} instructions, 40 cost ${i40:-?}: the archive is read past the refusal"
		fi
	done
else
	for f in bombs liars; do
		n=$((n + 1))
		echo "ok $n # skip $f: valgrind is not installed or SANITIZE=1 (refusal cost not counted)"
	done
fi
cpu "$NICFIT" audit --dump "$b/liar.log.gz"
if [ "$rc" = 65 ] && grep -q 'liar.log.gz: inflates past the 1000 bytes' "$b/err"; then
	okn "one gzip file with a forged size: refused while inflating, exit 65 # note: ${cpu} s of CPU"
else
	non "one gzip file with a forged size: exit $rc: $(head -c 200 "$b/err")"
fi
cpu "$NICFIT" audit --sysfs "$b/million.tar.gz"
if [ "$rc" = 65 ] && grep -q 'more than 100000 entries' "$b/err"; then
	okn "1,000,001 entries: refused by counting, nothing written, exit 65 # note: ${cpu} s of CPU"
else
	non "1,000,001 entries: exit $rc: $(head -c 200 "$b/err")"
fi

# 600 MiB of file content in a 21 kB tar.zst: the first header's size
# passes the 512 MiB bound, so the archive is refused at it, for the cost of
# the same header with no data after it (the count of entries used to
# decompress every entry's data before the bound was looked at)
if command -v zstd >/dev/null 2>&1; then
	for full in 1 0; do
		python3 - "$full" <<'PY' | zstd -q -1 >"$b/big$full.tar.zst"
import sys
h = bytearray(512)
h[0:9] = b"x/sys/big"
h[100:108] = b"0000644\0"; h[108:116] = b"0000000\0"; h[116:124] = b"0000000\0"
h[124:136] = b"%011o\0" % (600 << 20); h[136:148] = b"00000000000\0"
h[148:156] = b" " * 8; h[156:157] = b"0"; h[257:263] = b"ustar\0"; h[263:265] = b"00"
h[148:156] = b"%06o\0 " % sum(h)
out = sys.stdout.buffer
out.write(h)
if sys.argv[1] == "1":
    a = b"a" * (1 << 20)
    for i in range(600):
        out.write(a)
    out.write(b"\0" * 1024)
PY
	done
	cpu "$NICFIT" audit --dump "$b/big1.tar.zst"
	if [ "$rc" = 65 ] && grep -q 'more than 512 MiB of file content; refused after 1 entries' "$b/err"; then
		okn "600 MiB of content in a $(wc -c <"$b/big1.tar.zst")-byte tar.zst: refused at its header, exit 65 # note: ${cpu} s of CPU"
	else
		non "600 MiB of content in a tar.zst: exit $rc: $(head -c 200 "$b/err")"
	fi
	if [ $counted = 1 ]; then
		ir "$NICFIT" audit --dump "$b/big0.tar.zst"; i0=$ir
		ir "$NICFIT" audit --dump "$b/big1.tar.zst"; i1=$ir
		if [ -n "$i0" ] && [ -n "$i1" ] && [ "$i1" -le $((i0 * 3 / 2)) ]; then
			okn "600 MiB of content: refused for the instructions of its header alone, none of it decompressed # note: $i1 vs $i0 instructions"
		else
			non "600 MiB of content: ${i1:-?} instructions, its header alone ${i0:-?}: its data was decompressed"
		fi
	else
		n=$((n + 1))
		echo "ok $n # skip valgrind is not installed or SANITIZE=1 (refusal cost not counted)"
	fi
else
	n=$((n + 2))
	echo "ok $((n - 1)) # skip zstd is not installed (600 MiB of content in a tar.zst)"
	echo "ok $n # skip zstd is not installed"
fi

# numbers with sense: a width of x1e308 is no x1 (it invented nic-pcie-starved
# and path-narrower), and an nccl-tests row of inf is no row to drop in silence
printf '0000:17:00.0 Ethernet controller [0200]: Mellanox Technologies MT2910 Family [ConnectX-7] [15b3:1021]\n\tCapabilities: [40] Express (v2) Endpoint, MSI 00\n\t\tLnkCap:\tPort #0, Speed 32GT/s, Width x16, ASPM not supported\n\t\tLnkSta:\tSpeed 32GT/s, Width x1e308\n\tKernel driver in use: mlx5_core\n' >"$b/absurd.txt"
"$NICFIT" audit --dump "$b/absurd.txt" >"$b/out" 2>&1; rc=$?
if [ $rc -le 2 ] && grep -q 'absurd.txt:4, LnkSta: "Width x1e308" is not a PCIe link width' "$b/out" &&
   ! grep -q 'nic-pcie-starved\|path-narrower\|downtrained' "$b/out"; then
	okn "lspci Width x1e308: reported with its line, no starved card or narrow path invented"
else
	non "lspci Width x1e308: exit $rc: $(grep -i 'x1e308\|starved\|narrower\|downtrained' "$b/out" | head -3)"
fi
{
	echo "# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"
	echo "#                                                              out-of-place                       in-place"
	echo "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong"
	echo "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)"
	echo "  4294967296    1073741824     float     sum      -1    23187  185.23  324.16      0    23180  185.29  324.26      0"
	echo "  8589934592    2147483648     float     sum      -1    46232  185.80     inf      0    46210  185.89  325.31      0"
	echo "# Avg bus bandwidth    : 324.6"
} >"$b/inf.txt"
"$NICFIT" verify --link 400G --nodes 1 "$b/inf.txt" >"$b/out" 2>"$b/err"; rc=$?
if [ $rc = 65 ] && grep -q 'inf.txt:6:[0-9]*: .*busbw inf GB/s is not a measurement' "$b/err" &&
   [ ! -s "$b/out" ]; then
	okn "an nccl-tests row with busbw inf: the input refused at its line and column, no verdict"
else
	non "an nccl-tests row with busbw inf: exit $rc: $(head -c 200 "$b/err") $(head -c 200 "$b/out")"
fi

# snapshots whole or refused: a copy missing files, a directory still
# marked partial, a .tar cut at an entry boundary (no manifest: critical)
fx="$BUILD/fixtures/r740xd"
if [ -d "$fx" ]; then
	"$NICFIT" snapshot --sysfs "$fx" "$b/snap" >/dev/null 2>&1
	"$NICFIT" snapshot --sysfs "$fx" "$b/snap.tar" >/dev/null 2>&1
	cp -a "$b/snap" "$b/short"
	rm -rf "$b/short/sys/class/net"
	"$NICFIT" audit --sysfs "$b/short" >/dev/null 2>"$b/err"; rc=$?
	if [ $rc = 65 ] && grep -q 'incomplete snapshot: its manifest lists' "$b/err"; then
		okn "a snapshot missing entries: refused naming both counts"
	else
		non "a snapshot missing entries: exit $rc: $(cat "$b/err")"
	fi
	cp -a "$b/snap" "$b/partial"
	rm "$b/partial/nicfit-snapshot.json"
	: >"$b/partial/nicfit-snapshot.partial"
	"$NICFIT" audit --sysfs "$b/partial" >/dev/null 2>"$b/err"; rc=$?
	[ $rc = 65 ] && grep -q 'an interrupted snapshot' "$b/err" &&
		okn "an interrupted snapshot directory: refused" ||
		non "an interrupted snapshot directory: exit $rc"
	python3 - "$b/snap.tar" "$b/cut.tar" <<'PY'
import sys, tarfile
src = tarfile.open(sys.argv[1])
dst = tarfile.open(sys.argv[2], "w", format=tarfile.PAX_FORMAT)
for i, m in enumerate(src):
    if i >= 150:
        break
    dst.addfile(m, src.extractfile(m) if m.isfile() else None)
dst.close()
PY
	"$NICFIT" audit --sysfs "$b/cut.tar" >"$b/out" 2>&1; rc=$?
	[ $rc = 2 ] && grep -q 'CRITICAL  snapshot-incomplete' "$b/out" &&
		okn "a .tar cut at an entry boundary: critical snapshot-incomplete, exit 2, never clean" ||
		non "a .tar cut at an entry boundary: exit $rc"
	# snapshot killed while it writes: DEST never appears, the next run cleans up
	kills=0; left=0
	for i in 1 2 3 4 5; do
		"$NICFIT" snapshot --sysfs "$BUILD/fixtures/hgx-h100" "$b/k$i" >/dev/null 2>&1 &
		pid=$!
		sleep "0.00$i"; kill -KILL $pid 2>/dev/null && kills=$((kills + 1)); wait $pid 2>/dev/null
		if [ -e "$b/k$i" ] && [ ! -f "$b/k$i/nicfit-snapshot.json" ]; then left=$((left + 1)); fi
	done
	for i in 1 2 3 4 5; do rm -rf "$b/k$i"; "$NICFIT" snapshot --sysfs "$fx" "$b/k$i" >/dev/null 2>&1; done
	[ $left = 0 ] && [ -z "$(ls -A "$b" | grep '^\.k[0-9]\.nicfit-')" ] &&
		okn "snapshot DIR killed $kills times: never a DEST without its manifest, stand-ins removed by the next run" ||
		non "snapshot killed: $left partial destinations, $(ls -A "$b" | grep -c '^[.]k') stand-ins left"
fi

# fleet --dumps: one host that cannot be read is that host's problem
mkdir -p "$b/fleet/ok1" "$b/fleet/ok2"
cp tests/fixtures/dumps/fleet/r740xd-01/* "$b/fleet/ok1/" 2>/dev/null
cp tests/fixtures/dumps/fleet/r740xd-02/* "$b/fleet/ok2/" 2>/dev/null
printf 'not a listing\n' >"$b/fleet/bad"
"$NICFIT" -j fleet --dumps "$b/fleet" >"$b/out" 2>"$b/err"; rc=$?
if [ $rc = 1 ] && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["hosts"] == 3 and [p["host"] for p in d["problems"]] == ["bad"]))' "$b/out"; then
	okn "fleet --dumps with one unreadable host: the other two reported, exit 1"
else
	non "fleet --dumps with one unreadable host: exit $rc: $(head -c 200 "$b/err")"
fi

# --output and --port-map killed 20 times: no torn file, no hidden file
mkdir -p "$b/o"
torn=0
for i in $(seq 1 10); do
	"$NICFIT" cluster --nodes 20000 --gpus-per-node 8 --port-map "$b/o/map.csv" >/dev/null 2>&1 &
	pid=$!; sleep "0.0$i"; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
	"$NICFIT" audit --sysfs "${fx:-/}" --output "$b/o/a.txt" >/dev/null 2>&1 &
	pid=$!; sleep "0.00$i"; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
	[ ! -e "$b/o/a.txt" ] || [ -s "$b/o/a.txt" ] || torn=$((torn + 1))
done
hidden=$(ls -A "$b/o" | grep -c '^\.')
[ "$hidden" = 0 ] && [ $torn = 0 ] &&
	okn "20 kills of --port-map and --output: no hidden file, no torn file" ||
	non "20 kills: $hidden hidden files ($(ls -A "$b/o" | tr '\n' ' ')), $torn torn"

# serve under slow and bursty clients, and its stop under attack
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NICFIT" serve --port "$port" 2>"$b/serve.err" &
spid=$!
i=0; while ! grep -q listening "$b/serve.err" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
python3 - "$port" "$spid" "$b/keys.json" >"$b/attack" 2>&1 <<'PY'
import os, resource, signal, socket, sys, threading, time
port, spid = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
stop = threading.Event()
head = (b"POST /api/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 4096\r\n\r\n")
def status(r, timeout=10):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        s.sendall(r)
        line = s.makefile("rb").readline()
        s.close()
        return line.split()[1].decode() if line else "none"
    except OSError:
        return "none"
def slow():
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(head)
            while not stop.is_set():
                s.sendall(b" ")
                time.sleep(1)
        except OSError:
            time.sleep(0.05)
def cpu_of(pid):  # the time of serve's threads (a fixed pool) on a CPU, in ns (schedstat)
    ns = 0
    for t in os.listdir("/proc/%d/task" % pid):
        try:
            ns += int(open("/proc/%d/task/%s/schedstat" % (pid, t)).read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread gone meanwhile
    return ns / 1e9
# the megabyte of 125,000 keys, POSTed: the server's CPU for it
keys = open(sys.argv[3], "rb").read()
c0 = cpu_of(spid)
st = status(b"POST /api/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(keys) + keys)
print("keys_status", st, "cpu %.3f s" % (cpu_of(spid) - c0))
ts = [threading.Thread(target=slow, daemon=True) for _ in range(384)]
for t in ts:
    t.start()
time.sleep(3)
body = b'{"server": "r740xd", "servers": 2}'
req = (b"POST /api/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
       b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
probes = []
for _ in range(30):
    probes.append(status(req))
    time.sleep(0.2)
print("probes_200", probes.count("200"), "of", len(probes), " ".join(probes))
# a burst of 1,000 connections, each asking at once
got = []
lock = threading.Lock()
def one():
    st = status(b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 20)
    with lock:
        got.append(st)
bs = [threading.Thread(target=one) for _ in range(1000)]
for t in bs:
    t.start()
for t in bs:
    t.join()
print("burst_answered", sum(1 for g in got if g != "none"), "of", len(got),
      "200:", got.count("200"), "503:", got.count("503"))
# stop under attack: the slow clients still at it
t0 = time.monotonic()
os.kill(spid, signal.SIGTERM)
while True:
    try:
        os.kill(spid, 0)
    except ProcessLookupError:
        break
    if time.monotonic() - t0 > 30:
        break
    time.sleep(0.01)
print("stopped_after %.2f s" % (time.monotonic() - t0))
stop.set()
PY
wait $spid 2>/dev/null; src=$?
p200=$(awk '/^probes_200/ {print $2}' "$b/attack")
burst=$(awk '/^burst_answered/ {print $2}' "$b/attack")
stopped=$(awk '/^stopped_after/ {print $2}' "$b/attack")
grep -q '^keys_status 413' "$b/attack" &&
	okn "125,000 keys POSTed to /api/plan: answered 413 # note: $(grep keys_status "$b/attack")" ||
	non "125,000 keys POSTed: $(grep keys_status "$b/attack")"
[ "${p200:-0}" -ge 29 ] && okn "384 slow bodies: $p200 of 30 probes answered 200" ||
	non "384 slow bodies: ${p200:-no} probes of 30 answered 200 ($(grep probes "$b/attack"))"
[ "${burst:-0}" = 1000 ] && okn "a burst of 1,000 connections: all answered # note: $(grep burst "$b/attack")" ||
	non "a burst of 1,000 connections: ${burst:-none} answered ($(grep burst "$b/attack"))"
# the man page promises the stop within 3 s, requests in flight included
ms=$(echo "${stopped:-99}" | awk '{ printf "%d", $1 * 1000 }')
[ -n "$stopped" ] && [ "$src" = 0 ] && [ "$ms" -lt 3000 ] &&
	okn "SIGTERM under attack: serve stopped within the promised 3 s, exit 0 # note: after $stopped s" ||
	non "SIGTERM under attack: exit $src after ${stopped:-no stop} s ($(tail -3 "$b/attack"))"
