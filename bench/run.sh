#!/bin/sh
# Run every benchmark (make bench). Each prints what it measured and the
# ratio to its peer; a benchmark that fails makes the run fail.
set -u
: "${NICFIT:=build/nicfit}"
export NICFIT
rc=0
for b in bench/serve.sh; do
	echo "# $b"
	sh "$b" || rc=1
done
exit $rc
