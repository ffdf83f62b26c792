# SPDX-License-Identifier: GPL-2.0
"""shims/ along the kernel's files (shims/README.md, Rules): a shim file
over about 400 lines stands for one kernel file, the one its own path
names (shims/sim/kernel/sched/core.c for kernel/sched/core.c,
shims/include/linux/list.h for include/linux/list.h), and its header says
which ("Stands for <kernel path>", that one path and no other); the
simulator's own files, which no kernel file stands behind, stay under
that.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LIMIT = 400
# The header's "Stands for" sentence: up to its first ": ", ". " or the
# end of the comment.
STANDS_FOR = re.compile(r"^[/ ]\* Stands for (?:the \S+ \S+ of )?(.*?)"
                        r"(?::\s|\.\s|\*/|$(?![\s\S]))", re.M | re.S)
KERNEL_PATH = re.compile(r"\b(?:arch|include|kernel|lib|mm|net)/[\w/.-]*\w")


def own_kernel_path(top, p):
    """The kernel file shim file p stands for by its path: its path under
    shims/sim/, or include/ and its path under shims/include/."""
    rel = os.path.relpath(p, os.path.join(top, "shims"))
    sub, rest = rel.split(os.sep, 1)
    return rest if sub == "sim" else "include/" + rest


def long_files_standing_for_nothing(top):
    """The shim files (shims/sim, shims/include) over LIMIT lines whose
    header (its first lines) does not name, alone, the kernel file their
    own path stands for."""
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
                if n <= LIMIT:
                    continue
                head = "".join(text.splitlines(True)[:12])
                m = STANDS_FOR.search(head)
                named = KERNEL_PATH.findall(m.group(1)) if m else []
                if named != [own_kernel_path(top, p)]:
                    out.append(f"{os.path.relpath(p, top)}: {n} lines, "
                               f"stands for {named or 'nothing'}")
    return out


def test_long_shim_files_stand_for_one_kernel_file():
    assert long_files_standing_for_nothing(TOP) == []


def test_a_long_file_must_stand_for_its_own_kernel_file(tmp_path):
    sim = tmp_path / "shims" / "sim"
    (sim / "kernel" / "sched").mkdir(parents=True)
    inc = tmp_path / "shims" / "include" / "linux"
    inc.mkdir(parents=True)
    body = "int x;\n" * (LIMIT + 1)
    n = LIMIT + 4
    (sim / "sim.c").write_text("/* The simulated machine. */\n" + body)
    (sim / "kernel" / "sched" / "core.c").write_text(
        "/*\n * Stands for kernel/sched/core.c: tasks.\n */\n" + body)
    (inc / "list.h").write_text(
        "/*\n * Stands for include/linux/list.h: the same doubly linked\n"
        " * list semantics (see also kernel/sched/core.c).\n */\n" + body)
    # several kernel files: not one
    (sim / "machine.c").write_text(
        "/*\n * Stands for kernel/softirq.c, kernel/smp.c, mm/percpu.c and "
        "the machine.\n */\n" + body)
    # one kernel file, not the one its path names
    (sim / "kernel" / "smp.c").write_text(
        "/*\n * Stands for kernel/softirq.c: the pending bits.\n */\n"
        + body)
    (inc / "skbuff.h").write_text(
        "/*\n * Stands for the sk_buff helpers of\n"
        " * include/linux/skbuff.h and net/core/skbuff.c.\n */\n" + body)
    assert sorted(long_files_standing_for_nothing(str(tmp_path))) == [
        f"shims/include/linux/skbuff.h: {n + 1} lines, stands for "
        "['include/linux/skbuff.h', 'net/core/skbuff.c']",
        f"shims/sim/kernel/smp.c: {n} lines, stands for "
        "['kernel/softirq.c']",
        f"shims/sim/machine.c: {n} lines, stands for "
        "['kernel/softirq.c', 'kernel/smp.c', 'mm/percpu.c']",
        f"shims/sim/sim.c: {LIMIT + 2} lines, stands for nothing"]
