# SPDX-License-Identifier: GPL-2.0
"""kernel-src/kbuild-check's stamp: a reused kbuild:<config> result must
depend on every file that can change the build, including the Kconfig
files kconfig read and the make files kbuild reads, not only the objects'
sources and headers (.o.cmd)."""

import json
import os

from .scripts import load_script


def load():
    return load_script(os.path.join("kernel-src", "kbuild-check"),
                       "kbuild_check")


def touch(root, rel, text="x\n"):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def test_kconfig_deps_are_kconfigs_own_list(tmp_path):
    kc = load()
    touch(str(tmp_path), "include/config/auto.conf.cmd",
          "deps_config := \\\n\tmm/Kconfig \\\n\tkernel/Kconfig.locks\n\n"
          "include/config/auto.conf: $(deps_config)\n")
    assert kc.kconfig_deps(str(tmp_path)) == {"mm/Kconfig",
                                              "kernel/Kconfig.locks"}
    assert kc.kconfig_deps(str(tmp_path / "none")) == set()


def test_makefile_deps_cover_kbuild_and_object_dirs(tmp_path):
    kc = load()
    t = str(tmp_path)
    for rel in ("Makefile", "scripts/Makefile.build", "scripts/Kbuild.include",
                "arch/x86/Makefile", "net/Makefile", "net/core/Makefile",
                "kernel/Makefile", "net/core/dev.c", "drivers/Makefile"):
        touch(t, rel)
    deps = kc.makefile_deps(t)
    for rel in ("Makefile", "scripts/Makefile.build", "scripts/Kbuild.include",
                "arch/x86/Makefile", "net/Makefile", "net/core/Makefile",
                "kernel/Makefile"):
        assert rel in deps
    assert "net/core/dev.c" not in deps
    assert "drivers/Makefile" not in deps


def test_stamp_lists_make_and_kconfig_files(tmp_path):
    kc = load()
    t, kb = str(tmp_path / "tree"), str(tmp_path / "kb")
    for rel in ("Makefile", "net/core/Makefile", "mm/Kconfig",
                "net/core/dev.c", "net/core/skbuff.c", "kernel/softirq.c"):
        touch(t, rel)
    touch(kb, "include/config/auto.conf.cmd",
          "deps_config := \\\n\tmm/Kconfig\n\n")
    for o in kc.OBJS:
        d, b = os.path.split(o)
        touch(kb, os.path.join(d, f".{b}.cmd"),
              f"deps := {os.path.join(t, o[:-2] + '.c')}\n")
    stamp = str(tmp_path / "stamp.json")
    kc.write_stamp(stamp, t, kb, "test")
    with open(stamp) as f:
        deps = json.load(f)["deps"]
    for rel in ("Makefile", "net/core/Makefile", "mm/Kconfig",
                "net/core/dev.c"):
        assert rel in deps
