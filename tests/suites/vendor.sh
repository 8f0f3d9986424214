#!/bin/sh
# Vendor-true advice: what nicfit prints about AMD Instinct nodes names
# AMD's software (RCCL, rccl-tests, the amdgpu driver's peer memory,
# rocm-smi), and what it prints about Intel Gaudi names HCCL, never an NVIDIA-only tool or variable. Each AMD plan, cluster
# and audit below is scanned, in text, JSON and Markdown, for the words
# that belong to NVIDIA's stack alone; the NCCL_* variables RCCL itself
# documents (NCCL_DEBUG, NCCL_IB_GID_INDEX, NCCL_IB_HCA, NCCL_SOCKET_IFNAME)
# are allowed, and so are JSON field names (the audit's gpudirect object
# keeps its nvidia_peermem member on every host). A control run on an NVIDIA node must find them, so the scan
# cannot pass by matching nothing. Prints TAP.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
nvidia_only='nvidia-peermem|nvidia_peermem|nv_peer_mem|nvidia-smi|nccl-tests|NVLink|CUDA|NCCL_NET_GDR_LEVEL|NCCL_TOPO_FILE|NCCL([^_]|$)'

# scan NAME ARGS...: run nicfit in three formats; fail on an NVIDIA-only word
scan() {
	name=$1; shift
	for fmt in text json md; do
		n=$((n + 1))
		"$NICFIT" --format "$fmt" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -gt 2 ]; then
			echo "not ok $n - $name ($fmt): exit $rc"
			sed 's/^/# /' "$tmp/err" | head -3
		elif ! [ -s "$tmp/out" ]; then
			echo "not ok $n - $name ($fmt): no output"
		elif sed -E 's/"[a-z_]+"://g' "$tmp/out" | grep -En "$nvidia_only" >"$tmp/hits"; then
			echo "not ok $n - $name ($fmt): NVIDIA-only words"
			cut -c1-200 "$tmp/hits" | sed 's/^/# /' | head -5
		else
			echo "ok $n - $name ($fmt)"
		fi
	done
}

# must NAME PATTERN ARGS...: the text output names PATTERN (the AMD word)
must() {
	name=$1 pat=$2; shift 2
	n=$((n + 1))
	"$NICFIT" "$@" >"$tmp/out" 2>"$tmp/err"
	if grep -Eq "$pat" "$tmp/out"; then
		echo "ok $n - $name names $pat"
	else
		echo "not ok $n - $name does not name $pat"
	fi
}

node="plan --server as-8125gs-tnmr2 --servers 2 --model llama-3.1-70b --workload training"
pollara="plan --server as-8125gs-tnmr2 --gpu mi325x --servers 16 --backend-nic pollara-400 --switch z9864f-on --model llama-3.1-405b --workload training"
thor="plan --server as-8125gs-tnmr2 --gpu mi325x --servers 16 --backend-nic bcm957608-p2200gqf00 --switch z9864f-on --model llama-3.1-405b --workload training"
cluster="cluster --nodes 16 --gpu mi325x --nic pollara-400 --switch z9864f-on --rail-optimized --no-frontend --no-oob"

# shellcheck disable=SC2086
scan "MI300X node pair" $node
# shellcheck disable=SC2086
scan "16 MI325X nodes, Pollara on Tomahawk 5" $pollara
# shellcheck disable=SC2086
scan "16 MI325X nodes, Thor2 on Tomahawk 5" $thor
# shellcheck disable=SC2086
scan "cluster of MI325X nodes" $cluster
# shellcheck disable=SC2086
scan "cluster of Gaudi 3 nodes on their own ports" cluster --nodes 8 --gpu gaudi3-oam --switch z9864f-on --no-frontend --no-oob
scan "8 Gaudi 3 servers" plan --server generic-gaudi3-8oam --servers 8 --model llama-3.1-405b --workload training
scan "Gaudi 3 node fit" calc fit --model llama-3.1-70b --precision bf16 --gpus 8xgaudi3-oam
scan "16 MI325X Gigabyte G893 servers, Pollara" plan --server g893-zx1-aax2 --servers 16 --backend-nic pollara-400 --switch z9864f-on --model llama-3.1-405b --workload training
scan "8 Gaudi 3 PCIe servers" plan --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --gpus-per-server 8 --servers 8 --model llama-3.1-70b --workload training
scan "cluster of Gaudi 3 PCIe servers" cluster --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --nodes 8 --switch z9864f-on
scan "MI355X cluster on a scheduled fabric" cluster --nodes 36 --gpu mi355x --nic pollara-400 --switch arista-7700r4c-38pe --rail-optimized --no-frontend --no-oob
scan "MI325X cluster at AMD's 1:1.16" cluster --nodes 64 --gpu mi325x --nic pollara-400 --switch z9864f-on --rail-optimized --no-frontend --no-oob --oversubscription 1:1.16
must "MI325X cluster at AMD's 1:1.16" 'cluster.subscription' cluster --nodes 64 --gpu mi325x --nic pollara-400 --switch z9864f-on --rail-optimized --no-frontend --no-oob --oversubscription 1:1.16
must "cluster of Gaudi 3 PCIe servers" 'HCCL' cluster --server generic-gaudi3-8pcie --gpu gaudi3-hl338 --nodes 8 --switch z9864f-on
must "cluster of Gaudi 3 nodes" 'HCCL' cluster --nodes 8 --gpu gaudi3-oam --no-frontend --no-oob
if [ -d "$BUILD/fixtures/mi300x-thor2" ]; then
	scan "audit of an MI300X node" audit --sysfs "$BUILD/fixtures/mi300x-thor2"
	must "audit of an MI300X node" 'rocm-smi --showtopo' audit --sysfs "$BUILD/fixtures/mi300x-thor2"
else
	n=$((n + 1))
	echo "not ok $n - fixture $BUILD/fixtures/mi300x-thor2 missing (make fixtures)"
fi
# shellcheck disable=SC2086
must "16 MI325X nodes" 'RCCL' $pollara
# shellcheck disable=SC2086
must "cluster of MI325X nodes" 'amdkfd' $cluster

# the control: the same scan finds NCCL in an NVIDIA node's plan
n=$((n + 1))
"$NICFIT" plan --server dgx-h100 --servers 2 --model llama-3.1-70b --workload training \
	>"$tmp/out" 2>"$tmp/err"
if grep -Eq "$nvidia_only" "$tmp/out"; then
	echo "ok $n - the scan finds NVIDIA's words in a DGX H100 plan"
else
	echo "not ok $n - the scan finds nothing in a DGX H100 plan: it cannot fail"
fi
