# SPDX-License-Identifier: GPL-2.0
"""kbuild-check: does the tree build, the way kbuild builds it?

    kbuild-check [--dir DIR] [--jobs N] [--deps-out FILE] [--also CONFIG,...]
                 TREE|--variant NAME CONFIG

The userspace suites compile only the manifest's functions; a tree whose
other code does not build would pass them.  This builds the tree's whole
net/core/dev.c, net/core/skbuff.c, kernel/softirq.c, kernel/smp.c,
kernel/smpboot.c (and net/core/hotdata.c where it has one): the .c
files the manifest takes definitions from; and the other files of
net/core that use struct softnet_data, which the series changes
(net-procfs.c, netpoll.c, sysctl_net_core.c: a field moved under another
#ifdef breaks them alone), with the tree's own Makefile, in a scratch O=
directory under DIR (the tree is only read), with ccache, in the kernel
configuration that stands for CONFIG, one of the matrix's configurations:

  rps, rps-threads      x86_64_defconfig + CONFIG_RPS=y CONFIG_DEBUG_NET=y
                        (threads are a boot parameter, not a config option)
  norps, norps-threads  the same with CONFIG_EXPERT=y CONFIG_SYSFS=n, which
                        is how Kconfig turns CONFIG_RPS off
  rt-rps                CONFIG_PREEMPT_RT=y where the tree's Kconfig can
                        select it; otherwise (6.1: arch/x86 does not select
                        ARCH_SUPPORTS_RT) the forced-RT compile-only view of
                        series-check: the rps .config, every file compiled
                        with -DCONFIG_PREEMPT_RT (kernel-src/napitest/kbuild.py)

A tree that does not build fails with the compiler's first error at the
tree's file:line.  A build that succeeded leaves a stamp under DIR/stamps,
keyed by the content of every file the objects were compiled from (kbuild's
own dependency lists) and by the configuration: a rerun on the same content,
at any path, is a few file reads.  A build during which one of those files
was written (saved from an editor while make check runs) leaves no stamp:
what it compiled may not be what the file now holds.  With --also (make
check gives the matrix's configurations), a stamp miss also builds every other view that
misses its stamp, each view's make beside the others': a kbuild spends
seconds in its own make files and compiler probes before it compiles
anything, and an edit of dev.c recompiles it in every view.

The O= trees are not per tree path but in a few slots (DIR/slot-N), each
building from a fixed source path, DIR/slot-N/src: a link per top-level
entry of the tree (tools/ a tree of links: kbuild runs make -C there, which
would resolve a link to the tree's own path).  kbuild records that path,
not the tree's, so a tree whose content differs from a slot's last build
only in the objects' own sources (a flipped #ifdef in dev.c, a copy of the
tree with one line edited) reuses that slot's configuration, host tools and
generated headers, and recompiles those objects only (ccache).  Which slot:
the one last used for this tree path (make follows the edits), else one
whose last build read the same content in every other file, else a new one
while there are fewer than four, else the least recently used one (of the
same kernel version if any) rebuilt as if cold (ccache: the unchanged files
are cache hits).  kbuild decides by mtime, which says nothing
across trees: on a switch to another tree, the reused O= tree's files are
dated now (same content) or at the epoch (not the same), and the objects
are deleted.  A tree path that has an O= tree of its own from before the
slots (DIR/<hash of the path>/VIEW) keeps using it.

Exit status: 0 the objects build, 1 they do not or the check could not run.
"""

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import sys
import threading
import time

from . import Error, extract, jsonfile
from . import kbuild as kbuild_module
from .kbuild import (RT_ARGS, ToolError, kbuild, kbuild_setup,
                     kbuild_setup_rt, run)

PROG = "kbuild-check"
# The directory of the kernel-src/kbuild-check command.
HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "kernel-src")

# The .c files of the manifest (kernel-src/manifest takes definitions
# from each), and the other files that read struct softnet_data
# (include/linux/netdevice.h's, which the series changes): every one the
# matrix's kernel configurations build (x86_64_defconfig has neither
# CONFIG_XFRM_OFFLOAD, under which net/xfrm/xfrm_device.c reads it, nor
# CONFIG_NET_ACT_MIRRED, for v6.12's net/sched/act_mirred.c).
# OPTIONAL_OBJS: where the tree has the source (net/core/hotdata.c:
# v6.9+); objs_of().
OBJS = ("net/core/dev.o", "net/core/skbuff.o", "kernel/softirq.o",
        "kernel/smp.o", "kernel/smpboot.o",
        "net/core/net-procfs.o", "net/core/netpoll.o",
        "net/core/sysctl_net_core.o")
OPTIONAL_OBJS = ("net/core/hotdata.o",)


def objs_of(tree):
    """The objects kbuild-check builds of tree."""
    return OBJS + tuple(o for o in OPTIONAL_OBJS if os.path.isfile(
        os.path.join(tree, o[:-2] + ".c")))


