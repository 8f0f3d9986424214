#!/bin/sh
# tests/check-deb-release.sh [RELEASE [DIR]] - the packages `make deb` built
# in DIR (build/deb) install and run on another Debian release (trixie by
# default): a minimal RELEASE system made with mmdebstrap from the Debian
# mirror (MIRROR, http://deb.debian.org/debian), where apt resolves the
# packages' Depends and Recommends under that release's names (the t64
# libraries provide the old names), then nicfit --version, nicfit plan
# --example and nicfit serve (libmicrohttpd opened) answering /api.
#
# Needs root, mmdebstrap (apt-get install mmdebstrap), curl and the mirror; not
# part of make check. KEEP=DIR keeps the system in DIR (reused next time).
set -u
release=${1:-trixie}
dir=${2:-build/deb}
mirror=${MIRROR:-http://deb.debian.org/debian}
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}

if [ "$(id -u)" != 0 ] || ! command -v mmdebstrap >/dev/null 2>&1; then
	echo "check-deb-release.sh: needs root and mmdebstrap (apt-get install mmdebstrap)" >&2
	exit 77
fi
set -- "$dir"/nicfit_*.deb "$dir"/libnicfit0_*.deb
for d in "$@"; do
	[ -f "$d" ] || { echo "check-deb-release.sh: no $d: run make deb first" >&2; exit 66; }
done

root=${KEEP:-$(mktemp -d)}
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$root"
}
trap cleanup EXIT
if [ ! -x "$root/usr/bin/apt-get" ]; then
	if ! mmdebstrap --variant=apt --include=ca-certificates "$release" "$root" "$mirror" >"$root.log" 2>&1; then
		no "mmdebstrap $release from $mirror"
		sed 's/^/# /' "$root.log" | tail -20
		exit 1
	fi
fi
ok "a $release system ($(cat "$root/etc/debian_version"))"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" apt-get update >/dev/null 2>&1

# Each package name the packages depend on or recommend exists in the release
# (as a package or provided by one: libmicrohttpd12t64 provides libmicrohttpd12).
for d in "$@"; do
	for field in Depends Recommends; do
		for name in $(dpkg-deb -f "$d" "$field" | tr ',|' '\n\n' | sed 's/(.*//; s/:.*//' | tr -d ' '); do
			case $name in libnicfit0) continue ;; esac
			check "$(basename "$d") $field $name: in $release" \
				sh -c "chroot '$root' apt-get install -s '$name' >/dev/null 2>&1"
		done
	done
done

mkdir -p "$root/tmp/debs"
cp "$@" "$root/tmp/debs/"
# a kept system: the packages go again, so that their Recommends come with them
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get purge -y nicfit libnicfit0 >/dev/null 2>&1
check "apt-get install nicfit libnicfit0 (with Recommends) on $release" \
	sh -c "chroot '$root' sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/debs/nicfit_*.deb /tmp/debs/libnicfit0_*.deb' \
		>'$root/tmp/install.log' 2>&1 || { tail -5 '$root/tmp/install.log' | sed 's/^/# /'; false; }"
check "libmicrohttpd and libarchive came as Recommends" \
	sh -c "chroot '$root' dpkg -l | grep -q '^ii  libmicrohttpd12' && chroot '$root' dpkg -l | grep -q '^ii  libarchive13'"
check "nicfit --version on $release" sh -c "chroot '$root' nicfit --version >/dev/null"
chroot "$root" nicfit plan --example >"$root/tmp/plan.out" 2>&1
rc=$?
check "nicfit plan --example on $release (exit $rc, a verdict)" \
	sh -c "[ $rc = 0 ] && grep -q '^Verdict: ' '$root/tmp/plan.out'"
port=$((20000 + $$ % 20000))
chroot "$root" nicfit serve --port "$port" >"$root/tmp/serve.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -q listening "$root/tmp/serve.log" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
check "nicfit serve on $release opens libmicrohttpd and answers /api/plan/examples" \
	sh -c "grep -q listening '$root/tmp/serve.log' && curl -fsS -o /dev/null http://127.0.0.1:$port/api/plan/examples || \
		{ sed 's/^/# /' '$root/tmp/serve.log'; false; }"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
echo "1..$n"
[ "$fail" = 0 ]
