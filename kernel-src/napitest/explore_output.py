# SPDX-License-Identifier: GPL-2.0
"""The interleaving explorer's output (unit/explore_*.c binaries): the one
reader of its figures line, which shims/sim/explore/search.c prints per
scenario:

  "  NAME: bound B, N schedules (exhaustive) + W random walks (seed S),
   STEPS steps (P stack-local points skipped), V violating [T s CPU]"

and of its INCOMPLETE line.  tools/determinism-check compares the verdict
lines of two runs (verdict_lines(): everything but the CPU time);
bench/explore reports schedules per CPU second (figures()).

  python3 -m napitest.explore_output verdicts LOG   the verdict lines
  python3 -m napitest.explore_output figures LOG    NAME SCHEDULES CPU_S
"""

import argparse
import re
import sys

from . import cmocka_output

FIGURES = re.compile(r"^\s*(\S+): bound (\d+), (\d+) schedules(.*?)"
                     r"(?: \[([0-9.]+) s CPU\])?\s*$")
INCOMPLETE = re.compile(r"^\s*(\S+): INCOMPLETE: ")


class Figures:
    """One scenario's figures line: its name, bound, schedules (the
    bounded search's, random walks apart), the rest of the line but the
    CPU time, and the CPU seconds (None if not printed)."""

    def __init__(self, m):
        self.name = m.group(1)
        self.bound = int(m.group(2))
        self.schedules = int(m.group(3))
        self.rest = m.group(4)
        self.cpu = float(m.group(5)) if m.group(5) else None

    def without_cpu(self):
        return (f"  {self.name}: bound {self.bound}, {self.schedules} "
                f"schedules{self.rest}")


def figures(text):
    """Each scenario's Figures, in the order printed."""
    return [Figures(m) for m in map(FIGURES.match, text.splitlines()) if m]


def verdict_lines(text):
    """What two runs of the same binary on the same inputs must print
    alike: each figures line without its CPU time, each INCOMPLETE line,
    and each cmocka case's result (with its failure message), then how
    many cases ran."""
    out = []
    for line in text.splitlines():
        m = FIGURES.match(line)
        if m:
            out.append(Figures(m).without_cpu())
        elif INCOMPLETE.match(line):
            out.append(line.rstrip())
    suite = cmocka_output.parse_text(text)
    for c in suite.cases:
        out.append(f"{c.name}: {c.status}" +
                   (f": {c.message()}" if c.failed else ""))
    out.append(f"{len(suite.cases)} cases")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.explore_output")
    ap.add_argument("--prog", default="napitest.explore_output")
    ap.add_argument("cmd", choices=["verdicts", "figures"])
    ap.add_argument("log", help="an explore_* binary's output")
    a = ap.parse_args(argv)
    try:
        with open(a.log, errors="replace") as f:
            text = f.read()
    except OSError as e:
        print(f"{a.prog}: error: {a.log}: {e.strerror}", file=sys.stderr)
        return 2
    if a.cmd == "verdicts":
        print("\n".join(verdict_lines(text)))
    else:
        for f in figures(text):
            print(f.name, f.schedules, "-" if f.cpu is None else
                  f"{f.cpu:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
