#!/bin/sh
# Hostile input to every command that takes input: each must end with
# exit 64, 65 or 66 and exactly one line on stderr - never a crash, a
# hang or a silent wrong answer.
set -u
: "${NICFIT:=build/nicfit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# check NAME COMMAND... (stdin from $tmp/in when it exists)
check() {
	name=$1; shift
	n=$((n + 1))
	if [ -f "$tmp/in" ]; then
		timeout 20 "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
	else
		timeout 20 "$@" </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
	fi
	lines=$(wc -l <"$tmp/err")
	case $rc in
	64|65|66)
		if [ "$lines" -eq 1 ] && grep -q '^nicfit: ' "$tmp/err"; then
			echo "ok $n - $name (exit $rc)"
		else
			echo "not ok $n - $name: $lines stderr lines"
			sed 's/^/# /' "$tmp/err" | head -5
		fi ;;
	*)
		echo "not ok $n - $name: exit $rc"
		sed 's/^/# /' "$tmp/err" | head -5 ;;
	esac
	rm -f "$tmp/in"
}

big=$(head -c 131000 /dev/zero | tr '\0' 'x')
check "huge --server" "$NICFIT" plan --server "$big"
check "huge --size" "$NICFIT" calc load --size "$big" --link 10G
check "huge part" "$NICFIT" calc nic --part "$big" --slot gen3x16
check "negative servers" "$NICFIT" plan --servers -5
check "zero servers" "$NICFIT" plan --servers 0
check "huge servers" "$NICFIT" plan --servers 99999999999999999999
check "float servers" "$NICFIT" plan --servers 2.5
check "negative gen" "$NICFIT" calc pcie --gen -1
check "huge width" "$NICFIT" calc pcie --gen 3 --width 1024
check "nan mtu" "$NICFIT" calc link --speed 10G --mtu nan
check "inf speed" "$NICFIT" calc link --speed infG
check "negative size" "$NICFIT" calc load --size -40GB --link 10G
check "huge params" "$NICFIT" calc fit --params 1e30B --gpus 1xa40
check "zero gpus" "$NICFIT" calc fit --params 70B --gpus 0xa40
check "huge gpus" "$NICFIT" calc fit --params 70B --gpus 99999999xa40
check "huge context" "$NICFIT" calc fit --model llama-3-70b --gpus 1xa40 --context 1e12
check "negative concurrency" "$NICFIT" calc fit --model llama-3-70b --gpus 1xa40 --concurrency -1
check "huge nodes" "$NICFIT" calc allreduce --size 1GB --nodes 1e12 --link 10G
check "control bytes in option" "$NICFIT" plan --server "$(printf 'r740\033[31mxd')"
check "empty value" "$NICFIT" plan --server ""
check "missing value" "$NICFIT" plan --server
check "assume without value" "$NICFIT" plan --assume mps
check "assume huge" "$NICFIT" plan --assume "mps=1e400"

printf '{"server": "r740xd", "servers": ' >"$tmp/in"
check "truncated spec" "$NICFIT" plan --spec -
head -c 100000 /dev/zero | tr '\0' '[' >"$tmp/in"
check "deeply nested spec" "$NICFIT" plan --spec -
head -c 4096 /dev/urandom >"$tmp/in"
check "binary spec" "$NICFIT" plan --spec -
printf '{"servers": 1e999}' >"$tmp/in"
check "overflowing number" "$NICFIT" plan --spec -
printf '{"servers": -3}' >"$tmp/in"
check "negative number in spec" "$NICFIT" plan --spec -
printf '{"gpus_per_server": 9223372036854775807}' >"$tmp/in"
check "int64 max in spec" "$NICFIT" plan --spec -
printf '{"server": "r740xd", "server": "r740"}' >"$tmp/in"
check "duplicate key" "$NICFIT" plan --spec -
printf '\357\273\277{"server": "r740xd"}' >"$tmp/in"
check "byte order mark" "$NICFIT" plan --spec -
head -c 2000000 /dev/zero | tr '\0' ' ' >"$tmp/in"
check "2 MB spec" "$NICFIT" plan --spec -
printf '{"assume": [%s"mps=256"]}' "$(i=0; while [ $i -lt 300 ]; do printf '"mps=256",'; i=$((i + 1)); done)" >"$tmp/in"
check "too many settings" "$NICFIT" plan --spec -

printf '{"schema":"nicfit.catalog.v1","nics":[{"id":"x","ports":1e300}]}' >"$tmp/cat.json"
check "catalog overlay with absurd number" "$NICFIT" --catalog "$tmp/cat.json" plan
head -c 3000 /dev/zero | tr '\0' '{' >"$tmp/cat.json"
check "nested catalog" "$NICFIT" --catalog "$tmp/cat.json" catalog list
check "catalog is a directory" "$NICFIT" --catalog "$tmp" catalog list
check "catalog missing" "$NICFIT" --catalog "$tmp/nope.json" catalog list
