# SPDX-License-Identifier: GPL-2.0
#
# Thin wrapper: the work is done by kernel-src/ (trees, extraction), CMake
# (build), CTest (run), lcov (coverage) and kunit.py (KUnit).  make help
# lists the targets from their "##" comments and the options from the "##"
# lines below.
#
## KSRC=/path/linux    test that tree, as it is (never written to)
## TREE=base           another prepared variant (kernel-src/prepare-tree)
## SANITIZE=1          with ASan + UBSan
## SANITIZE=ubsan      with UBSan only (the fibers' setjmp path, which
##                     ASan's build replaces by swapcontext())
## LABEL=rt-rps        only the tests with that CTest label
## SERIES_PREFIX=N     with KSRC: pass when the tree fails exactly what
##                     prefix N of the series fails (auto: from its hunks;
##                     for git bisect run)
## SEED=N              make mutants: the mutants' seed
## JOBS=N              parallel jobs (default 2)
## LINK_EACH_SUITE=1   every suite linked on its own (CMakeLists.txt:
##                     NAPITEST_LINK_EACH_SUITE; default: one binary per
##                     configuration runs the suites but the explorer)
## KUNIT_KERNELS=rt    make kunit-smp / kunit-headline: only these x86_64
##                     kernels (default "rt preempt")
## HEADLINE_KERNELS=..  make kunit-headline: its kernels (default
##                     KUNIT_KERNELS, plus preempt+threads, the preempt
##                     kernel booted with thread_backlog_napi, with preempt)

# When make check began, before it reads anything (this parse resolves the
# tree, the configure step runs CMake): a file written after it may not be
# what the run built (CHECK_CACHED, run-suite --since).
CHECK_SINCE := $(if $(filter check check-all,$(MAKECMDGOALS)),$(shell date +%s%N))

TREE ?= patched
BUILD ?= build
SANITIZE ?= 0
COVERAGE ?= 0
LINK_EACH_SUITE ?= 0
JOBS ?= 2
KUNIT_KERNELS ?= rt preempt
HEADLINE_KERNELS ?= $(KUNIT_KERNELS) $(if $(filter preempt,$(KUNIT_KERNELS)),preempt+threads)
CTEST_ARGS ?=
# The variant a suite may key its expectation on (see CMakeLists.txt); with
# KSRC it is unknown unless given, e.g. VARIANT=seed-yield.
VARIANT ?= $(if $(KSRC),,$(TREE))
# Seed suites (unit/seed/<name>/, CMakeLists.txt): with the default tree
# (TREE=patched, no KSRC) each seed tree is prepared and its suites run in
# the same make check; SEEDS= leaves them out.
SEEDS ?= seed-rt-softirq seed-netpoll
# kbuild-check (CMakeLists.txt) builds KSRC, or the full tree of TREE; its
# O= trees and stamps are shared by every build dir under BUILD.
KBUILD_VARIANT := $(if $(KSRC),,$(TREE))
SEED_LIST := $(if $(KSRC),,$(if $(filter patched,$(TREE)),$(SEEDS)))

# A relative KSRC is taken from the directory make was invoked from, also
# with make -C (the shell's PWD); sub-makes inherit that directory.
NAPITEST_INVOKED_FROM ?= $(if $(filter /%,$(PWD)),$(PWD),$(CURDIR))
export NAPITEST_INVOKED_FROM
KSRC_ABS := $(if $(KSRC),$(abspath $(if $(filter /%,$(KSRC)),$(KSRC),$(NAPITEST_INVOKED_FROM)/$(KSRC))))

# The Python interpreter itself, resolved once and kept in BUILD/.python: a
# version manager's shim on PATH (pyenv's) costs some 0.7 s of CPU per
# start, more than everything else a warm make check does.  The shell
# scripts that start Python (ksrc-build-id, resolve-tree) get it as PYTHON.  -S: the tools
# use the standard library only, and a site-packages .pth can import a lot.
PYTHON_FILE := $(BUILD)/.python
PYTHON_EXE := $(if $(wildcard $(PYTHON_FILE)),$(wildcard $(file < $(PYTHON_FILE))))
ifeq ($(PYTHON_EXE),)
  PYTHON_EXE := $(shell mkdir -p '$(BUILD)' && python3 -c 'import sys; print(sys.executable)' | tee '$(PYTHON_FILE)')
endif
PYTHON := $(PYTHON_EXE) -S

