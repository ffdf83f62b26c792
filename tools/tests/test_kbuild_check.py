# SPDX-License-Identifier: GPL-2.0
"""kernel-src/kbuild-check's stamp: a reused kbuild:<config> result must
depend on every file that can change the build, including the Kconfig
files kconfig read and the make files kbuild reads, not only the objects'
sources and headers (.o.cmd)."""

import argparse
import glob
import json
import os
import re
import sys
import time
from unittest import mock

import pytest

from napitest import kbuild_check

HERE_TESTS = os.path.dirname(os.path.abspath(__file__))


def touch(root, rel, text="x\n"):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def test_kconfig_deps_are_kconfigs_own_list(tmp_path):
    kc = kbuild_check
    touch(str(tmp_path), "include/config/auto.conf.cmd",
          "deps_config := \\\n\tmm/Kconfig \\\n\tkernel/Kconfig.locks\n\n"
          "include/config/auto.conf: $(deps_config)\n")
    assert kc.kconfig_deps(str(tmp_path)) == {"mm/Kconfig",
                                              "kernel/Kconfig.locks"}
    assert kc.kconfig_deps(str(tmp_path / "none")) == set()


def test_makefile_deps_cover_kbuild_and_object_dirs(tmp_path):
    kc = kbuild_check
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
    kc = kbuild_check
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


def fake_tree(root, header="int a;\n", dev="int dev;\n"):
    for rel, text in (("Makefile", "VERSION = 6\nPATCHLEVEL = 1\n"
                       "SUBLEVEL = 192\n"),
                      ("include/linux/a.h", header),
                      ("net/core/dev.c", dev),
                      ("tools/objtool/check.c", "int c;\n")):
        touch(root, rel, text)
    return root


def built(kc, top, tree, view="rps"):
    """What kbuild-check does around a build of view, the build faked:
    an object and its .cmd naming the files under the slot's source."""
    slot, src, how = kc.enter_slot(top, tree, view)
    kb = os.path.join(slot, view)
    touch(kb, "net/core/dev.o", "obj")
    touch(kb, "include/generated/autoconf.h", "gen")
    for o in kc.OBJS:
        d, b = os.path.split(o)
        touch(kb, os.path.join(d, f".{b}.cmd"),
              f"deps := {src}/include/linux/a.h {src}/net/core/dev.c\n")
    kc.record_build(slot, view, tree, kc.write_stamp(None, tree, kb, "t",
                                                     src))
    return slot, src, how


def test_slot_source_links_to_the_tree(tmp_path):
    """kbuild builds from the slot's src: a link per top-level entry,
    tools/ a tree of links (make -C there would resolve a link)."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    os.makedirs(top)
    a = fake_tree(str(tmp_path / "a"))
    slot, src, how = built(kc, top, a)
    assert how == "new"
    assert os.readlink(os.path.join(src, "include")) == \
        os.path.join(a, "include")
    assert not os.path.islink(os.path.join(src, "tools", "objtool"))
    assert os.readlink(os.path.join(src, "tools/objtool/check.c")) == \
        os.path.join(a, "tools/objtool/check.c")
    with open(os.path.join(slot, "slot.json")) as f:
        rec = json.load(f)["views"]["rps"]
    assert rec["tree"] == a
    assert "include/linux/a.h" in rec["files"]


def test_slot_reuse_by_content(tmp_path):
    """A copy differing in the objects' sources only reuses the slot, its
    O= tree dated now and its objects deleted; another header dates it at
    the epoch (kbuild remakes all); the same path is left to make."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    os.makedirs(top)
    a = fake_tree(str(tmp_path / "a"))
    slot, _, _ = built(kc, top, a)
    kb = os.path.join(slot, "rps")
    gen = os.path.join(kb, "include/generated/autoconf.h")
    os.utime(gen, (1000, 1000))
    b = fake_tree(str(tmp_path / "b"), dev="int flipped;\n")
    slot_b, src, how = kc.enter_slot(top, b, "rps")
    assert (slot_b, how) == (slot, "equal")
    assert os.readlink(os.path.join(src, "net")) == os.path.join(b, "net")
    assert os.stat(gen).st_mtime > 1000
    assert not os.path.exists(os.path.join(kb, "net/core/dev.o"))
    assert not os.path.exists(os.path.join(kb, "net/core/.dev.o.cmd"))
    built(kc, top, b)
    c = fake_tree(str(tmp_path / "c"), header="int other;\n")
    with mock.patch.object(kc, "SLOTS", 1):
        slot_c, _, how = kc.enter_slot(top, c, "rps")
    assert (slot_c, how) == (slot, "stale")
    assert os.stat(gen).st_mtime == 0
    assert not os.path.exists(os.path.join(kb, "net/core/dev.o"))


