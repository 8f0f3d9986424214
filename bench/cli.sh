#!/bin/sh
# Whole-process time of `nicfit calc` and `nicfit catalog list` (the
# compiled catalog: nothing parsed at start-up), against peers measured in
# the same run: `true` (the cost of starting a process) and `jq` reading
# the same catalog files. Prints the mean per run and the ratios.
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=200}"

now() { date +%s%N; }

# mean microseconds per run of "$@" over RUNS runs
time_it() {
	i=0
	t0=$(now)
	while [ $i -lt "$RUNS" ]; do
		"$@" >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	t1=$(now)
	echo $(((t1 - t0) / RUNS / 1000))
}

t_true=$(time_it /bin/true)
t_pcie=$(time_it "$NICFIT" calc pcie --gen 3 --width 16)
t_fit=$(time_it "$NICFIT" calc fit --model llama-3-70b --precision int4 --gpus 2xa40)
t_list=$(time_it "$NICFIT" catalog list)
t_plan=$(time_it "$NICFIT" plan --example=training --json)
if command -v jq >/dev/null 2>&1; then
	t_jq=$(time_it jq -c . data/cables.json data/gpus.json data/models.json data/nics.json data/servers.json data/switches.json)
else
	t_jq=
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

echo "bench cli ($RUNS runs each, mean per run)"
printf '  %-44s %8s us\n' "true (process start, the floor)" "$t_true"
printf '  %-44s %8s us  %s x true\n' "nicfit calc pcie --gen 3 --width 16" "$t_pcie" "$(ratio "$t_pcie" "$t_true")"
printf '  %-44s %8s us  %s x true\n' "nicfit calc fit (compiled catalog)" "$t_fit" "$(ratio "$t_fit" "$t_true")"
printf '  %-44s %8s us  %s x true\n' "nicfit catalog list (compiled catalog)" "$t_list" "$(ratio "$t_list" "$t_true")"
printf '  %-44s %8s us  %s x true\n' "nicfit plan --example=training --json" "$t_plan" "$(ratio "$t_plan" "$t_true")"
if [ -n "$t_jq" ]; then
	printf '  %-44s %8s us  catalog list = %s x jq\n' "jq -c . on the same catalog files" "$t_jq" "$(ratio "$t_list" "$t_jq")"
fi
