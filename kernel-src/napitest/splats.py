# SPDX-License-Identifier: GPL-2.0
"""The splats of a kernel console log (the raw log of a KUnit boot): where
each lockdep / might_sleep / BUG / WARN report starts and ends, its header
and stack, and whether it is a known one (kunit/splats, kunit/headline).

A splat starts at "BUG: ", "WARNING: ", "kernel BUG at", "Oops",
"general protection fault", "Kernel panic", "INFO: " (lockdep, RCU, hung
tasks) or a "------------[ cut here ]------------" line, and runs to
"---[ end trace", "</TASK>" closing the outermost frame, the next splat or
the next KTAP result line.  Its stack is the function names of its
"func+0x../0x.." frames.  Known splats (KNOWN) are listed exactly by
signature; a splat whose stack touches net/ or kernel/softirq.c is never
taken as known.

kunit/splats' report ends with one summary line (summary()), which
kunit/smp reads back through counts(), its one reader:

  python3 -m napitest.splats counts REPORT    "N known, M unknown"
"""

import argparse
import glob
import os
import re
import subprocess
import sys

# 6.1 without the -rt queue's printk/console work: serial8250_console_write()
# takes the port's spinlock_t (a sleeping lock on PREEMPT_RT) under
# console_emit_next_record() with interrupts off (kunit/README.md).
KNOWN = [
    ("6.1 console on PREEMPT_RT: serial8250_console_write() takes a "
     "sleeping lock under console_emit_next_record()",
     # kunit.py builds with O=, so the path may come as ../src/kernel/...
     re.compile(r"BUG: sleeping function called from invalid context at "
                r"(?:\S*/)?kernel/locking/spinlock_rt\.c:46$"),
     ("serial8250_console_write", "console_emit_next_record")),
]

TS = re.compile(r"^\[\s*\d+\.\d+\]\s?")
START = re.compile(r"^(BUG: |WARNING: |kernel BUG at |Oops|general protection "
                   r"fault|Kernel panic|INFO: |-+\[ cut here \]-+)")
FRAME = re.compile(r"(?:^|\s|\?\s)([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+")
KTAP = re.compile(r"^\s*(not )?ok \d+ |^\s*KTAP version|^\s*TAP version")
MAX_LINES = 120
# summary()'s line, after an optional "LABEL: ".
SUMMARY = re.compile(r"^(?:.*: )?splats: (\d+) known, (\d+) unknown"
                     r"(?: \(fails the run\))?$", re.M)


def strip(line):
    return TS.sub("", line.rstrip("\n"))


def splats(lines):
    """[(first line number, header, [lines])] of each splat."""
    out, cur = [], None
    for n, raw in enumerate(lines, 1):
        line = strip(raw)
        body = line.strip()
        if START.match(body):
            # the WARNING line of a WARN() that printed "cut here" first,
            # and lockdep's "INFO:" lines inside its splat, continue it
            cont = cur and (
                (cur[1].startswith("------------[ cut here") and
                 body.startswith(("WARNING: ", "kernel BUG at "))) or
                body.startswith("INFO: "))
            if cont and len(cur[2]) < MAX_LINES:
                cur[2].append(line)
                continue
            if cur:
                out.append(cur)
            cur = [n, body, [line]]
            continue
        if cur is None:
            continue
        if KTAP.match(line) or len(cur[2]) >= MAX_LINES:
            out.append(cur)
            cur = None
            continue
        cur[2].append(line)
        if body.startswith("---[ end trace") or body == "</TASK>":
            out.append(cur)
            cur = None
    if cur:
        out.append(cur)
    return out


def header(s):
    """The splat's name: the WARNING/BUG line (a cut-here line is followed
    by the WARN's message and then the WARNING line)."""
    for line in s[2]:
        b = line.strip()
        if START.match(b) and not b.startswith("------------[ cut here"):
            return b
    return s[1]


def stack(s):
    """Function names of the frames of the splat's Call Trace (".constprop.0",
    ".cold" dropped).  Lockdep's "locks held", "irq event stamp" and
    "Preemption disabled at" lines name functions too, but they are where a
    state last changed, not callers: a splat without a Call Trace line is
    read whole."""
    lines = s[2]
    for i, line in enumerate(lines):
        if line.strip() == "Call Trace:":
            lines = lines[i + 1:]
            break
    return [m.group(1).split(".")[0] for line in lines
            for m in FRAME.finditer(line)]


def protected_functions(build):
    """Functions defined in net/ and kernel/softirq.c of the build, or None."""
    where = defined_in(build)
    return None if where is None else set(where)


def defined_in(build):
    """{function: source file} of the functions defined in net/ and
    kernel/softirq.c of the build (read with nm from its objects), or None
    when the objects are not there."""
    objs = glob.glob(os.path.join(build, "net", "**", "*.o"), recursive=True)
    objs = [o for o in objs if not o.endswith((".mod.o", "built-in.o"))]
    softirq = os.path.join(build, "kernel", "softirq.o")
    if not objs or not os.path.exists(softirq):
        return None
    where = {}
    objs.append(softirq)

    def source(obj):
        return os.path.relpath(obj, build)[:-2] + ".c"
    for i in range(0, len(objs), 200):
        chunk = objs[i:i + 200]
        r = subprocess.run(["nm", "--defined-only"] + chunk,
                           capture_output=True, text=True)
        if r.returncode != 0:
            return None
        # nm names each file ("FILE:") only when given several
        src = source(chunk[0])
        for line in r.stdout.splitlines():
            if line.endswith(".o:"):
                src = source(line[:-1])
                continue
            f = line.split()
            if len(f) == 3 and f[1] in "tTwW":
                where.setdefault(f[2].split(".")[0], src)
    return where


def classify(s, protected):
    """(known name or None, reason a known-looking splat is not hidden)."""
    h, st = header(s), stack(s)
    for name, rx, needed in KNOWN:
        if not rx.search(h) or not all(f in st for f in needed):
            continue
        if protected is None:
            return None, "net/ and kernel/softirq.c functions unknown " \
                "(no --build objects): not hidden"
        touch = [f for f in st if f in protected]
        if touch:
            return None, "its stack touches net/ or kernel/softirq.c (" + \
                ", ".join(dict.fromkeys(touch)) + "): not hidden"
        return name, None
    return None, None


def summary(known, unknown, label=""):
    """The last line of kunit/splats' report: how many splats of the logs
    were known and unknown."""
    lab = f"{label}: " if label else ""
    return (f"{lab}splats: {known} known, {unknown} unknown"
            f"{' (fails the run)' if unknown else ''}")


def counts(text):
    """(known, unknown) from the last summary() line of a report; None if
    the report has none."""
    found = SUMMARY.findall(text)
    return tuple(int(n) for n in found[-1]) if found else None


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.splats")
    ap.add_argument("--prog", default="napitest.splats")
    ap.add_argument("what", choices=("counts",))
    ap.add_argument("report", help="kunit/splats' output")
    a = ap.parse_args(argv)
    try:
        with open(a.report, errors="replace") as f:
            c = counts(f.read())
    except OSError as e:
        print(f"{a.prog}: error: {e.filename}: {e.strerror}",
              file=sys.stderr)
        return 2
    if c is None:
        print(f"{a.prog}: error: {a.report} has no 'splats: N known, M "
              "unknown' line", file=sys.stderr)
        return 2
    print(f"{c[0]} known, {c[1]} unknown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