def test_slot_view_made_for_another_tree(tmp_path):
    """A view whose O= tree was made for another tree than the one the
    slot now points at is redated too, not left to make's mtimes."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    os.makedirs(top)
    a = fake_tree(str(tmp_path / "a"))
    slot, _, _ = built(kc, top, a, "rps")
    built(kc, top, a, "norps")
    b = fake_tree(str(tmp_path / "b"), dev="int flipped;\n")
    built(kc, top, b, "rps")
    kb = os.path.join(slot, "norps")
    slot_b, _, how = kc.enter_slot(top, b, "norps")
    assert (slot_b, how) == (slot, "equal")
    assert not os.path.exists(os.path.join(kb, "net/core/dev.o"))


def test_slot_after_a_failed_build(tmp_path):
    """A view whose last build failed (files None) is no content match:
    another tree gets a slot of its own, or the stale one, and no
    traceback (it was an AttributeError in choose_slot())."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    os.makedirs(top)
    a = fake_tree(str(tmp_path / "a"), dev="int broken(;\n")
    slot, _, _ = kc.enter_slot(top, a, "rps")
    kc.record_build(slot, "rps", a, None)
    b = fake_tree(str(tmp_path / "b"))
    slot_b, _, how = kc.enter_slot(top, b, "rps")
    assert slot_b != slot and how == "new"
    c = fake_tree(str(tmp_path / "c"))
    kc.record_build(slot_b, "rps", b, None)
    with mock.patch.object(kc, "SLOTS", 2):
        _, _, how = kc.enter_slot(top, c, "rps")
    assert how == "stale"


def full_tree(root, **kw):
    """fake_tree() with the files check() wants of a full tree."""
    fake_tree(root, **kw)
    for rel in ("scripts/Makefile.build", "arch/x86/Makefile",
                "scripts/config"):
        touch(root, rel)
    # every object's source (dev.c has its own text)
    for o in kbuild_check.OBJS:
        if not os.path.exists(os.path.join(root, o[:-2] + ".c")):
            touch(root, o[:-2] + ".c")
    return root


OBJ = "net/core/dev.o"


class FakeKbuild:
    """check()'s kbuild faked as kbuild behaves: each object and its .cmd
    naming the files it read under the real path of the source it was
    given (abs_srctree := $(realpath $(srctree))); fail: the objects do
    not build, the log has the compiler's error."""

    def __init__(self, kconfig=None):
        self.fail = False
        self.calls = []
        self.kconfig = kconfig
        self.extra = []

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        real = os.path.realpath(src)
        self.extra.append(list(extra))
        if self.kconfig:
            self.kconfig.sync(src, kb)      # make's syncconfig
        gen = os.path.join(kb, "include/generated/autoconf.h")
        self.calls.append((os.path.exists(os.path.join(kb, OBJ)),
                           os.stat(gen).st_mtime if os.path.exists(gen)
                           else None))
        fail = self.failing(kb)
        with open(logf, "a") as f:
            # under the real path of its source, as kbuild prints it
            f.write(f"{real}/net/core/dev.c:1:1: error: bad\n"
                    if fail else "")
        if fail:
            return {o: ("FAIL", "error") for o in objs}
        touch(kb, "include/generated/autoconf.h", "gen")
        for o in objs:
            d, b = os.path.split(o)
            touch(kb, o, "obj")
            touch(kb, os.path.join(d, f".{b}.cmd"),
                  f"deps := {real}/include/linux/a.h {real}/{o[:-2]}.c\n")
        return {o: ("ok", "") for o in objs}

    def failing(self, kb):
        return self.fail


def fake_setup(tree, work, view, env, logf):
    kb = os.path.join(work, view)
    if not os.path.isfile(os.path.join(kb, ".config")):
        touch(kb, ".config", "CONFIG_RPS=y\nCONFIG_DEBUG_NET=y\n")
    return kb, False, []


# the make check a run_check() is part of (NAPITEST_CHECK_RUN)
RUN = {"id": "run-1"}


def run_check(kc, top, tree, fake, config="rps", setup=fake_setup,
              also=None):
    """kbuild-check TREE CONFIG --dir top [--also ...], kbuild faked
    (fake)."""
    a = argparse.Namespace(tree=tree, dir=top, config=config, jobs=1,
                           deps_out=None, unverified=False, given=tree,
                           also=also)
    with mock.patch.object(kc, "kbuild", fake), \
            mock.patch.dict(os.environ, {kc.RUN_VAR: RUN.get("id", "")}), \
            mock.patch.object(kc, "setup", setup), \
            mock.patch.object(kc, "run", lambda *x, **k: (0, "gcc 12")), \
            mock.patch.object(kc.shutil, "which", lambda t: "/bin/" + t):
        return kc.check(a)


def stamps(top):
    d = os.path.join(os.path.realpath(top), "stamps")
    out = []
    for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, n)) as f:
            out.append(json.load(f))
    return out


def linked_dir(tmp_path):
    """A --dir (BUILD=) reached through a symbolic link."""
    real = tmp_path / "real"
    real.mkdir()
    top = str(tmp_path / "link")
    os.symlink(str(real), top)
    return top


def test_check_through_a_linked_dir_keys_on_every_file(tmp_path):
    """--dir (BUILD=) reached through a link: kbuild records the real path
    of the slot's source in .o.cmd, and the stamp must still list the
    headers the objects read, not only the Makefile."""
    kc = kbuild_check
    top = linked_dir(tmp_path)
    a = full_tree(str(tmp_path / "a"))
    assert run_check(kc, top, a, FakeKbuild()) == 0
    (st,) = stamps(top)
    assert "include/linux/a.h" in st["deps"]
    assert "net/core/dev.c" in st["deps"]


