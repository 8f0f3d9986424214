#!/bin/sh
# The option tables (src/cli/options.c) are the one source of what each
# command takes. This suite checks that everything else agrees with them:
#  - every option in a table is accepted by its command (never refused as
#    an unknown option or setting);
#  - every option in `nicfit help CMD`'s generated list appears in the
#    command's usage synopsis and in its man page, and every option a man
#    page describes (its .TP items) is in a table;
#  - the completion scripts under scripts/ are what `nicfit completion`
#    writes today, parse in their shells, and complete what they should.
set -u
NICFIT=${NICFIT:-build/nicfit}
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && echo "# $2"; }
check() { if [ "$2" = 0 ]; then ok "$1"; else bad "$1" "${3:-}"; fi; }

# "CMD SUB --name ARG" for every option of the tables, from the generated help.
for cmd in audit calc catalog cluster decode fleet plan serve snapshot completion; do
	"$NICFIT" help "$cmd" >"$tmp/help.$cmd" || bad "help $cmd exits 0"
	awk -v cmd="$cmd" '
		/^Options of / { sub(/:$/, "", $3); sub_ = $3; next }
		/^Options:/ { sub_ = "-"; next }
		/^  --/ && sub_ != "" { name = $1; argk = (NF > 1 && $2 !~ /^[a-z]/) ? "arg" : "flag";
			if (name ~ /\[=/) { sub(/\[=.*/, "", name); argk = "opt" }
			print cmd, sub_, name, argk }' "$tmp/help.$cmd"
done >"$tmp/opts"
[ -s "$tmp/opts" ] && ok "help lists options ($(wc -l <"$tmp/opts") in all)" || bad "help lists options"

# Each option is accepted: the run may fail for other reasons (a missing
# file, a bad value), never because the option is unknown.
while read -r cmd sub name argk; do
	set -- "$cmd"
	[ "$sub" != - ] && set -- "$@" "$sub"
	case $argk in
	arg|opt) set -- "$@" "$name=x" ;;
	flag) set -- "$@" "$name" ;;
	esac
	# keep every run short: no live server, no audit of this host, no stdin
	case $cmd in
	serve) set -- "$@" --port=-1 ;;
	audit) set -- "$@" --sysfs=/nonexistent/nicfit ;;
	esac
	timeout 20 "$NICFIT" "$@" </dev/null >/dev/null 2>"$tmp/err"
	if grep -qiE "unknown (option|setting)" "$tmp/err"; then
		bad "$cmd ${sub#-} $name is accepted" "$(head -1 "$tmp/err")"
	else
		ok "$cmd ${sub#-} $name is accepted"
	fi
done <"$tmp/opts"

# The usage synopsis (help's text above "Options") names every option of
# the command, and names no option that the tables and globals lack.
globals=$("$NICFIT" help | grep -o -- '--[a-z][a-z-]*' | sort -u)
for cmd in audit calc cluster decode fleet plan serve snapshot; do
	sed '/^Options/,$d' "$tmp/help.$cmd" >"$tmp/usage"
	# the synopsis: from "usage:" to the first blank line
	awk '/^usage:/ { f = 1 } f && /^$/ { exit } f' "$tmp/usage" >"$tmp/synopsis"
	miss=
	for o in $(awk -v c="$cmd" '$1 == c { print $3 }' "$tmp/opts" | sort -u); do
		grep -q -- "$o\([^a-z-]\|$\)" "$tmp/usage" || miss="$miss $o"
	done
	check "usage of $cmd names all its options" "$([ -z "$miss" ]; echo $?)" "missing:$miss"
	extra=
	for o in $(grep -o -- '--[a-z][a-z-]*' "$tmp/synopsis" | sort -u); do
		awk -v c="$cmd" -v o="$o" '$1 == c && $3 == o { f = 1 } END { exit !f }' "$tmp/opts" ||
			printf '%s\n' "$globals" | grep -qx -- "$o" || extra="$extra $o"
	done
	check "usage of $cmd names no option the tables lack" "$([ -z "$extra" ]; echo $?)" "unknown:$extra"
done

# Man pages: every option of a table is described in the command's page;
# every option a page's items (.TP) describe is in a table or the globals.
for cmd in audit calc cluster decode fleet plan serve snapshot; do
	page=docs/nicfit-$cmd.1
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page" >"$tmp/page"
	miss=
	for o in $(awk -v c="$cmd" '$1 == c { print $3 }' "$tmp/opts" | sort -u); do
		grep -q -- "$o\([^a-z-]\|$\)" "$tmp/page" || miss="$miss $o"
	done
	check "man page of $cmd describes all its options" "$([ -z "$miss" ]; echo $?)" "missing:$miss"
	extra=
	for o in $(awk '/^\.TP/ { getline; print }' "$tmp/page" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		awk -v c="$cmd" -v o="$o" '$1 == c && $3 == o { f = 1 } END { exit !f }' "$tmp/opts" ||
			printf '%s\n' "$globals" | grep -qx -- "$o" || extra="$extra $o"
	done
	check "man page of $cmd describes no option the tables lack" "$([ -z "$extra" ]; echo $?)" "unknown:$extra"
done

# The committed scripts are generated, and they parse.
for sh in bash zsh fish; do
	case $sh in bash) f=scripts/nicfit.bash ;; zsh) f=scripts/_nicfit ;; fish) f=scripts/nicfit.fish ;; esac
	"$NICFIT" completion "$sh" >"$tmp/gen"
	if cmp -s "$tmp/gen" "$f"; then ok "$f is what 'nicfit completion $sh' writes"
	else bad "$f is what 'nicfit completion $sh' writes" "regenerate: $NICFIT completion $sh > $f"; fi
	if command -v "$sh" >/dev/null 2>&1; then
		case $sh in
		bash) bash -n "$f" ;;
		zsh) zsh -n "$f" ;;
		fish) fish --no-execute "$f" ;;
		esac
		check "$f parses in $sh" $?
	else
		echo "ok $((n += 1)) - # SKIP $sh not installed"
	fi
