# SPDX-License-Identifier: GPL-2.0
"""The real-kernel headline table, build/kunit-smp/headline.tsv, written by
kunit/headline and read by it and by make verdicts (hunk-matrix/verdicts.py).

One row per tree and kernel: "TREE<TAB>KERNEL<TAB>counter=value ...", each
preceded by "# TREE<TAB>KERNEL<TAB>COMMAND", the command that measured it.
"""

import os


def read(tsv):
    """({(tree, kernel): {counter: value}}, {(tree, kernel): command});
    both empty when the table does not exist."""
    rows, cmds = {}, {}
    if not os.path.exists(tsv):
        return rows, cmds
    with open(tsv) as f:
        for line in f:
            if line.startswith("#"):
                parts = line[1:].strip().split("\t", 2)
                if len(parts) == 3:
                    cmds[(parts[0], parts[1])] = parts[2]
                continue
            t, k, rest = line.rstrip("\n").split("\t", 2)
            rows[(t, k)] = dict(kv.split("=", 1) for kv in rest.split())
    return rows, cmds
