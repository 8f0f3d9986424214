#!/bin/sh
# Text on a terminal fits it; piped text does not depend on one.
# Each command runs under script(1) (util-linux), which gives it a
# pseudo-terminal, with COLUMNS=80 and then COLUMNS=120: no line of what it
# prints may be wider (ANSI colour takes no columns). Piped, the same
# command prints the same bytes whatever COLUMNS says, with no wrapping.
set -u
NICFIT=${NICFIT:-build/nicfit}
BUILD=${BUILD:-build}
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && echo "# $2"; }
if ! command -v script >/dev/null 2>&1; then
	echo "ok 1 - # SKIP script(1) not installed"
	exit 0
fi
fx=$BUILD/fixtures
cat >"$tmp/cmds" <<CMDS
plan --example=inference
plan --example=training
plan --example=training --explain
plan --example=capped
plan --example=split
plan --server dgx-h100 --servers 4 --model llama-3.1-405b --workload training
catalog list
catalog list nics
catalog list nics --catalog tests/fixtures/catalog-utf8.json
catalog show x710-utf8 --catalog tests/fixtures/catalog-utf8.json
catalog show mcx556a-ecat
catalog show r740xd
cluster --nodes 32 --gpus-per-node 8
cluster --nodes 64 --gpus-per-node 8 --explain
calc pcie --gen 3 --width 16
calc allreduce --size 16GB --nodes 4 --link 100G
calc fit --model llama-3-70b --precision fp16 --gpus 2xa40
decode MCX653105A-HDAT X710-DA2
audit --sysfs $fx/r740xd --pci-ids tests/fixtures/pci.ids
audit --sysfs $fx/hgx-h100 --pci-ids tests/fixtures/pci.ids
audit --sysfs $fx/r910-qdr --all --pci-ids tests/fixtures/pci.ids
fleet tests/fleet/audits
help
help plan
help cluster
help findings
CMDS
while read -r cmd; do
	for w in 80 120; do
		# shellcheck disable=SC2086
		COLUMNS=$w timeout 60 script -qec "$NICFIT $cmd" /dev/null </dev/null >"$tmp/out" 2>&1
		if [ $? = 124 ]; then
			bad "tty COLUMNS=$w: nicfit $cmd" "did not finish within 60 s"
			continue
		fi
		widest=$(python3 -c 'import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
t = re.sub(r"\x1b\[[0-9;]*m", "", t).replace("\r", "")
print(max([len(l) for l in t.split("\n")] + [0]))' "$tmp/out")
		if [ "$widest" -le "$w" ] && [ -s "$tmp/out" ]; then
			ok "tty COLUMNS=$w: nicfit $cmd ($widest columns at most)"
		else
			bad "tty COLUMNS=$w: nicfit $cmd" "widest line: $widest columns"
		fi
	done
	# shellcheck disable=SC2086
	COLUMNS=40 timeout 60 "$NICFIT" $cmd >"$tmp/p40" 2>/dev/null
	r40=$?
	# shellcheck disable=SC2086
	COLUMNS=200 timeout 60 "$NICFIT" $cmd >"$tmp/p200" 2>/dev/null
	r200=$?
	if [ "$r40" != 124 ] && [ "$r200" != 124 ] && cmp -s "$tmp/p40" "$tmp/p200"; then
		ok "piped: nicfit $cmd ignores COLUMNS"
	else
		bad "piped: nicfit $cmd ignores COLUMNS"
	fi
done <"$tmp/cmds"

# Wrapped text hangs under its own text, never at the margin.
COLUMNS=80 script -qec "$NICFIT help findings" /dev/null </dev/null | sed 's/\x1b\[[0-9;]*m//g; s/\r$//' >"$tmp/hf"
"$NICFIT" help findings -j | jq -r '.codes[].code' >"$tmp/codes"
stray=$(awk 'NR == FNR { code[$1] = 1; next } /^  [^ ]/ && !code[$1] && $1 != "code" { print; n++ } END { exit n > 0 }' \
	"$tmp/codes" "$tmp/hf") && [ "$(wc -l <"$tmp/hf")" -gt 163 ] &&
	ok "help findings at 80 columns: every line is a code's row or hangs under its column" ||
	bad "help findings at 80 columns: every line is a code's row or hangs under its column" "$(echo "$stray" | head -3)"
COLUMNS=80 script -qec "$NICFIT plan --example=training --explain" /dev/null </dev/null |
	sed 's/\x1b\[[0-9;]*m//g; s/\r$//' >"$tmp/pl"
sed -n '/^Back end /{n;p;q}' "$tmp/pl" | grep -q '^           [^ ]' &&
	ok "a wrapped labelled line (Back end) hangs under its value" ||
	bad "a wrapped labelled line (Back end) hangs under its value" "$(sed -n '/^Back end /{n;p;q}' "$tmp/pl")"
grep -A1 '^  R1 ' "$tmp/pl" | sed -n 2p | grep -q '^       [^ ]' &&
	ok "a wrapped rule line (R1) hangs under its text" || bad "a wrapped rule line (R1) hangs under its text"
grep -A1 '^  WARNING  gpu-nic-cross-socket' "$tmp/pl" | sed -n 2p | grep -q '^           [^ ]' &&
	ok "a wrapped finding hangs under its message" || bad "a wrapped finding hangs under its message"

# Names in UTF-8 are shown as they are, piped and on a terminal (the tables
# are laid out in a UTF-8 locale: in the "C" one libsmartcols looped for ever).
out=$(timeout 60 "$NICFIT" catalog list nics --catalog tests/fixtures/catalog-utf8.json)
case $out in
*"Intel X710 — Ñandú"*) ok "a UTF-8 name in a table, piped" ;;
*) bad "a UTF-8 name in a table, piped" ;;
esac