done

# What bash completes, with nicfit on PATH for the catalog ids.
bindir=$(cd "$(dirname "$NICFIT")" && pwd)
complete_bash() {
	PATH="$bindir:$PATH" bash -c '. scripts/nicfit.bash
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nicfit; printf "%s\n" "${COMPREPLY[@]}"' \
		nicfit "$@" 2>/dev/null
}
want() { # want WORD -- ARGS...: completing ARGS offers WORD
	w=$1; shift 2
	if complete_bash "$@" | grep -qx -- "$w"; then ok "bash: '$*' offers $w"
	else bad "bash: '$*' offers $w" "got: $(complete_bash "$@" | tr '\n' ' ' | cut -c1-160)"; fi
}
want cluster -- nicfit ""
want decode -- nicfit de
want --rail-optimized -- nicfit cluster --rail
want --port-map -- nicfit cluster --port
want training -- nicfit plan --example ""
want r740xd -- nicfit plan --server r740
want nic-pcie-starved -- nicfit audit --ignore nic-pcie
want allreduce -- nicfit calc ""
want --nics-per-node -- nicfit calc allreduce --nics
want svg -- nicfit plan --format ""
want zsh -- nicfit completion ""
want gpus -- nicfit catalog list ""
want rtx-6000-ada -- nicfit plan --gpu rtx-6
want sys-4029gp-trt -- nicfit plan --server sys-40
# Every server and GPU of the catalog (catalog list -j), each once, where
# an option takes one: the same list in bash, zsh and fish.
"$NICFIT" catalog list servers -j | jq -r '.servers[].id' | sort >"$tmp/ids.servers"
"$NICFIT" catalog list gpus -j | jq -r '.gpus[].id' | sort >"$tmp/ids.gpus"
same_ids() { # same_ids SHELL KIND WHAT FILE: FILE holds every id of KIND, once each
	if [ -s "$tmp/ids.$2" ] && sort "$4" | cmp -s - "$tmp/ids.$2"; then
		ok "$1: '$3' offers all $(wc -l <"$tmp/ids.$2") catalog $2, each once"
	else
		bad "$1: '$3' offers all catalog $2, each once" \
			"$(sort "$4" | diff "$tmp/ids.$2" - | sed -n 's/^</missing:/p; s/^>/extra or repeated:/p' | tr '\n' ' ' | cut -c1-300)"
	fi
}
ids_cases='servers plan --server
servers cluster --server
gpus plan --gpu
gpus cluster --gpu
gpus calc step --gpu'
while read -r kind words; do
	# shellcheck disable=SC2086 # the words of the command line
	complete_bash nicfit $words "" >"$tmp/got"
	same_ids bash "$kind" "nicfit $words" "$tmp/got"
done <<EOF
$ids_cases
EOF
if command -v zsh >/dev/null 2>&1; then
	# zsh: what _nicfit_ids hands compadd, outside a completion (_arguments
	# and compadd stand in), and every --server/--gpu spec calls it.
	for kind in servers gpus; do
		PATH="$bindir:$PATH" zsh -c '_arguments() { :; }; compadd() { print -rl -- ${(P)${@[-1]}}; }
			source scripts/_nicfit; _nicfit_ids $1' zsh "$kind" >"$tmp/got" 2>/dev/null
		same_ids zsh "$kind" "_nicfit_ids $kind" "$tmp/got"
	done
	specs=$(grep -c "^		'--server=.*:ID:{_nicfit_ids servers}' " scripts/_nicfit)
	all=$(grep -c "^		'--server=" scripts/_nicfit)
	check "zsh: every --server completes the catalog's servers ($specs of $all)" "$([ "$specs" -ge 2 ] && [ "$specs" = "$all" ]; echo $?)"
	specs=$(grep -c "^		'--gpu=.*:ID:{_nicfit_ids gpus}' " scripts/_nicfit)
	all=$(grep -c "^		'--gpu=" scripts/_nicfit)
	check "zsh: every --gpu completes the catalog's GPUs ($specs of $all)" "$([ "$specs" -ge 3 ] && [ "$specs" = "$all" ]; echo $?)"
