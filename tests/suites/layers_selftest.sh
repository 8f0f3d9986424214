#!/bin/sh
# The layering check's own test: tools/layers.c run over a small tree made
# here (a few files in src/lib/core, out and host, compiled to objects)
# passes on the clean tree and fails, on the rule meant, when an up-call,
# another folder's private header, a folderless private include, a later
# public header, a call cycle, a long file or function, a library header
# in src/cli, a missing #error guard or a source in src/lib's root is
# added; and an allowlist entry lets a cycle through. TAP output.
set -u
: "${BUILD:=build}"
layers=$(cd "$(dirname "$BUILD/tools/layers")" && pwd)/layers
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }

guarded() { # NAME: a private header with its guard
	printf '#ifndef NICFIT_BUILDING_LIBRARY\n#error "%s is internal"\n#endif\nint %s_x(void);\n' \
		"$1" "$(basename "$1" _int.h)"
}

clean() { # DIR: the clean tree
	mkdir -p "$1/src/lib/core" "$1/src/lib/out" "$1/src/lib/host" "$1/src/cli" \
		"$1/include/nicfit"
	guarded a_int.h >"$1/src/lib/core/a_int.h"
	guarded b_int.h >"$1/src/lib/out/b_int.h"
	echo '/* emit */' >"$1/include/nicfit/emit.h"
	echo '#include "nicfit/error.h"' >"$1/include/nicfit/plan.h"
	echo '/* error */' >"$1/include/nicfit/error.h"
	printf '#include "core/a_int.h"\nint core_a(void);\nint core_a(void)\n{\n\treturn 1;\n}\n' \
		>"$1/src/lib/core/a.c"
	printf '#include "out/b_int.h"\n#include "nicfit/emit.h"\nint core_a(void);\nint out_b(void);\nint out_b(void)\n{\n\treturn core_a();\n}\n' \
		>"$1/src/lib/out/b.c"
	printf '#include "core/a_int.h"\n#include "nicfit/error.h"\nint out_b(void);\nint host_c(void);\nint host_c(void)\n{\n\treturn out_b();\n}\n' \
		>"$1/src/lib/host/c.c"
	printf '#include "nicfit/emit.h"\n#include "cli.h"\n' >"$1/src/cli/main.c"
	echo '/* cli */' >"$1/src/cli/cli.h"
	: >"$1/allow"
}

# case NAME: a fresh clean tree in $tmp/NAME ($d); then edit it and call run
case_() { d=$tmp/$1; rm -rf "$d"; clean "$d"; }

