#!/bin/sh
# Every benchmark, one after another. Each prints its figures and the
# ratios against the peers it measured in the same run.
set -u
: "${NICFIT:=build/nicfit}"
export NICFIT LANG=C LC_ALL=C
status=0
for b in bench/*.sh; do
	# bigtree.sh builds trees for the others, it measures nothing
	[ "$b" = bench/run.sh ] || [ "$b" = bench/bigtree.sh ] && continue
	sh "$b" || status=1
	echo
done
exit $status