fi
if command -v fish >/dev/null 2>&1; then
	while read -r kind words; do
		PATH="$bindir:$PATH" fish -c "source scripts/nicfit.fish; complete -C 'nicfit $words '" 2>/dev/null |
			cut -f1 >"$tmp/got"
		same_ids fish "$kind" "nicfit $words" "$tmp/got"
	done <<EOF
$ids_cases
EOF
	# grouped: the lines of one vendor (the name's first word) and PCIe generation are together
	for w in "plan --server" "plan --gpu"; do
		PATH="$bindir:$PATH" fish -c "source scripts/nicfit.fish; complete -C 'nicfit $w '" 2>/dev/null |
			awk -F '\t' '{ split($2, v, " "); g = $2; sub(/.*\(PCIe /, "", g); sub(/ .*/, "", g); print v[1], g }' |
			uniq | sort | uniq -d >"$tmp/split"
		check "fish: 'nicfit $w' groups by vendor and PCIe generation, each group once" \
			"$([ ! -s "$tmp/split" ]; echo $?)" "split: $(tr '\n' ' ' <"$tmp/split")"
	done
fi
# the ids of entries only, not those of a server's PCIe switches or riser configurations
if complete_bash nicfit plan --server "" | grep -qx -e pex0 -e sw1 -e gdb1; then
	bad "bash: plan --server offers no PCIe switch id" "got: $(complete_bash nicfit plan --server "" | tr '\n' ' ' | cut -c1-160)"
else ok "bash: plan --server offers no PCIe switch id"; fi
if command -v fish >/dev/null 2>&1; then
	got=$(PATH="$bindir:$PATH" fish -c 'source scripts/nicfit.fish; complete -C "nicfit cluster --rail"' 2>&1)
	printf '%s\n' "$got" | grep -q -- '^--rail-only' && ok "fish completes cluster --rail-only" ||
		bad "fish completes cluster --rail-only" "got: $got"
	got=$(PATH="$bindir:$PATH" fish -c 'source scripts/nicfit.fish; complete -C "nicfit plan --server r740"' 2>&1)
	printf '%s\n' "$got" | grep -q '^r740xd' && ok "fish completes catalog ids" ||
		bad "fish completes catalog ids" "got: $got"
	# servers with their names, grouped by vendor: Dell's together, then Gigabyte's
	got=$(PATH="$bindir:$PATH" fish -c 'source scripts/nicfit.fish; complete -C "nicfit plan --server "' 2>&1)
	printf '%s\n' "$got" | grep -q '^r750xa	Dell PowerEdge R750xa' && ok "fish describes each server by its name" ||
		bad "fish describes each server by its name" "got: $(printf '%s' "$got" | head -3)"
	order=$(printf '%s\n' "$got" | cut -f2 | cut -d' ' -f1 | uniq | tr '\n' ' ')
	case $order in
	*Dell*Gigabyte*HPE*Lenovo*) ok "fish groups servers by vendor ($order)" ;;
	*) bad "fish groups servers by vendor" "got: $order" ;;
	esac
	printf '%s\n' "$got" | grep -qx -e 'pex0.*' -e 'sw1.*' && bad "fish offers no PCIe switch id" ||
		ok "fish offers no PCIe switch id"
fi

# A few of the messages the tables give.
msg() { # msg "TEXT" EXIT -- ARGS...
	t=$1 x=$2; shift 3
	"$NICFIT" "$@" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc = "$x" ] && grep -qF -- "$t" "$tmp/err"; then ok "nicfit $*: $t"
	else bad "nicfit $*: $t" "exit $rc: $(head -1 "$tmp/err")"; fi
}
msg "did you mean '--backend-nic'?" 64 -- plan --bakend-nic x
msg "did you mean '--nodes'?" 64 -- cluster --nods 3
msg "did you mean '--width'?" 64 -- calc pcie --gen 3 --widht 16
msg "did you mean '--sysfs'?" 64 -- audit --sysfz x
msg "did you mean 'audit'?" 64 -- aduit
msg "did you mean '--json'?" 64 -- --jsn
msg "unknown option '--bogus'" 64 -- --bogus
msg "write --example=training" 64 -- plan --example training
# A path from the environment: the error names the variable, the user typed no path.
export NICFIT_SYSFS_ROOT=/nonexistent/nicfit-root
msg "NICFIT_SYSFS_ROOT (from the environment): /nonexistent/nicfit-root" 66 -- audit
msg "NICFIT_SYSFS_ROOT (from the environment): /nonexistent/nicfit-root" 66 -- snapshot "$tmp/snap"
msg "NICFIT_SYSFS_ROOT (from the environment): /nonexistent/nicfit-root" 66 -- plan --from-host --model llama-3-8b
unset NICFIT_SYSFS_ROOT
v=$("$NICFIT" -V 2>&1); check "nicfit -V prints the version, as --version does" \
	"$([ "$v" = "$("$NICFIT" --version)" ] && [ -n "$v" ]; echo $?)" "$v"
for a in "calc pcie --help" "help calc pcie" "audit -h" "help plan"; do
	# shellcheck disable=SC2086
	"$NICFIT" $a >/dev/null 2>&1; check "nicfit $a exits 0" $?
done

[ "$fails" = 0 ]