ifdef KSRC
  # A build directory per tree content, kept by its path once seen
  # (kernel-src/ksrc-build-id): a fresh copy of a known tree is warm, and an
  # edit rebuilds what it changed.  The build names the tree by the link
  # BUILD_DIR/tree, which the configure step points at KSRC.
  KSRC_MAP := $(BUILD)/ksrc-paths/$(shell printf '%s' '$(KSRC_ABS)' | sha256sum | cut -c1-12)
  TREE_ID := $(if $(wildcard $(KSRC_MAP)),$(file < $(KSRC_MAP)),$(shell PYTHON='$(PYTHON_EXE)' kernel-src/ksrc-build-id '$(KSRC_ABS)' '$(BUILD)'))
else
  TREE_ID := $(TREE)
endif
ifeq ($(SANITIZE),1)
  TREE_ID := $(TREE_ID)-asan
endif
ifeq ($(SANITIZE),ubsan)
  TREE_ID := $(TREE_ID)-ubsan
endif
ifeq ($(COVERAGE),1)
  TREE_ID := $(TREE_ID)-cov
endif
BUILD_DIR := $(BUILD)/$(TREE_ID)
ONOFF = $(if $(filter 1,$(1)),ON,OFF)

# CTest labels (CMakeLists.txt): make check runs all but the expensive
# checks, make check-all everything; LABEL= picks a label.  With KSRC, the
# framework's self-tests (label self) run after the verdict on the tree and
# do not count in it.
EXPENSIVE := expensive
VERDICT_ARGS := $(if $(LABEL),-L '$(LABEL)',$(if $(KSRC),-LE '$(EXPENSIVE)|self',-LE '$(EXPENSIVE)'))

.PHONY: check check-all check-run check-all-run build configure tree clean help coverage results kunit \
	kunit-smp kunit-headline
.PHONY: explore series-check identity-check determinism-check stale-mtime-check
.PHONY: hunk-matrix mutants verdicts verdicts-upstream verdicts-headline lint FORCE

# CTest's summary, then the per-invariant summary (tools/verdict) read from
# CTest's JUnit file; the exit status is CTest's.  NAPITEST_CHECK_RUN names
# the run (kbuild-check keeps a view's failure for the other
# configurations' cases of the same run; no result is keyed on it).  With KSRC, the
# framework's self-tests run after the verdict on the tree.
# With SERIES_PREFIX=N (or auto: from the hunks the tree has), the exit
# status is the verdict's instead: does the tree fail exactly what prefix N
# of the series fails (unit/series-prefixes.txt)?
SERIES_PREFIX ?=
RUN_CTEST = cd $(BUILD_DIR) && rc=0; \
	NAPITEST_CHECK_RUN=$$(cat /proc/sys/kernel/random/uuid) \
	ctest --output-on-failure --no-tests=error -j$(JOBS) $(1) $(CTEST_ARGS) \
		--output-junit ctest-junit.xml --test-output-size-passed 65536 \
		|| rc=$$?; \
	$(PYTHON) '$(CURDIR)/tools/verdict' $(if $(SERIES_PREFIX),--prefix '$(SERIES_PREFIX)') \
		. ctest-junit.xml$(if $(SERIES_PREFIX),; rc=$$?)
SELF_TESTS = echo "Framework self-tests (not part of the verdict on $(KSRC_ABS)):"; \
	ctest -Q -j$(JOBS) -L self -LE '$(EXPENSIVE)' $(CTEST_ARGS) || \
	{ ctest --output-on-failure -L self -LE '$(EXPENSIVE)' $(CTEST_ARGS); rc=1; }

check: configure ## every suite in every configuration, explorer at bound 2, summary
	@$(call CHECK_CACHED,check)

check-all: configure ## also the expensive checks (CTest label expensive)
	@$(call CHECK_CACHED,check-all)

# What make check and make check-all run once built: the banner, CTest, the
# verdict (through CHECK_CACHED).
check-run: ## (internal) what make check runs once built (replayed when nothing changed)
	@cat '$(BANNER)'; $(call RUN_CTEST,$(VERDICT_ARGS)); \
	$(if $(KSRC),$(if $(LABEL),,$(SELF_TESTS);)) exit $$rc

check-all-run: ## (internal) the same for make check-all
	@cat '$(BANNER)'; $(call RUN_CTEST,); exit $$rc