# Kconfig fragments on top of x86_64_defconfig: (enable, disable, want).
KCONFIGS = {
    "rps": (("RPS", "DEBUG_NET"), (),
            (("RPS", "y"), ("DEBUG_NET", "y"))),
    "norps": (("EXPERT", "DEBUG_NET"), ("SYSFS", "RPS"),
              (("RPS", None), ("DEBUG_NET", "y"))),
    "rt": (("RPS", "DEBUG_NET", "EXPERT", "PREEMPT_RT"),
           ("PREEMPT_NONE", "PREEMPT_VOLUNTARY", "PREEMPT"),
           (("RPS", "y"), ("DEBUG_NET", "y"), ("PREEMPT_RT", "y"))),
}
VIEW = {"rt-rps": "rt", "rps": "rps", "rps-threads": "rps",
        "norps-threads": "norps", "norps": "norps"}
ERROR_RE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
                      r"(?:fatal )?error: (?P<msg>.*)$")


def describe(view, forced):
    enable, disable, _ = KCONFIGS["rps" if forced else view]
    s = "x86_64_defconfig + " + " ".join(
        [f"CONFIG_{n}=y" for n in enable] + [f"CONFIG_{n}=n" for n in disable])
    if forced:
        s += ", forced -DCONFIG_PREEMPT_RT (compile-only: this tree's " \
            "Kconfig cannot select PREEMPT_RT)"
    return s


def tree_path(tree, path, kb):
    """A path in a compiler message, relative to the tree if it is in it."""
    p = os.path.normpath(os.path.join(kb, path))
    if p.startswith(tree + os.sep):
        return os.path.relpath(p, tree)
    return path


