# SPDX-License-Identifier: GPL-2.0
"""A patch of the series: its files and hunks (parse(), render(): the hunk
matrix, and napitest.hunks for the locator), and applying it with patch(1):
the one definition of "no fuzz" (prepare-tree, series-check, the hunk
matrix).

Exact (the default): --fuzz=0, and any offset, fuzz, failed, ignored or
reversed hunk or malformed input in patch's output makes the application
fail, so a patch applies only where its line numbers say.  Not exact (the
hunk matrix, which leaves hunks out, so that later hunks move): --fuzz=0
still, offsets allowed, quiet.

  python3 -m napitest.patches [--prog P] apply TREE PATCH...
  python3 -m napitest.patches [--prog P] files PATCH...
      the paths the patches write (their "+++ b/" side), one a line,
      sorted, each once (make check's key: the series' files in the tree)
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

HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse(path):
    """A git format-patch file, file by file: [(preamble lines, path,
    [(hunk header, body lines, new-side start line)])].  Every line is as
    in the file, newline included, so that render() writes the patch back.
    A blank line in a hunk is a context line whose space an editor
    stripped; "\\ No newline at end of file" lines stay in the body."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.readlines()
    files, i = [], 0
    while i < len(lines):
        if not lines[i].startswith("diff --git "):
            i += 1
            continue
        pre, rel = [lines[i]], None
        i += 1
        while i < len(lines) and not lines[i].startswith(("@@",
                                                          "diff --git ")):
            pre.append(lines[i])
            if lines[i].startswith("+++ "):
                rel = lines[i][4:].strip()
                rel = rel[2:] if rel.startswith("b/") else rel
            i += 1
        hunks = []
        while i < len(lines) and lines[i].startswith("@@"):
            hunk, i = _hunk(lines, i)
            hunks.append(hunk)
        files.append((pre, rel, hunks))
    return files


def _hunk(lines, i):
    """(header, body, new start) of the hunk at lines[i]; the next index."""
    m = HUNK.match(lines[i])
    if not m:
        raise ValueError(f"malformed hunk header: {lines[i].strip()}")
    old = int(m.group(2) if m.group(2) is not None else 1)
    new = int(m.group(4) if m.group(4) is not None else 1)
    hdr, body, i = lines[i], [], i + 1
    while (old > 0 or new > 0) and i < len(lines):
        ln = lines[i]
        body.append(ln)
        i += 1
        kind = ln[0] if ln.strip("\r\n") else " "
        if kind in " -":
            old -= 1
        if kind in " +":
            new -= 1
    while i < len(lines) and lines[i].startswith("\\"):
        body.append(lines[i])
        i += 1
    return (hdr, body, int(m.group(3))), i


def render(files, skip=()):
    """The patch text of parse()'s files without the hunks skip={(file
    index, hunk index)}; a file none of whose hunks is left goes too."""
    out = []
    for fi, (pre, _, hunks) in enumerate(files):
        keep = [h for hi, h in enumerate(hunks) if (fi, hi) not in skip]
        if keep:
            out += pre
            for hdr, body, _ in keep:
                out.append(hdr)
                out += body
    return "".join(out)


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


def apply(tree, patch, dry_run_first=True, run=_run, reverse=False):
    """Apply the patch file exactly (reverse: take it out exactly); None,
    or the error as one line.  With dry_run_first a patch that does not
    apply leaves the tree as it was.  run(argv) -> (status, output) runs
    the command (a caller's logger)."""
    for dry in ((True, False) if dry_run_first else (False,)):
        rc, out = run(command(tree, patch, reverse=reverse, dry_run=dry))
        bad = problems(rc, out)
        if bad:
            return "; ".join(bad)
    return None


def files(paths):
    """The tree paths the patches write, sorted, each once (a file the
    patch deletes, "+++ /dev/null", is none)."""
    return sorted({rel for p in paths for _, rel, _ in parse(p)
                   if rel and rel != "/dev/null"})


def main(argv=None):
    ap = argparse.ArgumentParser(prog="patches")
    ap.add_argument("--prog", default="patches", help="(for symmetry)")
    ap.add_argument("what", choices=("apply", "files"))
    ap.add_argument("args", nargs="+", metavar="TREE PATCH... | PATCH...")
    a = ap.parse_args(argv)
    if a.what == "files":
        try:
            print("\n".join(files(a.args)))
        except OSError as e:
            print(f"{a.prog}: error: {e.filename}: {e.strerror}",
                  file=sys.stderr)
            return 1
        return 0
    if len(a.args) < 2:
        ap.error("apply needs TREE PATCH...")
    tree = a.args[0]
    for p in a.args[1:]:
        rc, out = _run(command(tree, p))
        if problems(rc, out):
            # The caller names the patch and the tree (prepare-tree dies).
            sys.stderr.write("".join("  " + ln + "\n"
                                     for ln in out.splitlines()))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