# The banner (kernel-src/tree-info): what is tested, on every run; it also
# refuses a tree outside the supported versions.  Then every configuration
# that builds is built; one that does not is reported by its CTest case
# build:<cfg> (tools/build-report), and the others run.
BANNER := $(BUILD_DIR)/banner.txt
TREE_INFO = $(PYTHON) kernel-src/tree-info $(if $(KSRC),,--variant '$(TREE)') \
		"$$(cut -d' ' -f1 $(CONF_STAMP))"
# The build is ninja's (-k 0: every configuration that builds is built);
# only a failed build starts tools/build-report, which names why each
# configuration failed (a Python start and cmake --build's on every make
# check otherwise, some 0.1 s of CPU).
BUILD_OUT := $(BUILD_DIR)/build-output.txt
RUN_BUILD = rc=0; ninja -C '$(BUILD_DIR)' -j$(JOBS) --quiet -k 0 \
		>'$(BUILD_OUT)' 2>&1 || rc=$$?; \
	if [ $$rc = 0 ]; then rm -f '$(BUILD_DIR)'/build-failed/*; cat '$(BUILD_OUT)'; \
	else $(PYTHON) tools/build-report report '$(BUILD_DIR)' $$rc '$(BUILD_OUT)'; fi
build: configure ## build every configuration (a failing one is reported by CTest)
	@$(TREE_INFO)
	@$(RUN_BUILD)

# A warm make check with nothing changed starts neither CTest nor a test:
# tools/run-suite.c --check keeps the whole output of the last make check
# that passed (banner, CTest, verdict) with a key over everything its tests
# and its build depend on, and prints it again, saying so and from when,
# while that key is unchanged:
#   - the repository (every file, the build directories left out), the
#     build directory's executables (run-suite and every test binary),
#     build.ninja, CMakeCache.txt, CTestTestfile.cmake (each test's
#     command), the configure stamp and build-failed/;
#   - every file the build read outside them, as the last build recorded
#     it (ninja's dependency log: system headers and libraries), the tree
#     files the extraction read (its depfiles), the files the series'
#     patches touch and the tree's Makefile (CHECK_INPUTS, written before
#     the run), and kbuild-check's dependency lists;
#   - the Python interpreter, the environment, /etc/ld.so.cache and the
#     package database (tools/run-suite.c), and the make options below.
# A tree with a .git is never reused this way (its dirty state, which the
# banner reports, is not in the key).  Otherwise: the banner, the build
# (tools/build-report), then CTest and the verdict through run-suite
# --check, which keeps their output if they passed; every test's own result
# cache (tools/run-suite.c) still applies.  A failure is never kept, nor a
# run under make -i (which makes a failing check-run exit 0), nor a run
# during whose build an input was written (--since CHECK_SINCE: the key
# has the file as it is after the build, which may have read it before).
RUN_SUITE_BIN := $(abspath $(BUILD_DIR))/napitest-run-suite
CHECK_INPUTS := $(abspath $(BUILD_DIR))/results/check-inputs.txt
SHQ = '$(subst ','\'',$(1))'
CHECK_KEY = $(1)|$(CONF_KEY)|$(VERDICT_ARGS)|$(CTEST_ARGS)|$(SERIES_PREFIX)|$(EXPENSIVE)|$(PYTHON)
CHECK_KEY_ARGS = '$(abspath $(BUILD_DIR))' make-$(1) --check \
	--key $(call SHQ,$(CHECK_KEY)) \
	--input '$(CURDIR)' --exclude '$(abspath $(BUILD))' \
	--input-exec '$(abspath $(BUILD_DIR))' \
	$(foreach f,build.ninja CMakeCache.txt CTestTestfile.cmake build-failed \
		$(notdir $(CONF_STAMP)),--input '$(abspath $(BUILD_DIR))/$(f)') \
	--input '$(PYTHON_EXE)' --input-list '$(CHECK_INPUTS)' "$$@"
# The rest of the key's arguments, as the shell's "$@": read when the
# recipe runs, not when make parses the Makefile.  The first run at a tree
# path writes the configure stamp (which names the tree) after the parse,
# and a first run in a build directory the kbuild-deps lists: a key from
# the parse named no tree ("--never-if /": that run was never kept, so
# the next one ran everything again) or lacked the lists.
CHECK_KEY_MORE = set -- --never-if /; \
	tree=$$(cut -d' ' -f1 '$(CONF_STAMP)' 2>/dev/null) || tree=; \
	[ -z "$$tree" ] || set -- --never-if "$$tree/.git"; \
	for f in '$(abspath $(BUILD_DIR))'/results/kbuild-deps-*.txt; do \
		[ ! -f "$$f" ] || set -- "$$@" --input-list "$$f"; \
	done
# CHECK_INPUTS: ninja's dependency log, the extraction's depfiles, the
# series' files in the tree, the tree's Makefile; one path a line
# (napitest.check_inputs).
WRITE_CHECK_INPUTS = ninja -C $(BUILD_DIR) -t deps | \
	(cd kernel-src && $(PYTHON) -m napitest.check_inputs \
		--out '$(abspath $(CHECK_INPUTS))' --build-dir '$(abspath $(BUILD_DIR))' \
		--tree "$$(cut -d' ' -f1 '$(abspath $(CONF_STAMP))')" $(abspath \
		$(wildcard kernel-src/patches/*.patch kernel-src/patches/*/*.patch)))