def first_error(out, tree, kb):
    """The compiler's first error (with its source line and caret), the
    path made relative to the tree; or kbuild's own first complaint."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = ERROR_RE.match(line)
        if not m:
            continue
        head = (f"{tree_path(tree, m.group('path'), kb)}:{m.group('line')}:"
                f"{m.group('col')}: error: {m.group('msg')}")
        ctx = [x for x in lines[i + 1:i + 3] if re.match(r"^\s+\d* \|", x)]
        return "\n".join([head] + ctx)
    for line in lines:
        if re.search(r"\*\*\*|[Ee]rror|undefined reference", line) and \
                not line.startswith("make"):
            return line.strip()
    return None


def cmd_deps(kb, obj, tree):
    """The tree's files kbuild recorded obj as depending on (.o.cmd), tree
    being the source path kbuild was given (a slot's src).  A path gcc
    wrote relative (under CCACHE_BASEDIR ccache hands gcc relative -I
    paths, so the depfile has ../src/include/...) is relative to kb, where
    kbuild compiles."""
    d, b = os.path.split(obj)
    path = os.path.join(kb, d, f".{b}.cmd")
    deps = set()
    with open(path) as f:
        for tok in f.read().split():
            tok = os.path.normpath(os.path.join(kb, tok.rstrip("\\")))
            # (-I dirs come as separate tokens too: files only)
            if tok.startswith(tree + os.sep) and os.path.isfile(tok):
                deps.add(os.path.relpath(tok, tree))
    return deps


# {(path, device, inode, size, mtime, ctime): SHA-256} of this process:
# a stamp miss hashes every dependency (stamp_hit()), then drop_stale()
# compares the same files with the slot's record; each is read once.
# Not for a file written in the last RACY_NS (the same stat may hide a
# second write).
DIGESTS = {}


def file_digests(tree, files):
    """{rel: SHA-256 of tree/rel} for each file, or None if one is not
    there."""
    out = {}
    now = time.time_ns()
    for rel in sorted(files):
        path = os.path.join(tree, rel)
        try:
            st = os.stat(path)
            key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
                   st.st_ctime_ns)
            if key not in DIGESTS:
                with open(path, "rb") as f:
                    sha = hashlib.sha256(f.read()).hexdigest()
                if now - st.st_ctime_ns < RACY_NS:
                    out[rel] = sha
                    continue
                DIGESTS[key] = sha
            out[rel] = DIGESTS[key]
        except OSError:
            return None
    return out


def digest_of(digests):
    h = hashlib.sha256()
    for rel in sorted(digests):
        h.update(rel.encode() + b"\0" + bytes.fromhex(digests[rel]))
    return h.hexdigest()


def content_digest(tree, files):
    d = file_digests(tree, files)
    return None if d is None else digest_of(d)


# What the .config is made of: a change here can change the configuration.
KCONFIG_FILES = ("arch/x86/configs/x86_64_defconfig", "arch/x86/Kconfig",
                 "arch/Kconfig", "init/Kconfig", "kernel/Kconfig.preempt",
                 "net/Kconfig", "net/Kconfig.debug", "lib/Kconfig.debug",
                 "fs/sysfs/Kconfig", "scripts/kconfig/Makefile")


def stamp_path(top, tree, view, makeargs):
    """Stamps are keyed by the view, this checker, the compiler and the
    objects' own sources; the digest of every dependency is inside."""
    objs = objs_of(tree)
    h = hashlib.sha256(repr((view, KCONFIGS[view], makeargs,
                             objs)).encode())
    for f in (__file__, kbuild_module.__file__):
        with open(f, "rb") as fh:
            h.update(fh.read())
    rc, out = run(["gcc", "--version"])
    h.update(out.encode())
    srcs = content_digest(tree, [o[:-2] + ".c" for o in objs] + ["Makefile"])
    if srcs is None:
        return None
    return os.path.join(top, "stamps",
                        f"{view}-{h.hexdigest()[:12]}-{srcs[:16]}.json")


def stat_key(tree, files):
    """(size, mtime, ctime, device, inode) of each file: what says, as
    for git's index, that a file whose content was verified has not been
    touched.  ctime, which every write sets and nobody can set back, also
    catches a file rewritten in place with its old size and mtime
    (cp -a, rsync -a onto it)."""
    out = []
    for rel in sorted(files):
        try:
            st = os.stat(os.path.join(tree, rel))
        except OSError:
            return None
        out.append([rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns,
                    st.st_dev, st.st_ino])
    return out


RACY_NS = 2 * 10**9


def stamp_hit(stamp, tree, work):
    """The description of the stamp's build if every file it was built
    from still has the same content, else None.  The content is hashed
    once per tree path; after that, files whose size, mtime and inode are
    those seen when it last matched are not read again (work/verified-*)."""
    if not stamp or not os.path.isfile(stamp):
        return None
    with open(stamp) as f:
        st = json.load(f)
    seen = os.path.join(work, "verified-" + os.path.basename(stamp))
    now = stat_key(tree, st["deps"])
    try:
        with open(seen) as f:
            if now is not None and json.load(f) == now:
                return st["what"]
    except (OSError, ValueError):
        pass
    if content_digest(tree, st["deps"]) != st["digest"]:
        return None
    # A file written within a tick of the clock its ctime came from may be
    # written again with the same stat: not remembered (git's "racily
    # clean" entries), hashed again next time.
    if now is not None and \
            all(time.time_ns() - k[3] >= RACY_NS for k in now):
        tmp = f"{seen}.{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(now, f)
        os.replace(tmp, seen)
    return st["what"]


def kconfig_deps(kb):
    """Every Kconfig file the .config was made from, as kconfig itself
    lists them (deps_config in O=/include/config/auto.conf.cmd)."""
    deps = set()
    try:
        with open(os.path.join(kb, "include/config/auto.conf.cmd")) as f:
            lines = f.read().split("\n")
    except OSError:
        return deps
    if "deps_config := \\" not in lines:
        return deps
    for line in lines[lines.index("deps_config := \\") + 1:]:
        tok = line.strip().rstrip("\\").strip()
        if not tok:
            break
        deps.add(tok)
    return deps


# The make files kbuild reads to build objs_of() (besides each object's own
# directory and its parents): a change there can break or change a build.
MAKE_FILE_DIRS = ("", "scripts", "arch/x86")
MAKE_FILE_RX = re.compile(r"^(Makefile.*|Kbuild.*|.*\.include)$")


def makefile_deps(tree):
    dirs = set(MAKE_FILE_DIRS)
    for o in objs_of(tree):
        d = os.path.dirname(o)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    deps = set()
    for d in dirs:
        try:
            names = os.listdir(os.path.join(tree, d))
        except OSError:
            continue
        for n in names:
            rel = os.path.join(d, n)
            if MAKE_FILE_RX.match(n) and \
                    os.path.isfile(os.path.join(tree, rel)):
                deps.add(rel)
    return deps


class Unstamped(Exception):
    """write_stamp() wrote no stamp: args[0], a file of the build, was
    written after the build began."""


def changed_since(tree, files, since):
    """The first of files (sorted) whose ctime is after since (the time
    the build started, time.time_ns()), else None: a file written while
    kbuild compiled may not be what it compiled.  Every write sets ctime,
    and nothing sets it back.  A ctime is never later than the clock at
    its write; it may be earlier by up to the file system's timestamp
    granularity (a tick of the kernel's coarse clock, 1-10 ms; 1 s on
    ext4's small inodes): a write in the build's first such interval is
    not seen."""
    for rel in sorted(files):
        try:
            if os.stat(os.path.join(tree, rel)).st_ctime_ns > since:
                return rel
        except OSError:
            return rel
    return None


def write_stamp(stamp, tree, kb, what, src=None, since=None):
    """The stamp of a build of tree in kb from source path src (default:
    tree), started at since (time.time_ns()); returns {file: digest} of
    every file it was built from.  No stamp (Unstamped) if one of them
    was written after since: its digest now may not be the content kbuild
    compiled, and a stamp would let a later run trust that content
    unbuilt (the next run builds again)."""
    src = src or tree
    deps = {f for f in KCONFIG_FILES if os.path.isfile(os.path.join(tree, f))}
    deps |= kconfig_deps(kb) | makefile_deps(tree)
    deps = {f for f in deps if os.path.isfile(os.path.join(tree, f))}
    for o in objs_of(tree):
        deps |= cmd_deps(kb, o, src)
    digests = file_digests(tree, deps)
    if digests is None:
        return None
    changed = since is not None and changed_since(tree, deps, since)
    if changed:
        raise Unstamped(changed)
    if stamp:
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        tmp = f"{stamp}.{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump({"what": what, "deps": sorted(deps),
                       "digest": digest_of(digests)}, f)
        os.replace(tmp, stamp)
    return digests


