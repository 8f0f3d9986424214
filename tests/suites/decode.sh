#!/bin/sh
# Hostile input to `nicfit decode`: whatever arrives, nicfit ends with exit
# 64, 65 or 66 and one line on stderr per bad part, never a crash or a hang.
# (A single argument cannot exceed 128 KiB on Linux - execve refuses it -
# so the 200 kB case goes through standard input.) Prints TAP.
set -u
: "${NICFIT:=build/nicfit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# check NAME WANT_RC WANT_ERR_LINES: judge the last run ($rc, $tmp/out, $tmp/err)
check() {
	n=$((n + 1))
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" != "$2" ]; then
		echo "not ok $n - $1: exit $rc, expected $2"
	elif [ "$lines" -ne "$3" ]; then
		echo "not ok $n - $1: $lines stderr lines, expected $3"
		sed 's/^/# /' "$tmp/err" | cut -c1-200 | head -5
	elif ! grep -q '^nicfit: ' "$tmp/err" && [ "$3" -gt 0 ]; then
		echo "not ok $n - $1: stderr does not start with 'nicfit: '"
	else
		echo "ok $n - $1"
	fi
}

big=$(head -c 120000 /dev/zero | tr '\0' 'A')
"$NICFIT" decode "$big" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "120 kB argument" 65 1
[ -s "$tmp/out" ] && echo "not ok $((n = n + 1)) - 120 kB argument wrote to stdout"

head -c 200000 /dev/zero | tr '\0' 'M' >"$tmp/in"
"$NICFIT" decode - <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "200 kB line on stdin" 65 1

{ printf 'MCX4121A-ACAT\n'; head -c 200000 /dev/zero | tr '\0' 'X'; printf '\nX710-DA2\n'; } >"$tmp/in"
"$NICFIT" -j decode - <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "200 kB line between good ones" 65 1
n=$((n + 1))
if grep -q '"part":"MCX4121A-ACAT"' "$tmp/out" && grep -q '"part":"X710-DA2"' "$tmp/out"; then
	echo "ok $n - the good parts around it still decode"
else
	echo "not ok $n - the good parts around it are missing"
fi

printf 'MCX\377\376\000\001\nMCX416A\001-CCAT\n' >"$tmp/in"
"$NICFIT" decode - <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "binary junk on stdin" 65 2

"$NICFIT" -j decode - <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "binary junk on stdin, JSON" 65 2
n=$((n + 1))
if grep -q '^{"schema":"nicfit.decode.v1","parts":\[{"input":"MCX??","error"' "$tmp/out"; then
	echo "ok $n - the JSON document names the bad inputs in printable form"
else
	echo "not ok $n - no JSON document for binary junk"
fi

"$NICFIT" decode "$(printf 'MCX\033[31m')" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "escape sequence in an argument" 65 1
n=$((n + 1))
if grep -q "$(printf '\033')" "$tmp/err"; then
	echo "not ok $n - the escape byte reached stderr"
else
	echo "ok $n - the escape byte is not echoed"
fi

"$NICFIT" decode hello "" "MCX" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "three bad arguments" 65 3

i=0
while [ $i -lt 3000 ]; do echo MCX556A-ECAT; echo X710-DA2; i=$((i + 1)); done >"$tmp/in"
"$NICFIT" -j decode --rules - <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "6000 parts on stdin" 0 0

"$NICFIT" decode --no-such-option >"$tmp/out" 2>"$tmp/err"; rc=$?
n=$((n + 1))
[ "$rc" = 64 ] && echo "ok $n - unknown option exits 64" || echo "not ok $n - unknown option: exit $rc"

"$NICFIT" decode - - </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
check "stdin named twice" 64 1
