# SPDX-License-Identifier: GPL-2.0
"""Find each hunk of kernel-src/patches/series in a kernel tree by content.

A hunk is located by its lines, not by its line numbers: the lines of its
pre-image (context and removed lines) and of its post-image (context and
added lines) vote for where it sits in the tree's file, the best window is
aligned with both images, and the lines that tell them apart (those whose
count differs between the two images) decide:

  present   every distinguishing line reads as the post-image
  missing   every one reads as the pre-image, or the hunk's place is not
            found at all (the file or the surrounding code is gone)
  modified  some read as either image and some as neither: the hunk was
            applied with changes, or later code rewrote its lines

Context lines may differ (context drift in later or earlier trees): they
only help to find the place.  Lines compare with whitespace collapsed.

usage: tools/hunks [--series FILE] [--prefix] TREE

one line per hunk: its id, status, the tree's file:line where it was
found, and its patch.  With --prefix: which prefix of the series the tree
is (unit/series-prefixes.txt: the hunks each prefix has), or the closest
one and the hunks in which the tree differs from it (exit 1).
"""

import argparse
import difflib
import os
import re
import sys

import napitest.patches
import napitest.series

# The repository: napitest/ is kernel-src/napitest (or a link to it).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SERIES = os.path.join(ROOT, "kernel-src", "patches", "series")


class Hunk:
    """Hunk N (in file order, across the patch's files) of patch P."""

    def __init__(self, patch, pnum, subject, idx, path, header, body):
        self.patch, self.pnum, self.subject = patch, pnum, subject
        self.idx, self.path, self.header, self.body = idx, path, header, body
        self.id = f"{pnum}.{idx}"
        m = re.match(r"@@ -(\d+)", header)
        self.old_start = int(m.group(1)) if m else 1

    def image(self, side):
        """Normalised lines of the pre-image (side '-') or post-image ('+')."""
        keep = (" ", side)
        return [norm(ln[1:]) for ln in self.body
                if ln[:1] in keep and norm(ln[1:])]


def norm(line):
    return " ".join(line.split())


def read_series(series=SERIES):
    """Patch file names of a series file, in order (# comments, blanks)."""
    return napitest.series.names(series)


def subject_of(lines):
    """The Subject: header, continuation lines joined, [PATCH n/m] dropped."""
    for i, ln in enumerate(lines):
        if ln.startswith("Subject:"):
            s = ln[len("Subject:"):].strip()
            j = i + 1
            while j < len(lines) and lines[j][:1] in (" ", "\t") and \
                    lines[j].strip():
                s += " " + lines[j].strip()
                j += 1
            return re.sub(r"^\[PATCH[^\]]*\]\s*", "", s)
        if not ln.strip():
            break
    return ""


def parse_patch(path):
    """[Hunk] of one git format-patch file (napitest.patches.parse())."""
    name = os.path.basename(path)
    pnum = name[:4].lstrip("0") or "0"
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        subject = subject_of(f.read().split("\n"))
    hunks = []
    for _, rel, hs in napitest.patches.parse(path):
        for hdr, body, _ in hs:
            if rel is None:
                continue
            hunks.append(Hunk(name, pnum, subject, len(hunks) + 1, rel,
                              hdr.rstrip("\n"),
                              [ln.rstrip("\n") or " " for ln in body
                               if not ln.startswith("\\")]))
    return hunks


def series_hunks(series=SERIES):
    d = os.path.dirname(series)
    return [h for p in read_series(series)
            for h in parse_patch(os.path.join(d, p))]


def _window(flines, index, h):
    """(start, end) of the file lines that hold the hunk, or None: the span
    of the tree's lines matched by the image (pre or post) that matches
    best, around the place most of the hunk's distinctive lines point to."""
    old, new = h.image("-"), h.image("+")
    votes = {}
    for img in (old, new):
        for off, ln in enumerate(img):
            pos = index.get(ln, ())
            if len(pos) > 20:  # "}", "return 0;": no information
                continue
            for p in pos:
                votes[p - off] = votes.get(p - off, 0) + 1
    best = None
    n = max(len(old), len(new))
    for start, _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0]))[:8]:
        lo, hi = max(0, start - 3), min(len(flines), start + n + 3)
        win = flines[lo:hi]
        for img in (old, new):
            if not img:
                continue
            sm = difflib.SequenceMatcher(None, img, win, autojunk=False)
            blocks = [b for b in sm.get_matching_blocks() if b.size]
            size = sum(b.size for b in blocks)
            if blocks and (best is None or size > best[0]):
                best = (size, lo + blocks[0].b,
                        lo + blocks[-1].b + blocks[-1].size, len(img))
    # At least half of the lines of the image that matched must be there.
    if best is None or best[0] < 0.5 * best[3]:
        return None
    return best[1], best[2]


def trivial(line):
    """Lines too common to tell two images apart on their own."""
    return len(line) < 4 or line in ("#endif", "#else", "} else {", "break;",
                                     "return 0;", "return;")


class Located:
    """Where a hunk stands in a tree: status, and the tree's line (1-based,
    0 if the place is not found) with what the tree has there against what
    the patch writes (one distinguishing line each, "" if none)."""

    def __init__(self, status, line=0, have="", want=""):
        self.status, self.line, self.have, self.want = status, line, have, \
            want


