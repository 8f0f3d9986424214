#!/bin/sh
# scripts/nhc/nicfit.nhc as LBNL NHC runs it.
#
# NHC (github.com/mej/nhc, 1.4.3) is not packaged in Debian and none of its
# code is in this repository. Two ways to run the check:
#
#   NHC_SRC=DIR  a copy of NHC's sources (git clone https://github.com/mej/nhc):
#                its own `nhc` runs with no argument, as Slurm's
#                HealthCheckProgram=/usr/sbin/nhc runs it, reading its
#                settings from /etc/default/nhc (Debian) and its checks from
#                nhc.conf and scripts/*.nhc, NHC's own scripts beside ours.
#                A private mount namespace (unshare) puts the test's files at
#                those paths; without one, the same settings go on the
#                command line as NHC's VAR=value arguments.
#   otherwise    a loader written here that does what nhc does to a check
#                file, step by step: PATH reset, globbing off, the settings
#                file and every *.nhc sourced inside a function (so a
#                `declare` in a check file is a local that dies with the
#                loading), each nhc.conf line run with eval, die() marking
#                the node offline with its message and ending the run.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # name command... (true/false)
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}

if ! command -v bash >/dev/null 2>&1; then
	no "bash is needed to run NHC checks"
	exit 1
fi
case "$NICFIT" in /*) bin=$NICFIT ;; *) bin="$PWD/$NICFIT" ;; esac
bindir=$(dirname "$bin")
[ "$(basename "$bin")" = nicfit ] || { mkdir "$tmp/bin"; ln -s "$bin" "$tmp/bin/nicfit"; bindir="$tmp/bin"; }
fxa="$PWD/$fx"
case "$fx" in /*) fxa=$fx ;; esac

# The loader: what nhc does between starting and running the checks.
cat >"$tmp/loader.bash" <<'EOF'
#!/bin/bash
# usage: loader.bash CONFDIR SETTINGS -- the node's settings file, then nhc.conf's checks
PATH=/sbin:/usr/sbin:/bin:/usr/bin
set -f
read_settings() { . "$1"; }
load_checks() {
	local -a files
	local IFS=''
	set +f
	files=( "$CONFDIR"/scripts/*.nhc )
	set -f
	for f in "${files[@]}"; do
		[[ -e "$f" ]] && . "$f"
	done
}
die() {
	IFS=$' \t\n'
	local ret=$1
	shift
	DIED=1
	eval "$OFFLINE_NODE" "'node1'" "'$*'"
	exit "$ret"
}
run_checks() {
	local line target check
	while read line; do
		target=${line%%||*}
		check=${line#*||}
		target=${target//[[:space:]]/}
		[[ -z "$target" || "$target" == \#* || "$check" == "$line" ]] && continue
		[[ node1 == $target ]] || continue
		DIED=0
		eval $check
		local rc=$?
		if [[ $rc -ne 0 && $DIED -eq 0 ]]; then
			die "$rc" "Check $check returned $rc"
		fi
	done <"$CONFDIR/nhc.conf"
}
CONFDIR=$1
read_settings "$2"
load_checks
run_checks
eval "$ONLINE_NODE" "'node1'"
exit 0
EOF

# One node's NHC set-up: DIR/conf/{nhc.conf,scripts/}, DIR/default/nhc, the marks.
setup() { # dir nhc.conf-line
	mkdir -p "$1/conf/scripts" "$1/default" "$1/log"
	cp scripts/nhc/nicfit.nhc "$1/conf/scripts/"
	if [ -n "${NHC_SRC:-}" ]; then cp "$NHC_SRC"/scripts/*.nhc "$1/conf/scripts/"; fi
	printf '# nhc.conf\n%s\n' "$2" >"$1/conf/nhc.conf"
	printf '#!/bin/sh\nprintf "%%s\\n" "$2" >>"%s/offline"\n' "$1" >"$1/mark-offline"
	printf '#!/bin/sh\ntouch "%s/online"\n' "$1" >"$1/mark-online"
	chmod +x "$1/mark-offline" "$1/mark-online"
	cat >"$1/default/nhc" <<EOF
CONFDIR=$1/conf
LOGFILE=$1/log/nhc.log
RESULTFILE=$1/log/nhc.status
NHC_RM=slurm
OFFLINE_NODE=$1/mark-offline
ONLINE_NODE=$1/mark-online
PATH="\$PATH:$bindir"
NICFIT_ARGS="--sysfs $fxa/$3 --no-pci-ids"
EOF
}

# Runs NHC on one node; prints how it ran.
mode=loader
if [ -n "${NHC_SRC:-}" ]; then
	if [ ! -f "$NHC_SRC/nhc" ] || [ ! -f "$NHC_SRC/scripts/common.nhc" ]; then
		no "NHC_SRC=$NHC_SRC holds NHC's sources (nhc, scripts/common.nhc)"
		exit 1
	fi
	mode=nhc-args
	if command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then mode=nhc; fi
fi
# NHC reads /etc/default/nhc on Debian and where /etc/sysconfig is missing
sysconfig=/etc/default
[ ! -f /etc/debian_version ] && [ -d /etc/sysconfig ] && sysconfig=/etc/sysconfig
run_nhc() { # dir
	case "$mode" in
	loader) bash "$tmp/loader.bash" "$1/conf" "$1/default/nhc" >"$1/out" 2>&1 ;;
	nhc)
		mkdir -p "$1/sysconfig"
		cp -R "$sysconfig"/. "$1/sysconfig/" 2>/dev/null
		cp "$1/default/nhc" "$1/sysconfig/nhc"
		unshare -rm bash -c 'mount --bind "$1" "$2" && exec "$3"' nhc \
			"$1/sysconfig" "$sysconfig" "$NHC_SRC/nhc" </dev/null >"$1/out" 2>&1 ;;
	nhc-args)
		# shellcheck disable=SC2046
		(cd "$1" && "$NHC_SRC/nhc" $(grep -v '^PATH=\|^NICFIT_ARGS=' default/nhc) \
			"PATH=/sbin:/usr/sbin:/bin:/usr/bin:$bindir" \
			"NICFIT_ARGS='--sysfs $fxa/$2 --no-pci-ids'") </dev/null >"$1/out" 2>&1 ;;
	esac
}

echo "# NHC: $mode${NHC_SRC:+ ($NHC_SRC)}"
node() { # name nhc.conf-line fixture
	setup "$tmp/$1" "$2" "$3"
	run_nhc "$tmp/$1" "$3"
	echo $? >"$tmp/$1/rc"
	sed 's/^/#   /' "$tmp/$1/out"
	[ -f "$tmp/$1/log/nhc.log" ] && sed 's/^/#   log: /' "$tmp/$1/log/nhc.log"
	[ -f "$tmp/$1/offline" ] && sed 's/^/#   offline: /' "$tmp/$1/offline"
	return 0
}
rc() { cat "$tmp/$1/rc"; }

node clean '* || check_nicfit' hpt-nvme
check "a clean node passes * || check_nicfit: exit 0, marked online, not offline" \
	sh -c "[ $(rc clean) = 0 ] && [ -f '$tmp/clean/online' ] && [ ! -f '$tmp/clean/offline' ]"

node bad '* || check_nicfit' epyc-gen4
check "a downtrained NIC fails the node: exit 1" [ "$(rc bad)" = 1 ]
check "the offline reason is nicfit's first line and how many more" \
	grep -q '^nicfit: warning link-speed-downtrained 0000:81:00\.0: .* (and 3 more)$' "$tmp/bad/offline"
check "one offline mark, never online" \
	sh -c "[ \$(wc -l <'$tmp/bad/offline') = 1 ] && [ ! -f '$tmp/bad/online' ]"

node args '* || NICFIT_ARGS="--sysfs /nonexistent/nicfit-nhc-test" check_nicfit' hpt-nvme
check "NICFIT_ARGS on the check's line: a missing tree fails the check with nicfit's exit status" \
	grep -q '^nicfit: could not audit (exit 66): ' "$tmp/args/offline"

node ign '* || NICFIT_ARGS="$NICFIT_ARGS --ignore link-speed-downtrained --ignore nic-pcie-starved --ignore vpi-port-mode --ignore ib-no-subnet-manager" check_nicfit' epyc-gen4
check "--ignore in NICFIT_ARGS takes findings out of the check: exit 0" \
	sh -c "[ $(rc ign) = 0 ] && [ ! -f '$tmp/ign/offline' ]"

node nobin '* || NICFIT_BIN=/nonexistent/nicfit check_nicfit' hpt-nvme
check "a NICFIT_BIN that does not exist fails the check (127), it never passes" \
	grep -q '^nicfit: could not audit (exit 127): ' "$tmp/nobin/offline"
exit 0
