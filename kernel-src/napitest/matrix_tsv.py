# SPDX-License-Identifier: GPL-2.0
"""build/hunk-matrix/matrix.tsv: each hunk of the series left out in turn
and what the suites did (make hunk-matrix).  hunk-matrix/matrix.py writes
it (write()); hunk-matrix/verdicts.py and tools/determinism-check read it
(read(), results()).

  python3 -m napitest.matrix_tsv results TSV   hunk, result and killing
                                               tests of each hunk that
                                               has a result, tab-separated
"""

import argparse
import sys

from . import Error

COLUMNS = ("hunk", "patch", "file", "function", "result", "method",
           "killing_tests", "detail", "seconds")


def field(text):
    """A cell: no tab or line break may split the row."""
    return text.replace("\t", " ").replace("\n", " ")


def write(f, rows):
    """rows: one dict per hunk with every column of COLUMNS."""
    f.write("\t".join(COLUMNS) + "\n")
    for r in rows:
        f.write("\t".join(field(str(r[c])) for c in COLUMNS) + "\n")


def read(path):
    """{hunk: {column: cell}} in the file's order; {} if there is none.
    A header that is not matrix.tsv's is an Error."""
    try:
        f = open(path)
    except FileNotFoundError:
        return {}
    rows = {}
    with f:
        hdr = f.readline().rstrip("\n").split("\t")
        if tuple(hdr[:len(COLUMNS)]) != COLUMNS:
            raise Error(f"{path}:1: not a hunk matrix (header "
                        f"{' '.join(hdr)!r})")
        for n, line in enumerate(f, 2):
            cells = line.rstrip("\n").split("\t")
            if len(cells) != len(hdr):
                raise Error(f"{path}:{n}: {len(cells)} cells, the header "
                            f"has {len(hdr)}")
            r = dict(zip(hdr, cells))
            rows[r["hunk"]] = r
    return rows


def results(rows):
    """(hunk, result, killing tests) of each hunk with a result."""
    return [(h, r["result"], r["killing_tests"]) for h, r in rows.items()
            if r["result"]]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.matrix_tsv")
    ap.add_argument("--prog", default="napitest.matrix_tsv")
    ap.add_argument("cmd", choices=["results"])
    ap.add_argument("tsv")
    a = ap.parse_args(argv)
    try:
        rows = read(a.tsv)
    except Error as e:
        print(f"{a.prog}: error: {e}", file=sys.stderr)
        return 2
    for r in results(rows):
        print("\t".join(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
