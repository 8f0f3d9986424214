#!/bin/sh
# `make install PREFIX=...` puts every piece where users and build systems
# look for it, and a program builds against the installed library.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }

if make --no-print-directory install PREFIX="$tmp/p" >"$tmp/log" 2>&1; then ok "make install"; else no "make install"; cat "$tmp/log"; exit 1; fi
for f in bin/nicfit lib/libnicfit.a include/nicfit/plan.h share/man/man1/nicfit.1 \
	share/man/man1/nicfit-plan.1 share/nicfit/nics.json \
	share/bash-completion/completions/nicfit lib/pkgconfig/nicfit.pc; do
	if [ -f "$tmp/p/$f" ]; then ok "installed $f"; else no "installed $f"; fi
done
if "$tmp/p/bin/nicfit" --version | grep -q '^nicfit '; then ok "installed binary runs"; else no "installed binary runs"; fi
cat >"$tmp/t.c" <<'C'
#include <stdio.h>
#include <nicfit/pcie.h>
int main(void)
{
	struct nicfit_pcie_params p;
	struct nicfit_pcie_result r;

	nicfit_pcie_params_default(&p);
	if (nicfit_pcie_calc(3, 16, &p, &r, NULL))
		return 1;
	printf("%.0f\n", r.raw_gbps);
	return 0;
}
C
# a sanitized library needs the sanitizer runtime in the program too
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
if PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig" cc $san -o "$tmp/t" "$tmp/t.c" \
	$(PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig" pkg-config --cflags --libs nicfit) 2>"$tmp/cc" &&
	[ "$("$tmp/t")" = 126 ]; then
	ok "a program links against the installed libnicfit (pkg-config)"
else
	no "a program links against the installed libnicfit (pkg-config)"
	sed 's/^/# /' "$tmp/cc"
fi
if bash -c ". '$tmp/p/share/bash-completion/completions/nicfit' && complete -p nicfit" >/dev/null 2>&1; then
	ok "bash completion loads"
else
	no "bash completion loads"
fi
