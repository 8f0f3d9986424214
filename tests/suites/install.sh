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
for f in bin/nicfit lib/libnicfit.a lib/libnicfit.so.0 lib/libnicfit.so include/nicfit/plan.h \
	share/man/man1/nicfit.1 share/man/man1/nicfit-plan.1 \
	share/bash-completion/completions/nicfit lib/pkgconfig/nicfit.pc; do
	if [ -f "$tmp/p/$f" ]; then ok "installed $f"; else no "installed $f"; fi
done
# the catalog is embedded: a copy under share/nicfit would be read by nothing
if [ -e "$tmp/p/share/nicfit" ]; then no "no unread data under share/nicfit"; else ok "no unread data under share/nicfit"; fi
if readelf -d "$tmp/p/lib/libnicfit.so" 2>/dev/null | grep -q 'SONAME.*\[libnicfit\.so\.0\]'; then
	ok "libnicfit.so has the soname libnicfit.so.0"
else
	no "libnicfit.so has the soname libnicfit.so.0"
fi
if nm -D --defined-only "$tmp/p/lib/libnicfit.so" | grep -q ' nicfit__'; then
	no "libnicfit.so exports no internal nicfit__ symbol"
else
	ok "libnicfit.so exports no internal nicfit__ symbol"
fi
if "$tmp/p/bin/nicfit" --version | grep -q '^nicfit '; then ok "installed binary runs"; else no "installed binary runs"; fi
# The program computes (pcie, libm) and lays a text table out, which the
# library does through libsmartcols (Requires.private: smartcols), so
# both the plain and the --static link need every library nicfit uses.
cat >"$tmp/t.c" <<'C'
#include <stdio.h>
#include <nicfit/emit.h>
#include <nicfit/pcie.h>
int main(void)
{
	static const struct nicfit_column cols[] = { { "link", "link", 0 }, { "raw_gbps", "Gb/s", 1 } };
	struct nicfit_pcie_params p;
	struct nicfit_pcie_result r;
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_TEXT, 0, 0);
	struct nicfit_buf out;

	nicfit_pcie_params_default(&p);
	if (!e || nicfit_pcie_calc(3, 16, &p, &r, NULL))
		return 1;
	nicfit_emit_table_begin(e, NULL, cols, 2);
	nicfit_emit_cell_string(e, "Gen3 x16");
	nicfit_emit_cell_number(e, r.raw_gbps, 0);
	nicfit_emit_table_end(e);
	nicfit_buf_init(&out, 0);
	if (nicfit_emit_finish(e, &out))
		return 1;
	fputs(out.data, stdout);
	nicfit_buf_release(&out);
	nicfit_emit_free(e);
	return 0;
}
C
printf '  link      Gb/s\n  Gen3 x16   126\n' >"$tmp/want"
# a sanitized library needs the sanitizer runtime in the program too
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined"
pc() { PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig" pkg-config "$@"; }
# the normal way: the plain --libs, linking the shared library
if cc $san -o "$tmp/t" "$tmp/t.c" $(pc --cflags --libs nicfit) 2>"$tmp/cc" &&
	LD_LIBRARY_PATH="$tmp/p/lib" "$tmp/t" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/want"; then
	ok "cc prog.c \$(pkg-config --cflags --libs nicfit) links and runs"
else
	no "cc prog.c \$(pkg-config --cflags --libs nicfit) links and runs"
	sed 's/^/# /' "$tmp/cc"
fi
if readelf -d "$tmp/t" 2>/dev/null | grep -q 'NEEDED.*\[libnicfit\.so\.0\]'; then
	ok "the program needs libnicfit.so.0 (the soname, not the file name)"
else
	no "the program needs libnicfit.so.0 (the soname, not the file name)"
fi
# the archive with --static: Libs.private and Requires.private name what it needs
if cc $san -o "$tmp/ts" "$tmp/t.c" $(pc --cflags nicfit) "$tmp/p/lib/libnicfit.a" \
	$(pc --static --libs-only-l nicfit | sed 's/-lnicfit//') 2>"$tmp/cc" &&
	"$tmp/ts" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/want"; then
	ok "the archive links with pkg-config --static's libraries"
else
	no "the archive links with pkg-config --static's libraries"
	sed 's/^/# /' "$tmp/cc"
fi
# C++: every public header, then the same program, linked by C names (extern "C")
{
	echo "#include <stdio.h>"
	for h in "$tmp"/p/include/nicfit/*.h; do echo "#include <nicfit/${h##*/}>"; done
	sed '/^#include/d' "$tmp/t.c"
} >"$tmp/t.cpp"
if c++ $san -std=c++11 -Wall -Wextra -pedantic -Werror -o "$tmp/tx" "$tmp/t.cpp" \
	$(pc --cflags --libs nicfit) 2>"$tmp/cc" &&
	LD_LIBRARY_PATH="$tmp/p/lib" "$tmp/tx" >"$tmp/out" && cmp -s "$tmp/out" "$tmp/want"; then
	ok "c++ prog.cpp with every public header links and runs"
else
	no "c++ prog.cpp with every public header links and runs"
	sed 's/^/# /' "$tmp/cc"
fi
if bash -c ". '$tmp/p/share/bash-completion/completions/nicfit' && complete -p nicfit" >/dev/null 2>&1; then
	ok "bash completion loads"
else
	no "bash completion loads"
fi