# Under make -i the sub-make's failures are ignored and check-run exits 0,
# so such a run is neither kept nor answered from what was kept.
CHECK_KEEP := $(if $(findstring i,$(firstword -$(MAKEFLAGS))),,$(RUN_SUITE_BIN))
CHECK_CACHED = $(CHECK_KEY_MORE); \
	if [ -x '$(CHECK_KEEP)' ] && \
		'$(RUN_SUITE_BIN)' $(call CHECK_KEY_ARGS,$(1)) --replay-only -- \
		$(MAKE) --no-print-directory $(1)-run 2>/dev/null; then exit 0; fi; \
	$(TREE_INFO) >'$(BANNER)' 2>&1 || { cat '$(BANNER)'; exit 1; }; \
	{ $(RUN_BUILD); } || exit $$?; \
	mkdir -p '$(BUILD_DIR)/results' && $(WRITE_CHECK_INPUTS) || exit $$?; \
	if [ -x '$(CHECK_KEEP)' ]; then \
		'$(RUN_SUITE_BIN)' $(call CHECK_KEY_ARGS,$(1)) \
			$(if $(CHECK_SINCE),--since '$(CHECK_SINCE)') -- \
			$(MAKE) --no-print-directory $(1)-run; \
	else $(MAKE) --no-print-directory $(1)-run; fi

# Resolve (and, for a variant, prepare) the tree, then configure only if the
# build directory does not exist yet or was configured differently.  A stamp
# per configuration key skips all of it when nothing it reads changed (the
# trees it names still exist; ninja itself follows the tree's files).
CONF_KEY := $(KSRC_ABS)|$(TREE)|$(VARIANT)|$(SEED_LIST)|$(SANITIZE)|$(COVERAGE)|$(LINK_EACH_SUITE)
CONF_STAMP := $(BUILD_DIR)/.configured-$(shell printf '%s' '$(CONF_KEY)' | sha256sum | cut -c1-12)
CONF_TREES := $(if $(wildcard $(CONF_STAMP)),$(file < $(CONF_STAMP)))
CONF_GONE := $(strip $(foreach t,$(CONF_TREES),$(if $(wildcard $(t)/Makefile),,$(t))))
CONF_INPUTS := Makefile $(wildcard kernel-src/prepare-tree kernel-src/resolve-tree \
	kernel-src/trees.conf kernel-src/patches/* kernel-src/patches/*/*)

# make check: an input of the configure step written after make check
# began (its ctime after CHECK_SINCE) may not be what the step read, and
# make compares dates only: the stamp is dated at the epoch, so that the
# next run configures again (and run-suite keeps no result of this one).
# An input removed since counts as written.
CONF_WRITTEN_SINCE = for f in $(CONF_INPUTS); do \
		c=$$(stat -c %.9Z "$$f" 2>/dev/null | tr -d .); \
		if [ "$${c:-9000000000000000000}" -gt $(CHECK_SINCE) ]; then \
			touch -d @0 $(1); \
			echo "configure: $$f was written during this run: the next run configures again" >&2; \
			break; fi; \
	done
