# nicfit - plain Makefile, in the manner of git and Redis.
#
#   make                 build/nicfit and build/libnicfit.a
#   make run             install missing Debian packages, build, plan the article's case
#   make check           install missing packages, build, run the whole test suite
#   make check SANITIZE=1   the same under ASan + UBSan
#   make fuzz            run the libFuzzer harnesses (clang) for FUZZ_SECONDS each
#   make bench           benchmarks against peers (lstopo, nginx), printing ratios
#   make install PREFIX=/usr/local
#
# WERROR=1 turns warnings into errors (CI sets it).

CC ?= cc
PREFIX ?= /usr/local
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
# libarchive and libmicrohttpd are opened at run time, when snapshot archives
# or serve need them (src/lib/dynlib.c): only their headers are used here.
PKGS := jansson libmicrohttpd libarchive
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -ldl -lpthread

BASE_CFLAGS := -std=c11 -O2 -g $(WARN) -fno-common
ifeq ($(SANITIZE),1)
BASE_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_LDFLAGS := -fsanitize=address,undefined
endif
ALL_CPPFLAGS := -Iinclude -I$(B)/gen -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-include src/lib/banned.h $(CPPFLAGS)
ALL_CFLAGS := $(BASE_CFLAGS) $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SAN_LDFLAGS) $(LDFLAGS)
LIBS := $(PKG_LIBS) -lm

