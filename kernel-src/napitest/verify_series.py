# SPDX-License-Identifier: GPL-2.0
"""kernel-src/verify-series: check that the backport series applies exactly
to a pristine tree (Debian's linux-source-6.1, the full tarball or the
unpacked subset: net/core, kernel/softirq.c, arch/x86/Kconfig, include/,
Makefile).  The tree is never written to: the files the patches touch are
copied into a work directory and everything is applied there.

  1. rt-base/series            on the pristine copy         -> "base"
  2. series (buildable order)  one by one on base           -> "patched"
  3. series.as-posted          one by one on base           -> "as-posted"
  4. the final states of 2 and 3 must be identical
  5. each seed-*/series        on a copy of "patched", separately

Series files are read by napitest.series, patches applied by
napitest.patches.apply() (--fuzz=0; any fuzz, offset, failed, reversed or
malformed hunk fails, naming the patch and its files) and the tree's
version read by napitest.extract.kernel_version().  A seed whose patch
touches a file the tree lacks (init/Kconfig in the subset) is SKIPPED.

usage: kernel-src/verify-series [-k KEEPDIR] [--patches DIR] TREE
  -k KEEPDIR     keep the resulting trees (base, patched, as-posted,
                 seed-*) in KEEPDIR, which must not exist
  --patches DIR  the patch directory (default: kernel-src/patches)

Exit status: 0 every application exact, 1 a failure, 2 bad usage.
"""

import argparse
import filecmp
import glob
import os
import shutil
import sys
import tempfile

from . import Error
from . import extract, patches, series, trees_conf

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATCHES = os.path.join(HERE, "patches")


class Verify:
    """One run: counts and the output lines."""

    def __init__(self, pdir, out=print):
        self.pdir = pdir
        self.out = out
        self.ok = self.failed = self.skipped = 0

    def series_file(self, rel):
        return os.path.join(self.pdir, rel)

    def seeds(self):
        return sorted(d for d in glob.glob(os.path.join(self.pdir, "seed-*"))
                      if os.path.isfile(os.path.join(d, "series")))

    def needed(self):
        """The files rt-base and both orders of the series write."""
        ps = []
        for s in ("rt-base/series", "series", "series.as-posted"):
            ps += series.paths(self.series_file(s))
        return patches.files(ps)

    def apply_series(self, tree, sfile, label):
        """Apply sfile's patches in order on tree; False at the first that
        does not apply exactly."""
        try:
            ps = series.paths(sfile)
        except Error as e:
            self.out(f"FAIL  [{label}] {e}")
            self.failed += 1
            return False
        for p in ps:
            files = " ".join(patches.files([p]))
            err = patches.apply(tree, p, dry_run_first=False)
            if err:
                self.out(f"FAIL  [{label}] {os.path.basename(p)}")
                self.out(f"      files: {files}")
                self.out(f"      | {err}")
                self.failed += 1
                return False
            self.out(f"ok    [{label}] {os.path.basename(p)}  ({files})")
            self.ok += 1
        return True


def copy_files(src, dst, rels):
    """Copy the listed files of src that exist into dst."""
    for rel in rels:
        s = os.path.join(src, rel)
        if os.path.isfile(s):
            os.makedirs(os.path.dirname(os.path.join(dst, rel)),
                        exist_ok=True)
            shutil.copy2(s, os.path.join(dst, rel))


def differ(a, b):
    """The relative paths that differ between the trees a and b."""
    out = []
    c = filecmp.dircmp(a, b)
    stack = [(c, "")]
    while stack:
        c, rel = stack.pop()
        out += [os.path.join(rel, f) for f in
                c.left_only + c.right_only + c.diff_files + c.funny_files]
        stack += [(sub, os.path.join(rel, n))
                  for n, sub in c.subdirs.items()]
    return sorted(out)


def version_line(tree):
    try:
        v = extract.kernel_version(tree)
    except Error:
        return None
    return f"{v[0]}.{v[1]}.{v[2]}{v[3]}"


