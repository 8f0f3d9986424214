#!/bin/sh
# The libraries nicfit opens with dlopen() are the ones its ELF notes declare
# (nicfit/dynlib.h; the Debian package's dependencies are made from the
# notes, scripts/dlopen-deps.sh), under the sonames this machine's -dev
# packages give; a missing one is an error that names it and its package;
# nicfit.pc asks a program for no other -dev package.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}

sh scripts/dlopen-deps.sh notes "$NICFIT" >"$tmp/notes"
sed 's/^/# note: /' "$tmp/notes"
check "nicfit declares five libraries in .note.dlopen" [ "$(wc -l <"$tmp/notes")" = 5 ]
check "jansson, libsmartcols and libxml2 required; libarchive and libmicrohttpd recommended" sh -c \
	"grep -q '^required libjansson\.so\.' '$tmp/notes' && grep -q '^required libsmartcols\.so\.' '$tmp/notes' &&
	 grep -q '^required libxml2\.so\.' '$tmp/notes' && grep -q '^recommended libarchive\.so\.' '$tmp/notes' &&
	 grep -q '^recommended libmicrohttpd\.so\.' '$tmp/notes'"
if [ -f "$BUILD/libnicfit.so" ]; then
	sh scripts/dlopen-deps.sh notes "$BUILD/libnicfit.so" >"$tmp/libnotes"
	check "libnicfit.so declares the four the library opens (not the web server's)" sh -c \
		"[ \$(wc -l <'$tmp/libnotes') = 4 ] && ! grep -q microhttpd '$tmp/libnotes'"
fi

# What each feature opens, as the dynamic loader reports it (LD_DEBUG=files).
opened() { # log -> sonames loaded by dlopen
	sed -n 's/.*file=\([^ ]*\) \[0\];  dynamically loaded by .*/\1/p' "$1"
}
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld1" "$NICFIT" --catalog tests/cli/data/prices.json \
	catalog list >/dev/null 2>&1
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld2" "$NICFIT" audit --dump tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml \
	>/dev/null 2>&1
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld3" "$NICFIT" snapshot --sysfs "$fx/kvm-vm" "$tmp/s.tar.gz" \
	>/dev/null 2>&1
LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld4" "$NICFIT" serve --port 0 >/dev/null 2>"$tmp/serve.err" &
pid=$!
i=0
while [ $i -lt 50 ] && ! grep -q 'http://' "$tmp/serve.err" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
cat "$tmp"/ld?.* 2>/dev/null >"$tmp/ld" || :
opened "$tmp/ld" | sort -u >"$tmp/opened"
sed 's/^/# opened: /' "$tmp/opened"
sed 's/^[a-z]* //' "$tmp/notes" | sort -u >"$tmp/declared"
check "what nicfit opens (catalog, XML dump, archive, serve) is what its notes declare" \
	cmp -s "$tmp/opened" "$tmp/declared"

# The soname is the one the linker's -dev name resolves to here.
for lib in libxml2 libjansson libsmartcols libarchive libmicrohttpd; do
	dev=$(${CC:-cc} -print-file-name=$lib.so)
	want=$(objdump -p "$dev" 2>/dev/null | sed -n 's/^ *SONAME *//p')
	check "$lib: opened as $want, the soname of this machine's $lib.so" \
		grep -qx " *[a-z]* $want" "$tmp/notes"
done

# A missing library: the error names it and the package to install. A private
# mount namespace hides libxml2 under an empty file.
xml=$(sed -n 's/^required \(libxml2\.so\.[0-9]*\)$/\1/p' "$tmp/notes")
path=$(ldconfig -p 2>/dev/null | sed -n "s/^[[:space:]]*$xml ([^)]*x86-64[^)]*) => //p;s/^[[:space:]]*$xml (libc6) => //p" | head -1)
if [ -n "$path" ] && command -v unshare >/dev/null 2>&1 && unshare -rm true 2>/dev/null; then
	: >"$tmp/empty"
	unshare -rm sh -c 'mount --bind "$1" "$2" && exec "$3" audit --dump "$4"' sh "$tmp/empty" \
		"$(readlink -f "$path")" "$NICFIT" tests/fixtures/dumps/xml/hgx-h100.nccl-topo.xml \
		>/dev/null 2>"$tmp/err"
	rc=$?
	sed 's/^/# /' "$tmp/err"
	pkg=$(dpkg-query -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p')
	check "without $xml: an error naming it and the package ${pkg:-?}, not a crash" sh -c \
		"[ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q '$xml cannot be opened (install the package ${pkg:-}' '$tmp/err'"
else
	ok "# SKIP hiding $xml needs unshare and a mount namespace"
fi

# nicfit.pc: no Requires, so pkg-config needs no other library's .pc file.
sed -e "s|@PREFIX@|$tmp/p|" -e "s|@LIBDIR@|$tmp/p/lib|" -e 's|@VERSION@|0|' scripts/nicfit.pc.in >"$tmp/nicfit.pc"
check "nicfit.pc requires no other package" sh -c "! grep -q '^Requires' '$tmp/nicfit.pc'"
if command -v pkg-config >/dev/null 2>&1; then
	check "pkg-config --cflags --libs nicfit works with no other .pc on the path" sh -c \
		"PKG_CONFIG_LIBDIR='$tmp' pkg-config --cflags --libs nicfit >/dev/null"
fi
exit 0
