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
from importlib.machinery import SourceFileLoader

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CFGS = ["norps-threads", "rps-threads", "rt-rps", "norps", "rps"]
OBJECTS = ("kernel-rt-rps rt-rps\nkernel-rps rps\nkernel-rps rps-threads\n"
           "kernel-norps norps-threads\nkernel-norps norps\n")


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
    # A configuration's own steps: that configuration only.
    assert br.target_configs("suites-rps-threads", CFGS, shared) == \
        ["rps-threads"]
    assert br.target_configs("CMakeFiles/sim-rps.dir/sim.c.o", CFGS,
                             shared) == ["rps"]
    assert br.target_configs("gen/extract.stamp", CFGS, shared) == []


def test_one_unit_per_configuration_without_the_list(tmp_path):
    br = build_report()
    shared = br.kernel_objects(str(tmp_path))
    assert shared == {}
    assert br.target_configs("CMakeFiles/kernel-rps-threads.dir/gen/"
                             "extracted/all.c.o", CFGS, shared) == \
        ["rps-threads"]
