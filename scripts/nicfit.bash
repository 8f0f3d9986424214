# bash completion for nicfit; written by `nicfit completion bash` from its
# option tables (install as bash-completion/completions/nicfit).
_nicfit_ids()
{
	nicfit catalog list $1 -o id,name --noheadings --raw 2>/dev/null | awk 'NF > 1 { print $1 }'
}

_nicfit_codes()
{
	nicfit help findings -j 2>/dev/null | grep -o '"code":"[^"]*"' | cut -d'"' -f4
}

_nicfit()
{
	local cur prev words cword
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD-1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local cmd= sub= i
	[ "$prev" = = ] && prev=${words[cword-2]}
	[ "$cur" = = ] && cur=
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--format|--catalog) ((i++)) ;;
		-*|=) ;;
		*) if [ -z "$cmd" ]; then cmd=${words[i]}; elif [ -z "$sub" ]; then sub=${words[i]}; fi ;;
		esac
	done
	case $prev in
	--catalog) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	esac
	case $cmd:$sub:$prev in
	accept:*:--spec) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	accept:*:--example) COMPREPLY=($(compgen -W "inference replicas training capped gen4 lab x710 split" -- "$cur")); return ;;
	accept:*:--plan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	accept:*:--sysfs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	accept:*:--dump) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	accept:*:--launcher) COMPREPLY=($(compgen -W "mpirun srun" -- "$cur")); return ;;
	accept:*:--results) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	audit:*:--sysfs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	audit:*:--ignore) COMPREPLY=($(compgen -W "$(_nicfit_codes)" -- "$cur")); return ;;
	audit:*:--pci-ids) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	audit:*:--plan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	audit:*:--dump) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	audit:*:--expect) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	audit:*:--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	calc:pcie:--gen) COMPREPLY=($(compgen -W "1 2 3 4 5 6" -- "$cur")); return ;;
	calc:pcie:--width) COMPREPLY=($(compgen -W "1 2 4 8 16" -- "$cur")); return ;;
	calc:pcie:--mps) COMPREPLY=($(compgen -W "128 256 512" -- "$cur")); return ;;
	calc:link:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	calc:nic:--part) COMPREPLY=($(compgen -W "$(_nicfit_ids nics)" -- "$cur")); return ;;
	calc:nic:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	calc:load:--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	calc:load:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	calc:fit:--model) COMPREPLY=($(compgen -W "$(_nicfit_ids models)" -- "$cur")); return ;;
	calc:fit:--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	calc:allreduce:--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	calc:allreduce:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	calc:step:--model) COMPREPLY=($(compgen -W "$(_nicfit_ids models)" -- "$cur")); return ;;
	calc:step:--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	calc:step:--gpu) COMPREPLY=($(compgen -W "$(_nicfit_ids gpus)" -- "$cur")); return ;;
	calc:step:--workload) COMPREPLY=($(compgen -W "training fine-tuning inference decode prefill" -- "$cur")); return ;;
	calc:step:--parallel) COMPREPLY=($(compgen -W "auto ddp zero1 zero2 zero3 fsdp" -- "$cur")); return ;;
	calc:step:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	cluster:*:--server) COMPREPLY=($(compgen -W "$(_nicfit_ids servers)" -- "$cur")); return ;;
	cluster:*:--nic) COMPREPLY=($(compgen -W "$(_nicfit_ids nics)" -- "$cur")); return ;;
	cluster:*:--gpu) COMPREPLY=($(compgen -W "$(_nicfit_ids gpus)" -- "$cur")); return ;;
	cluster:*:--switch) COMPREPLY=($(compgen -W "$(_nicfit_ids switches)" -- "$cur")); return ;;
	cluster:*:--breakout) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	cluster:*:--frontend) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	cluster:*:--frontend-links) COMPREPLY=($(compgen -W "1 2" -- "$cur")); return ;;
	cluster:*:--frontend-switch) COMPREPLY=($(compgen -W "$(_nicfit_ids switches)" -- "$cur")); return ;;
	cluster:*:--oob) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	cluster:*:--oob-switch) COMPREPLY=($(compgen -W "$(_nicfit_ids switches)" -- "$cur")); return ;;
	cluster:*:--storage-switch) COMPREPLY=($(compgen -W "$(_nicfit_ids switches)" -- "$cur")); return ;;
	cluster:*:--mgmt-ports) COMPREPLY=($(compgen -W "on off" -- "$cur")); return ;;
	cluster:*:--spec) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	cluster:*:--port-map) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	fleet:*:--ignore) COMPREPLY=($(compgen -W "$(_nicfit_codes)" -- "$cur")); return ;;
	fleet:*:--dumps) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	fleet:*:--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	plan:*:--spec) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	plan:*:--server) COMPREPLY=($(compgen -W "$(_nicfit_ids servers)" -- "$cur")); return ;;
	plan:*:--gpu) COMPREPLY=($(compgen -W "$(_nicfit_ids gpus)" -- "$cur")); return ;;
	plan:*:--model) COMPREPLY=($(compgen -W "$(_nicfit_ids models)" -- "$cur")); return ;;
	plan:*:--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	plan:*:--workload) COMPREPLY=($(compgen -W "inference replicated-inference multi-node-inference training fine-tuning rdma-storage" -- "$cur")); return ;;
	plan:*:--backend-nic) COMPREPLY=($(compgen -W "$(_nicfit_ids nics)" -- "$cur")); return ;;
	plan:*:--frontend-nic) COMPREPLY=($(compgen -W "$(_nicfit_ids nics)" -- "$cur")); return ;;
	plan:*:--backend-size) COMPREPLY=($(compgen -W "port traffic" -- "$cur")); return ;;
	plan:*:--parallel) COMPREPLY=($(compgen -W "auto ddp zero1 zero2 zero3 fsdp" -- "$cur")); return ;;
	plan:*:--kv-over) COMPREPLY=($(compgen -W "auto backend storage" -- "$cur")); return ;;
	plan:*:--kv-offload) COMPREPLY=($(compgen -W "none cpu storage" -- "$cur")); return ;;
	plan:*:--checkpoint-state) COMPREPLY=($(compgen -W "full weights" -- "$cur")); return ;;
	plan:*:--fabric) COMPREPLY=($(compgen -W "auto roce spectrum-x infiniband" -- "$cur")); return ;;
	plan:*:--switch) COMPREPLY=($(compgen -W "$(_nicfit_ids switches)" -- "$cur")); return ;;
	plan:*:--example) COMPREPLY=($(compgen -W "inference replicas training capped gen4 lab x710 split" -- "$cur")); return ;;
	plan:*:--sysfs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	serve:*:--sysfs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	snapshot:*:--sysfs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
	verify:*:--nic) COMPREPLY=($(compgen -W "$(_nicfit_ids nics)" -- "$cur")); return ;;
	verify:*:--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	verify:*:--sysfs) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	verify:*:--dump) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	verify:*:--plan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	accept:*:--format) COMPREPLY=($(compgen -W "text json md" -- "$cur")); return ;;
	audit:*:--format) COMPREPLY=($(compgen -W "text json md csv svg prom nhc nfd nccl-topo catalog" -- "$cur")); return ;;
	calc:*:--format) COMPREPLY=($(compgen -W "text json md" -- "$cur")); return ;;
	catalog:*:--format) COMPREPLY=($(compgen -W "text json md csv" -- "$cur")); return ;;
	cluster:*:--format) COMPREPLY=($(compgen -W "text json md csv svg" -- "$cur")); return ;;
	decode:*:--format) COMPREPLY=($(compgen -W "text json md csv" -- "$cur")); return ;;
	fleet:*:--format) COMPREPLY=($(compgen -W "text json md csv prom" -- "$cur")); return ;;
	plan:*:--format) COMPREPLY=($(compgen -W "text json md csv svg" -- "$cur")); return ;;
	serve:*:--format) COMPREPLY=($(compgen -W "text" -- "$cur")); return ;;
	snapshot:*:--format) COMPREPLY=($(compgen -W "text json md" -- "$cur")); return ;;
	verify:*:--format) COMPREPLY=($(compgen -W "text json md" -- "$cur")); return ;;
	completion:*:--format) COMPREPLY=($(compgen -W "text" -- "$cur")); return ;;
	help:*:--format) COMPREPLY=($(compgen -W "text json md csv svg" -- "$cur")); return ;;
	esac
	case $cmd:$sub in
	:*)
		COMPREPLY=($(compgen -W "accept audit calc catalog cluster decode fleet plan serve snapshot completion verify help --json --pretty --format --catalog --color= --no-color --columns --noheadings --raw --version --help" -- "$cur")) ;;
	accept:*)
		COMPREPLY=($(compgen -W "--spec --example= --plan --sysfs --dump --from-host --hosts --nodes --launcher --read --script --results" -- "$cur")) ;;
	audit:*)
		COMPREPLY=($(compgen -W "--sysfs --all --ignore --pci-ids --no-pci-ids --assume --plan --dump --expect --output --nfd-expiry --trace-reads" -- "$cur")) ;;
	calc:)
		COMPREPLY=($(compgen -W "pcie link nic load fit allreduce step stream" -- "$cur")) ;;
	calc:pcie)
		COMPREPLY=($(compgen -W "--gen --width --slot --mps --assume" -- "$cur")) ;;
	calc:link)
		COMPREPLY=($(compgen -W "--speed --proto --mtu --assume" -- "$cur")) ;;
	calc:nic)
		COMPREPLY=($(compgen -W "--part --slot --ports --proto --assume" -- "$cur")) ;;
	calc:load)
		COMPREPLY=($(compgen -W "--size --precision --link --storage-gbps --proto --mtu --assume" -- "$cur")) ;;
	calc:fit)
		COMPREPLY=($(compgen -W "--model --params --precision --gpus --context --concurrency --gpus-per-node --assume" -- "$cur")) ;;
	calc:allreduce)
		COMPREPLY=($(compgen -W "--size --precision --nodes --link --proto --nics-per-node --mtu --sharp --assume" -- "$cur")) ;;
	calc:step)
		COMPREPLY=($(compgen -W "--model --params --precision --gpu --nodes --gpus-per-node --workload --parallel --tp --pp --ep --batch-tokens --concurrency --context --tflops --link --proto --nics-per-node --disaggregated --output-tokens --requests-per-s --ttft-ms --tpot-ms --assume" -- "$cur")) ;;
	calc:stream)
		COMPREPLY=($(compgen -W "--tokens-per-s --concurrency --link --assume" -- "$cur")) ;;
	catalog:)
		COMPREPLY=($(compgen -W "list show check" -- "$cur")) ;;
	catalog:list)
		COMPREPLY=($(compgen -W "nics cables switches servers gpus models" -- "$cur")) ;;
	catalog:show)
		COMPREPLY=($(compgen -W "$(_nicfit_ids)" -- "$cur")) ;;
	catalog:check)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	cluster:*)
		COMPREPLY=($(compgen -W "--nodes --server --racks --gpus --gpus-per-node --nics-per-node --nic-ports --nic-gbps --nic --gpu --switch --radix --switch-gbps --rail-optimized --no-rail-optimized --rail-only --oversubscription --planes --tiers --breakout --nodes-per-rack --frontend --no-frontend --frontend-links --frontend-gbps --frontend-switch --frontend-radix --frontend-oversubscription --oob --no-oob --oob-switch --oob-radix --oob-uplinks --frontend-uplinks --storage-gbps --checkpoint-tb --checkpoint-stall --storage-nodes --storage-link-gbps --storage-switch --storage-radix --storage-oversubscription --mgmt-ports --assume --spec --port-map" -- "$cur")) ;;
	decode:*)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--rules" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(_nicfit_ids)" -- "$cur")) ;;
		esac ;;
	fleet:*)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--expect --ignore --all-hosts --strict --max-doc-mb --dumps --output" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	plan:*)
		COMPREPLY=($(compgen -W "--spec --server --riser-config --servers --racks --gpu --gpus-per-server --model --params --weights-gb --precision --context --concurrency --tokens-per-s --workload --backend-nic --frontend-nic --backend-gbps --backend-cards --backend-slot --frontend-slot --storage-nics --backend-size --parallel --batch-tokens --disaggregated --prompt-tokens --output-tokens --requests-per-s --ttft-ms --tpot-ms --prefill-servers --prefill-gpus --prefill-tp --prefill-pp --prefill-ep --decode-gpus --decode-tp --decode-pp --decode-ep --kv-over --kv-offload --checkpoint-every --checkpoint-stall --checkpoint-state --checkpoint-async --fabric --switch --storage-gbps --reloads-per-day --assume --explain --example= --from-host --sysfs" -- "$cur")) ;;
	serve:*)
		COMPREPLY=($(compgen -W "--port --bind --allow-audit --sysfs --log --threads --max-connections --max-per-ip --timeout --cpu-budget --cache" -- "$cur")) ;;
	snapshot:*)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--sysfs" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	verify:*)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--nic --link --proto --nodes --gpus-per-node --nics-per-node --low-ratio --far-ratio --sysfs --dump --plan --max-size" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	completion:*)
		COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
	help:*)
		COMPREPLY=($(compgen -W "accept audit calc catalog cluster decode fleet plan serve snapshot completion verify help" -- "$cur")) ;;
	esac
}
complete -F _nicfit nicfit
