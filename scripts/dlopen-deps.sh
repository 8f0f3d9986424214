#!/bin/sh
# The libraries ELF files declare they open with dlopen() (their
# .note.dlopen notes, https://systemd.io/ELF_DLOPEN_METADATA/, written by
# NICFIT_DLOPEN_NOTE in nicfit/dynlib.h), and the Debian dependencies they
# make on the release being built, as dh_dlopenlibdeps derives them where
# Debian ships it (Debian 13 and later).
#
#   scripts/dlopen-deps.sh notes FILE...       one line a library: PRIORITY SONAME
#   scripts/dlopen-deps.sh substvars FILE...   dlopen:Depends=..., dlopen:Recommends=...,
#                                              dlopen:Suggests=... (for debian/PKG.substvars)
#
# substvars links a throw-away program against each priority's sonames and
# asks dpkg-shlibdeps what that program depends on, so the package names
# and minimum versions are the release's own shlibs and symbols files
# (libmicrohttpd12 on Debian 12, libmicrohttpd12t64 on 13); required becomes Depends,
# recommended Recommends, suggested Suggests.
set -eu
mode=${1:?usage: scripts/dlopen-deps.sh notes|substvars FILE...}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

notes() {
	for f in "$@"; do
		if ! ${OBJCOPY:-objcopy} -O binary --only-section=.note.dlopen "$f" "$tmp/sec" 2>/dev/null; then
			echo "dlopen-deps.sh: $f: cannot read its sections" >&2
			exit 65
		fi
		# each note's JSON ends with a NUL and follows "FDO" and its NUL
		tr '\000' '\n' <"$tmp/sec" | grep -a '^\[{' | while IFS= read -r json; do
			prio=$(printf '%s\n' "$json" | sed -n 's/.*"priority":"\([a-z]*\)".*/\1/p')
			names=$(printf '%s\n' "$json" | sed -n 's/.*"soname":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' ')
			for s in $names; do
				printf '%s %s\n' "${prio:-recommended}" "$s"
			done
		done
	done | sort -u
}

case "$mode" in
notes) notes "$@" ;;
substvars)
	notes "$@" >"$tmp/all"
	printf 'int main(void) { return 0; }\n' >"$tmp/stub.c"
	for prio in required recommended suggested; do
		case $prio in required) field=Depends ;; recommended) field=Recommends ;; *) field=Suggests ;; esac
		libs=$(sed -n "s/^$prio //p" "$tmp/all")
		deps=
		if [ -n "$libs" ]; then
			args=
			for l in $libs; do args="$args -l:$l"; done
			# shellcheck disable=SC2086
			${CC:-cc} -o "$tmp/stub-$prio" "$tmp/stub.c" -Wl,--no-as-needed $args
			deps=$(dpkg-shlibdeps -O -xlibc6 -xlibc6.1 -xlibc0.1 -xlibc0.3 "$tmp/stub-$prio" 2>/dev/null |
				sed -n 's/^shlibs:Depends=//p')
			if [ -z "$deps" ]; then
				echo "dlopen-deps.sh: dpkg-shlibdeps found no package for:$libs" >&2
				exit 69
			fi
		fi
		printf 'dlopen:%s=%s\n' "$field" "$deps"
	done
	;;
*) echo "usage: scripts/dlopen-deps.sh notes|substvars FILE..." >&2; exit 64 ;;
esac
