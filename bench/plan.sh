#!/bin/sh
# One plan in process, per named example: median microseconds of reading
# the request, planning and rendering JSON (bench/plan_host.c; the
# catalog is loaded once). The goal is 30 us for a whole plan.
set -eu
: "${BUILD:=build}" "${RUNS:=1000}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -Iinclude -D_POSIX_C_SOURCE=200809L -o "$tmp/plan_host" bench/plan_host.c \
	"$BUILD/libnicfit.a" $(pkg-config --libs jansson smartcols libxml-2.0) -ldl -lpthread -lm
echo "plan: in process, median of $RUNS runs per example"
"$tmp/plan_host" "$RUNS"