def verify(tree, work, pdir=PATCHES, out=print):
    """Run the checks on tree in the empty directory work; 0 or 1."""
    vf = Verify(pdir, out)
    out(f"verify: tree    {tree}")
    out(f"verify: patches {pdir}")
    out(f"verify: work    {work}")
    v = version_line(tree)
    if v:
        out(f"verify: kernel  {v} (expected {trees_conf.base_line()})")
    needed = vf.needed()
    for rel in needed:
        if not os.path.isfile(os.path.join(tree, rel)):
            out(f"FAIL  {rel} is not in {tree} (needed by the series)")
            return 1
    seeds = vf.seeds()
    base = os.path.join(work, "base")
    os.makedirs(base)
    copy_files(tree, base, patches.files(
        [p for s in seeds for p in series.paths(os.path.join(s, "series"))])
        + needed)
    out("== rt-base/series")
    if not vf.apply_series(base, vf.series_file("rt-base/series"),
                           "rt-base"):
        out(f"verify: FAILED in rt-base ({vf.failed} failure(s))")
        return 1
    done = {}
    for s, name in (("series", "patched"), ("series.as-posted", "as-posted")):
        d = os.path.join(work, name)
        shutil.copytree(base, d, symlinks=True)
        out(f"== {s}")
        done[name] = vf.apply_series(d, vf.series_file(s), s)
    if all(done.values()):
        diff = differ(os.path.join(work, "patched"),
                      os.path.join(work, "as-posted"))
        if diff:
            out("FAIL  final trees of series and series.as-posted differ: "
                + " ".join(diff))
            vf.failed += 1
        else:
            out("ok    final trees of series and series.as-posted are "
                "identical")
    else:
        out("SKIP  final-state comparison (a series did not apply "
            "completely)")
    if not done["patched"]:
        out("SKIP  seed directories (series did not apply completely)")
        out(f"verify: {vf.ok} patch application(s) ok, {vf.failed} "
            "failure(s)")
        out("verify: FAILED")
        return 1
    for sd in seeds:
        verify_seed(vf, tree, work, sd)
    out(f"verify: {vf.ok} patch application(s) ok, {vf.failed} failure(s), "
        f"{vf.skipped} seed dir(s) skipped")
    if vf.failed:
        out("verify: FAILED")
        return 1
    out("verify: PASSED")
    return 0


def verify_seed(vf, tree, work, sd):
    """Apply one seed directory's series on a copy of "patched"."""
    name = os.path.basename(sd)
    sfile = os.path.join(sd, "series")
    vf.out(f"== {name}/series (on top of series)")
    missing = [rel for rel in patches.files(series.paths(sfile))
               if not os.path.isfile(os.path.join(tree, rel))]
    if missing:
        vf.out(f"SKIP  [{name}] not present in the given tree: "
               + " ".join(missing))
        vf.out("      (source subset?) run verify-series on the full "
               "6.1.192 tree to check it")
        vf.skipped += 1
        return
    d = os.path.join(work, name)
    shutil.copytree(os.path.join(work, "patched"), d, symlinks=True)
    vf.apply_series(d, sfile, name)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="verify-series",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("-k", dest="keep", metavar="KEEPDIR")
    ap.add_argument("--patches", default=PATCHES, metavar="DIR")
    ap.add_argument("tree")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.tree):
        print(f"verify-series: error: {a.tree} is not a directory",
              file=sys.stderr)
        return 2
    tree = os.path.realpath(a.tree)
    pdir = os.path.realpath(a.patches)
    try:
        if a.keep:
            if os.path.exists(a.keep):
                print(f"verify-series: error: {a.keep} already exists",
                      file=sys.stderr)
                return 2
            os.makedirs(a.keep)
            rc = verify(tree, os.path.realpath(a.keep), pdir)
            print(f"verify: results kept in {os.path.realpath(a.keep)}")
            return rc
        with tempfile.TemporaryDirectory(prefix="verify-series.") as work:
            return verify(tree, work, pdir)
    except Error as e:
        print(f"verify-series: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
