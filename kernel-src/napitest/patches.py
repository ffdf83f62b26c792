# SPDX-License-Identifier: GPL-2.0
"""Applying a patch of the series with patch(1): the one definition of
"no fuzz" (prepare-tree, series-check, the hunk matrix).

Exact (the default): --fuzz=0, and any offset, fuzz, failed, ignored or
reversed hunk or malformed input in patch's output makes the application
fail, so a patch applies only where its line numbers say.  Not exact (the
hunk matrix, which leaves hunks out, so that later hunks move): --fuzz=0
still, offsets allowed, quiet.

  python3 -m napitest.patches [--prog P] apply TREE PATCH...
"""

import argparse
import re
import subprocess
import sys

PATCH = ["patch", "-p1", "--fuzz=0", "--no-backup-if-mismatch"]
# A line of patch's output that means the patch did not apply exactly.
NOT_EXACT = re.compile(r"offset|fuzz|succeeded at|FAILED|ignored|reversed|"
                       r"previously applied|malformed|can't find|garbage|"
                       r"No such file|missing header", re.I)


def command(tree, patch=None, reverse=False, dry_run=False, exact=True):
    """The patch(1) command line; patch None: the patch on stdin."""
    argv = PATCH + (["-R"] if reverse else [])
    if exact:
        argv += ["-f"]
    else:
        argv += ["--batch"] + ([] if reverse else ["--forward"]) + ["-s"]
    argv += ["-d", tree] + (["-i", patch] if patch else [])
    return argv + (["--dry-run"] if dry_run else [])


def problems(rc, out):
    """The lines of patch's output that say it did not apply exactly (a
    non-zero status with none: its last lines)."""
    bad = [ln for ln in out.splitlines() if NOT_EXACT.search(ln)]
    if rc != 0 and not bad:
        bad = out.strip().splitlines()[-3:] or [f"patch exited {rc}"]
    return bad


def _run(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    return r.returncode, r.stdout


def apply(tree, patch, dry_run_first=True, run=_run):
    """Apply the patch file exactly; None, or the error as one line.  With
    dry_run_first a patch that does not apply leaves the tree as it was.
    run(argv) -> (status, output) runs the command (a caller's logger)."""
    for dry in ((True, False) if dry_run_first else (False,)):
        rc, out = run(command(tree, patch, dry_run=dry))
        bad = problems(rc, out)
        if bad:
            return "; ".join(bad)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="patches")
    ap.add_argument("--prog", default="patches", help="(for symmetry)")
    ap.add_argument("what", choices=("apply",))
    ap.add_argument("tree")
    ap.add_argument("patch", nargs="+")
    a = ap.parse_args(argv)
    for p in a.patch:
        rc, out = _run(command(a.tree, p))
        if problems(rc, out):
            # The caller names the patch and the tree (prepare-tree dies).
            sys.stderr.write("".join("  " + ln + "\n"
                                     for ln in out.splitlines()))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
