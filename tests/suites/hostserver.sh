#!/bin/sh
# An audited host as a catalog server: `audit --format catalog` on every
# fixture machine writes one server entry that `catalog check` accepts and
# `plan --server FILE.json` plans with, its slots, sockets and PCIe
# switches as the audit sees them; a virtual machine is refused.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { # name command... (true/false)
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}

for d in "$fx"/*/; do
	m=$(basename "$d")
	[ "$m" = kvm-vm ] && continue
	"$NICFIT" audit --sysfs "$d" --format catalog >"$tmp/$m.json" 2>"$tmp/$m.err"
	check "$m: audit --format catalog exits 0" [ $? = 0 ]
	"$NICFIT" catalog check "$tmp/$m.json" >/dev/null 2>&1
	check "$m: the entry passes catalog check" [ $? = 0 ]
	"$NICFIT" plan --server "$tmp/$m.json" -j >"$tmp/$m.plan" 2>"$tmp/$m.perr"
	rc=$?
	check "$m: plan --server FILE.json plans (exit $rc)" [ "$rc" -le 2 ]
	id=$(sed -n 's/^      "id": "\(.*\)",$/\1/p' "$tmp/$m.json")
	check "$m: the plan's server is the file's ($id)" \
		grep -q "\"input\":{\"server\":\"$id\"" "$tmp/$m.plan"
done

# the sockets and the PCIe switches of the host: hgx-h100 has two sockets
# and four switches on root ports, each pairing GPUs with NICs (audit says
# PIX), one with a fifth cascaded below it (its NICs PXB to the GPUs
# above), and a plan for its eight GPUs puts a back-end card under each
# GPU's switch
j="$tmp/hgx-h100.json"
check "hgx-h100: 2 sockets" grep -q '"sockets": 2,' "$j"
check "hgx-h100: 5 PCIe switches" [ "$(grep -c '"id": "0000:' "$j")" = 5 ]
check "hgx-h100: one cascaded, below the switch at 16:00.0" \
	[ "$(grep -c '"upstream": "0000:16:00.0"' "$j")" = 1 ]
check "hgx-h100: that one holds a slot" grep -q '"switch": "0000:1c:00.0"' "$j"
check "hgx-h100: 8 baseboard GPU positions" [ "$(grep -c '"gpu": "baseboard"' "$j")" = 8 ]
check "hgx-h100: its baseboard GPU is the catalog H100 SXM5" grep -q '"baseboard_gpu": "h100-sxm5-80gb"' "$j"
"$NICFIT" plan --server "$j" --gpu h100-sxm5-80gb --servers 2 --workload training \
	--model llama-3-8b >"$tmp/hgx.plan" 2>&1
check "hgx-h100: planned from the file, every GPU PIX to its card" \
	grep -q 'GPU-NIC paths: 8 PIX' "$tmp/hgx.plan"
# mi300x-thor2: every GPU behind a switch cascaded below the one its NIC is
# on, as audit says PXB; eight cascades, sixteen switches
j="$tmp/mi300x-thor2.json"
check "mi300x-thor2: 16 PCIe switches" [ "$(grep -c '"id": "0000:' "$j")" = 16 ]
check "mi300x-thor2: 8 of them cascaded" [ "$(grep -c '"upstream": "0000:' "$j")" = 8 ]
"$NICFIT" plan --server "$j" --servers 2 --workload training --model llama-3-8b \
	--backend-cards 8 >"$tmp/mi.plan" 2>&1
check "mi300x-thor2: planned from the file, every GPU PXB to its card" \
	grep -q 'GPU-NIC paths: 8 PXB' "$tmp/mi.plan"
# r740xd: the GPUs on socket 1 and the ConnectX on socket 0, as audited
check "r740xd: slots on both sockets" sh -c "grep -q '\"socket\": 0' '$tmp/r740xd.json' && grep -q '\"socket\": 1' '$tmp/r740xd.json'"
check "r740xd: the slot that holds the ConnectX says so" grep -q '"holds": ".*ConnectX' "$tmp/r740xd.json"

# from pasted dumps too: a ticket's lspci/nvidia-smi text, and a directory of
# hwloc and NCCL XML whose CPU listing and PCI tree disagree on the sockets
for dump in tests/fixtures/dumps/ticket-hgx-h100.txt tests/fixtures/dumps/xml; do
	"$NICFIT" audit --dump "$dump" --format catalog >"$tmp/dump.json" 2>/dev/null
	check "$dump: audit --dump --format catalog exits 0" [ $? = 0 ]
	"$NICFIT" catalog check "$tmp/dump.json" >/dev/null 2>&1
	check "$dump: the entry passes catalog check (no slot on a socket it lacks)" [ $? = 0 ]
	"$NICFIT" plan --server "$tmp/dump.json" >/dev/null 2>&1
	check "$dump: plan --server plans with it" [ $? -le 2 ]
done

# a virtual machine's slots are the hypervisor's
"$NICFIT" audit --sysfs "$fx/kvm-vm" --format catalog >"$tmp/vm.json" 2>"$tmp/vm.err"
check "kvm-vm: refused with exit 65" [ $? = 65 ]
check "kvm-vm: one line naming the reason" sh -c "[ \$(wc -l <'$tmp/vm.err') = 1 ] && grep -q 'virtual machine' '$tmp/vm.err'"
check "kvm-vm: nothing on standard output" [ ! -s "$tmp/vm.json" ]

# --server FILE.json that is not one server
printf '{"schema":"nicfit.catalog.v1","servers":[]}\n' >"$tmp/none.json"
"$NICFIT" plan --server "$tmp/none.json" >/dev/null 2>"$tmp/none.err"
check "a file without a server: exit 65" [ $? = 65 ]
check "a file without a server: the error names the file" grep -q "none.json" "$tmp/none.err"
"$NICFIT" plan --server "$tmp/missing.json" >/dev/null 2>"$tmp/missing.err"
rc=$?
check "a missing file: exit 66 (no input)" [ "$rc" = 66 ]
# --format catalog is audit's only
"$NICFIT" plan --server r740xd --format catalog >/dev/null 2>&1
check "plan --format catalog: usage error" [ $? = 64 ]

echo "1..$n"
[ "$fails" = 0 ]
