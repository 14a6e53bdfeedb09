# hetlaunch -- plain Makefile (C11, pkg-config, -MMD -MP).
#
#   make                  bin/hetlaunch and lib/libvproc.so
#   make check            build and run every test (installs missing packages)
#   make VARIANT=san check   the same under AddressSanitizer and UBSan
#   make bench            planner benchmarks
#   make run              set up and run the main job on the emulated default
#   make install PREFIX=/usr/local
#   make V=1              show the commands

VARIANT ?= release
PREFIX  ?= /usr/local
DESTDIR ?=

CC      ?= cc
PKG_CONFIG ?= pkg-config

ifeq ($(V),1)
Q :=
else
Q := @
endif

# Dependencies by pkg-config name.  mpich and scalapack-mpich are the MPI and
# ScaLAPACK the launcher targets (the runtime preload builds against them);
# yaml-0.1 parses machine lists.  Queried lazily: `make deps` must work
# before they are installed.
YAML_CFLAGS   = $(shell $(PKG_CONFIG) --cflags yaml-0.1 2>/dev/null)
YAML_LIBS     = $(shell $(PKG_CONFIG) --libs yaml-0.1 2>/dev/null || echo -lyaml)
MPICH_CFLAGS  = $(shell $(PKG_CONFIG) --cflags mpich 2>/dev/null)
MPICH_LIBS    = $(shell $(PKG_CONFIG) --libs mpich 2>/dev/null)
SCALAPACK_LIBS = $(shell $(PKG_CONFIG) --libs scalapack-mpich 2>/dev/null)
# vproc uses LAPACK dgesvd (000 s4.3.4): the reference LAPACK and BLAS.
LAPACK_LIBS   = $(shell $(PKG_CONFIG) --libs lapack 2>/dev/null || echo -llapack -lblas)
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wconversion -Wno-sign-conversion -Werror=implicit-function-declaration
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
CFLAGS  ?= -O2 -g
ifeq ($(VARIANT),san)
CFLAGS  += -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
OUT     := build/san
else ifeq ($(VARIANT),release)
OUT     := .
else
$(error VARIANT must be release or san, not '$(VARIANT)')
endif
OBJ     := build/$(VARIANT)

BIN       := $(OUT)/bin/hetlaunch
LIBVPROC  := $(OUT)/lib/libvproc.so
LIBVPROC_A := $(OBJ)/libvproc.a

VPROC_SRC    := $(wildcard vproc/*.c)
LAUNCHER_SRC := $(wildcard launcher/*.c)
TEST_SRC     := $(wildcard tests/test_*.c)
BENCH_SRC    := $(wildcard tests/bench_*.c)

VPROC_OBJ    := $(VPROC_SRC:%.c=$(OBJ)/%.o)
LAUNCHER_OBJ := $(LAUNCHER_SRC:%.c=$(OBJ)/%.o)
TEST_BIN     := $(TEST_SRC:tests/%.c=$(OBJ)/tests/%)
BENCH_BIN    := $(BENCH_SRC:tests/%.c=$(OBJ)/tests/%)

.SECONDARY:
.PHONY: all deps check unit cli bench run install uninstall clean
.DEFAULT_GOAL := all

all: $(BIN) $(LIBVPROC)

deps:
	$(Q)scripts/install-deps

# --- libvproc: position-independent objects, one .so and one .a ----------
$(OBJ)/vproc/%.o: vproc/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -fvisibility=default -Ivproc -MMD -MP -c $< -o $@

$(LIBVPROC): $(VPROC_OBJ)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libvproc.so $(LDFLAGS) -o $@ $^ $(LAPACK_LIBS) -lm

$(LIBVPROC_A): $(VPROC_OBJ)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# --- the hetlaunch tool: links libvproc statically, so it runs from anywhere
$(OBJ)/launcher/%.o: launcher/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CSTD) $(WARN) $(CFLAGS) $(YAML_CFLAGS) -Ivproc -Ilauncher -MMD -MP -c $< -o $@

$(BIN): $(LAUNCHER_OBJ) $(LIBVPROC_A)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(LAUNCHER_OBJ) $(LIBVPROC_A) $(YAML_LIBS) $(LAPACK_LIBS) -lm

# --- tests ----------------------------------------------------------------
$(OBJ)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CSTD) $(WARN) -Wno-missing-prototypes $(CFLAGS) $(CMOCKA_CFLAGS) -Ivproc -Itests -MMD -MP -c $< -o $@

$(OBJ)/tests/%: $(OBJ)/tests/%.o $(LIBVPROC_A)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(LIBVPROC_A) $(CMOCKA_LIBS) $(LAPACK_LIBS) -lm

# `make check` installs what is missing first, so that it works on a fresh
# machine; the build itself then runs in a sub-make that sees the packages.
check: deps
	$(Q)$(MAKE) --no-print-directory unit cli

unit: $(TEST_BIN)
	$(Q)fail=0; for t in $(TEST_BIN); do echo "== $$t"; $$t || fail=1; done; exit $$fail

cli: $(BIN)
	$(Q)HETLAUNCH=$(BIN) tests/cli_test.sh

bench: $(BENCH_BIN)
	$(Q)for b in $(BENCH_BIN); do $$b; done

# The main job.  Until the launcher (run) lands, the main job is the plan of
# the paper's lhpc platform (002 Table 5).
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BIN) plan configs/lhpc-lu.yaml

# --- install --------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	           $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/hetlaunch/configs
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/hetlaunch
	install -m 755 $(LIBVPROC) $(DESTDIR)$(PREFIX)/lib/libvproc.so
	install -m 644 man/hetlaunch.1 $(DESTDIR)$(PREFIX)/share/man/man1/hetlaunch.1
	install -m 644 configs/*.yaml $(DESTDIR)$(PREFIX)/share/hetlaunch/configs/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/hetlaunch $(DESTDIR)$(PREFIX)/lib/libvproc.so \
	      $(DESTDIR)$(PREFIX)/share/man/man1/hetlaunch.1
	rm -rf $(DESTDIR)$(PREFIX)/share/hetlaunch

clean:
	rm -rf build bin lib

-include $(VPROC_OBJ:.o=.d) $(LAUNCHER_OBJ:.o=.d) $(TEST_SRC:tests/%.c=$(OBJ)/tests/%.d) \
         $(BENCH_SRC:tests/%.c=$(OBJ)/tests/%.d)
