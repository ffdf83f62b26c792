# SPDX-License-Identifier: GPL-2.0
"""tools/build-report: which configurations a failed build step belongs
to.  The extracted code is compiled once per kernel configuration
(CMakeLists.txt, napitest_kernel_objects()): rps and rps-threads link
kernel-rps, so a unit of it that does not compile fails both, and
build:rps-threads must not pass on the binary of the last build.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import importlib.util
import os
import re
from importlib.machinery import SourceFileLoader

import pytest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CFGS = ["norps-threads", "rps-threads", "rt-rps", "norps", "rps"]
OBJECTS = ("kernel-rt-rps rt-rps\nsim-rt-rps rt-rps\n"
           "kernel-rps rps\nsim-rps rps\nsuites-rps rps\n"
           "kernel-rps rps-threads\nsim-rps rps-threads\n"
           "suites-rps rps-threads\n"
           "kernel-norps norps-threads\nsim-norps norps-threads\n"
           "kernel-norps norps\nsim-norps norps\n")


def build_report():
    loader = SourceFileLoader("build_report",
                              os.path.join(TOOLS, "build-report"))
    mod = importlib.util.module_from_spec(
        importlib.util.spec_from_loader("build_report", loader))
    loader.exec_module(mod)
    return mod


def test_a_shared_kernel_unit_fails_every_configuration_linking_it(tmp_path):
    br = build_report()
    (tmp_path / "napitest-kernel-objects.txt").write_text(OBJECTS)
    shared = br.kernel_objects(str(tmp_path))
    unit = "CMakeFiles/kernel-rps.dir/kernel-tu/net/core/dev.c.o"
    assert br.target_configs(unit, CFGS, shared) == ["rps", "rps-threads"]
    assert br.target_configs("CMakeFiles/kernel-norps.dir/kernel-tu/"
                             "tables.c.o", CFGS, shared) == \
        ["norps-threads", "norps"]
    # A configuration's own steps: that configuration only (its links).
    assert br.target_configs("suites-rps-threads", CFGS, shared) == \
        ["rps-threads"]
    # The binaries rps-threads runs are rps's.
    assert br.target_configs("suites-rps", CFGS, shared) == \
        ["rps", "rps-threads"]
    assert br.target_configs("CMakeFiles/suites-rps.dir/suites/limits.c.o",
                             CFGS, shared) == ["rps", "rps-threads"]
    # The simulator's library too (rps-threads links sim-rps).
    assert br.target_configs("CMakeFiles/sim-rps.dir/sim.c.o", CFGS,
                             shared) == ["rps", "rps-threads"]
    assert br.target_configs("CMakeFiles/sim-rt-rps.dir/sim.c.o", CFGS,
                             shared) == ["rt-rps"]
    assert br.target_configs("gen/extract.stamp", CFGS, shared) == []


def test_one_unit_per_configuration_without_the_list(tmp_path):
    br = build_report()
    shared = br.kernel_objects(str(tmp_path))
    assert shared == {}
    assert br.target_configs("CMakeFiles/kernel-rps-threads.dir/gen/"
                             "extracted/all.c.o", CFGS, shared) == \
        ["rps-threads"]


def test_report_names_each_configuration_of_a_failed_unit(tmp_path, capsys):
    """build-report report (make check runs ninja itself and this only on
    a failure): an error in kernel-rps's dev.c unit fails rps and
    rps-threads with the compiler's first error at the tree's file:line;
    the other configurations are not failed, and a passing build clears
    what the last one recorded."""
    br = build_report()
    tree = tmp_path / "tree"
    (tree / "net" / "core").mkdir(parents=True)
    (tmp_path / "CMakeCache.txt").write_text(f"KSRC:PATH={tree}\n")
    (tmp_path / "napitest-configs.txt").write_text("\n".join(CFGS) + "\n")
    (tmp_path / "napitest-kernel-objects.txt").write_text(OBJECTS)
    out = ("[1/3] Building C object CMakeFiles/kernel-rps.dir/kernel-tu/"
           "net/core/dev.c.o\n"
           "FAILED: CMakeFiles/kernel-rps.dir/kernel-tu/net/core/dev.c.o \n"
           "/usr/bin/cc -DCONFIG_RPS=1 -c kernel-tu/net/core/dev.c\n"
           f"{tree}/net/core/dev.c:6084:17: error: 'x' undeclared (first "
           "use in this function)\n"
           "ninja: build stopped: cannot make progress due to previous "
           "errors.\n")
    assert br.report(str(tmp_path), 1, out) == 0
    failed = tmp_path / "build-failed"
    assert sorted(os.listdir(failed)) == ["rps", "rps-threads"]
    for cfg in ("rps", "rps-threads"):
        assert (failed / cfg).read_text() == (
            f"{cfg}: build failed: net/core/dev.c:6084: error: 'x' "
            "undeclared (first use in this function)\n")
    assert "rps-threads: build failed" in capsys.readouterr().out
    assert br.report(str(tmp_path), 0, "") == 0
    assert os.listdir(failed) == []


def test_boot_parameter_configurations_share_the_simulator():
    # rps-threads and norps-threads differ from rps and norps by the boot
    # parameter thread_backlog_napi alone: they run those configurations'
    # binaries (by links named -threads), and compile and link nothing
    # of their own.  Read from the build that runs this (CTest's
    # tools-pytest names it).
    bdir = os.environ.get("NAPITEST_BUILD_DIR")
    if not bdir:
        pytest.skip("NAPITEST_BUILD_DIR unset: run through CTest")
    with open(os.path.join(bdir, "build.ninja")) as f:
        ninja = f.read()
    for cfg, lib in (("rps-threads", "rps"), ("norps-threads", "norps")):
        for t in ("sim", "support", "suites", "sim_checks", "explore_napi"):
            assert f"/{t}-{cfg}.dir/" not in ninja
            assert f"/{t}-{lib}.dir/" in ninja
        for t in ("suites", "sim_checks", "explore_napi"):
            assert re.search(rf"^build {t}-{cfg} .*: CUSTOM_COMMAND "
                             rf"{t}-{lib}\b", ninja, re.M)
    shared = build_report().kernel_objects(bdir)
    for t in ("sim", "suites", "explore_napi", "kernel"):
        assert shared[f"{t}-rps"] == ["rps", "rps-threads"]
        assert shared[f"{t}-norps"] == ["norps-threads", "norps"]