def classify(h, flines, index, linenos=None):
    """Located(present | missing | modified) for hunk h in a file's
    normalised lines (linenos: their line numbers in the file)."""
    if flines is None:
        return Located("missing")
    old, new = h.image("-"), h.image("+")
    distinct = {ln for ln in old + new if old.count(ln) != new.count(ln)}
    if not distinct:
        return Located("present")  # whitespace-only hunk
    w = _window(flines, index, h)
    if w is None:
        return Located("missing", want=next(
            (ln for ln in new if ln in distinct), ""))
    lo = max(0, w[0] - 1)
    win = flines[lo:w[1] + 1]
    if any(not trivial(ln) for ln in distinct):
        distinct = {ln for ln in distinct if not trivial(ln)}
    votes, bad = set(), []
    for ln in distinct:
        c = win.count(ln)
        v = ("+" if c == new.count(ln) else
             "-" if c == old.count(ln) else "?")
        votes.add(v)
        if v != "+":
            bad.append(ln)
    status = ("present" if votes == {"+"} else
              "missing" if votes == {"-"} else "modified")
    want = next((ln for ln in new if ln in bad and
                 new.count(ln) > old.count(ln)), "")
    have = next((ln for ln in win if ln in bad and
                 old.count(ln) > new.count(ln)), "")
    at = w[0]
    if have:
        at = lo + win.index(have)
    line = linenos[at] if linenos and at < len(linenos) else 0
    return Located(status, line, have, want)


def read_norm(path):
    """(normalised non-blank lines, their line numbers), or (None, None)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            pairs = [(norm(ln), i) for i, ln in enumerate(f, 1)]
    except OSError:
        return None, None
    pairs = [(ln, i) for ln, i in pairs if ln]
    return [ln for ln, _ in pairs], [i for _, i in pairs]


def locate_detail(tree, hunks=None):
    """{hunk id: Located} for every hunk of the series in tree."""
    hunks = hunks if hunks is not None else series_hunks()
    files, out = {}, {}
    for h in hunks:
        if h.path not in files:
            fl, nos = read_norm(os.path.join(tree, h.path))
            idx = {}
            for i, ln in enumerate(fl or ()):
                idx.setdefault(ln, []).append(i)
            files[h.path] = (fl, idx, nos)
        fl, idx, nos = files[h.path]
        out[h.id] = classify(h, fl, idx, nos)
    return out


def locate(tree, hunks=None):
    """{hunk id: status} for every hunk of the series in tree."""
    return {i: loc.status for i, loc in locate_detail(tree, hunks).items()}


STATUS_CHAR = {"present": "P", "modified": "M", "missing": "-"}


def signature(statuses, hunks):
    """The hunks' statuses ({id: status or Located}) in series order, one
    character each: P present, M modified, - missing."""
    return "".join(STATUS_CHAR[getattr(statuses[h.id], "status",
                                       statuses[h.id])] for h in hunks)


def detect_prefix(sig, prefixes):
    """(prefix, None) for the prefix whose hunks are the tree's, else
    (closest prefix, [index of each hunk where the tree differs]).  The
    closest differs in the fewest hunks; on a tie, the longest."""
    for p in prefixes:
        if p.sig == sig:
            return p, None
    if any(len(p.sig) != len(sig) for p in prefixes):
        raise ValueError(f"the prefix table has {len(prefixes[0].sig)} "
                         f"hunks, the series {len(sig)}: regenerate "
                         "unit/series-prefixes.txt (tools/series-prefixes)")

    def diff(p):
        return [i for i, (a, b) in enumerate(zip(p.sig, sig)) if a != b]
    near = min(prefixes, key=lambda p: (len(diff(p)), -p.n))
    return near, diff(near)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--series", default=SERIES)
    ap.add_argument("--prefix", action="store_true")
    ap.add_argument("tree")
    a = ap.parse_args(argv)
    if not os.path.isdir(a.tree):
        print(f"hunks: error: {a.tree}: not a directory", file=sys.stderr)
        return 2
    hunks = series_hunks(a.series)
    st = locate_detail(a.tree, hunks)
    if a.prefix:
        from napitest import invariants
        try:
            p, diff = detect_prefix(signature(st, hunks),
                                    invariants.load_prefixes())
        except (OSError, ValueError) as e:
            print(f"hunks: error: {e}", file=sys.stderr)
            return 2
        if diff is None:
            print(f"prefix {p.n} ({p.patch})")
            return 0
        print(f"no prefix of the series; closest: prefix {p.n} ({p.patch}),"
              " which differs in " + ", ".join(
                  f"{hunks[i].id} ({st[hunks[i].id].status}, prefix {p.n}: "
                  f"{[k for k, v in STATUS_CHAR.items() if v == p.sig[i]][0]})"
                  for i in diff))
        return 1
    for h in hunks:
        loc = st[h.id]
        where = f"{h.path}:{loc.line}" if loc.line else h.path
        print(f"{h.id}\t{loc.status}\t{where}\t{h.patch[:4]} {h.subject}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