def write_deps_out(a, stamp):
    """--deps-out FILE: every file the stamp was verified on, one path a
    line, under the tree as given (a link stays a link): run-suite's
    result cache keys on them (tools/run-suite.c --input-list).  No stamp,
    no file: then nothing may be reused."""
    if not a.deps_out:
        return
    if os.path.exists(a.deps_out):
        os.unlink(a.deps_out)
    if not stamp or not os.path.isfile(stamp):
        return
    with open(stamp) as f:
        deps = json.load(f)["deps"]
    tmp = f"{a.deps_out}.{os.getpid()}"
    os.makedirs(os.path.dirname(os.path.abspath(a.deps_out)), exist_ok=True)
    with open(tmp, "w") as f:
        f.write("".join(os.path.join(a.given, d) + "\n" for d in deps))
    os.replace(tmp, a.deps_out)


SLOTS = 4		# O= slots per DIR: the least recently used is reused
SOURCES = {o[:-2] + ".c" for o in OBJS + OPTIONAL_OBJS}


def kernel_version(tree):
    """VERSION.PATCHLEVEL.SUBLEVEL of the tree's Makefile, as
    napitest.extract reads it; "?.?.?" if it has none."""
    try:
        v = extract.kernel_version(tree)
    except Error:
        return "?.?.?"
    return f"{v[0]}.{v[1]}.{v[2]}"


read_json, write_json = jsonfile.read, jsonfile.write


def link_farm(src, dst):
    """dst: src's directories, each file a link to src's."""
    for d, dirs, files in os.walk(src):
        out = os.path.join(dst, os.path.relpath(d, src))
        os.makedirs(out, exist_ok=True)
        for n in files + [x for x in dirs
                          if os.path.islink(os.path.join(d, x))]:
            os.symlink(os.path.join(d, n), os.path.join(out, n))


def point_slot(slot, tree):
    """Point slot/src at tree; True if it pointed elsewhere before."""
    src = os.path.join(slot, "src")
    meta = read_json(os.path.join(slot, "slot.json")) or {}
    if meta.get("tree") == tree and os.path.isdir(src):
        return False
    new = src + ".new"
    shutil.rmtree(new, ignore_errors=True)
    os.makedirs(new)
    for name in os.listdir(tree):
        p = os.path.join(tree, name)
        if name == "tools" and os.path.isdir(p) and not os.path.islink(p):
            link_farm(p, os.path.join(new, name))
        else:
            os.symlink(p, os.path.join(new, name))
    shutil.rmtree(src, ignore_errors=True)
    os.rename(new, src)
    meta["tree"] = tree
    write_json(os.path.join(slot, "slot.json"), meta)
    return True


def same_but_sources(tree, record):
    """Does tree have the content of the slot's last build in every file
    it was built from but the objects' own sources?  (No, when the files
    are unknown: its build failed, record_build() wrote None.)"""
    files = {k: v for k, v in (record.get("files") or {}).items()
             if k not in SOURCES}
    return bool(files) and file_digests(tree, files) == files


def choose_slot(top, tree, view):
    """(slot, how): "same" (last used for this tree path), "equal" (its
    last build of view read tree's content in all but the objects'
    sources), "new" (while there are fewer than SLOTS), "stale" (the
    least recently used of the same kernel version, other content)."""
    slots = sorted(os.path.join(top, n) for n in os.listdir(top)
                   if re.match(r"^slot-\d+$", n))
    metas = {s: read_json(os.path.join(s, "slot.json")) or {}
             for s in slots}
    for s in slots:
        if metas[s].get("tree") == tree:
            return s, "same"
    for s in slots:
        rec = metas[s].get("views", {}).get(view)
        if rec and same_but_sources(tree, rec):
            return s, "equal"
    version = kernel_version(tree)
    if len(slots) < SLOTS:
        # a new slot while there is room: reusing a stale one would remake
        # it on every switch between two trees (base and patched)
        n = 0
        while os.path.exists(os.path.join(top, f"slot-{n}")):
            n += 1
        s = os.path.join(top, f"slot-{n}")
        os.makedirs(s)
        write_json(os.path.join(s, "slot.json"), {"version": version})
        return s, "new"
    same = [s for s in slots if metas[s].get("version") == version]
    s = min(same or slots,
            key=lambda s: os.stat(os.path.join(s, "slot.json")).st_mtime)
    if metas[s].get("version") != version:
        shutil.rmtree(s)
        os.makedirs(s)
        write_json(os.path.join(s, "slot.json"), {"version": version})
        return s, "new"
    return s, "stale"


