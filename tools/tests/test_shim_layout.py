# SPDX-License-Identifier: GPL-2.0
"""shims/ along the kernel's files (shims/README.md, Rules): a shim file
over about 400 lines stands for one kernel file and its header says which
("Stands for <kernel path>"); the simulator's own files, which no kernel
file stands behind, stay under that.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LIMIT = 400
STANDS_FOR = re.compile(r"^[/ ]\* Stands for (?:the \S+ \S+ of )?"
                        r"(?:arch|include|kernel|lib|mm|net)/[\w/.-]+",
                        re.M)


def long_files_standing_for_nothing(top):
    """The shim files (shims/sim, shims/include) over LIMIT lines whose
    header (its first lines) names no kernel file they stand for."""
    out = []
    for sub in ("sim", "include"):
        for d, _, files in os.walk(os.path.join(top, "shims", sub)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                p = os.path.join(d, f)
                with open(p, encoding="utf-8") as fh:
                    text = fh.read()
                n = text.count("\n")
                head = "".join(text.splitlines(True)[:12])
                if n > LIMIT and not STANDS_FOR.search(head):
                    out.append(f"{os.path.relpath(p, top)}: {n} lines")
    return out


def test_long_shim_files_stand_for_one_kernel_file():
    assert long_files_standing_for_nothing(TOP) == []


def test_a_long_simulator_file_is_found(tmp_path):
    sim = tmp_path / "shims" / "sim"
    sim.mkdir(parents=True)
    body = "int x;\n" * (LIMIT + 1)
    (sim / "sim.c").write_text("/* The simulated machine. */\n" + body)
    (sim / "core.c").write_text("/*\n * Stands for kernel/sched/core.c: "
                                "tasks.\n */\n" + body)
    assert long_files_standing_for_nothing(str(tmp_path)) == \
        [f"shims/sim/sim.c: {LIMIT + 2} lines"]
