# SPDX-License-Identifier: GPL-2.0
"""The invariant catalogue (docs/invariants.md) and the hunk guard table
(hunk-matrix/guards.tsv): the one parser of each.

docs/invariants.md has one table row per invariant:
  | ID | statement | patch / hunks | userspace tests | configs | KUnit | reversion |
A test is named in backquotes; a test's invariant is its name's vNN prefix,
or, for the explorer's scenarios (explore_*), the row that names it.
"""

import os
import re

# The repository: napitest/ is kernel-src/napitest (or a link to it).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "invariants.md")
GUARDS = os.path.join(ROOT, "hunk-matrix", "guards.tsv")
PREFIXES = os.path.join(ROOT, "unit", "series-prefixes.txt")
TEST_RE = re.compile(r"`((?:v\d+|explore)_[a-z0-9_]+)`")
COLUMNS = ["ID", "statement", "patch / hunks", "userspace tests", "configs",
           "KUnit (UML)", "reversion that makes it fail"]


class Invariant:
    def __init__(self, ident, cells):
        self.id = ident
        self.statement = cells[1]
        self.guards = cells[2]
        self.tests = TEST_RE.findall(cells[3])
        self.kunit = TEST_RE.findall(cells[5])
        self.reversion = cells[6]

    def hunks(self):
        """The hunk ids the patch / hunks cell names ("14: 14.6-14.7,
        14.11" -> 14.6, 14.7, 14.11)."""
        out = []
        for a, b in re.findall(r"\b(\d+\.\d+)(?:-(\d+\.\d+))?\b",
                               self.guards):
            p, n = a.split(".")
            last = int(b.split(".")[1]) if b else int(n)
            out += [f"{p}.{i}" for i in range(int(n), last + 1)]
        return out


def split_row(line):
    """The cells of a markdown table row ('\\|' is a literal bar)."""
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def load(doc=DOC):
    """[Invariant] in table order; ValueError names a malformed row."""
    out = []
    header = None
    with open(doc, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("|"):
                continue
            cells = split_row(line)
            if cells and cells[0] == "ID":
                header = cells
                if header != COLUMNS:
                    raise ValueError(f"{doc}:{n}: columns are {header}, "
                                     f"expected {COLUMNS}")
                continue
            if header and cells and re.fullmatch(r"V\d+", cells[0]):
                if len(cells) != len(COLUMNS):
                    raise ValueError(f"{doc}:{n}: {cells[0]}: {len(cells)} "
                                     f"cells, expected {len(COLUMNS)}")
                out.append(Invariant(cells[0], cells))
    return out


def invariant_of(test, invs=None):
    """The invariant ID a test (cmocka or KUnit case) stands for, or None."""
    m = re.match(r"v(\d+)_", test)
    if m:
        return f"V{int(m.group(1))}"
    for inv in invs or ():
        if test in inv.tests:
            return inv.id
    return None


GUARD_COLUMNS = ("hunk", "patch", "subject", "file", "function", "result",
                 "on_patched", "invariants", "tests")


class Guard:
    """One row of guards.tsv: a hunk and the invariants whose tests fail
    without it (the hunk matrix's kill table)."""

    def __init__(self, row):
        (self.hunk, self.patch, self.subject, self.path, self.function,
         self.result, self.on_patched, inv, self.tests) = row
        self.invariants = inv.split() if inv != "-" else []


def guards_text(rows):
    """guards.tsv's text (make hunk-matrix writes it): rows are lists of
    GUARD_COLUMNS' cells."""
    lines = ["\t".join(GUARD_COLUMNS)]
    for row in rows:
        if len(row) != len(GUARD_COLUMNS):
            raise ValueError(f"a guard row of {len(row)} cells: {row}")
        lines.append("\t".join(row))
    return "\n".join(lines) + "\n"


def load_guards(path=GUARDS):
    """[Guard] in series order."""
    out = []
    n_cols = len(GUARD_COLUMNS)
    with open(path, encoding="utf-8") as f:
        head = f.readline().rstrip("\n").split("\t")
        if tuple(head) != GUARD_COLUMNS:
            raise ValueError(f"{path}: not a guard table (header {head})")
        for n, line in enumerate(f, 2):
            row = line.rstrip("\n").split("\t")
            if len(row) != n_cols:
                raise ValueError(f"{path}:{n}: {len(row)} fields, "
                                 f"expected {n_cols}")
            out.append(Guard(row))
    return out


class Prefix:
    """Prefix N of kernel-src/patches/series as unit/series-prefixes.txt
    records it: its last patch, the hunks a tree at that prefix has (one
    character per hunk of the series, in series order: P present, M
    modified, - missing) and the tests that fail there, as
    "<suite>:<config> <test>"."""

    def __init__(self, n, patch, sig, measured=True):
        self.n, self.patch, self.sig = n, patch, sig
        self.measured = measured
        self.fails = set()
        self.why = {}       # a failing case: its reason, reason_kind()
        self.cases = set()  # every case the table knows


def reason_kind(text):
    """A failure's reason without what varies between trees that behave
    alike: file:line as the file's name, other paths (the tree's),
    addresses, the seed.  What a prefix's table keeps, so that a test
    failing there for another reason is not excused."""
    t = re.sub(r"(?:/?[\w.+-]+/)*([\w.+-]+\.[ch]):\d+(?::\d+)?", r"\1",
               text)
    t = re.sub(r"(?<![\w.])/(?:[\w.+-]+/)*[\w.+-]+", "<path>", t)
    t = re.sub(r"0x[0-9a-fA-F]{8,}", "0x?", t)
    t = re.sub(r"\bseed \d+", "seed ?", t)
    return " ".join(t.replace("#", "").split())[:240]


def load_prefixes(path=PREFIXES):
    """[Prefix] by N; ValueError names a malformed line.

    Lines: "prefix N PATCH SIGNATURE measured|unmeasured" (unmeasured:
    its hunks are known, its failures not yet),
    "fail N <suite>:<config> <test> [: REASON]" (REASON: reason_kind()
    of what it printed),
    and "case <suite>:<config> <test>" (every case that ran when the table
    was made: a newer one is not judged by it); # starts a comment."""
    out, cases = [], set()
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "prefix" and len(words) == 5 and \
                    words[1] == str(len(out)) and \
                    re.fullmatch(r"[PM-]+", words[3]) and \
                    words[4] in ("measured", "unmeasured"):
                out.append(Prefix(len(out), words[2], words[3],
                                  words[4] == "measured"))
            elif words[0] == "fail" and (len(words) == 4 or len(words) > 5
                                         and words[4] == ":") and \
                    words[1].isdigit() and int(words[1]) < len(out):
                key = f"{words[2]} {words[3]}"
                out[int(words[1])].fails.add(key)
                if len(words) > 5:
                    out[int(words[1])].why[key] = reason_kind(
                        " ".join(words[5:]))
            elif words[0] == "case" and len(words) == 3:
                cases.add(f"{words[1]} {words[2]}")
            else:
                raise ValueError(f"{path}:{n}: not 'prefix N PATCH HUNKS "
                                 "measured|unmeasured' "
                                 f"(N = {len(out)}), 'fail N SUITE:CONFIG "
                                 "TEST [: REASON]' of a prefix above or 'case "
                                 "SUITE:CONFIG TEST'")
    if not out or len({len(p.sig) for p in out}) != 1:
        raise ValueError(f"{path}: no prefixes, or hunk signatures of "
                         "different lengths")
    for p in out:
        p.cases = cases | p.fails
    return out
