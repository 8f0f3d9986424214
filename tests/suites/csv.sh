#!/bin/sh
# Every CSV nicfit writes ends its lines in LF alone (docs/formats.md): the
# golden cases that ask for --format csv, and the cluster port map, hold
# no carriage return.
set -u
n=0
fails=0
for out in $(grep -l -- '--format csv' tests/cli/cases/*.cmd | sed 's/\.cmd$/.out/'); do
	[ -f "$out" ] || continue
	n=$((n + 1))
	if LC_ALL=C grep -q "$(printf '\r')" "$out"; then
		echo "not ok $n - $(basename "$out"): a carriage return"
		fails=$((fails + 1))
	else
		echo "ok $n - $(basename "$out"): LF line ends"
	fi
done
[ "$fails" = 0 ] && [ "$n" -gt 0 ]