def redate(kb, when):
    """Every file of the O= tree kb dated when (None: now)."""
    for d, _, files in os.walk(kb):
        for n in files:
            p = os.path.join(d, n)
            if not os.path.islink(p):
                os.utime(p, None if when is None else (when, when))


def enter_slot(top, tree, view):
    """The slot to build view of tree in, pointed at tree, its O= tree
    made right for tree's content (see the module's docstring); returns
    (slot, src, how)."""
    slot, how = choose_slot(top, tree, view)
    point_slot(slot, tree)
    meta = read_json(os.path.join(slot, "slot.json"))
    rec = meta.get("views", {}).get(view)
    kb = os.path.join(slot, view)
    if os.path.isdir(kb) and (not rec or rec.get("tree") != tree):
        # kb was last made for another tree (or its build failed).
        equal = bool(rec and rec.get("files") and
                     same_but_sources(tree, rec))
        how = "equal" if equal else "stale"
        redate(kb, None if equal else 0)
        if not equal:
            # its .config is another Kconfig's: setup() makes it anew
            unconfigure(kb)
        for o in OBJS + OPTIONAL_OBJS:
            d, b = os.path.split(o)
            for f in (o, os.path.join(d, f".{b}.cmd")):
                if os.path.exists(os.path.join(kb, f)):
                    os.unlink(os.path.join(kb, f))
    meta["version"] = kernel_version(tree)
    write_json(os.path.join(slot, "slot.json"), meta)
    return slot, os.path.join(slot, "src"), how


def is_kconfig(rel, kb):
    """Is rel (changed) an input of the .config kconfig makes?"""
    return (rel in KCONFIG_FILES or
            os.path.basename(rel).startswith("Kconfig") or
            rel in kconfig_deps(kb))


def drop_stale(kb, src, tree, rec):
    """Before a build of tree after a stamp miss, in an O= tree kb last
    built for the same tree (rec: its record_build()).  make trusts
    mtimes; a file given other content with an older mtime (cp -a,
    rsync -a, tar x) leaves the objects built from its old content looking
    up to date, and a tree that no longer builds would pass.  So each
    object one of whose dependencies (its .cmd) no longer has the content
    it was built from is removed with its .cmd (so is one whose .cmd is
    gone), and make compiles it again.  A changed Kconfig file removes
    include/config/auto.conf, so that kbuild's syncconfig runs again, and
    every object.  A changed Makefile needs nothing: kbuild's if_changed
    compares each command line whatever the dates.  After a failed build
    (no record of its files) every object goes, and auto.conf.  Returns
    the objects removed."""
    if not rec or rec.get("tree") != tree:
        return []  # a new O= tree, or enter_slot() made it right
    files = rec.get("files")
    objs = objs_of(tree)
    drop, kconfig = list(objs), not files
    if files:
        changed = {rel for rel, sha in files.items()
                   if (file_digests(tree, [rel]) or {}).get(rel) != sha}
        deps = {}
        for o in objs:
            try:
                deps[o] = cmd_deps(kb, o, src)
            except OSError:
                deps[o] = None
        kconfig = any(is_kconfig(f, kb) for f in changed)
        if not kconfig:
            drop = [o for o in objs if deps[o] is None or deps[o] & changed]
    if kconfig and os.path.exists(os.path.join(kb, AUTO_CONF)):
        os.unlink(os.path.join(kb, AUTO_CONF))
    for o in drop:
        d, b = os.path.split(o)
        for f in (o, os.path.join(d, f".{b}.cmd")):
            if os.path.exists(os.path.join(kb, f)):
                os.unlink(os.path.join(kb, f))
    return drop


AUTO_CONF = "include/config/auto.conf"


def record_build(slot, view, tree, digests):
    """What view's O= tree in slot was last built from: tree, and the
    content of every file it read (None: unknown, its build failed)."""
    meta = read_json(os.path.join(slot, "slot.json")) or {}
    meta.setdefault("views", {})[view] = {"tree": tree, "files": digests}
    write_json(os.path.join(slot, "slot.json"), meta)


def setup(tree, work, view, env, logf):
    """Configure the O= dir of view; return (kb, forced, extra make args)."""
    kb = os.path.join(work, view)
    if view != "rt":
        enable, disable, want = KCONFIGS[view]
        kbuild_setup(tree, kb, env, logf, enable, disable, want)
        return kb, False, []
    if not os.path.exists(os.path.join(kb, ".forced")):
        enable, disable, want = KCONFIGS["rt"]
        try:
            kbuild_setup(tree, kb, env, logf, enable, disable, want)
            return kb, False, []
        except ToolError as e:
            if "did not stick" not in str(e):
                raise
            shutil.rmtree(kb)
            os.makedirs(kb)
            open(os.path.join(kb, ".forced"), "w").close()
    kb_rps, _, _ = setup(tree, work, "rps", env, logf)
    kbuild_setup_rt(tree, kb_rps, kb, env, logf)
    return kb, True, RT_ARGS


