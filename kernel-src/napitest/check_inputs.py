# SPDX-License-Identifier: GPL-2.0
"""make check's CHECK_INPUTS (the Makefile): the files outside the
repository that a make check depends on, one path a line, sorted, for
tools/run-suite.c's key (--input-list):

  - what ninja's dependency log names (`ninja -t deps` on stdin: each
    target's line, then its dependencies indented by four spaces): the
    system headers the build read;
  - the tree files the extraction read: the prerequisites of every
    BUILD_DIR/gen*/extracted/extract.d (napitest.depfile);
  - the files the series' patches write, in the tree, and the tree's
    Makefile.

  ninja -t deps | python3 -m napitest.check_inputs --out FILE \\
      --build-dir BUILD_DIR --tree TREE PATCH...
"""

import argparse
import glob
import os
import sys

from . import depfile, patches


def ninja_deps(text):
    """The dependencies `ninja -t deps` lists, in order, each once."""
    return list(dict.fromkeys(ln[4:].rstrip("\n") for ln in
                              text.splitlines() if ln.startswith("    ")))


def extraction_inputs(build_dir):
    """The prerequisites of the build dir's extractions' depfiles."""
    out = []
    for p in sorted(glob.glob(os.path.join(build_dir, "gen*", "extracted",
                                           "extract.d"))):
        with open(p, errors="surrogateescape") as f:
            out += depfile.prerequisites(f.read())
    return out


def inputs(ninja_text, build_dir, tree, patch_files):
    tree_files = [os.path.join(tree, rel)
                  for rel in patches.files(patch_files)]
    return sorted(set(ninja_deps(ninja_text)) |
                  set(extraction_inputs(build_dir)) | set(tree_files) |
                  {os.path.join(tree, "Makefile")})


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.check_inputs")
    ap.add_argument("--prog", default="napitest.check_inputs")
    ap.add_argument("--out", required=True, help="the list, written "
                    "whole or not at all")
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("patches", nargs="*", metavar="PATCH")
    a = ap.parse_args(argv)
    try:
        paths = inputs(sys.stdin.read(), a.build_dir, a.tree, a.patches)
        tmp = a.out + ".tmp"
        with open(tmp, "w", errors="surrogateescape") as f:
            f.write("".join(p + "\n" for p in paths))
        os.replace(tmp, a.out)
    except OSError as e:
        print(f"{a.prog}: error: {e.filename}: {e.strerror}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