configure: $(CONF_STAMP) ## prepare the tree and configure the build directory
# (build/.python too: make writes it when it resolves the interpreter
# again, as it parses this file, and CMake then takes the new one; not one
# of CONF_INPUTS, which may not change during a run)
$(CONF_STAMP): $(CONF_INPUTS) $(PYTHON_FILE) $(if $(CONF_GONE),FORCE)
	@set -e; \
	tree=$$(PYTHON='$(PYTHON_EXE)' kernel-src/resolve-tree '$(KSRC_ABS)' '$(TREE)'); \
	trees=$$tree; seeds=; for s in $(SEED_LIST); do \
		p=$$(PYTHON='$(PYTHON_EXE)' kernel-src/prepare-tree $$s); \
		seeds="$${seeds:+$$seeds;}$$s=$$p"; trees="$$trees $$p"; \
	done; \
	$(if $(KSRC),link='$(abspath $(BUILD_DIR))/tree'; \
	if [ "$$(readlink "$$link" 2>/dev/null)" != "$$tree" ]; then \
		mkdir -p $(BUILD_DIR); ln -sfn "$$tree" "$$link"; \
		rm -f $(BUILD_DIR)/gen/extract.stamp; \
	fi; tree=$$link;) \
	c=$(BUILD_DIR)/CMakeCache.txt; \
	if ! grep -qx "KSRC:PATH=$$tree" $$c 2>/dev/null || \
	   ! grep -qx "NAPITEST_VARIANT:STRING=$(VARIANT)" $$c || \
	   ! grep -qxF "NAPITEST_SEED_TREES:STRING=$$seeds" $$c || \
	   ! grep -qx "NAPITEST_KBUILD_VARIANT:STRING=$(KBUILD_VARIANT)" $$c || \
	   ! grep -qx "NAPITEST_LINK_EACH_SUITE:BOOL=$(call ONOFF,$(LINK_EACH_SUITE))" $$c || \
	   ! grep -qxF "NAPITEST_PYTHON3:INTERNAL=$(PYTHON_EXE)" $$c; then \
		cmake -S . -B $(BUILD_DIR) -G Ninja -DKSRC="$$tree" \
			-DPython3_EXECUTABLE='$(PYTHON_EXE)' \
			-DNAPITEST_KBUILD_VARIANT='$(KBUILD_VARIANT)' \
			-DNAPITEST_KBUILD_DIR='$(abspath $(BUILD))/kbuild' \
			-DNAPITEST_VARIANT='$(VARIANT)' \
			-DNAPITEST_SEED_TREES="$$seeds" \
			-DNAPITEST_SANITIZE=$(call ONOFF,$(SANITIZE)) \
			-DNAPITEST_SANITIZE_UNDEFINED=$(if $(filter ubsan,$(SANITIZE)),ON,OFF) \
			-DNAPITEST_COVERAGE=$(call ONOFF,$(COVERAGE)) \
			-DNAPITEST_LINK_EACH_SUITE=$(call ONOFF,$(LINK_EACH_SUITE)) >/dev/null; \
	fi; \
	rm -f $(BUILD_DIR)/.configured-*; echo "$$trees" >$@; \
	$(if $(CHECK_SINCE),$(call CONF_WRITTEN_SINCE,$@))

FORCE:

# Coverage: a gcov build of the whole matrix, its counters reset, the
# userspace suites run, then lcov/genhtml and the summary (coverage/).
coverage: ## gcov/lcov report on the tree's own lines
	@$(MAKE) --no-print-directory build COVERAGE=1
	@coverage/run '$(BUILD)/$(patsubst %-cov,%,$(TREE_ID))-cov' \
		"$$(PYTHON='$(PYTHON_EXE)' kernel-src/resolve-tree '$(KSRC_ABS)' '$(TREE)')" \
		'$(if $(KSRC),,$(if $(filter patched,$(TREE)),$$(PYTHON='$(PYTHON_EXE)' kernel-src/prepare-tree base)))'

# The interleaving explorer's scenarios (unit/explore_*.c) only.
explore: ## the interleaving explorer's scenarios only
	@$(MAKE) --no-print-directory check LABEL=explore

results: build ## KTAP and JUnit XML of the userspace suites
	@$(PYTHON) tools/results $(BUILD_DIR)

# KUnit under UML, then the differential check: the same scenarios'
# observables from the kernel and from the simulator (tools/differential).
kunit: build ## the KUnit suites under User-Mode Linux, then the differential check
	@kunit/run $(if $(KSRC),KSRC='$(KSRC_ABS)') >$(BUILD_DIR)/kunit.log 2>&1; \
		rc=$$?; cat $(BUILD_DIR)/kunit.log; [ $$rc = 0 ] || exit $$rc; \
		tools/differential $(BUILD_DIR)/kunit.log \
			$(BUILD_DIR)/differential-norps-threads

