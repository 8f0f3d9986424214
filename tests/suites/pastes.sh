#!/bin/sh
# The corpus of real pastes (tests/fixtures/pastes/, README.md there):
# each NAME.txt is run through the command its NAME.expect names, as a
# support engineer would, and held to the expert reading written there.
#
# For every paste, whatever its reading: the command ends (no signal, no
# exit 70), a paste is never refused as a usage error or a missing input
# (64, 66), and whatever is printed on stdout is one JSON document.
# Then the reading: the exit status is one the .expect allows and every
# `must:` holds and no `mustnot:` does (jq over the JSON). Pastes listed in
# tests/fixtures/pastes/meets.txt must meet their reading (a paste that
# once met it and no longer does is a regression); the others are counted
# and the score printed, so the list only grows. `fact:` and `claim-not:`
# lines are for people; they are not checked here.
set -u
: "${NICFIT:=build/nicfit}"
dir=tests/fixtures/pastes
meets=$dir/meets.txt
n=0
score=0
total=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }

for x in "$dir"/*.expect; do
	name=$(basename "$x" .expect)
	txt=$dir/$name.txt
	[ -f "$txt" ] || { notok "$name: no $name.txt beside its .expect"; continue; }
	total=$((total + 1))
	cmd=$(sed -n 's/^cmd: *//p' "$x" | head -n 1)
	args=$(sed -n 's/^args: *//p' "$x" | head -n 1)
	exits=$(sed -n 's/^exit: *//p' "$x" | head -n 1)
	case $cmd in
	"audit --dump"|verify) ;;
	*) notok "$name: cmd '$cmd' is neither 'audit --dump' nor 'verify'"; continue ;;
	esac
	# shellcheck disable=SC2086 # cmd and args are word lists
	timeout 20 "$NICFIT" --json $cmd $args "$txt" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ge 124 ] || [ $rc = 70 ] || [ $rc = 64 ] || [ $rc = 66 ]; then
		notok "$name: $cmd ended with status $rc: $(head -c 300 "$tmp/err")"
		continue
	fi
	if [ -s "$tmp/out" ] && ! jq -e . "$tmp/out" >/dev/null 2>&1; then
		notok "$name: stdout is not one JSON document"
		continue
	fi
	ok "$name: $cmd ends (status $rc) with JSON or nothing on stdout"
	met=1
	why=
	case " $exits " in *" $rc "*) ;; *) met=0; why="exit $rc, reading allows $exits" ;; esac
	if [ $met = 1 ]; then
		while IFS= read -r line; do
			case $line in
			must:*) e=${line#must:}; want=true ;;
			mustnot:*) e=${line#mustnot:}; want=false ;;
			*) continue ;;
			esac
			got=$(jq "($e) | if . then true else false end" "$tmp/out" 2>/dev/null | head -n 1)
			[ "$got" = "$want" ] && continue
			met=0
			why="${line%%:*} ${e# } is ${got:-an error}"
			break
		done <"$x"
	fi
	if [ $met = 1 ]; then
		score=$((score + 1))
		grep -qx "$name" "$meets" 2>/dev/null && ok "$name meets its reading"
	elif grep -qx "$name" "$meets" 2>/dev/null; then
		notok "$name no longer meets its reading: $why"
	else
		echo "# $name: not yet: $why"
	fi
done
while IFS= read -r m; do
	case $m in ''|'#'*) continue ;; esac
	[ -f "$dir/$m.expect" ] || notok "meets.txt names $m, which has no .expect"
done <"$meets"
echo "# $score of $total pastes meet their expert reading"
[ "$total" -ge 60 ] && ok "the corpus holds $total pastes" || notok "the corpus holds $total pastes, fewer than 60"