# Colour: never with TERM=dumb or NO_COLOR on a terminal; --color=always wins.
COLUMNS=80 TERM=dumb env -u NO_COLOR script -qec "$NICFIT plan --example=training" /dev/null >"$tmp/out" 2>&1
grep -q "$(printf '\033')\[" "$tmp/out" && bad "TERM=dumb: no colour" || ok "TERM=dumb: no colour"
COLUMNS=80 TERM=xterm env -u NO_COLOR script -qec "$NICFIT plan --example=training" /dev/null >"$tmp/out" 2>&1
grep -q "$(printf '\033')\[" "$tmp/out" && ok "a terminal gets colour" || bad "a terminal gets colour"
NO_COLOR=1 "$NICFIT" --color=always plan --example=training >"$tmp/out"
grep -q "$(printf '\033')\[" "$tmp/out" && ok "--color=always wins over NO_COLOR" ||
	bad "--color=always wins over NO_COLOR"
"$NICFIT" --color=sometimes help >/dev/null 2>&1
[ $? = 64 ] && ok "--color=sometimes is a usage error" || bad "--color=sometimes is a usage error"

# -o, --noheadings, --raw on a table.
"$NICFIT" -o qty,part plan --example=training >"$tmp/out"
sed -n '/^Bill of materials/{n;p;q}' "$tmp/out" | grep -Eq '^  qty  part *$' &&
	ok "-o qty,part: the BOM shows those columns, in that order" ||
	bad "-o qty,part: the BOM shows those columns, in that order" "$(sed -n '/^Bill of materials/{n;p;q}' "$tmp/out")"
"$NICFIT" --noheadings catalog list nics >"$tmp/out"
grep -q '^  id ' "$tmp/out" && bad "--noheadings drops the header" || ok "--noheadings drops the header"
"$NICFIT" --raw --noheadings catalog list nics | awk '$1 == "mcx556a-ecat" { f = 1 } END { exit !f }' &&
	ok "--raw rows split on blanks" || bad "--raw rows split on blanks"
"$NICFIT" --raw catalog list nics | grep -q 'ConnectX-5\\x20' &&
	ok "--raw escapes blanks in a cell" || bad "--raw escapes blanks in a cell"
[ "$fails" = 0 ]
