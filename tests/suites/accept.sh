#!/bin/sh
# The runbooks nicfit accept writes as bash scripts (--script) must pass
# the ShellCheck linter at its strictest level (style) and bash -n, for a plan (the
# article's two servers, a 32-node DGX H100 cluster with either launcher,
# AMD GPUs with --read) and for an audited fixture host. shellcheck comes
# from Debian's shellcheck package (scripts/deps.sh check installs it).
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dgx="--server dgx-h100 --servers 32 --gpu h100-sxm5-80gb --gpus-per-server 8 --model llama-3-70b --workload training --fabric infiniband"
check() { # name, then accept's arguments
	name=$1
	shift
	n=$((n + 1))
	if ! "$NICFIT" accept "$@" --script >"$tmp/$name.sh" 2>"$tmp/$name.err"; then
		echo "not ok $n - $name: nicfit accept failed: $(head -1 "$tmp/$name.err")"
		return
	fi
	if ! bash -n "$tmp/$name.sh" 2>"$tmp/$name.err"; then
		echo "not ok $n - $name: bash -n: $(head -1 "$tmp/$name.err")"
		return
	fi
	if ! command -v shellcheck >/dev/null 2>&1; then
		echo "ok $n - $name # SKIP shellcheck is not installed (scripts/deps.sh check)"
		return
	fi
	if shellcheck -s bash -S style "$tmp/$name.sh" >"$tmp/$name.sc" 2>&1; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name: shellcheck"
		head -20 "$tmp/$name.sc" | sed 's/^/# /'
	fi
}
check training --example=training
check training-srun --example=training --backend-cards 2 --launcher srun --read
# shellcheck disable=SC2086
check dgx32 $dgx
# shellcheck disable=SC2086
check dgx32-srun $dgx --launcher srun --hosts 'dgx[001-032]'
check amd --server generic-gen5 --servers 4 --gpu mi300x --gpus-per-server 8 --model llama-3-70b --workload training --read
check host --sysfs "$BUILD/fixtures/hgx-h100" --nodes 4
# A saved plan (plan -j's JSON, read back with --plan) is the same runbook
# as the request it was made from, as a script and as JSON.
roundtrip() { # name, then plan's arguments
	name=$1
	shift
	n=$((n + 1))
	"$NICFIT" plan "$@" -j >"$tmp/$name.plan.json" 2>"$tmp/$name.err"
	if [ $? -gt 2 ]; then # 1 and 2: the plan's warnings and critical findings
		echo "not ok $n - $name: nicfit plan -j failed: $(head -1 "$tmp/$name.err")"
		return
	fi
	"$NICFIT" accept "$@" --script >"$tmp/$name.want" 2>&1
	"$NICFIT" -j accept "$@" >>"$tmp/$name.want" 2>&1
	"$NICFIT" accept --plan "$tmp/$name.plan.json" --script >"$tmp/$name.got" 2>&1
	"$NICFIT" -j accept --plan - <"$tmp/$name.plan.json" >>"$tmp/$name.got" 2>&1
	if cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
		echo "ok $n - $name: --plan round trip"
	else
		echo "not ok $n - $name: --plan gives another runbook than the request"
		diff "$tmp/$name.want" "$tmp/$name.got" | head -10 | sed 's/^/# /'
	fi
}
roundtrip plan-training --example=training --backend-cards 2
# shellcheck disable=SC2086
roundtrip plan-dgx32 $dgx
roundtrip plan-params --server r740xd --servers 2 --gpu a40 --gpus-per-server 2 --params 13B --workload training
roundtrip plan-amd --server generic-gen5 --servers 4 --gpu mi300x --gpus-per-server 8 --model llama-3-70b --workload training
# disaggregated serving needs a back end the plain plan does not: a saved plan
# that dropped its serving settings would give the front-end runbook
roundtrip plan-disagg --server generic-gen5 --servers 4 --gpu h100-sxm5-80gb --gpus-per-server 8 \
	--model llama-3-70b --workload inference --disaggregated --prompt-tokens 6000 \
	--ttft-ms 1500 --kv-offload host --prefill-servers 1 --requests-per-s 5
