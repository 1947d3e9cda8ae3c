# gpuplan — build, test and install.
#
#   make run      install missing build dependencies (as root), build, open the TUI
#   make check    build and run every test
#   make asan     the test suite under -fsanitize=address,undefined
#   make bench    the benchmarks of bench/ (not part of check)
#   make fuzz     the libFuzzer harnesses of tests/fuzz/, FUZZ_TIME seconds each
#   make install  PREFIX=/usr/local DESTDIR= (binary, man page, sample data)
#
# Objects go to $(B) (build/ or build-asan/); the program is ./gpuplan.

VERSION  := 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   := $(PREFIX)/bin
MANDIR   := $(PREFIX)/share/man/man1
DATADIR  := $(PREFIX)/share/gpuplan

B        ?= build
CC       ?= cc
OPT      ?= -O2 -g
SAN      ?=

# Debian packages the build and the tests need; `make deps` installs the
# missing ones when run as root.  (pkg-config finds ncursesw, sqlite3, cairo,
# fontconfig, jansson, fann and cmocka; GLPK and libcsv ship no .pc file, so they are
# linked by name.)
DEB_PKGS := gcc libc6-dev make pkg-config libncurses-dev libsqlite3-dev libglpk-dev \
            glpk-utils libcmocka-dev libjansson-dev libcsv-dev libfann-dev tmux sqlite3 \
            ncurses-term libcairo2-dev libfontconfig-dev parallel locales
PC_LIBS  := ncursesw sqlite3 jansson fann cairo fontconfig

# -Wformat-truncation is off: snprintf into fixed display and message
# buffers truncates on purpose.
WARN     := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wno-format-truncation
DEFS     := -DGP_VERSION='"$(VERSION)"'
ENG_DEFS := -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=700
# One include root per top-level folder: engine headers are named by their
# layer ("core/model.h", "sim/sim.h"), store and UI headers by theirs
# ("db/store.h", "ui/app.h").
INCS     := -I. -Isrc
PC_CFLAGS = $(shell pkg-config --cflags sqlite3 jansson fann cairo fontconfig 2>/dev/null)
UI_CFLAGS = $(shell pkg-config --cflags ncursesw 2>/dev/null) -D_XOPEN_SOURCE_EXTENDED
CFLAGS_ALL = $(WARN) $(OPT) $(SAN) $(DEFS) $(INCS) $(CFLAGS)
LIBS      = $(shell pkg-config --libs $(PC_LIBS) 2>/dev/null) -lglpk -lcsv -lm -pthread
TEST_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