run() { # compile $d's library and run the check; its output in $d/out, its status in $rc
	for c in "$d"/src/lib/*/*.c; do
		o=$d/build/${c#"$d"/}; o=${o%.c}.o
		mkdir -p "$(dirname "$o")"
		cc -c -I"$d/src/lib" -I"$d/include" -DNICFIT_BUILDING_LIBRARY -o "$o" "$c" || { rc=99; return; }
	done
	(cd "$d" && "$layers" . build allow) >"$d/out" 2>&1
	rc=$?
}

expect_fail() { # NAME RULE: the check failed on rule RULE, naming what
	if [ "$rc" = 1 ] && grep -q "^not ok $2 " "$d/out" && grep -q "^# $3" "$d/out"; then
		ok "$1"
	else
		no "$1"; sed 's/^/# /' "$d/out"
	fi
}

case_ clean; run
if [ "$rc" = 0 ] && ! grep -q '^not ok' "$d/out"; then ok "a clean tree passes"; else
	no "a clean tree passes"; sed 's/^/# /' "$d/out"; fi

case_ upcall
printf 'int out_b(void);\nint core_up(void);\nint core_up(void)\n{\n\treturn out_b();\n}\n' >"$d/src/lib/core/up.c"
run; expect_fail "a call up the order fails rule 1, naming file and symbol" 1 \
	"src/lib/core/up.c: calls out_b, defined in src/lib/out/b.c"

case_ private
sed -i '1i #include "out/b_int.h"' "$d/src/lib/host/c.c"
run; expect_fail "another folder's private header fails rule 2" 2 \
	"src/lib/host/c.c:1: includes out/b_int.h, private to out/"

case_ otherheader
printf '#ifndef B_FACTS_H\n#define B_FACTS_H\n#endif\n' >"$d/src/lib/out/b_facts.h"
sed -i '1i #include "out/b_facts.h"' "$d/src/lib/host/c.c"
run; expect_fail "another folder's header of any name fails rule 2" 2 \
	"src/lib/host/c.c:1: includes out/b_facts.h, private to out/"

case_ nofolder
guarded c_int.h >"$d/src/lib/host/c_int.h"
sed -i '1i #include "c_int.h"' "$d/src/lib/host/c.c"
run; expect_fail "a private include without its folder fails rule 2" 2 \
	"src/lib/host/c.c:1: \"c_int.h\" names no folder"

case_ upinclude
sed -i '1i #include "host/c_int.h"' "$d/src/lib/out/b.c"
guarded c_int.h >"$d/src/lib/host/c_int.h"
run; expect_fail "a later folder's private header fails rule 2" 2 \
	"src/lib/out/b.c:1: includes host/c_int.h (host comes after out)"

case_ public
sed -i '1i #include "nicfit/plan.h"' "$d/src/lib/core/a.c"
run; expect_fail "a later folder's public header fails rule 3" 3 \
	"src/lib/core/a.c:1: includes nicfit/plan.h, the plan module"

case_ publicpublic
echo '#include "nicfit/plan.h"' >>"$d/include/nicfit/emit.h"
run; expect_fail "a public header including a later one fails rule 3" 3 \
	"include/nicfit/emit.h:2: includes nicfit/plan.h"

case_ cycle
printf 'int host_c(void);\nint host_d(void);\nint host_d(void)\n{\n\treturn host_c();\n}\n' >"$d/src/lib/host/d.c"
sed -i 's/return out_b();/return out_b() + host_d();/; 1i int host_d(void);' "$d/src/lib/host/c.c"
run; expect_fail "a call cycle between two files fails rule 4" 4 \
	"files that call each other: host/c.c host/d.c"
echo 'cycle host/c.c host/d.c host/e.c -- the test' >"$d/allow"
run
if [ "$rc" = 0 ] && grep -q '^ok 4 ' "$d/out"; then ok "an allowed cycle passes"; else
	no "an allowed cycle passes"; sed 's/^/# /' "$d/out"; fi

case_ longfile
i=0; while [ $i -lt 1250 ]; do echo "/* $i */"; i=$((i + 1)); done >>"$d/src/lib/host/c.c"
run; expect_fail "a file over 1250 lines fails rule 5" 5 "src/lib/host/c.c: 12[0-9][0-9] lines"

case_ longfunc
{ printf 'int core_long(void);\nint core_long(void)\n{\n\tint x = 0;\n'
  i=0; while [ $i -lt 97 ]; do echo "	x++;"; i=$((i + 1)); done
  printf '\treturn x;\n}\n'; } >"$d/src/lib/core/long.c"
run; expect_fail "a function over 100 lines fails rule 5" 5 \
	"src/lib/core/long.c:3: core_long() is 101 lines"
echo 'function core/long.c:core_long -- a table renderer' >"$d/allow"
run
if [ "$rc" = 0 ]; then ok "an allowed long function passes"; else
	no "an allowed long function passes"; sed 's/^/# /' "$d/out"; fi

case_ client
echo '#include "../lib/core/a_int.h"' >>"$d/src/cli/main.c"
run; expect_fail "a library header in src/cli fails rule 6" 6 \
	"src/cli/main.c:3: includes ../lib/core/a_int.h"
echo 'header core/a_int.h -- sanctioned for the test' >"$d/allow"
run
if [ "$rc" = 0 ]; then ok "a sanctioned header passes"; else
	no "a sanctioned header passes"; sed 's/^/# /' "$d/out"; fi

case_ guard
echo 'int a_x(void);' >"$d/src/lib/core/a_int.h"
run; expect_fail "a private header without its #error guard fails rule 7" 7 \
	"src/lib/core/a_int.h: no #ifndef NICFIT_BUILDING_LIBRARY"

case_ guard_open
printf '#ifndef NICFIT_BUILDING_LIBRARY\n#error "a_int.h is internal"\nint a_x(void);\n#endif\n' \
	>"$d/src/lib/core/a_int.h"
run; expect_fail "a guard whose #error is not followed by its #endif fails rule 7" 7 \
	"src/lib/core/a_int.h: no #ifndef NICFIT_BUILDING_LIBRARY"

case_ root
echo 'int loose(void);' >"$d/src/lib/loose.c"
run; expect_fail "a source in src/lib's root fails rule 7" 7 "src/lib/loose.c: a source in src/lib's root"

case_ stale
echo 'cycle core/a.c out/b.c -- gone' >"$d/allow"
run
if [ "$rc" = 0 ] && grep -q '^# allow:1: matches nothing' "$d/out"; then
	ok "an allowlist entry that matches nothing is named"
else no "an allowlist entry that matches nothing is named"; sed 's/^/# /' "$d/out"; fi
