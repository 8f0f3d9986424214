# bash completion for nicfit
_nicfit()
{
	local cur prev words cword
	_init_completion 2>/dev/null || {
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD-1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	}
	local cmd= i
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done
	case $prev in
	--format) COMPREPLY=($(compgen -W "text json md csv svg nccl-topo" -- "$cur")); return ;;
	--catalog|--spec|--sysfs|--port-map|--pci-ids|--plan) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--server) COMPREPLY=($(compgen -W "$(nicfit catalog list servers -j 2>/dev/null | grep -o '"id":"[^"]*"' | cut -d'"' -f4)" -- "$cur")); return ;;
	--gpu) COMPREPLY=($(compgen -W "$(nicfit catalog list gpus -j 2>/dev/null | grep -o '"id":"[^"]*"' | cut -d'"' -f4)" -- "$cur")); return ;;
	--model) COMPREPLY=($(compgen -W "$(nicfit catalog list models -j 2>/dev/null | grep -o '"id":"[^"]*"' | cut -d'"' -f4)" -- "$cur")); return ;;
	--backend-nic|--frontend-nic|--part|--nic) COMPREPLY=($(compgen -W "$(nicfit catalog list nics -j 2>/dev/null | grep -o '"id":"[^"]*"' | cut -d'"' -f4)" -- "$cur")); return ;;
	--workload) COMPREPLY=($(compgen -W "inference replicated-inference multi-node-inference training fine-tuning rdma-storage" -- "$cur")); return ;;
	--precision) COMPREPLY=($(compgen -W "fp32 fp16 bf16 fp8 int8 int4" -- "$cur")); return ;;
	--fabric) COMPREPLY=($(compgen -W "auto roce infiniband" -- "$cur")); return ;;
	--proto) COMPREPLY=($(compgen -W "tcp roce ib" -- "$cur")); return ;;
	esac
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$(nicfit help 2>/dev/null | awk '/^Commands:/{f=1;next} f&&/^  [a-z]/{print $1}') --json --pretty --format --catalog --no-color --version" -- "$cur"))
		return
	fi
	case $cmd in
	audit)
		COMPREPLY=($(compgen -W "--sysfs --all --ignore --pci-ids --no-pci-ids --assume --plan --json --format" -- "$cur")) ;;
	snapshot)
		COMPREPLY=($(compgen -W "--sysfs" -- "$cur"))
		[ "${cur#-}" = "$cur" ] && COMPREPLY+=($(compgen -f -- "$cur")) ;;
	calc)
		if [ "${words[cword-1]}" = calc ]; then
			COMPREPLY=($(compgen -W "pcie link nic load fit allreduce stream" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "--gen --width --slot --speed --proto --mtu --part --ports --size --link --storage-gbps --model --params --precision --gpus --context --concurrency --nodes --nics-per-node --tokens-per-s --assume --json" -- "$cur"))
		fi ;;
	catalog)
		COMPREPLY=($(compgen -W "list show check nics cables switches servers gpus models" -- "$cur")) ;;
	plan)
		COMPREPLY=($(compgen -W "--spec --server --servers --gpu --gpus-per-server --model --params --weights-gb --precision --context --concurrency --tokens-per-s --workload --backend-nic --frontend-nic --backend-gbps --backend-cards --backend-slot --frontend-slot --storage-nics --fabric --switch --storage-gbps --reloads-per-day --assume --explain --example --from-host --sysfs --json --format" -- "$cur")) ;;
	fleet)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--expect --ignore --all-hosts --strict --max-doc-mb --json --format" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	verify)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--nic --link --sysfs --plan --proto --nodes --gpus-per-node --nics-per-node --low-ratio --far-ratio --json --format" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	help)
		COMPREPLY=($(compgen -W "$(nicfit help 2>/dev/null | awk '/^Commands:/{f=1;next} f&&/^  [a-z]/{print $1}') findings" -- "$cur")) ;;
	esac
}
complete -F _nicfit nicfit
