# nicfit - plain Makefile, in the manner of git and Redis.
#
#   make                 build/nicfit and build/libnicfit.a
#   make run             install missing Debian packages, build, plan the article's case
#   make check           install missing packages, build, run the whole test suite
#   make check SANITIZE=1   the same under ASan + UBSan
#   make fuzz            run the libFuzzer harnesses (clang) for FUZZ_SECONDS each
#                        (FUZZ_ONLY=catalog,sysfs: only those)
#   make bench           benchmarks against peers (lstopo, nginx), printing ratios
#   make install PREFIX=/usr/local
#   make deb             install dpkg-dev, debhelper and lintian if missing, build the
#                        Debian packages (debian/) into $(B)/deb/
#   make check-deb       build them, lintian, install them, run nicfit --version and man nicfit
#
# WERROR=1 turns warnings into errors (CI sets it).

CC ?= cc
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
DESTDIR ?=
SANITIZE ?=
WERROR ?= $(if $(CI),1,)
FUZZ_SECONDS ?= 60
B := build

# Quiet by default, as git and Linux print; V=1 shows the commands.
ifneq ($(V),1)
Q_CC = @echo "   CC $@";
Q_AR = @echo "   AR $@";
Q_LD = @echo "   LD $@";
Q_GEN = @echo "  GEN $@";
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wformat=2 -Wwrite-strings -Wno-unused-parameter -Wno-format-truncation
ifeq ($(WERROR),1)
WARN += -Werror
endif
# libarchive, libmicrohttpd, libxml2 and libsmartcols are opened at run time,
# when snapshot archives, serve, an XML dump or a text table need them
# (src/lib/core/dynlib*.c): only their headers are used here. Linked, libxml2 (with
# libicuuc and libstdc++) cost every process 3.2M instructions of relocation,
# libsmartcols 0.2M.
PKGS := jansson libmicrohttpd libarchive smartcols libxml-2.0
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# jansson is opened on first use (src/lib/core/dynlib_jansson.c), like libxml2:
# the library and the CLI do not link it; the tests and tools that call it
# themselves do (JANSSON_LIBS).
JANSSON_LIBS := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
PKG_LIBS := -ldl -lpthread

BASE_CFLAGS := -std=c11 -O2 -g $(WARN) -fno-common
ifeq ($(SANITIZE),1)
BASE_CFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_LDFLAGS := -fsanitize=address,undefined,float-cast-overflow
endif
# SANITIZE=thread: ThreadSanitizer (serve's threads); VALGRIND=1: a build for
# valgrind. Both turn off the inline string scans that read past a string's
# end within its page (src/lib/core/fmt_int.h), which such checkers report.
ifeq ($(SANITIZE),thread)
BASE_CFLAGS += -fsanitize=thread -fno-omit-frame-pointer -DNICFIT_NO_OVERREAD
SAN_LDFLAGS := -fsanitize=thread
endif
ifeq ($(VALGRIND),1)
BASE_CFLAGS += -DNICFIT_NO_OVERREAD
endif
ALL_CPPFLAGS := -Iinclude -I$(B)/gen -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-include src/lib/core/banned.h $(CPPFLAGS)
ALL_CFLAGS := $(BASE_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SAN_LDFLAGS) $(LDFLAGS)
# The library's objects are position-independent: the same objects make the
# archive and the shared library (the cost on x86-64 is within noise).
LIB_CFLAGS := -fPIC
LIBS := $(PKG_LIBS) -lm