# Every KUnit suite in two x86_64 kernels under qemu -smp 2 (PREEMPT_RT and
# non-RT PREEMPT, lockdep and the atomic-sleep checks), splats fail the run.
kunit-smp: build ## every KUnit suite in PREEMPT_RT and PREEMPT x86_64 kernels under qemu -smp 2; splats fail
	@kunit/smp $(if $(KSRC),KSRC='$(KSRC_ABS)',--tree '$(TREE)') \
		--kernels '$(KUNIT_KERNELS)' --out '$(abspath $(BUILD_DIR))/kunit-smp' \
		--userspace '$(abspath $(BUILD_DIR))'

# The cover letter's headline (IPIs, post-flush WARN) in real kernels:
# base vs patched, RT and non-RT (the non-RT one also booted with
# thread_backlog_napi: kernel preempt+threads; kunit/headline).
kunit-headline: ## the cover letter's IPI/WARN headline in real kernels, base vs patched
	@kunit/headline --out '$(abspath $(BUILD))/kunit-smp' \
		--kernels '$(strip $(HEADLINE_KERNELS))' $(HEADLINE_ARGS)

# Every prefix of patches/series and series.as-posted: applies, kbuild of
# dev.o/skbuff.o (and a forced-RT compile-only view), failing invariants.
series-check: ## every prefix of the series: applies, builds, invariants
	@kernel-src/series-check --out '$(abspath $(BUILD))/series-check' $(SERIES_CHECK_ARGS)

# The cover letter's identity claims, against linux-source-6.12.
identity-check: ## the cover letter's identity claims against 6.12
	@kernel-src/identity-check --out '$(abspath $(BUILD))/identity-check' $(IDENTITY_CHECK_ARGS)

# Hunk guard matrix: each hunk of patches/series left out in turn, the unit
# suites run; mutation score of the manifest's functions; verdicts on the
# cover letter's claims (hunk-matrix/README.md).  Scratch: /var/tmp/napitest-hunks.
hunk-matrix: ## leave out each hunk of the series, run the suites
	@$(PYTHON) hunk-matrix/matrix.py $(HUNK_MATRIX_ARGS)

mutants: ## mutation score of the manifest's functions
	@$(PYTHON) hunk-matrix/mutants.py $(if $(SEED),--seed $(SEED)) $(MUTANTS_ARGS)

verdicts: ## verdicts on the cover letter's claims
	@$(PYTHON) hunk-matrix/verdicts.py

verdicts-upstream: ## only make verdicts' row of the backport against upstream
	@$(PYTHON) hunk-matrix/verdicts.py --upstream

verdicts-headline: ## only make verdicts' two headline rows, from make kunit-headline's table
	@$(PYTHON) hunk-matrix/verdicts.py --headline

# The explorer's scenarios and a slice of the hunk matrix, run quietly and
# under CPU load the check makes itself: the results must be identical.
determinism-check: build ## explorer + a hunk-matrix slice, quiet and under load
	@tools/determinism-check $(BUILD_DIR)

# A tree file given other content with an older mtime (cp -a of a mutant)
# is tested as it now is: make check and kbuild-check fail on it.
stale-mtime-check: ## a mutant older than the build is still tested (no mtime false green)
	@tools/stale-mtime-check --kunit '$(BUILD)'

# shellcheck, flake8, clang-format with the kernel's .clang-format and the
# tree's checkpatch.pl --strict on the KUnit code (tools/lint).
lint: ## shellcheck, flake8, clang-format, checkpatch, shim copies
	@tools/lint

tree: ## print the path of the tree under test
	@PYTHON='$(PYTHON_EXE)' kernel-src/resolve-tree '$(KSRC_ABS)' '$(TREE)'

clean: ## remove the build directories
	rm -rf $(BUILD)

help: ## this list
	@echo 'make TARGET [OPTION...]; targets:'
	@sed -n 's/^\([a-z-]*\):.*## \(.*\)/\1|\2/p' Makefile | \
		awk -F'|' '{ printf "  %-20s %s\n", $$1, $$2 }'
	@echo 'options:'
	@sed -n 's/^## /  /p' Makefile