def config_wrong(kb, view, forced):
    """The first (CONFIG_ name, wanted value, value) of the view's want
    that kb's .config does not hold (kbuild's syncconfig rewrites it with
    the tree's own Kconfig), or None."""
    for name, value in KCONFIGS["rps" if forced else view][2]:
        got = kbuild_module.config_value(kb, name)
        if got != value:
            return name, value, got
    return None


def unconfigure(kb):
    """Drop kb's .config and forced mark: the next setup() makes them."""
    for f in (".config", ".forced"):
        if os.path.exists(os.path.join(kb, f)):
            os.unlink(os.path.join(kb, f))


class View:
    """One view's build after a stamp miss: its O= tree (prepare()), the
    kbuild of the objects (build(), which may run beside other views'),
    then its stamp (finish())."""

    def __init__(self, a, tree, top, work, view, config, env):
        self.a, self.tree, self.top, self.work = a, tree, top, work
        self.view, self.config, self.env = view, config, env
        self.logf = os.path.join(work, f"{config}.log")
        self.stamp = stamp_path(top, tree, view, env["MAKEARGS"])
        self.res = self.error = self.bad = None
        # when it started to read the tree (write_stamp())
        self.started = None
        self.done = False

    def prepare(self):
        """The O= tree: a slot's (or this path's own, from before the
        slots), made right for the tree's content."""
        # what it reads of the tree from here on may be what it builds
        self.started = time.time_ns()
        if os.path.exists(self.logf):
            os.unlink(self.logf)
        drop_kept(self.a, self.work, self.view)
        tree, view = self.tree, self.view
        if os.path.isfile(os.path.join(self.work, view, ".config")):
            # An O= tree of this path from before the slots: still right.
            self.slot, self.src, self.how = None, tree, "this path's"
            self.configure()
            drop_stale(self.kb, self.src, tree, {"tree": tree})
        else:
            self.slot, self.src, self.how = enter_slot(self.top, tree, view)
            rec = ((read_json(os.path.join(self.slot, "slot.json")) or {})
                   .get("views", {}).get(view))
            # made for this tree, content of the build unknown until it
            # builds (drop_stale() after a failed build)
            record_build(self.slot, view, tree, None)
            self.configure()
            drop_stale(self.kb, self.src, tree, rec)

    def configure(self):
        self.kb, self.forced, self.extra = setup(
            self.src, self.slot or self.work, self.view, self.env, self.logf)

    def build(self):
        """kbuild of the objects; any error is kept for finish() (in a
        thread of build_views(), it would otherwise be lost)."""
        if self.started is None:
            self.started = time.time_ns()
        try:
            self.res = kbuild(self.src, self.kb, self.env, self.logf,
                              self.a.jobs, self.extra, strict=False,
                              objs=objs_of(self.tree))
        except BaseException as e:  # re-raised by finish()
            self.error = e

    def finish(self):
        """The objects that did not build; the stamp if all did.  A
        .config another tree's Kconfig made (a reused O= tree) is made
        this tree's by the build: the view is set up anew and built once
        more."""
        for again in (True, False):
            if self.error:
                e, self.error = self.error, None
                raise e
            self.what = describe(self.view, self.forced)
            bad = [o for o, (st, _) in self.res.items()
                   if not st.startswith("ok")]
            wrong = config_wrong(self.kb, self.view, self.forced)
            if not wrong:
                break
            if not again:
                raise ToolError(f"CONFIG_{wrong[0]}={wrong[1] or '(unset)'}"
                                f" does not hold in {self.kb}/.config after "
                                f"the build ({wrong[2] or 'unset'}; see "
                                f"{self.logf})")
            unconfigure(self.kb)
            self.configure()
            self.build()
        self.bad = bad
        self.done = not bad
        if not bad:
            try:
                digests = write_stamp(self.stamp, self.tree, self.kb,
                                      self.what, self.src, self.started)
            except Unstamped as e:
                digests = None
                print(f"kbuild {self.config}: "
                      f"{os.path.join(self.a.given, e.args[0])} was written "
                      "during the build: not stamped, the next run builds "
                      "it again")
            if self.slot:
                record_build(self.slot, self.view, self.tree, digests)
        return bad


def build_views(views):
    """Build the views side by side (the first is the one asked for;
    the others are --also's): one make each, the kbuild overhead of each
    (its make files, its compiler probes) and its compiles overlapping the
    others'.  The O= trees are prepared and the stamps written one view at
    a time.  A view other than the first that fails is left to its own
    check, which builds it again and reports it."""
    todo = []
    for i, v in enumerate(views):
        try:
            v.prepare()
            todo.append(v)
        except Exception:  # an also-view's: left to its own check
            if not i:
                raise
    threads = []
    try:
        for v in todo[1:]:
            threads.append(threading.Thread(target=v.build))
            threads[-1].start()
        todo[0].build()
    finally:
        # no view's make outlives the lock
        for t in threads:
            t.join()
    for v in todo[1:]:
        try:
            v.finish()
        except Exception:  # its own check builds it again and says why
            v.done, v.bad = False, None
    return todo[0].finish()