class CcacheKbuild(FakeKbuild):
    """FakeKbuild as gcc under ccache writes the depfile: a path under
    CCACHE_BASEDIR relative to O= (where kbuild compiles), since ccache
    hands gcc relative -I paths there."""

    def __init__(self):
        super().__init__()
        self.basedirs = []

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        res = super().__call__(src, kb, env, logf, jobs, extra, strict,
                               objs)
        base = os.environ.get("CCACHE_BASEDIR")
        self.basedirs.append(base)
        real = os.path.realpath(src)
        if base and real.startswith(base + os.sep):
            for o in objs:
                d, b = os.path.split(o)
                rel = os.path.relpath(real, kb)
                touch(kb, os.path.join(d, f".{b}.cmd"),
                      f"deps := {rel}/include/linux/a.h {rel}/{o[:-2]}.c "
                      f"$(wildcard include/config/X)\n")
        return res


def test_cmd_deps_relative_to_o(tmp_path):
    """A depfile path written relative (CCACHE_BASEDIR) is O='s."""
    kc = kbuild_check
    src = fake_tree(str(tmp_path / "slot-0" / "src"))
    kb = str(tmp_path / "slot-0" / "rps")
    touch(kb, "net/core/.dev.o.cmd",
          "deps := ../src/include/linux/a.h \\\n ../src/net/core/dev.c "
          f"{src}/Makefile include/generated/autoconf.h\n")
    assert kc.cmd_deps(kb, "net/core/dev.o", src) == {
        "include/linux/a.h", "net/core/dev.c", "Makefile"}


def test_ccache_basedir_shared_by_the_slots(tmp_path):
    """kbuild runs under CCACHE_BASEDIR = --dir, so that ccache hashes
    the slots' -I paths relative to O=, the same in every slot (absolute,
    each slot's own src, no slot hit what another compiled); the stamp
    still lists the headers from the relative depfile."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = CcacheKbuild()
    with mock.patch.dict(os.environ):
        os.environ.pop("CCACHE_BASEDIR", None)
        assert run_check(kc, top, a, fake) == 0
        assert "CCACHE_BASEDIR" not in os.environ
    assert fake.basedirs == [os.path.realpath(top)]
    (st,) = stamps(top)
    assert "include/linux/a.h" in st["deps"]
    assert "net/core/dev.c" in st["deps"]


def test_first_error_at_the_trees_line_through_a_linked_dir(tmp_path,
                                                            capsys):
    """--dir (BUILD=) reached through a link: kbuild prints the compiler's
    error under the real path of the slot's source; the first error must
    still name the tree's net/core/dev.c:LINE."""
    kc = kbuild_check
    top = linked_dir(tmp_path)
    a = full_tree(str(tmp_path / "a"))
    fake = FakeKbuild()
    fake.fail = True
    assert run_check(kc, top, a, fake) == 1
    assert "build failed: net/core/dev.c:1:1: error: bad" in \
        capsys.readouterr().out


