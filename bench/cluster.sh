#!/bin/sh
# nicfit cluster with the full port map written to a CSV file, at two sizes:
#  - 100,000 GPUs: 12,500 nodes x 8 GPUs, one 400G NIC per GPU,
#    rail-optimized in two planes (three tiers of 64-port switches each);
#  - 1,000,000 GPUs: 125,000 nodes x 8 GPUs on 8 planes of 128-port switches
#    (the front-end and OOB networks on 128-port switches too, since three
#    tiers of the default 48-port ones hold 27,648 ports).
# Both with the front-end and OOB networks. Prints the best wall-clock time
# of RUNS runs, the user and system CPU of the best run where /usr/bin/time
# is installed (on a shared machine the CPU is the steadier figure), and
# port-map rows per second. The goal is under 1 s at a million GPUs.
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=5}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one() { # label args...
	label=$1
	shift
	best=0
	cpu=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(date +%s%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f "%U %S" -o "$tmp/cpu" "$NICFIT" cluster "$@" \
				--port-map "$tmp/pm.csv" >"$tmp/summary.txt"
		else
			"$NICFIT" cluster "$@" --port-map "$tmp/pm.csv" >"$tmp/summary.txt"
			echo "- -" >"$tmp/cpu"
		fi
		t1=$(date +%s%N)
		ns=$((t1 - t0))
		if [ $best -eq 0 ] || [ $ns -lt $best ]; then
			best=$ns
			cpu=$(cat "$tmp/cpu")
		fi
		i=$((i + 1))
	done
	rows=$(($(wc -l <"$tmp/pm.csv") - 1))
	bytes=$(wc -c <"$tmp/pm.csv")
	awk -v ns="$best" -v rows="$rows" -v bytes="$bytes" -v runs="$RUNS" -v label="$label" \
		-v cpu="$cpu" 'BEGIN {
		s = ns / 1e9
		split(cpu, c, " ")
		printf "cluster: %s, %d port-map rows (%.1f MB), best of %d: %.3f s (user %s s, sys %s s), %.0f rows/s, %s\n",
			label, rows, bytes / 1e6, runs, s, c[1], c[2], rows / s, s < 1 ? "under 1 s" : "OVER 1 s"
	}'
}

one "100000 GPUs" --gpus 100000 --gpus-per-node 8 --planes 2 --rail-optimized
one "1000000 GPUs" --gpus 1000000 --gpus-per-node 8 --planes 8 --radix 128 --rail-optimized \
	--frontend-radix 128 --oob-radix 128