def check(a):
    tree = os.path.realpath(a.tree)
    for f in ("Makefile", "scripts/Makefile.build", "arch/x86/Makefile",
              "scripts/config"):
        if not os.path.isfile(os.path.join(tree, f)):
            raise ToolError(f"{tree} is not a full kernel tree (no {f}): "
                            "kbuild cannot build it; give a full tree "
                            "(kernel-src/prepare-tree --full VARIANT)")
    for tool in ("gcc", "make", "flex", "bison", "bc"):
        if not shutil.which(tool):
            raise ToolError(f"{tool} is not installed (tools/install-deps)")
    cc = "ccache gcc" if shutil.which("ccache") else "gcc"
    env = {"MAKEARGS": [f"CC={cc}", f"HOSTCC={cc}"]}
    # kbuild records real paths (abs_srctree := $(realpath ...)) in
    # .o.cmd: the slots' src must be a real path too (BUILD= a link)
    top = os.path.realpath(a.dir)
    # kbuild's -I paths are absolute, each slot's own (slot-N/src/...):
    # ccache hashes them, so a slot never hit what another compiled.
    # Under CCACHE_BASEDIR they are relative to O= (../src/...), the same
    # in every slot; gcc's depfile is then relative too (cmd_deps).
    os.environ.setdefault("CCACHE_BASEDIR", top)
    # Per tree path: its logs and which stamps its files were verified on.
    work = os.path.join(top, hashlib.sha256(tree.encode()).hexdigest()[:12])
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "tree"), "w") as f:
        f.write(tree + "\n")
    view = VIEW[a.config]
    t0 = time.time()
    # One kbuild-check at a time: the slots are shared by every tree, the
    # views share the rps .config, and CTest runs rps and rps-threads at
    # once.  Inside one, the views build side by side (build_views()).
    with open(os.path.join(top, "lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        v = View(a, tree, top, work, view, a.config, env)
        what = stamp_hit(v.stamp, tree, work)
        if what:
            if os.path.exists(v.logf):
                os.unlink(v.logf)
            print(f"kbuild {a.config}: ok: {' '.join(objs_of(tree))} "
                  "unchanged since "
                  f"they last built ({what})")
            write_deps_out(a, v.stamp)
            return 0
        if a.unverified:
            # The variant's path came from the memo of its resolution:
            # prepare-tree verifies (or rebuilds) it before a build.
            return None
        lines = kept_failure(work, v)
        if lines:
            for line in lines:
                print(line)
            return 1
        views = [v] + [View(a, tree, top, work, VIEW[c], c, env)
                       for c in also_configs(getattr(a, "also", None),
                                             view)]
        views[1:] = [x for x in views[1:]
                     if not stamp_hit(x.stamp, tree, work)]
        bad = build_views(views)
        keep_failures(a, work, tree, views)
        for x in views[1:]:
            print(f"kbuild {a.config}: with it, {x.config}'s view "
                  f"({x.view}): " + ("ok" if x.done else
                                     "did not build; its own check says "
                                     "why"))
        if not bad:
            write_deps_out(a, v.stamp)
            print(f"kbuild {a.config}: ok: {' '.join(objs_of(tree))} build "
                  f"({v.what}; {time.time() - t0:.1f} s; O= {v.kb}, "
                  f"{v.how})")
            return 0
    for line in failure_lines(a.config, v, tree, bad):
        print(line)
    return 1


def failure_lines(config, v, tree, bad):
    """What kbuild-check CONFIG prints when view v of tree did not build:
    the compiler's first error at the tree's line, then the objects and
    the command."""
    with open(v.logf, errors="replace") as f:
        err = first_error(f.read(), v.src, v.kb)
    return [f"kbuild {config}: build failed: "
            f"{err or v.res[bad[0]][1] or 'see the log'}",
            f"  {', '.join(bad)} of {tree} "
            f"{'does' if len(bad) == 1 else 'do'} not build ({v.what})",
            f"  command: make -C {v.src} O={v.kb} {' '.join(v.extra)} "
            f"{' '.join(bad)}"
            f"{f' ({v.src}: links to {tree})' if v.slot else ''}"
            f"; log: {v.logf}"]


# The make check this check is part of (the Makefile sets it for CTest;
# run-suite does not key a result on it): a failure kept for another
# configuration is for that run only.
RUN_VAR = "NAPITEST_CHECK_RUN"


def kept_path(work, config):
    return os.path.join(work, f"failed-{config}.json")


def drop_kept(a, work, view):
    """Before view builds: no report kept for it stands any more."""
    for c in set(getattr(a, "also", None) or []) | {a.config}:
        if VIEW[c] == view and os.path.exists(kept_path(work, c)):
            os.unlink(kept_path(work, c))


def keep_failures(a, work, tree, views):
    """For each --also configuration whose view failed in this build
    (the one asked for or one built beside it): its report, which that
    configuration's own check in the same make check prints once instead
    of building the view again (a tree that does not build would
    otherwise be built once per configuration and view).  Kept for this
    make check (RUN_VAR) and the view's stamp (the objects' sources, the
    checker, the compiler) only; outside a make check nothing is kept."""
    run_id = os.environ.get(RUN_VAR)
    if not run_id:
        return
    for x in views:
        if x.done or x.bad is None:
            continue
        for c in getattr(a, "also", None) or []:
            if VIEW[c] == x.view and c != a.config:
                write_json(kept_path(work, c), {
                    "run": run_id, "stamp": x.stamp,
                    "lines": failure_lines(c, x, tree, x.bad)})


def kept_failure(work, v):
    """The report keep_failures() left for v's configuration in this make
    check, if it is for v's stamp; read once (removed)."""
    p = kept_path(work, v.config)
    rec = read_json(p)
    if rec is None:
        return None
    os.unlink(p)
    run_id = os.environ.get(RUN_VAR)
    if not run_id or rec.get("run") != run_id or \
            rec.get("stamp") != v.stamp:
        return None
    return rec["lines"]


def also_configs(also, view):
    """--also's configurations, one per view other than view."""
    seen, out = {view}, []
    for c in also or []:
        if VIEW[c] not in seen:
            seen.add(VIEW[c])
            out.append(c)
    return out


def main():
    """The command (kernel-src/kbuild-check): bad input, a missing tool or
    a tree kbuild cannot build is one error line and exit 1."""
    try:
        return run_check()
    except ToolError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1


def configs(arg):
    out = [c for c in arg.split(",") if c]
    for c in out:
        if c not in VIEW:
            raise argparse.ArgumentTypeError(
                f"{c}: not a configuration ({', '.join(sorted(VIEW))})")
    return out


def run_check():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("tree", nargs="?",
                    help="kernel tree (full; only read)")
    ap.add_argument("--variant", help="instead of a tree: the full tree of "
                    "this prepared variant (kernel-src/prepare-tree --full)")
    ap.add_argument("config", choices=sorted(VIEW),
                    help="configuration of the matrix")
    ap.add_argument("--dir", default=os.path.join("build", "kbuild"),
                    help="scratch directory: O= trees and stamps")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--also", metavar="CONFIG,...", type=configs,
                    help="after a stamp miss, also build these "
                    "configurations' views beside this one's, each that "
                    "misses its stamp (make check: the matrix's): their "
                    "own checks then find them built")
    ap.add_argument("--deps-out", metavar="FILE",
                    help="after a build or a stamp hit: write the files "
                    "the objects were verified on, one path a line")
    a = ap.parse_args()
    if bool(a.tree) == bool(a.variant):
        ap.error("give a tree or --variant, not both")
    if a.deps_out and os.path.exists(a.deps_out):
        os.unlink(a.deps_out)
    a.unverified = False
    if a.variant:
        a.tree = remembered(a.dir, a.variant)
        a.unverified = a.tree is not None
        if not a.tree:
            a.tree = prepared(a.variant, a.dir)
    a.given = a.tree
    rc = check(a)
    if rc is None:
        a.tree, a.unverified = prepared(a.variant, a.dir), False
        a.given = a.tree
        rc = check(a)
    return rc


def prepare_inputs_key(variant):
    """What prepare-tree's answer for the variant depends on: the script,
    trees.conf, the patches and the cache's location."""
    h = hashlib.sha256(repr((variant, os.environ.get("NAPITEST_CACHE"),
                             os.environ.get("XDG_CACHE_HOME"),
                             os.environ.get("HOME"))).encode())
    files = [os.path.join(HERE, "prepare-tree"),
             os.path.join(HERE, "trees.conf")]
    for d, _, fs in os.walk(os.path.join(HERE, "patches")):
        files += [os.path.join(d, f) for f in fs]
    for p in sorted(files):
        with open(p, "rb") as f:
            h.update(p.encode() + b"\0" + f.read())
    return h.hexdigest()


def remembered(top, variant):
    """The full tree of the variant as prepare-tree last gave it, if its
    inputs are the same and the entry is still there (unverified: a stamp
    hit verifies the content kbuild reads; a miss asks prepare-tree)."""
    try:
        with open(os.path.join(top, f"variant-{variant}.json")) as f:
            r = json.load(f)
    except (OSError, ValueError):
        return None
    if r.get("key") != prepare_inputs_key(variant) or \
            not os.path.isfile(os.path.join(r["path"], ".napitest-stamp")):
        return None
    return r["path"]


def prepared(variant, top=None):
    """prepare-tree --full VARIANT (verifies or rebuilds the entry)."""
    rc, out = run([os.path.join(HERE, "prepare-tree"), "--full", variant])
    if rc:
        raise ToolError(f"prepare-tree --full {variant} failed:\n{out}")
    path = out.strip().splitlines()[-1]
    if top:
        os.makedirs(top, exist_ok=True)
        p = os.path.join(top, f"variant-{variant}.json")
        with open(f"{p}.{os.getpid()}", "w") as f:
            json.dump({"key": prepare_inputs_key(variant), "path": path}, f)
        os.replace(f"{p}.{os.getpid()}", p)
    return path


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
