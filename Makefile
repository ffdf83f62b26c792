# SPDX-License-Identifier: GPL-2.0
#
# Thin wrapper: the work is done by kernel-src/ (trees, extraction), CMake
# (build) and CTest (run).
#
#   make check                    the default tree (patched)
#   make check KSRC=/path/linux   that tree, as it is (never written to)
#   make check TREE=base          another prepared variant (see kernel-src/)
#   make check SANITIZE=1         with ASan + UBSan
#   make check LABEL=rt-rps       only the tests with that CTest label

TREE ?= patched
BUILD ?= build
SANITIZE ?= 0
JOBS ?= 2
CTEST_ARGS ?=

ifdef KSRC
  # One build directory per tree path.
  TREE_ID := ksrc-$(shell printf '%s' '$(abspath $(KSRC))' | sha256sum | cut -c1-12)
else
  TREE_ID := $(TREE)
endif
ifeq ($(SANITIZE),1)
  TREE_ID := $(TREE_ID)-asan
endif
BUILD_DIR := $(BUILD)/$(TREE_ID)
LABEL_ARG := $(if $(LABEL),-L '$(LABEL)')

.PHONY: check build configure tree clean help

check: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS) $(LABEL_ARG) $(CTEST_ARGS)

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS) -- --quiet

# Resolve (and, for a variant, prepare) the tree, then configure only if the
# build directory does not exist yet or points at another tree.
configure:
	@set -e; \
	tree=$$(kernel-src/resolve-tree '$(KSRC)' '$(TREE)'); \
	if ! grep -qx "KSRC:PATH=$$tree" $(BUILD_DIR)/CMakeCache.txt 2>/dev/null; then \
		cmake -S . -B $(BUILD_DIR) -G Ninja -DKSRC="$$tree" \
			-DNAPITEST_SANITIZE=$(if $(filter 1,$(SANITIZE)),ON,OFF) >/dev/null; \
	fi

tree:
	@kernel-src/resolve-tree '$(KSRC)' '$(TREE)'

clean:
	rm -rf $(BUILD)

help:
	@sed -n '3,12p' Makefile