# The engine is every folder of src/ (one per layer) plus the store.
ENGINE_SRC := $(wildcard src/*/*.c) $(wildcard db/*.c)
UI_SRC     := $(filter-out ui/main.c,$(wildcard ui/*.c))
TEST_SRC   := $(wildcard tests/test_*.c)
BENCH_SRC  := $(wildcard bench/bench_*.c)

ENGINE_OBJ := $(patsubst %.c,$(B)/%.o,$(ENGINE_SRC)) $(B)/schema_sql.o
UI_OBJ     := $(patsubst %.c,$(B)/%.o,$(UI_SRC))
TEST_BIN   := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRC))
BENCH_BIN  := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRC))
PROG       := $(if $(filter build,$(B)),gpuplan,$(B)/gpuplan)

.PHONY: all run check asan bench install uninstall clean deps deb-packages tests \
        fuzz fuzz-build fuzz-deb-packages

all: $(PROG)

$(PROG): $(B)/ui/main.o $(B)/libgpuplan.a $(B)/libgpuplan-ui.a
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(B)/libgpuplan.a $(LIBS) $(LDFLAGS)

$(B)/libgpuplan.a: $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/libgpuplan-ui.a: $(UI_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ENG_DEFS) $(PC_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/db/%.o: db/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ENG_DEFS) $(PC_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/ui/%.o: ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(UI_CFLAGS) -MMD -MP -c -o $@ $<

# db/schema.sql compiled in as a C string, so the binary needs no data file
# to create a database.
$(B)/schema_sql.c: db/schema.sql
	@mkdir -p $(@D)
	{ echo 'const char store_schema_sql[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@

$(B)/schema_sql.o: $(B)/schema_sql.c
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(B)/tests/%: tests/%.c $(B)/libgpuplan.a $(B)/libgpuplan-ui.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ENG_DEFS) $(PC_CFLAGS) -MMD -MP -o $@ $< \
	    $(B)/libgpuplan-ui.a $(B)/libgpuplan.a $(TEST_LIBS) $(LIBS)

$(B)/bench/%: bench/%.c $(B)/libgpuplan.a $(B)/libgpuplan-ui.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ENG_DEFS) $(PC_CFLAGS) -o $@ $< \
	    $(B)/libgpuplan-ui.a $(B)/libgpuplan.a $(LIBS)

# The benchmarks are built with the tests (not run), so they never stop compiling.
tests: $(PROG) $(TEST_BIN) $(BENCH_BIN)

# --- the two README commands -------------------------------------------

run: deps
	@$(MAKE) --no-print-directory all
	./gpuplan

check: deps
	@$(MAKE) --no-print-directory tests
	@tests/run.sh $(B) ./$(PROG)

# The sanitizers look for memory and undefined behaviour, not for crash
# statistics: the crash test kills each command twice here (make check
# kills six times).
asan:
	@$(MAKE) --no-print-directory B=build-asan OPT='-O1 -g -fno-omit-frame-pointer' \
	    SAN='-fsanitize=address,undefined -fno-sanitize-recover=all' tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	 CRASH_KILLS=$${CRASH_KILLS:-2} CRASH_TRAIN_KILLS=$${CRASH_TRAIN_KILLS:-1} \
	 tests/run.sh build-asan ./build-asan/gpuplan

bench: all $(BENCH_BIN)
	@bench/run.sh $(B)

# --- fuzzing -------------------------------------------------------------
# libFuzzer needs clang: the engine is built again in build-fuzz/ with
# coverage and sanitizers, each tests/fuzz/fuzz_*.c linked against it, and
# tests/fuzz/run.sh runs them FUZZ_JOBS at a time for FUZZ_TIME seconds
# each; findings go to build-fuzz/crashes/ and fail the target.  Warnings
# are gcc's business (-Werror there); clang's are shown, not fatal.
FUZZ_TIME ?= 60
FUZZ_JOBS ?= 2
FUZZ_CC   ?= clang
FUZZ_DEB_PKGS := clang libclang-rt-14-dev
FUZZ_WARN := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unknown-warning-option
FUZZ_SRC  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN  := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRC))

fuzz:
	@command -v $(lastword $(FUZZ_CC)) >/dev/null || \
	    { echo "make fuzz needs clang and libFuzzer: apt-get install $(FUZZ_DEB_PKGS)"; exit 1; }
	@$(MAKE) --no-print-directory B=build-fuzz CC='$(FUZZ_CC)' OPT='-O1 -g' WARN='$(FUZZ_WARN)' \
	    SAN='-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all' fuzz-build
	@tests/fuzz/run.sh build-fuzz $(FUZZ_TIME) $(FUZZ_JOBS)

fuzz-build: $(FUZZ_BIN)

$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/harness.c tests/fuzz/harness.h $(B)/libgpuplan.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer $(ENG_DEFS) $(PC_CFLAGS) -Itests/fuzz -o $@ $< \
	    tests/fuzz/harness.c $(B)/libgpuplan.a $(LIBS)

fuzz-deb-packages:
	@echo $(FUZZ_DEB_PKGS)

# Installs what is missing when root; otherwise prints the apt-get line.
deps:
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(DEB_PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
	      || missing="$$missing $$p"; \
	  done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "gpuplan needs:$$missing"; \
	    echo "run: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

deb-packages:
	@echo $(DEB_PKGS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DATADIR)/sample-data
	install -m 755 gpuplan $(DESTDIR)$(BINDIR)/gpuplan
	install -m 644 man/gpuplan.1 $(DESTDIR)$(MANDIR)/gpuplan.1
	cp -R sample-data/. $(DESTDIR)$(DATADIR)/sample-data/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpuplan $(DESTDIR)$(MANDIR)/gpuplan.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan build-fuzz gpuplan

-include $(shell find $(B) -name '*.d' 2>/dev/null)