LIB_SRC := $(sort $(wildcard src/lib/*.c src/lib/*/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
SERVE_SRC := $(sort $(wildcard src/serve/*.c))
DATA := $(sort $(wildcard data/*.json))
ASSETS := $(sort $(wildcard src/serve/assets/*))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/catalog_data.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o) $(SERVE_SRC:%.c=$(B)/%.o) \
	$(if $(ASSETS),$(B)/gen/assets_data.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(B)/tests/%)

all: $(B)/nicfit $(B)/libnicfit.a

# Rebuild everything when the flags change (git's GIT-CFLAGS trick).
FLAGS_NOW := $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS)
$(B)/FLAGS: FORCE
	@mkdir -p $(B)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_NOW)' ]; then echo '$(FLAGS_NOW)' >$@; fi

# The library's own files (and the tests of its internals) see src/lib and its
# private headers; the CLI and the server are compiled as clients would be.
LIB_CPPFLAGS := -Isrc/lib -DNICFIT_BUILDING_LIBRARY

$(B)/src/lib/%.o: src/lib/%.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/%.o: %.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -o $@ $<

$(B)/gen/catalog_data.c: $(DATA) $(B)/tools/embed
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/embed nicfit_blob nicfit_catalog_blobs embedded_int.h $@ $(DATA)

$(B)/gen/assets_data.c: $(ASSETS) $(B)/tools/embed
	@mkdir -p $(dir $@)
	$(Q_GEN)$(B)/tools/embed nicfit_asset nicfit_asset_blobs assets.h $@ $(ASSETS)

$(B)/gen/catalog_data.o: $(B)/gen/catalog_data.c $(B)/FLAGS
	$(Q_CC)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/gen/assets_data.o: $(B)/gen/assets_data.c $(B)/FLAGS
	$(Q_CC)$(CC) -Isrc/serve $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libnicfit.a: $(LIB_OBJ)
	@rm -f $@
	$(Q_AR)ar rcs $@ $^

$(B)/nicfit: $(CLI_OBJ) $(B)/libnicfit.a
	$(Q_LD)$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libnicfit.a $(LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libnicfit.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) -Itests/unit $(ALL_CFLAGS) -Wno-missing-prototypes $(ALL_LDFLAGS) \
		-o $@ $< $(B)/libnicfit.a $(LIBS) -lcmocka -larchive

# The harnesses that drive the server's request layer link these files of
# src/serve/ besides the library (they need no socket and no libmicrohttpd).
FUZZ_SERVE_SRC := src/serve/http.c src/serve/api.c src/serve/reply.c src/serve/mhd.c \
	src/serve/assets.c src/serve/page.c $(B)/gen/assets_data.c
fuzz_extra = $(if $(filter http page,$(1)),-Isrc/serve $(FUZZ_SERVE_SRC))

# Fuzz harnesses built as plain programs that replay their corpus.
$(B)/tests/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(B)/libnicfit.a $(FUZZ_SERVE_SRC)
	@mkdir -p $(dir $@)
	$(Q_LD)$(CC) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -Wno-missing-prototypes $(ALL_LDFLAGS) \
		-o $@ $< $(call fuzz_extra,$*) tests/fuzz/replay.c $(B)/libnicfit.a $(LIBS)

# Under SANITIZE=1, the corpora are also replayed by harnesses built with
# clang when it is installed: gcc's UBSan lacks checks clang has (a null
# pointer plus zero, for one). tests/run.sh replays $(B)/clang/fuzz_*.
CLANG := $(shell command -v clang 2>/dev/null)
CLANG_LIB_OBJ := $(LIB_SRC:%.c=$(B)/clang/%.o) $(B)/clang/gen/catalog_data.o
CLANG_FUZZ_BIN := $(if $(CLANG),$(FUZZ_SRC:tests/fuzz/%.c=$(B)/clang/%))
CLANG_CFLAGS := -std=c11 -O1 -g $(FUZZ_SANITIZE) -fno-omit-frame-pointer $(PKG_CFLAGS)

$(B)/clang/src/lib/%.o: src/lib/%.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

$(B)/clang/gen/catalog_data.o: $(B)/gen/catalog_data.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(Q_CC)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

$(B)/clang/libnicfit.a: $(CLANG_LIB_OBJ)
	@rm -f $@
	$(Q_AR)ar rcs $@ $^

$(B)/clang/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(B)/clang/libnicfit.a $(FUZZ_SERVE_SRC)
	$(Q_LD)clang $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) $(CLANG_CFLAGS) -fsanitize=address,undefined \
		-o $@ $< $(call fuzz_extra,$*) tests/fuzz/replay.c $(B)/clang/libnicfit.a $(LIBS)

# The table of finding codes users read, generated from the registry
# (src/lib/finding_codes.def and src/lib/*/*_codes.def); test_finding checks it.
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

check: deps-check
	@$(MAKE) --no-print-directory all tests
	@NICFIT=$(B)/nicfit BUILD=$(B) SANITIZE=$(SANITIZE) sh tests/run.sh

tests: $(UNIT_BIN) $(FUZZ_BIN) $(B)/fixtures/.stamp $(if $(filter 1,$(SANITIZE)),$(CLANG_FUZZ_BIN))

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

fuzz: $(B)/gen/catalog_data.c $(B)/gen/assets_data.c
	@command -v clang >/dev/null || { echo "make fuzz needs clang" >&2; exit 69; }
	@mkdir -p $(B)/fuzz
	@for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		x=; { [ $$n = fuzz_http ] || [ $$n = fuzz_page ]; } && x="-Isrc/serve $(FUZZ_SERVE_SRC)"; \
		clang -std=c11 -g -O1 -fsanitize=fuzzer $(FUZZ_SANITIZE) $(LIB_CPPFLAGS) $(ALL_CPPFLAGS) \
			$(PKG_CFLAGS) -o $(B)/fuzz/$$n $$f $$x $(LIB_SRC) $(B)/gen/catalog_data.c $(LIBS) || exit 1; \
		mkdir -p $(B)/fuzz/corpus-$$n; \
		echo "fuzz: $$n for $(FUZZ_SECONDS) s"; \
		$(B)/fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			$(B)/fuzz/corpus-$$n tests/fuzz/corpus/$${n#fuzz_} || exit 1; \
	done

bench: all
	@scripts/deps.sh bench
	@NICFIT=$(B)/nicfit sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/nicfit \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/nicfit \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(B)/nicfit $(DESTDIR)$(PREFIX)/bin/nicfit
	install -m 644 $(B)/libnicfit.a $(DESTDIR)$(PREFIX)/lib/libnicfit.a
	install -m 644 include/nicfit/*.h $(DESTDIR)$(PREFIX)/include/nicfit/
	install -m 644 docs/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(DATA) $(DESTDIR)$(PREFIX)/share/nicfit/
	install -m 644 scripts/nicfit.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/nicfit
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/nicfit.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/nicfit.pc

clean:
	rm -rf $(B)

FORCE:
.PHONY: all run check tests fixtures fuzz bench install clean deps deps-check FORCE

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
