# SPDX-License-Identifier: GPL-2.0
"""Series files (kernel-src/patches/series, series.as-posted, */series):
patch file names in order, one a line; '#' starts a comment, blank lines
are skipped.  The one parser: prepare-tree, series-check, the hunk matrix
and the hunk locator read series files through it.

  python3 -m napitest.series [--prog P] files SERIES   the patch paths
  python3 -m napitest.series [--prog P] unlisted DIR   every DIR/*.patch
                                                       is in a series file
"""

import argparse
import glob
import os
import sys

from napitest import Error


def entries(path):
    """[(line number, patch file name)] of a series file."""
    if not os.path.isfile(path):
        raise Error(f"{path} does not exist")
    out = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            name = raw.split("#", 1)[0].strip()
            if name:
                out.append((n, name))
    return out


def names(path):
    """The patch file names of a series file, in order."""
    return [name for _, name in entries(path)]


def paths(path):
    """The patch files of a series file, in order, each checked to exist
    beside it."""
    d = os.path.dirname(path)
    out = []
    for n, name in entries(path):
        p = os.path.join(d, name)
        if not os.path.isfile(p):
            raise Error(f"{path}:{n} lists '{name}', but there is no such "
                        "file")
        out.append(p)
    return out


def unlisted(d):
    """The .patch files of directory d that no series file of d names."""
    listed = set()
    for s in [os.path.join(d, "series")] + sorted(
            glob.glob(os.path.join(d, "series.*"))):
        if os.path.isfile(s):
            listed.update(names(s))
    return [p for p in sorted(glob.glob(os.path.join(d, "*.patch")))
            if os.path.basename(p) not in listed]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="series")
    ap.add_argument("--prog", default="series",
                    help="name for the error messages")
    ap.add_argument("what", choices=("files", "unlisted"))
    ap.add_argument("path")
    a = ap.parse_args(argv)
    try:
        if a.what == "files":
            for p in paths(a.path):
                print(p)
            return 0
        stray = unlisted(a.path)
        if stray:
            raise Error(f"{stray[0]} is not listed in any series file of "
                        f"{a.path}")
    except Error as e:
        print(f"{a.prog}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
