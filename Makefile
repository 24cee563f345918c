# ptscope: kernel module (kbuild) + userland (ptscope, ptsynth, libptscope).
#
#   make                 userland, and kmod/ptscope.ko if kernel headers exist
#   make KDIR=/usr/src/linux-headers-X   module against a named tree
#   make check           every test that needs no VM
#   make check-vm        the QEMU suite (tests/vm)
#   make check-wsys      whole-system reference traces from QEMU logs (tests/wsys)
#   make bench           benchmarks (not part of check)
#   make fuzz            libFuzzer harnesses, FUZZ_SECONDS each (docs/fuzzing.md)
#   make sample          regenerate samples/ with the reference encoder
#   make install, uninstall, modules_install, install-dkms, man, deb
#                        packaging/install.mk, docs/packaging.md

CC      ?= gcc
CXX     ?= g++
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fno-strict-aliasing
# Calls into shared libraries through the GOT, without a PLT stub's jump:
# the decoder calls libipt twice per block (docs/performance.md).
CFLAGS  += -fno-plt
# No straight-line (SLP) vectorizing: at -O2 GCC packs neighbouring counters
# and fields into SSE loads and stores, which costs the decoder's block loop
# more instructions than the scalar ones (docs/performance.md).
CFLAGS  += -fno-tree-slp-vectorize
# Every function starts on a cache line (GCC's default for x86-64 is 16
# bytes): with 16, the decoder's -j 1 CPU time moved by up to 5 % when
# code linked before its hot loop grew or shrank, with the same
# instructions executed (docs/performance.md, "Code placement (twenty-first
# round)").
CFLAGS  += -falign-functions=64
CXXFLAGS ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -Iinclude -Iuserland/lib -Itools/ptsynth/lib
LDLIBS  += -lipt -lelf -ljson-c -lZydis -liberty -lz -lm -pthread
WERROR  ?= -Werror
CFLAGS  += $(WERROR)

B := build

