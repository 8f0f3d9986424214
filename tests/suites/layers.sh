#!/bin/sh
# The layering of src/lib (tools/layers.c): no call or include up the folder
# order core, out, physics, parts, host, dump, calc, cluster, verify, plan,
# audit, fleet, accept; no private header of another folder; no call cycle between
# files, no over-long file or function, and no library header in src/cli or
# src/serve, but what tests/layers.allow lists. TAP output, one line a rule.
set -u
: "${BUILD:=build}"
if [ ! -x "$BUILD/tools/layers" ]; then
	echo "not ok 1 - $BUILD/tools/layers is not built (make tests)"
	exit 1
fi
exec "$BUILD/tools/layers" . "$BUILD" tests/layers.allow
