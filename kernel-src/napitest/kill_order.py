# SPDX-License-Identifier: GPL-2.0
"""hunk-matrix/kill-order.tsv: for each variant the hunk matrix killed,
the suite binary that killed it first (its suite and configuration) and
a digest of the inputs it killed it on (the verdict cache's key: the
variant's extraction, its reference, the repository, the system).
hunk-matrix/matrix.py writes it after a run (write(), from the run's
killing tests: killed_by()) and reads it at the next (read()): a variant
whose inputs are the same runs that binary first, and is built and run
once, not after every binary the fixed order puts before it; it is
killed by it again, as the run that wrote the row found.  With other
inputs the row is stale and the fixed order decides.

A variant is a hunk left out ("4.3"), or a group the matrix leaves out
with it when it alone does not build ("11.1+11.3", "11.1+patch").  A row
whose suite and configuration are DEAD_CODE is a variant found dead code
(its objects the reference's, Worker.evaluate()'s dead check) on those
inputs: that check goes first, before any binary.
"""

from . import Error

COLUMNS = ("variant", "suite", "config", "inputs")
# (suite, config) of a row for a variant found dead code
DEAD_CODE = ("(dead code)", "-")


def killed_by(killers):
    """(suite, configuration) of the binary whose tests are killers
    ("suite:config:test", one binary's when the matrix stops at the first
    kill), or None when there are none or they name more than one."""
    bins = {tuple(k.split(":", 2)[:2]) for k in killers if k.count(":") >= 2}
    return bins.pop() if len(bins) == 1 else None


def write(f, rows):
    """rows: (variant, suite, config, inputs) tuples, in the order
    given."""
    f.write("\t".join(COLUMNS) + "\n")
    for r in rows:
        f.write("\t".join(r) + "\n")


def read(path):
    """{variant: (suite, config, inputs)}; {} if there is no file.  A
    header that is not kill-order.tsv's, or a row without a cell for
    each column, is an Error naming the file and line."""
    try:
        f = open(path)
    except FileNotFoundError:
        return {}
    out = {}
    with f:
        hdr = tuple(f.readline().rstrip("\n").split("\t"))
        if hdr != COLUMNS:
            raise Error(f"{path}:1: not a kill order (header "
                        f"{' '.join(hdr)!r}, want {' '.join(COLUMNS)!r})")
        for n, line in enumerate(f, 2):
            cells = line.rstrip("\n").split("\t")
            if len(cells) != len(COLUMNS) or not all(cells):
                raise Error(f"{path}:{n}: want {len(COLUMNS)} cells "
                            f"({' '.join(COLUMNS)}), got {len(cells)}")
            out[cells[0]] = tuple(cells[1:])
    return out