LIB_SRCS        := $(sort $(wildcard userland/lib/*/*.c))
CLI_SRCS        := $(sort $(wildcard userland/cli/*.c))
SYNTH_LIB_SRCS  := $(sort $(wildcard tools/ptsynth/lib/*.c))
SYNTH_CLI_SRCS  := $(sort $(wildcard tools/ptsynth/cli/*.c))
UNIT_SRCS       := $(sort $(wildcard tests/unit/*.c))
# Host-testable module sources (pure C, see kmod/README.md).
KMOD_PURE_SRCS  := $(sort $(wildcard kmod/pure/*.c))
BENCH_SRCS      := $(sort $(wildcard tools/bench/*.c))

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))

LIB_OBJS       := $(call obj,$(LIB_SRCS))
# Generated at build time from the system headers (scripts/gen-sysnames.sh).
GEN_SYSNAMES   := $(B)/gen/sysnames.c
LIB_OBJS       += $(B)/obj/gen/sysnames.o
CLI_OBJS       := $(call obj,$(CLI_SRCS))
SYNTH_LIB_OBJS := $(call obj,$(SYNTH_LIB_SRCS))
SYNTH_CLI_OBJS := $(call obj,$(SYNTH_CLI_SRCS))
UNIT_OBJS      := $(call obj,$(UNIT_SRCS))
KMOD_PURE_OBJS := $(patsubst %.c,$(B)/obj/host/%.o,$(KMOD_PURE_SRCS))

PROGS :=
ifneq ($(CLI_SRCS),)
PROGS += $(B)/ptscope
endif
ifneq ($(SYNTH_CLI_SRCS),)
PROGS += $(B)/ptsynth
endif
# whole-system reference traces from QEMU logs (docs/whole-system-traces.md)
QTRACE_SRCS     := $(sort $(wildcard tools/qemu-trace/*.c))
ifneq ($(QTRACE_SRCS),)
PROGS += $(B)/qemu-trace
endif
# fxt validator for scripted checks: the tests' independent reader (docs/output-formats.md)
PROGS += $(B)/fxtcheck

.PHONY: all userland module module-clean check check-unit check-scripts check-vm check-wsys \
	bench bench-parallel sample clean static fuzz check-fuzz
all: userland module

userland: $(B)/libptscope.a $(PROGS)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# Module sources compiled for the host tests: PTS_HOST selects the shim.
$(B)/obj/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -DPTS_HOST -Ikmod $(CFLAGS) -MMD -MP -c -o $@ $<

# x86-64 syscall names from <asm/unistd_64.h> (userland/lib/util/sysnames.h)
$(GEN_SYSNAMES): scripts/gen-sysnames.sh
	@mkdir -p $(dir $@)
	sh scripts/gen-sysnames.sh "$(CC)" > $@.tmp && mv $@.tmp $@

$(B)/obj/gen/sysnames.o: $(GEN_SYSNAMES)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/libptscope.a: $(LIB_OBJS)
	@mkdir -p $(B)
	rm -f $@ && ar rcs $@ $^

$(B)/libptsynth.a: $(SYNTH_LIB_OBJS)
	@mkdir -p $(B)
	rm -f $@ && ar rcs $@ $^

$(B)/ptscope: $(CLI_OBJS) $(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(B)/libptscope.a $(LDFLAGS) $(LDLIBS)

$(B)/ptsynth: $(SYNTH_CLI_OBJS) $(B)/libptsynth.a $(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $(SYNTH_CLI_OBJS) $(B)/libptsynth.a $(B)/libptscope.a $(LDFLAGS) $(LDLIBS)

$(B)/qemu-trace: $(call obj,$(QTRACE_SRCS)) $(B)/libptsynth.a $(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $(call obj,$(QTRACE_SRCS)) $(B)/libptsynth.a $(B)/libptscope.a \
		$(LDFLAGS) $(LDLIBS)

$(B)/fxtcheck: $(call obj,tools/fxtcheck/fxtcheck.c tests/unit/fxt_reader.c)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lz

$(B)/unit-tests: $(UNIT_OBJS) $(KMOD_PURE_OBJS) $(B)/libptsynth.a $(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $(UNIT_OBJS) $(KMOD_PURE_OBJS) $(B)/libptsynth.a $(B)/libptscope.a \
		$(LDFLAGS) $(LDLIBS) -lcunit

# Capture-only static ptscope for the VM suite (make static): the capture
# side and the bundle writer, no decoder (libipt ships no static library);
# main.c's weak cmd_decode answers "decode not built". libelf.a needs zlib.
STATIC_CLI_SRCS := $(filter-out userland/cli/cmd_decode.c,$(CLI_SRCS))
STATIC_LIB_SRCS := $(sort $(wildcard userland/lib/capture/*.c userland/lib/bundle/*.c \
			userland/lib/util/*.c))
STATIC_LDLIBS   := -lelf -ljson-c -lz

static: $(B)/ptscope-static

$(B)/ptscope-static: $(call obj,$(STATIC_CLI_SRCS)) $(call obj,$(STATIC_LIB_SRCS))
	$(CC) $(CFLAGS) -static -o $@ $^ $(LDFLAGS) $(STATIC_LDLIBS)

# ---- kernel module ------------------------------------------------------
KRELEASE := $(shell uname -r)
ifeq ($(origin KDIR),undefined)
KDIR := $(wildcard /lib/modules/$(KRELEASE)/build)
endif

# A KDIR given on the command line that is no header tree is refused with
# the same explanation as missing headers, not with make's own errors.
module:
ifeq ($(strip $(KDIR)),)
	@echo "note: no kernel headers for the running kernel $(KRELEASE): kmod/ptscope.ko not built."
	@echo "      Install them (apt-get install linux-headers-$(KRELEASE)) or name a tree:"
	@echo "      make KDIR=/usr/src/linux-headers-<version>   (decoding needs no module)"
	@ls -d /usr/src/linux-headers-* 2>/dev/null | grep -v -- -common | sed 's/^/      installed: /' || true
else ifeq ($(wildcard $(KDIR)/Makefile),)
	@echo "error: KDIR=$(KDIR) is not a kernel header tree (it has no Makefile): kmod/ptscope.ko not built."
	@echo "       Install the headers (apt-get install linux-headers-<version>; for the running kernel"
	@echo "       linux-headers-$(KRELEASE)) and name their tree: make KDIR=/usr/src/linux-headers-<version>"
	@ls -d /usr/src/linux-headers-* 2>/dev/null | grep -v -- -common | sed 's/^/       installed: /' || true
	@exit 2
else
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
endif

module-clean:
ifneq ($(wildcard $(KDIR)/Makefile),)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
endif

# ---- tests ----------------------------------------------------------------
# scripts last: their final lines count every skip of make check (with check-unit's)
check: check-unit check-fuzz check-scripts

# The unit tests' last line (passed, failed, skipped and why) is kept in
# $(B)/unit-tests.last; check-scripts repeats it at the end of make check.
check-unit: $(B)/unit-tests userland
	@rm -f $(B)/unit-tests.last
	PTS_SRCDIR=$(CURDIR) PTS_UNIT_SUMMARY=$(B)/unit-tests.last $(B)/unit-tests

# Each tests/check.d/NN-*.sh is one scripted check (golden decodes,
# reference-encoder self-checks, perf cross-checks); run in order.
check-scripts: userland $(B)/unit-tests
	@PTS_UNIT_SUMMARY=$(B)/unit-tests.last PTS_CHECK_SKIPS=$(B)/check-skips.txt \
		bash tests/run-check-scripts.sh

# VM_ARGS: e.g. --serial (one kernel line at a time: no vCPU
# oversubscription on a 2-core host), --line 6.12, --break NAME.
check-vm: userland
	@bash tests/vm/run.sh $(VM_ARGS)

# Whole-system reference traces: boot a Debian kernel under QEMU, log a
# workload's execution, encode it in three scopes and check decodes.
check-wsys: userland
	@bash tests/wsys/run.sh

# Benchmark programs: each tools/bench/NAME.c is one program, build/bench-NAME
# (floor: the bare libipt block-decoder loop; gen: the synthetic trace
# generator; time: wall time + peak RSS of a child; pingpong: a cache
# line's round trip between two CPUs). The workload is the
# code image the generator walks (static, linked at 0x401000).
BENCH_PROGS := $(patsubst tools/bench/%.c,$(B)/bench-%,$(BENCH_SRCS))
.SECONDARY: $(call obj,$(BENCH_SRCS))

$(B)/bench-%: $(B)/obj/tools/bench/%.o $(B)/libptsynth.a $(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libptsynth.a $(B)/libptscope.a $(LDFLAGS) $(LDLIBS)

$(B)/bench-workload: tools/bench/workload.S
	@mkdir -p $(B)
	$(CC) -nostdlib -static -no-pie -o $@ $<

bench: userland $(BENCH_PROGS) $(B)/bench-workload
	@B=$(B) bash tools/bench/run.sh
	@B=$(B) bash tools/bench/threads.sh
	@B=$(B) bash tools/bench/parallel.sh

# parallel decode side by side only (tools/bench/parallel.sh, docs/performance.md)
bench-parallel: userland $(BENCH_PROGS) $(B)/bench-workload
	@B=$(B) bash tools/bench/parallel.sh

# ---- fuzzing (docs/fuzzing.md) -------------------------------------------
# One libFuzzer harness per input surface, tests/fuzz/fuzz_NAME.c, with its
# seeds in tests/fuzz/corpus/NAME. `make fuzz` builds them with clang,
# ASan and UBSan and runs each for FUZZ_SECONDS, FUZZ_JOBS at a time, on
# a copy of its seeds (new inputs stay in build/fuzz); `make check` replays
# the seeds through the same harnesses built with $(CC) and
# tests/fuzz/replay.c (no clang), and, where clang is, once through the
# sanitized harnesses (tests/check.d/68-fuzz-seeds-sanitized.sh).
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-fno-omit-frame-pointer
FUZZ_DEFS    := -DFUZZ_DATA='"$(CURDIR)/$(B)/fuzz-data"' \
		-DFUZZ_SAMPLE='"$(CURDIR)/samples/demo.ptscope"'
FB           := $(B)/fuzz
FUZZ_DATA    := $(B)/fuzz-data/user.elf $(B)/fuzz-data/kernel.elf $(B)/fuzz-data/spin.bin

# the programs the harnesses decode: the decoder tests' (test_decode_synth.c)
$(B)/fuzz-data/user.elf: tests/golden/decode/user.S
	@mkdir -p $(dir $@)
	as -o $@.o $< && ld -static -Ttext=0x401000 -e _start -o $@ $@.o && rm -f $@.o
$(B)/fuzz-data/kernel.elf: tests/golden/decode/kernel.S
	@mkdir -p $(dir $@)
	as -o $@.o $< && ld -static -Ttext=0xffffffff81000000 -e entry_SYSCALL_64 -o $@ $@.o \
		&& rm -f $@.o

# nop; jmp . (eb fe); ret: a loop that consumes no trace (docs/decode.md)
$(B)/fuzz-data/spin.bin:
	@mkdir -p $(dir $@)
	printf '\220\353\376\303' > $@

$(B)/obj/tests/fuzz/%.o: CPPFLAGS += $(FUZZ_DEFS)
$(B)/fuzz-replay-%: $(call obj,tests/fuzz/fuzz_%.c tests/fuzz/common.c tests/fuzz/folded_check.c \
		tests/fuzz/replay.c) \
		$(B)/libptscope.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

check-fuzz: $(FUZZ_NAMES:%=$(B)/fuzz-replay-%) $(FUZZ_DATA)
	@for n in $(FUZZ_NAMES); do \
		TMPDIR=$${TMPDIR:-/tmp} $(B)/fuzz-replay-$$n tests/fuzz/corpus/$$n || exit 1; done

$(FB)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_DEFS) -std=gnu11 -O1 -g $(FUZZ_SAN) \
		-fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FB)/fuzz-%: $(FB)/obj/tests/fuzz/fuzz_%.o $(FB)/obj/tests/fuzz/common.o \
		$(FB)/obj/tests/fuzz/folded_check.o \
		$(patsubst %.c,$(FB)/obj/%.o,$(LIB_SRCS) $(GEN_SYSNAMES))
	$(FUZZ_CC) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(LDFLAGS) $(LDLIBS)

.SECONDARY: $(patsubst %.c,$(FB)/obj/%.o,$(LIB_SRCS) $(GEN_SYSNAMES) $(wildcard tests/fuzz/*.c)) \
	$(call obj,$(wildcard tests/fuzz/*.c))

fuzz: $(FUZZ_NAMES:%=$(FB)/fuzz-%) $(FUZZ_DATA)
	@FB=$(FB) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) bash tests/fuzz/run.sh $(FUZZ_NAMES)

sample: userland
	@bash samples/regenerate.sh

clean:
	rm -rf $(B)

include packaging/install.mk

-include $(shell find $(B)/obj $(FB)/obj -name '*.d' 2>/dev/null)