LIB_SRC := $(sort $(wildcard src/lib/*.c src/lib/*/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
SERVE_SRC := $(sort $(wildcard src/serve/*.c))
DATA := $(sort $(wildcard data/*.json))
ASSETS := $(sort $(wildcard src/serve/assets/*))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_CORE_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
LIB_OBJ := $(LIB_CORE_OBJ) $(B)/gen/catalog_data.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o) $(SERVE_SRC:%.c=$(B)/%.o) \
	$(if $(ASSETS),$(B)/gen/assets_data.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/tests/%)

all: $(B)/nicfit $(B)/libnicfit.a $(B)/libnicfit.so

# Rebuild everything when the flags change (git's GIT-CFLAGS trick).
FLAGS_NOW := $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIB_CFLAGS)
$(B)/FLAGS: FORCE
	@mkdir -p $(B)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' >$@; fi

# The library's own files (and the tests of its internals) see src/lib and its
# private headers; the CLI and the server are compiled as clients would be.
LIB_CPPFLAGS := -Isrc/lib -DNICFIT_BUILDING_LIBRARY

$(B)/src/lib/%.o: src/lib/%.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/%.o: %.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# Hardware identity (data/ids/*.txt) compiled into tables pciids.c and
# partno_intel.c include; tools/idgen.c fails the build on a bad row,
# a duplicate or an unsorted PCI ID, with file:line:col.
$(B)/tools/idgen: tools/idgen.c tools/cstr.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -o $@ $<

$(B)/gen/pciids_table.h: data/ids/pci.txt $(B)/tools/idgen
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/idgen pci $< $@.tmp && mv $@.tmp $@

$(B)/gen/intel_table.h: data/ids/intel.txt $(B)/tools/idgen
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/idgen intel $< $@.tmp && mv $@.tmp $@

# Every library object waits for the generated tables (order-only: the
# objects' .d files say which of them a source really includes, and make a
# change rebuild just those), so that no file that includes one can be
# compiled before it exists, whichever file that is.
GEN_TABLES := $(B)/gen/pciids_table.h $(B)/gen/intel_table.h $(B)/gen/nicfit_sonames.h
$(LIB_SRC:%.c=$(B)/%.o) $(LIB_SRC:%.c=$(B)/clang/%.o): | $(GEN_TABLES)
$(B)/src/serve/mhd.o $(B)/src/cli/cmd_serve.o: | $(B)/gen/nicfit_sonames.h

# The sonames of the libraries opened with dlopen(), as this machine's -dev
# packages give them (libxml2.so.2 on Debian 12, .so.16 on 13), and the
# packages that hold them: scripts/sonames.sh, rerun when the flags change.
$(B)/gen/nicfit_sonames.h: scripts/sonames.sh $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_GEN)CC='$(CC)' scripts/sonames.sh $@

$(B)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

# The default catalog, compiled: tools/catgen.c runs the library's own
# loader (without this data) over data/*.json and writes the typed views as
# C tables with the JSON they came from. A problem in a file stops the build
# with file:line:col.
$(B)/tools/catgen: tools/catgen.c tools/cstr.h $(LIB_CORE_OBJ)
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(LIB_CORE_OBJ) $(LIBS) $(JANSSON_LIBS)

$(B)/gen/catalog_data.c: $(DATA) $(B)/tools/catgen
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/catgen $@.tmp $(DATA) && mv $@.tmp $@

$(B)/gen/assets_data.c: $(ASSETS) $(B)/tools/embed
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/embed nicfit_asset nicfit_asset_blobs assets.h $@ $(ASSETS)

$(B)/gen/catalog_data.o: $(B)/gen/catalog_data.c $(B)/FLAGS
	$(Q_CC)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(B)/gen/assets_data.o: $(B)/gen/assets_data.c $(B)/FLAGS
	$(Q_CC)$(CC) -Isrc/serve $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libnicfit.a: $(LIB_OBJ)
	@rm -f $@
	$(Q_AR)ar rcs $@ $^

# The shared library: soname libnicfit.so.0 (the major version changes when
# the ABI does), exporting the public nicfit_* symbols only (scripts/libnicfit.map);
# the internal nicfit__* ones stay inside.
VERSION := $(shell sed -n 's/^\#define NICFIT_VERSION "\(.*\)"/\1/p' include/nicfit/version.h)
SONAME := libnicfit.so.0
$(B)/libnicfit.so.$(VERSION): $(LIB_OBJ) scripts/libnicfit.map
	$(Q_LD)$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs \
		-Wl,--version-script=scripts/libnicfit.map -o $@ $(LIB_OBJ) $(LIBS)

$(B)/libnicfit.so: $(B)/libnicfit.so.$(VERSION)
	@ln -sf libnicfit.so.$(VERSION) $(B)/$(SONAME)
	@ln -sf $(SONAME) $@

$(B)/nicfit: $(CLI_OBJ) $(B)/libnicfit.a
	$(Q_LD)$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libnicfit.a $(LIBS)

# test_output drives the CLI's output writer, which is not in the library.
UNIT_OUTPUT_SRC := src/cli/output.c src/cli/wrap.c
unit_extra = $(if $(filter test_output,$(1)),-Isrc/cli $(UNIT_OUTPUT_SRC))
$(B)/tests/test_output: $(UNIT_OUTPUT_SRC) src/cli/output.h src/cli/cli.h

$(B)/tests/%: tests/unit/%.c $(B)/libnicfit.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) -Itests/unit $(ALL_CFLAGS) -Wno-missing-prototypes $(ALL_LDFLAGS) \
		-o $@ $< $(call unit_extra,$*) $(B)/libnicfit.a $(LIBS) $(JANSSON_LIBS) -lcmocka -larchive

# The harnesses that drive the server's request layer link these files of
# src/serve/ besides the library (they need no socket and no libmicrohttpd).
FUZZ_SERVE_SRC := src/serve/http.c src/serve/api.c src/serve/reply.c src/serve/cache.c src/serve/mhd.c \
	src/serve/accept_results.c src/serve/metrics.c \
	src/serve/assets.c src/serve/page.c $(B)/gen/assets_data.c
# The command line's parser (fuzz_cli) links the whole command line but
# main.c, which it includes, and the server the command line holds.
FUZZ_CLI_SRC := $(filter-out src/cli/main.c,$(CLI_SRC)) $(SERVE_SRC) $(B)/gen/assets_data.c
fuzz_extra = $(if $(filter http page,$(1)),-Isrc/serve $(FUZZ_SERVE_SRC),$(if \
	$(filter cli,$(1)),-Isrc/serve $(FUZZ_CLI_SRC)))

# Fuzz harnesses built as plain programs that replay their corpus; the
# headers they share (tests/fuzz/*.h) rebuild them all.
FUZZ_HDRS := $(wildcard tests/fuzz/*.h)
$(B)/tests/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_HDRS) $(B)/libnicfit.a $(FUZZ_CLI_SRC) \
		$(B)/gen/nicfit_sonames.h
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Wno-missing-prototypes $(ALL_LDFLAGS) \
		-o $@ $< $(call fuzz_extra,$*) tests/fuzz/replay.c $(B)/libnicfit.a $(LIBS) $(JANSSON_LIBS)

# Under SANITIZE=1, the corpora are also replayed by harnesses built with
# clang when it is installed: gcc's UBSan lacks checks clang has (a null
# pointer plus zero, for one). tests/run.sh replays $(B)/clang/fuzz_*.
CLANG := $(shell command -v clang 2>/dev/null)
CLANG_LIB_OBJ := $(LIB_SRC:%.c=$(B)/clang/%.o) $(B)/clang/gen/catalog_data.o
CLANG_FUZZ_BIN := $(if $(CLANG),$(FUZZ_SRC:tests/fuzz/%.c=$(B)/clang/%))
CLANG_CFLAGS := -std=c11 -O1 -g $(FUZZ_SANITIZE) -fno-omit-frame-pointer $(PKG_CFLAGS)

# Every header, not each object's own (as the gcc objects' .d files give):
# an object left stale by a changed struct would make the replay test a
# different layout from the one its caller has.
CLANG_HDRS := $(wildcard include/nicfit/*.h src/lib/*.h src/lib/*/*.h) \
	$(B)/gen/pciids_table.h $(B)/gen/intel_table.h

$(B)/clang/src/lib/%.o: src/lib/%.c $(B)/FLAGS $(CLANG_HDRS)
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

$(B)/clang/gen/catalog_data.o: $(B)/gen/catalog_data.c $(B)/FLAGS $(CLANG_HDRS)
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

$(B)/clang/libnicfit.a: $(CLANG_LIB_OBJ)
	@rm -f $@
	$(Q_AR)ar rcs $@ $^

$(B)/clang/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_HDRS) $(B)/clang/libnicfit.a $(FUZZ_CLI_SRC) \
		$(B)/gen/nicfit_sonames.h
	$(Q_LD)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -fsanitize=address,undefined \
		-o $@ $< $(call fuzz_extra,$*) tests/fuzz/replay.c $(B)/clang/libnicfit.a $(LIBS) $(JANSSON_LIBS)

# The layering check (tests/suites/layers.sh): the objects' symbols and the
# sources' includes against the folder order of src/lib.
$(B)/tools/layers: tools/layers.c
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) -std=c11 -O1 $(WARN) -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -o $@ $<

# The table of finding codes users read, generated from the registry
# (src/lib/core/finding_codes.def and src/lib/*/*_codes.def); test_finding checks it.
$(B)/tools/findings_md: tools/findings_md.c $(B)/libnicfit.a
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(B)/libnicfit.a $(LIBS)

docs/findings.md: $(B)/tools/findings_md FORCE
	@$(B)/tools/findings_md >$@.tmp && mv $@.tmp $@

deps:
	@scripts/deps.sh build

deps-check:
	@scripts/deps.sh check

run: deps
	@$(MAKE) --no-print-directory all
	$(B)/nicfit plan --example
	@echo >&2
	@echo "nicfit is $(B)/nicfit: to run the README's examples as they are written," >&2
	@echo "  export PATH=\"$(CURDIR)/$(B):\$$PATH\"   (or: make install PREFIX=/usr/local)" >&2

check: deps-check
	@$(MAKE) --no-print-directory all tests
	@NICFIT=$(B)/nicfit BUILD=$(B) SANITIZE=$(SANITIZE) sh tests/run.sh

tests: $(UNIT_BIN) $(FUZZ_BIN) $(B)/tools/layers $(B)/fixtures/.stamp $(if $(filter 1,$(SANITIZE)),$(CLANG_FUZZ_BIN))

# Sysfs trees of realistic machines for the audit tests (tests/fixtures/README.md).
FIXTURE_SRC := $(sort $(wildcard tests/fixtures/machines/*.host)) tests/fixtures/gen.sh \
	tests/fixtures/sysfs.awk
$(B)/fixtures/.stamp: $(FIXTURE_SRC)
	@sh tests/fixtures/gen.sh $(B)/fixtures
	@touch $@

fixtures: $(B)/fixtures/.stamp

# UBSan stops at the first report (-fno-sanitize-recover=all): a report that
# only prints lets the run, and make, succeed over undefined behaviour.
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all
comma := ,

# One fuzzer-instrumented library (coverage, ASan, UBSan) that every harness
# links, built once: each harness then compiles one file. Inputs go up to the
# real limits (a request body is 1 MiB), and an input that takes more than
# FUZZ_TIMEOUT seconds is a finding (libFuzzer's -timeout), as a crash is.
FUZZ_TIMEOUT ?= 10
FUZZ_MAX_LEN ?= 1048576
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(B)/fuzz/obj/%.o) $(B)/fuzz/obj/gen/catalog_data.o
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE) -fno-omit-frame-pointer \
	$(PKG_CFLAGS)

$(B)/fuzz/obj/src/lib/%.o: src/lib/%.c $(B)/FLAGS $(CLANG_HDRS)
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(B)/fuzz/obj/gen/catalog_data.o: $(B)/gen/catalog_data.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(B)/fuzz/libnicfit.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	$(Q_AR)ar rcs $@ $^

fuzz: $(B)/gen/catalog_data.c $(B)/gen/assets_data.c $(B)/gen/nicfit_sonames.h $(B)/gen/pciids_table.h $(B)/gen/intel_table.h
	@command -v clang >/dev/null || { echo "make fuzz needs clang" >&2; exit 69; }
	@$(MAKE) --no-print-directory $(B)/fuzz/libnicfit.a
	@for f in $(if $(FUZZ_ONLY),$(patsubst %,tests/fuzz/fuzz_%.c,$(subst $(comma), ,$(FUZZ_ONLY))),$(FUZZ_SRC)); do \
		n=$$(basename $$f .c); \
		x=; { [ $$n = fuzz_http ] || [ $$n = fuzz_page ]; } && x="-Isrc/serve $(FUZZ_SERVE_SRC)"; \
		[ $$n = fuzz_cli ] && x="-Isrc/serve $(FUZZ_CLI_SRC)"; \
		clang -std=c11 -g -O1 -fsanitize=fuzzer $(FUZZ_SANITIZE) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) \
			$(PKG_CFLAGS) -o $(B)/fuzz/$$n $$f $$x $(B)/fuzz/libnicfit.a $(LIBS) $(JANSSON_LIBS) || exit 1; \
		mkdir -p $(B)/fuzz/corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		$(B)/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
			-timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=4096 -print_final_stats=1 \
			$(B)/fuzz/corpus-$$n tests/fuzz/corpus/$${n#fuzz_} || exit 1; \
	done

bench: all
	@scripts/deps.sh bench
	@NICFIT=$(B)/nicfit sh bench/run.sh

# The catalog is embedded in the binary and the library, so no copy of
# data/ is installed: nothing would read it (overlays are given with --catalog).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PREFIX)/include/nicfit \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(PREFIX)/share/zsh/vendor-completions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(B)/nicfit $(DESTDIR)$(PREFIX)/bin/nicfit
	install -m 644 $(B)/libnicfit.a $(DESTDIR)$(LIBDIR)/libnicfit.a
	install -m 644 $(B)/libnicfit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libnicfit.so.$(VERSION)
	ln -sf libnicfit.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libnicfit.so
	install -m 644 include/nicfit/*.h $(DESTDIR)$(PREFIX)/include/nicfit/
	install -m 644 docs/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 scripts/nicfit.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/nicfit
	install -m 644 scripts/_nicfit $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_nicfit
	install -m 644 scripts/nicfit.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/nicfit.fish
	install -d $(DESTDIR)$(PREFIX)/share/doc/nicfit/examples
	install -m 644 scripts/nhc/nicfit.nhc $(DESTDIR)$(PREFIX)/share/doc/nicfit/examples/nicfit.nhc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		scripts/nicfit.pc.in \
		>$(DESTDIR)$(LIBDIR)/pkgconfig/nicfit.pc

# The Debian packages, built from a copy of the tree (dpkg-buildpackage writes
# beside the source, which would be outside this tree): $(B)/deb/*.deb.
deb:
	@scripts/deps.sh deb
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || \
		{ echo "make deb needs dpkg-dev and debhelper (scripts/deps.sh deb)" >&2; exit 69; }
	rm -rf $(B)/deb && mkdir -p $(B)/deb/nicfit-$(VERSION)
	tar -c --exclude=./.git --exclude='./build*' --exclude=./$(B) . | tar -x -C $(B)/deb/nicfit-$(VERSION)
	cd $(B)/deb/nicfit-$(VERSION) && dpkg-buildpackage -us -uc -b

check-deb:
	@$(MAKE) --no-print-directory deb
	@sh tests/check-deb.sh $(B)/deb

# The completion scripts are generated from the option tables (src/cli/options.c);
# tests/suites/options.sh fails when the committed ones are out of date.
completions: $(B)/nicfit
	$(B)/nicfit completion bash >scripts/nicfit.bash
	$(B)/nicfit completion zsh >scripts/_nicfit
	$(B)/nicfit completion fish >scripts/nicfit.fish

clean:
	rm -rf $(B)

FORCE:
.PHONY: all run check tests fixtures fuzz bench install completions clean deps deps-check deb check-deb FORCE

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
