#!/bin/sh
# make check-deb: the Debian packages `make deb` built in DIR pass lintian
# without errors, install with dpkg, and run: nicfit --version, man nicfit,
# a program built with the installed pkg-config file, the systemd unit
# installed but not enabled. The packages are removed again at the end.
# Needs root (dpkg -i); not part of make check, which stays fast.
set -u
dir=${1:?usage: tests/check-deb.sh DIR}
tmp=$(mktemp -d)
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}
cleanup() {
	dpkg -r nicfit libnicfit-dev libnicfit0 >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

set -- "$dir"/nicfit_*.deb "$dir"/libnicfit0_*.deb "$dir"/libnicfit-dev_*.deb
for d in "$@"; do
	check "built $(basename "$d")" [ -f "$d" ]
done
lintian --fail-on error --tag-display-limit 0 "$dir"/*.changes >"$tmp/lintian" 2>&1
rc=$?
sed 's/^/# /' "$tmp/lintian"
check "lintian: no errors" [ "$rc" = 0 ]
check "lintian: no E: line" sh -c "! grep -q '^E:' '$tmp/lintian'"

# The packages depend on what their binaries open (.note.dlopen), in this
# release's package names: each library a binary declares required is in
# Depends, each recommended one in Recommends.
for pkg in nicfit libnicfit0; do
	deb=$(ls "$dir/${pkg}"_*.deb | head -1)
	rm -rf "$tmp/x" && mkdir "$tmp/x" && dpkg-deb -x "$deb" "$tmp/x"
	elf=$(find "$tmp/x/usr" -type f \( -path '*/bin/nicfit' -o -name 'libnicfit.so.*' \) | head -1)
	depends=$(dpkg-deb -f "$deb" Depends)
	recommends=$(dpkg-deb -f "$deb" Recommends)
	echo "# $pkg Depends: $depends"
	echo "# $pkg Recommends: $recommends"
	sh scripts/dlopen-deps.sh notes "$elf" >"$tmp/notes"
	check "$pkg: its binary declares the libraries it opens" [ -s "$tmp/notes" ]
	while read -r prio soname; do
		path=$(ldconfig -p | sed -n "s/^[[:space:]]*$soname (.*) => //p" | head -1)
		owner=$(dpkg-query -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p')
		case $prio in required) field=$depends; name=Depends ;; *) field=$recommends; name=Recommends ;; esac
		check "$pkg: $soname ($prio) is in $name as $owner" sh -c \
			"[ -n '$owner' ] && printf '%s\n' '$field' | tr ',' '\n' | grep -q '^ *$owner\( \|\$\)'"
	done <"$tmp/notes"
done
check "debian/control names no run-time library by hand (one release's names)" sh -c \
	"! grep -E '^(Depends|Recommends|Suggests):.*lib(jansson|xml2|smartcols|archive|microhttpd)' debian/control"
check "libnicfit-dev depends on no other -dev package" sh -c \
	"! dpkg-deb -f '$(ls "$dir"/libnicfit-dev_*.deb | head -1)' Depends | grep -q -- '-dev'"

if [ "$(id -u)" != 0 ]; then
	no "dpkg -i needs root"
	exit 1
fi
if dpkg -i "$@" >"$tmp/dpkg" 2>&1; then ok "dpkg -i installs the three packages"; else
	no "dpkg -i installs the three packages"; sed 's/^/# /' "$tmp/dpkg"; exit 1
fi
v=$(sed -n 's/^#define NICFIT_VERSION "\(.*\)"/\1/p' include/nicfit/version.h)
check "/usr/bin/nicfit --version prints $v" sh -c "[ \"\$(/usr/bin/nicfit --version)\" = 'nicfit $v' ]"
check "man nicfit finds the installed page" sh -c \
	"MANPAGER=cat MANWIDTH=80 man nicfit 2>/dev/null | grep -q 'nicfit'"
check "man nicfit-audit too" sh -c "MANPAGER=cat man -w nicfit-audit | grep -q '^/usr/share/man/man1/'"
check "bash completion installed" [ -f /usr/share/bash-completion/completions/nicfit ]
unit=$(dpkg -L nicfit | grep '/nicfit-serve\.service$')
check "the nicfit-serve unit is installed" [ -n "$unit" ]
check "the unit binds loopback and is sandboxed" sh -c \
	"grep -q -- '--bind 127.0.0.1' '$unit' && grep -qx 'DynamicUser=yes' '$unit' &&
	 grep -qx 'ProtectSystem=strict' '$unit'"
check "the unit is not enabled" sh -c \
	"! ls /etc/systemd/system/*/nicfit-serve.service >/dev/null 2>&1"
if command -v systemd-analyze >/dev/null 2>&1; then
	systemd-analyze verify "$unit" >"$tmp/verify" 2>&1
	check "systemd-analyze verify accepts the unit" sh -c "! grep -q nicfit-serve '$tmp/verify'"
	sed 's/^/# /' "$tmp/verify"
fi
cat >"$tmp/t.c" <<'C'
#include <stdio.h>
#include <nicfit/pcie.h>
int main(void)
{
	struct nicfit_pcie_params p;
	struct nicfit_pcie_result r;

	nicfit_pcie_params_default(&p);
	if (nicfit_pcie_calc(4, 16, &p, &r, NULL))
		return 1;
	printf("%.0f\n", r.raw_gbps);
	return 0;
}
C
if cc -o "$tmp/t" "$tmp/t.c" $(pkg-config --cflags --libs nicfit) 2>"$tmp/cc" && [ "$("$tmp/t")" = 252 ]; then
	ok "a program builds with the installed nicfit.pc and runs on libnicfit.so.0"
else
	no "a program builds with the installed nicfit.pc and runs on libnicfit.so.0"
	sed 's/^/# /' "$tmp/cc"
fi
echo "$((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