def test_check_after_a_failed_build_rebuilds_the_objects(tmp_path):
    """check()'s sequence: a tree path builds, is edited so that it fails,
    is fixed: a failed compile leaves the old .o in place, and the fixed
    file may be older than it (cp -a), so the objects are compiled again;
    the O= tree stays this path's, not re-dated at the epoch as for
    another tree."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = FakeKbuild()
    assert run_check(kc, top, a, fake) == 0
    touch(a, "net/core/dev.c", "int broken;\n")
    fake.fail = True
    assert run_check(kc, top, a, fake) == 1
    touch(a, "net/core/dev.c", "int fixed;\n")
    fake.fail = False
    assert run_check(kc, top, a, fake) == 0
    assert len(fake.calls) == 3
    dev_o, gen = fake.calls[2]
    assert not dev_o, "dev.o of before the failed build kept"
    assert gen not in (None, 0), "O= tree re-dated at the epoch"


class OneObjectFails(FakeKbuild):
    """FakeKbuild where only bad (an object) does not build: the compiler's
    error at line 176 of its source."""

    def __init__(self, bad):
        super().__init__()
        self.bad = bad

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        res = super().__call__(src, kb, env, logf, jobs, extra, strict,
                               [o for o in objs if o != self.bad])
        if self.bad in objs:
            with open(logf, "a") as f:
                f.write(f"{os.path.realpath(src)}/{self.bad[:-2]}.c:176:"
                        "22: error: 'struct softnet_data' has no member "
                        "named 'received_rps'\n")
            res[self.bad] = ("FAIL", "error")
        return res


@pytest.mark.parametrize("bad", ["net/core/net-procfs.o",
                                 "net/core/netpoll.o",
                                 "net/core/sysctl_net_core.o"])
def test_a_reader_of_softnet_data_that_does_not_build_fails(
        tmp_path, capsys, bad):
    """The series changes struct softnet_data: the other files of net/core
    that read it are built too, and one that does not build (a field
    moved under #ifdef CONFIG_RPS) fails the check at its line."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    touch(a, bad[:-2] + ".c")
    assert run_check(kc, top, a, OneObjectFails(bad)) == 1
    assert stamps(top) == []
    out = capsys.readouterr().out
    assert f"kbuild rps: build failed: {bad[:-2]}.c:176:22: error: " \
        "'struct softnet_data' has no member named 'received_rps'" in out


def test_an_edit_of_an_optional_object_is_built_again(tmp_path):
    """net/core/hotdata.c (v6.9+) is in the stamp like every object's
    source: an edit that breaks it misses the stamp and is built."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    touch(a, "net/core/hotdata.c", "int ok;\n")
    assert run_check(kc, top, a, FakeKbuild()) == 0
    assert len(stamps(top)) == 1
    touch(a, "net/core/hotdata.c", "int broken(;\n")
    assert run_check(kc, top, a,
                     OneObjectFails("net/core/hotdata.o")) == 1


class ObjsKbuild(FakeKbuild):
    """FakeKbuild that notes the objects it was asked for."""

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        self.asked = list(objs)
        return super().__call__(src, kb, env, logf, jobs, extra, strict,
                                objs)


def manifest_c_files():
    """(file, optional) of every .c file kernel-src/manifest names."""
    root = os.path.dirname(os.path.dirname(HERE_TESTS))
    with open(os.path.join(root, "kernel-src", "manifest")) as f:
        return [(m.group(2), bool(m.group(1))) for m in
                (re.match(r"file(\??)\s+(\S+\.c)\s*$", line) for line in f)
                if m]


@pytest.mark.parametrize("hotdata", [False, True])
def test_every_c_file_of_the_manifest_is_built(tmp_path, hotdata):
    """Every .c file the manifest names is built, an optional one
    (net/core/hotdata.c, v6.9+) where the tree has it: the suites run
    functions of each, and the rest of such a file must build too."""
    kc = kbuild_check
    a = full_tree(str(tmp_path / "a"))
    files = manifest_c_files()
    assert ("net/core/hotdata.c", True) in files and len(files) >= 6
    want = {f[:-2] + ".o" for f, optional in files
            if hotdata or not optional}
    for o in want:
        touch(a, o[:-2] + ".c")
    fake = ObjsKbuild()
    assert run_check(kc, str(tmp_path / "kb"), a, fake) == 0
    assert want <= set(fake.asked)
    assert hotdata == ("net/core/hotdata.o" in fake.asked)


class FakeMake:
    """kbuild.run() as make -k of single targets: each object in bad
    fails (its compiler's error; the previous .o stays), the others are
    built."""

    def __init__(self, bad):
        self.bad, self.calls = set(bad), []

    def __call__(self, cmd, cwd=None, env=None, logf=None, shell=False):
        self.calls.append(cmd)
        kb = next(a[2:] for a in cmd if a.startswith("O="))
        out = []
        for o in (a for a in cmd if a.endswith(".o")):
            if o in self.bad:
                out.append(f"/t/{o[:-2]}.c:3:1: error: bad")
            else:
                time.sleep(0.01)
                touch(kb, o, "obj")
        return (2 if out else 0), "\n".join(out)


@pytest.mark.parametrize("bad", [[], ["kernel/smp.o"],
                                 ["net/core/dev.o", "net/core/netpoll.o"]])
def test_kbuild_pins_each_failure_in_two_makes(tmp_path, bad):
    """One make -k of every object; if it fails, the objects removed and
    one more: each object that does not build is FAIL with its error, even
    with its .o of an earlier build in place; each that builds is ok.  Not
    one make per object (each spends seconds before it compiles)."""
    from napitest import kbuild as kb_module
    kb = str(tmp_path / "kb")
    objs = kbuild_check.OBJS
    for o in objs:
        touch(kb, o, "old")
    make = FakeMake(bad)
    with mock.patch.object(kb_module, "run", make):
        res = kb_module.kbuild("/t", kb, {"MAKEARGS": []},
                               str(tmp_path / "log"), 2, objs=objs)
    assert len(make.calls) == (2 if bad else 1)
    assert {o for o, (st, _) in res.items() if st == "FAIL"} == set(bad)
    for o in bad:
        assert res[o][1] == f"/t/{o[:-2]}.c:3:1: error: bad"
    assert all(res[o][0] == "ok" for o in objs if o not in bad)


class EditedDuringKbuild(FakeKbuild):
    """FakeKbuild while the user saves a header, in a later tick of the
    clock ctimes come from: the objects were compiled from the header
    before that write."""

    def __init__(self, text):
        super().__init__()
        self.text = text

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        res = super().__call__(src, kb, env, logf, jobs, extra, strict, objs)
        edit_in_a_later_tick(src, self.text)
        return res


def edit_in_a_later_tick(tree, text):
    """include/linux/a.h written until its ctime is past now (a ctime may
    be taken from the coarse clock, and truncated to the file system's
    granularity)."""
    start = time.time_ns()
    for _ in range(3000):
        touch(tree, "include/linux/a.h", text)
        if os.stat(os.path.join(tree, "include/linux/a.h")).st_ctime_ns > \
                start:
            return
        time.sleep(0.001)
    raise AssertionError(f"{tree}: ctime never passed {start}")


def test_a_file_written_during_the_build_is_not_stamped(tmp_path, capsys):
    """The header is saved with an error while kbuild compiles: the build
    passes (on the header before), but no stamp may take the header as
    now written for built, or the next run passes it unbuilt."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    assert run_check(kc, top, a, EditedDuringKbuild("int broken(;\n")) == 0
    assert stamps(top) == []
    out = capsys.readouterr().out
    assert f"kbuild rps: {a}/include/linux/a.h was written during the " \
        "build: not stamped" in out
    fake = FakeKbuild()
    fake.fail = True
    assert run_check(kc, top, a, fake) == 1
    assert len(fake.calls) == 1, "the edited header was not built"


def test_a_file_written_while_the_o_tree_is_made_is_not_stamped(tmp_path):
    """The same while the view's O= tree is made (its .config: kconfig
    reads the tree), before kbuild compiles."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))

    def setup(tree, work, view, env, logf):
        edit_in_a_later_tick(a, "int broken(;\n")
        return fake_setup(tree, work, view, env, logf)

    assert run_check(kc, top, a, FakeKbuild(), setup=setup) == 0
    assert stamps(top) == []


OLD = 978307200  # 2001-01-01


class Built:
    """A tree built once by check() (kbuild faked) in slot-0's rps view;
    dated(REL, TEXT) gives REL other content dated 2001, as cp -a of a
    mutant does; drop_stale() runs drop_stale() on the slot's record."""

    def __init__(self, tmp_path, files=()):
        self.top = str(tmp_path / "kb")
        self.tree = full_tree(str(tmp_path / "a"))
        for rel, text in files:
            touch(self.tree, rel, text)
        self.fake = FakeKbuild()
        assert self.check() == 0
        self.kb = os.path.join(self.top, "slot-0", "rps")

    def check(self):
        return run_check(kbuild_check, self.top, self.tree, self.fake)

    def dated(self, rel, text):
        touch(self.tree, rel, text)
        os.utime(os.path.join(self.tree, rel), (OLD, OLD))

    def drop_stale(self):
        kc = kbuild_check
        rec = kc.read_json(os.path.join(self.top, "slot-0", "slot.json"))
        return kc.drop_stale(self.kb, os.path.join(self.top, "slot-0", "src"),
                             os.path.realpath(self.tree), rec["views"]["rps"])


def test_a_source_older_than_its_object_is_compiled_again(tmp_path):
    """dev.c given other content dated 2001 (cp -a of a mutant): make
    would keep dev.o, built from the old content; the object is removed
    before the build, the others (their files unchanged) are kept, and the
    O= tree is not re-dated."""
    b = Built(tmp_path)
    b.dated("net/core/dev.c", "int mutant;\n")
    with mock.patch.object(kbuild_check, "redate") as redate:
        assert b.drop_stale() == [OBJ]
    redate.assert_not_called()
    assert os.path.exists(os.path.join(b.kb, "kernel/softirq.o"))
    b.dated("net/core/dev.c", "int mutant2;\n")
    assert b.check() == 0
    dev_o, gen = b.fake.calls[1]
    assert not dev_o, "dev.o from the old dev.c kept"
    assert gen not in (None, 0), "O= tree re-dated at the epoch"


def test_a_header_older_than_the_objects_drops_each_that_read_it(tmp_path):
    b = Built(tmp_path)
    b.dated("include/linux/a.h", "int other;\n")
    assert sorted(b.drop_stale()) == sorted(kbuild_check.OBJS)
    for o in kbuild_check.OBJS:
        assert not os.path.exists(os.path.join(b.kb, o))


def test_an_unchanged_tree_drops_nothing(tmp_path):
    b = Built(tmp_path)
    assert b.drop_stale() == []
    assert os.path.exists(os.path.join(b.kb, OBJ))


def syncconfig_after(b, rel, text):
    """b's auto.conf there, then rel dated 2001 with text: does
    drop_stale() remove every object and auto.conf (syncconfig again)?"""
    touch(b.kb, kbuild_check.AUTO_CONF, "CONFIG_RPS=y\n")
    b.dated(rel, text)
    dropped = b.drop_stale()
    gone = not os.path.exists(os.path.join(b.kb, kbuild_check.AUTO_CONF))
    assert gone == (sorted(dropped) == sorted(kbuild_check.OBJS))
    return gone


def test_a_makefile_older_than_the_objects_is_left_to_if_changed(tmp_path):
    # kbuild compares each object's command line whatever the dates
    b = Built(tmp_path)
    assert not syncconfig_after(b, "Makefile", "# other\n")
    assert b.drop_stale() == []


def test_a_kconfig_older_than_the_objects_runs_syncconfig(tmp_path):
    b = Built(tmp_path, [("net/Kconfig", "config RPS\n")])
    assert syncconfig_after(b, "net/Kconfig", "config RPS\n\tdefault y\n")


def test_after_a_failed_build_syncconfig_runs_again(tmp_path):
    b = Built(tmp_path)
    touch(b.tree, "net/core/dev.c", "int broken;\n")
    b.fake.fail = True
    assert b.check() == 1
    assert syncconfig_after(b, "net/Kconfig", "config RPS\n")


def test_a_stat_verified_just_after_a_write_is_not_remembered(tmp_path):
    # it may be written again within the same tick of the clock
    b = Built(tmp_path)
    [stamp] = glob.glob(os.path.join(b.top, "stamps", "*.json"))
    work = os.path.join(b.top, "work")
    os.makedirs(work)
    seen = os.path.join(work, "verified-" + os.path.basename(stamp))
    tree = os.path.realpath(b.tree)
    assert kbuild_check.stamp_hit(stamp, tree, work)
    assert not os.path.exists(seen)
    with mock.patch.object(kbuild_check, "RACY_NS", -10**18):
        assert kbuild_check.stamp_hit(stamp, tree, work)
    assert os.path.exists(seen)


def test_stat_key_sees_a_rewrite_with_the_old_mtime(tmp_path):
    a = str(tmp_path)
    touch(a, "f", "aaaa\n")
    p = os.path.join(a, "f")
    st = os.stat(p)
    key = kbuild_check.stat_key(a, ["f"])
    time.sleep(0.05)  # a tick of a coarse ctime clock (before Linux 6.13)
    with open(p, "w") as f:
        f.write("bbbb\n")
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert kbuild_check.stat_key(a, ["f"]) != key


def test_two_trees_alternating_keep_a_slot_each(tmp_path):
    """base and patched differ in a header: switching between them must
    not remake one slot each time while there is room for two."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    os.makedirs(top)
    a = fake_tree(str(tmp_path / "a"))
    c = fake_tree(str(tmp_path / "c"), header="int other;\n")
    hows, slots = [], []
    for t in (a, c, a, c):
        slot, _, how = built(kc, top, t)
        hows.append(how)
        slots.append(slot)
    assert hows == ["new", "new", "same", "same"]
    assert slots[0] == slots[2] != slots[1] == slots[3]


class FakeKconfig:
    """make's and scripts/config's effect on O=/.config, as kconfig has
    it for these options: PREEMPT_RT=y holds only if the tree's
    arch/x86/Kconfig selects ARCH_SUPPORTS_RT, else PREEMPT_NONE=y."""

    def sync(self, tree, kb):
        p = os.path.join(kb, ".config")
        with open(p) as f:
            conf = dict(line.rstrip("\n").split("=", 1) for line in f)
        with open(os.path.join(tree, "arch/x86/Kconfig")) as f:
            rt = "select ARCH_SUPPORTS_RT" in f.read()
        if conf.get("CONFIG_PREEMPT_RT") == "y" and not rt:
            del conf["CONFIG_PREEMPT_RT"]
            conf["CONFIG_PREEMPT_NONE"] = "y"
        if conf.get("CONFIG_PREEMPT_RT") == "y":
            conf.pop("CONFIG_PREEMPT_NONE", None)
        with open(p, "w") as f:
            f.write("".join(f"{k}={v}\n" for k, v in conf.items()))

    def run(self, cmd, cwd=None, env=None, logf=None, shell=False):
        if cmd[0].endswith("scripts/config"):
            kb = os.path.dirname(cmd[cmd.index("--file") + 1])
            with open(os.path.join(kb, ".config"), "a") as f:
                for op, n in zip(cmd[3::2], cmd[4::2]):
                    f.write(f"CONFIG_{n}={'y' if op == '--enable' else 'n'}"
                            "\n")
            return 0, ""
        if cmd[0] != "make":
            return 0, "gcc 12"
        tree = cmd[cmd.index("-C") + 1]
        kb = [x for x in cmd if x.startswith("O=")][0][2:]
        if cmd[-1] == "x86_64_defconfig":
            touch(kb, ".config", "CONFIG_PREEMPT_NONE=y\n")
        else:
            self.sync(tree, kb)
        return 0, ""


def run_check_kconfig(kc, top, tree):
    """check() for rt-rps, make and kconfig faked (FakeKconfig)."""
    k = FakeKconfig()
    fake = FakeKbuild(k)
    a = argparse.Namespace(tree=tree, dir=top, config="rt-rps", jobs=1,
                           deps_out=None, unverified=False, given=tree)
    with mock.patch.object(kc, "kbuild", fake), \
            mock.patch.object(kc, "run", k.run), \
            mock.patch.object(kc.kbuild_module, "run", k.run), \
            mock.patch.object(kc.shutil, "which", lambda t: "/bin/" + t):
        assert kc.check(a) == 0
    return fake.extra


def rt_tree(root, rt=True, header="int a;\n"):
    full_tree(root, header=header)
    touch(root, "arch/x86/Kconfig",
          "config X86\n" + ("\tselect ARCH_SUPPORTS_RT\n" if rt else ""))
    return root


def test_reused_slot_of_an_rt_tree_does_not_make_another_rt(tmp_path):
    """A tree whose arch/x86/Kconfig cannot select PREEMPT_RT, given the
    slot of one that can (the only slot), is built forced-RT, not with
    the other's .config that its own Kconfig turns non-RT at build time."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = rt_tree(str(tmp_path / "a"))
    assert run_check_kconfig(kc, top, a) == [[]]
    b = rt_tree(str(tmp_path / "b"), rt=False)
    with mock.patch.object(kc, "SLOTS", 1):
        # one build, forced: the stale .config is not even tried
        assert run_check_kconfig(kc, top, b) == [kc.RT_ARGS]
    (st,) = [s for s in stamps(top) if "forced" in s["what"]]


def test_same_path_kconfig_edited_is_not_a_false_rt(tmp_path):
    """The same tree path, its arch/x86/Kconfig edited not to select
    ARCH_SUPPORTS_RT: the build's syncconfig turns the .config non-RT;
    kbuild-check must notice and build the forced-RT view."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = rt_tree(str(tmp_path / "a"))
    assert run_check_kconfig(kc, top, a) == [[]]
    rt_tree(a, rt=False)
    assert run_check_kconfig(kc, top, a)[-1] == kc.RT_ARGS


def test_setup_keeps_a_config_only_if_want_holds(tmp_path):
    """kbuild_setup() on an O= tree whose .config lacks what it wants
    (another tree's) makes it anew instead of keeping it."""
    kc = kbuild_check
    t = rt_tree(str(tmp_path / "t"))
    kb = str(tmp_path / "kb")
    touch(kb, ".config", "CONFIG_PREEMPT_NONE=y\n")
    enable, disable, want = kc.KCONFIGS["rt"]
    with mock.patch.object(kc.kbuild_module, "run", FakeKconfig().run):
        kc.kbuild_setup(t, kb, {"MAKEARGS": []}, None, enable, disable,
                        want)
    assert kc.kbuild_module.config_value(kb, "PREEMPT_RT") == "y"


def test_partial_tree_is_one_error_line(tmp_path, monkeypatch, capsys):
    """A tree kbuild cannot build (no scripts/Makefile.build: a partial
    copy) is one error line and exit 1, not a Python traceback, through
    the command's own entry point."""
    (tmp_path / "Makefile").write_text("VERSION = 6\n")
    monkeypatch.setattr(sys, "argv", ["kbuild-check", str(tmp_path), "rps",
                                      "--dir", str(tmp_path / "kb")])
    assert kbuild_check.main() == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("kbuild-check: error: ")
    assert "is not a full kernel tree (no scripts/Makefile.build)" in err[0]


def test_a_file_is_hashed_once_per_stat(tmp_path):
    # a stamp miss hashes every dependency, then drop_stale() compares
    # the same files: one read each, and a rewrite is read again
    a = str(tmp_path)
    touch(a, "f", "aaaa\n")
    real = open
    reads = []

    def counting(path, *args, **kw):
        reads.append(path)
        return real(path, *args, **kw)
    with mock.patch.object(kbuild_check, "RACY_NS", -10**18), \
            mock.patch("builtins.open", counting):
        first = kbuild_check.file_digests(a, ["f"])
        assert kbuild_check.file_digests(a, ["f"]) == first
        assert len(reads) == 1
        time.sleep(0.05)  # a tick of a coarse ctime clock (Linux < 6.13)
        touch(a, "f", "bbbb\n")
        reads.clear()
        assert kbuild_check.file_digests(a, ["f"]) != first
        assert len(reads) == 1


def test_a_file_just_written_is_not_remembered(tmp_path):
    a = str(tmp_path)
    touch(a, "f", "aaaa\n")
    kbuild_check.file_digests(a, ["f"])
    assert not [k for k in kbuild_check.DIGESTS if k[0].startswith(a)]


def view_setup(tree, work, view, env, logf):
    """setup() faked: a .config that holds what the view wants."""
    kb = os.path.join(work, view)
    if not os.path.isfile(os.path.join(kb, ".config")):
        touch(kb, ".config", "".join(
            f"CONFIG_{n}={v}\n" for n, v in kbuild_check.KCONFIGS[view][2]
            if v))
    return kb, False, []


class ViewKbuild(FakeKbuild):
    """FakeKbuild that records which views it built (by O= directory)
    and fails the views in fail_views."""

    def __init__(self, barrier=None):
        super().__init__()
        self.views = []
        self.fail_views = set()
        self.barrier = barrier

    def __call__(self, src, kb, env, logf, jobs, extra=(), strict=True,
                 objs=()):
        view = os.path.basename(kb)
        self.views.append(view)
        if self.barrier:
            # every view's make waits here for the others': a build one
            # view after another never gets past it (the timeout is only
            # a hang guard)
            self.barrier.wait(timeout=60)
        return super().__call__(src, kb, env, logf, jobs, extra, strict,
                                objs)

    def failing(self, kb):
        return os.path.basename(kb) in self.fail_views


ALSO = ["rt-rps", "rps", "rps-threads", "norps-threads", "norps"]


def test_also_builds_every_view_at_once(tmp_path):
    """--also: the first check to miss builds all three views side by
    side (each view's kbuild waits at a barrier for the other two); the
    other configurations' checks then hit their stamps and build
    nothing."""
    import threading
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = ViewKbuild(threading.Barrier(3))
    assert run_check(kc, top, a, fake, "rt-rps", view_setup, ALSO) == 0
    assert sorted(fake.views) == ["norps", "rps", "rt"]
    fake.barrier = None
    for cfg in ALSO:
        assert run_check(kc, top, a, fake, cfg, view_setup, ALSO) == 0
    assert len(fake.views) == 3, "a view built twice"
    assert len(stamps(top)) == 3


def test_also_skips_a_view_whose_stamp_holds(tmp_path):
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = ViewKbuild()
    assert run_check(kc, top, a, fake, "rps", view_setup) == 0
    assert run_check(kc, top, a, fake, "norps", view_setup, ALSO) == 0
    assert sorted(fake.views) == ["norps", "rps", "rt"]


def norps_fails_beside_rps(tmp_path, primary="rps"):
    """kbuild-check PRIMARY --also ...: norps's view, built beside it,
    fails."""
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = ViewKbuild()
    fake.fail_views = {"norps"}
    assert run_check(kbuild_check, top, a, fake, primary, view_setup,
                     ALSO) == (1 if primary.startswith("norps") else 0)
    return kbuild_check, top, a, fake


def test_also_a_failing_view_is_reported_by_its_own_check(
        tmp_path, capsys):
    """A view built with another that fails does not fail the check
    that built it; its own checks (norps, norps-threads) report the
    failure at the tree's line, once each, without building it again:
    a tree that does not build is built once per view, not once per
    configuration and view."""
    kc, top, a, fake = norps_fails_beside_rps(tmp_path)
    assert "with it, norps-threads's view (norps): did not build" in \
        capsys.readouterr().out
    for cfg in ("norps", "norps-threads"):
        assert run_check(kc, top, a, fake, cfg, view_setup, ALSO) == 1
        assert f"kbuild {cfg}: build failed: net/core/dev.c:1:1: error: " \
            "bad" in capsys.readouterr().out
    assert sorted(fake.views) == ["norps", "rps", "rt"]
    # read once: the next check builds the view again
    assert run_check(kc, top, a, fake, "norps", view_setup, ALSO) == 1
    assert fake.views.count("norps") == 2


def test_also_the_failing_views_sibling_is_reported_too(tmp_path, capsys):
    """norps fails in norps's own check: norps-threads, the same view,
    reports it without building it again."""
    kc, top, a, fake = norps_fails_beside_rps(tmp_path, "norps")
    capsys.readouterr()
    assert run_check(kc, top, a, fake, "norps-threads", view_setup,
                     ALSO) == 1
    assert "kbuild norps-threads: build failed" in capsys.readouterr().out
    assert fake.views.count("norps") == 1


def test_also_a_kept_failure_of_other_content_is_not_reported(tmp_path):
    """A failure kept for norps is for the content it was built from:
    dev.c fixed since, norps's check builds the view and passes."""
    kc, top, a, fake = norps_fails_beside_rps(tmp_path)
    touch(a, "net/core/dev.c", "int fixed;\n")
    fake.fail_views = set()
    assert run_check(kc, top, a, fake, "norps", view_setup, ALSO) == 0
    assert fake.views.count("norps") == 2


def test_also_a_kept_failure_is_for_its_make_check_only(tmp_path):
    """A header fixed (not part of the stamp's key), then another make
    check: the failure kept by the first is not reported; a view built
    again drops what was kept for it; outside a make check nothing is
    kept."""
    kc, top, a, fake = norps_fails_beside_rps(tmp_path)
    touch(a, "include/linux/a.h", "int fixed;\n")
    fake.fail_views = set()
    with mock.patch.dict(RUN, {"id": "run-2"}):
        assert run_check(kc, top, a, fake, "norps", view_setup,
                         ALSO) == 0
        assert run_check(kc, top, a, fake, "norps-threads", view_setup,
                         ALSO) == 0
    assert not glob.glob(os.path.join(top, "*", "failed-*.json"))
    fake.fail_views = {"norps"}
    touch(a, "net/core/dev.c", "int broken;\n")
    with mock.patch.dict(RUN, {"id": ""}):
        assert run_check(kc, top, a, fake, "rps", view_setup, ALSO) == 0
    assert not glob.glob(os.path.join(top, "*", "failed-*.json"))


def test_also_an_error_in_a_views_thread_is_not_lost(tmp_path):
    """An error other than the tree's in norps's make (beside rps's): it
    reaches the check (no thread dies of it), rps still passes and is
    stamped, norps is not."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))

    class Broken(ViewKbuild):
        def __call__(self, src, kb, *args, **kw):
            if os.path.basename(kb) == "norps":
                raise OSError("disk full")
            return super().__call__(src, kb, *args, **kw)

    fake = Broken()
    died = []
    with mock.patch.object(kc.threading, "excepthook", died.append):
        assert run_check(kc, top, a, fake, "rps", view_setup, ALSO) == 0
    assert not died, "a view's thread died of its error"
    assert sorted(st["what"].split(" + ")[1] for st in stamps(top)) == \
        ["CONFIG_RPS=y CONFIG_DEBUG_NET=y",
         "CONFIG_RPS=y CONFIG_DEBUG_NET=y CONFIG_EXPERT=y "
         "CONFIG_PREEMPT_RT=y CONFIG_PREEMPT_NONE=n "
         "CONFIG_PREEMPT_VOLUNTARY=n CONFIG_PREEMPT=n"]


@pytest.mark.parametrize("error", [
    kbuild_check.ToolError("olddefconfig failed"),
    OSError("No space left on device")])
def test_also_a_view_whose_prepare_breaks_is_left_to_its_check(tmp_path,
                                                               error):
    """Any error preparing norps's O= tree beside rps's (the checker's,
    not the tree's) leaves norps to its own check; rps's passes."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    fake = ViewKbuild()

    def setup(tree, work, view, env, logf):
        if view == "norps":
            raise error
        return view_setup(tree, work, view, env, logf)

    assert run_check(kc, top, a, fake, "rps", setup, ALSO) == 0
    assert sorted(fake.views) == ["rps", "rt"]


def test_an_error_in_the_build_after_a_reconfigure_is_raised(tmp_path):
    """The .config did not hold (another tree's Kconfig): the view is set
    up anew and built again; an error in that second build is the
    check's error, not a pass on the first build's objects."""
    kc = kbuild_check
    top = str(tmp_path / "kb")
    a = full_tree(str(tmp_path / "a"))
    calls = []

    def setup(tree, work, view, env, logf):
        kb = os.path.join(work, view)
        if not os.path.isfile(os.path.join(kb, ".config")):
            touch(kb, ".config", "CONFIG_DEBUG_NET=y\n" if not calls else
                  "CONFIG_RPS=y\nCONFIG_DEBUG_NET=y\n")
            calls.append(view)
        return kb, False, []

    class SecondFails(FakeKbuild):
        def __call__(self, *args, **kw):
            if self.calls:
                raise kc.ToolError("kbuild failed before reaching dev.o")
            return super().__call__(*args, **kw)

    try:
        run_check(kc, top, a, SecondFails(), "rps", setup)
    except kc.ToolError as e:
        assert "before reaching" in str(e)
    else:
        raise AssertionError("the second build's error was lost")
    assert not stamps(top)
