#!/bin/sh
# Every benchmark, one line of results each. NICFIT comes from the Makefile.
set -u
: "${NICFIT:=build/nicfit}"
export NICFIT LANG=C LC_ALL=C
status=0
sh bench/cluster.sh || status=1
exit $status
