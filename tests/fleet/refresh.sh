#!/bin/sh
# Rewrite tests/fleet/audits/NAME.json: what `nicfit audit --json` says about
# each sysfs fixture machine (tests/fixtures/machines/NAME.host). The fleet
# tests build their 1,000-host fleets from these documents.
#
#   NICFIT=build/nicfit sh tests/fleet/refresh.sh
set -eu
: "${NICFIT:=build/nicfit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh tests/fixtures/gen.sh "$tmp" >/dev/null
for d in "$tmp"/*/; do
	m=$(basename "$d")
	# audit exits 1 or 2 when it finds problems; the document is what we want
	"$NICFIT" audit --sysfs "$d" --json >"$tmp/$m.json" || [ $? -le 2 ]
	sed "s|\"root\":\"[^\"]*\"|\"root\":\"fixtures/$m\"|" "$tmp/$m.json" \
		>"tests/fleet/audits/$m.json"
done
