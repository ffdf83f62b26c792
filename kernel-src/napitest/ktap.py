# SPDX-License-Identifier: GPL-2.0
"""KTAP (Documentation/dev-tools/ktap.rst): the writer of tools/results and
the reader of a KUnit console log's results (kunit/run's summary,
kunit/smp's totals).

  python3 -m napitest.ktap summary LOG...
      per log: each suite's counts and not ok lines, all suites'
  python3 -m napitest.ktap totals LOG...
      all suites' counts of each log, on one line
  python3 -m napitest.ktap started|booted LOG...
      exit 0 if each log shows KUnit's KTAP header (started), and a
      result line too (booted); 1 if not, or if a log cannot be read

The writer: readable by kunit.py parse.  One subtest per CTest test (a
suite binary in one configuration), one result line per cmocka test.
Each test's diagnostics -- what it printed between its start and its
result, the kernel's WARNING and pr_warn lines among them -- are "# "
lines just before its own result line, where KUnit puts a test's log;
lines outside any test go before the subtest's result.
"""

import argparse
import os
import re
import sys

SIGNAMES = {6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM"}
# cmocka's own framing lines carry nothing a KTAP reader lacks.
FRAMING = re.compile(r"^\[(=+| {2}PASSED {2}| {2}FAILED {2})\]|^ \d+ FAILED TEST")


def status_text(status):
    if status < 0:
        return f"killed by {SIGNAMES.get(-status, f'signal {-status}')}"
    return f"exit status {status}"


def diag(lines, indent):
    return [f"{indent}# {ln}".rstrip() for ln in lines
            if ln.strip() and not FRAMING.match(ln)]


def subtest(name, suite, status, indent="    "):
    """KTAP lines of one suite binary's run, and whether it passed."""
    out = [f"{indent}KTAP version 1", f"{indent}# Subtest: {name}",
           f"{indent}1..{len(suite.cases)}"]
    out += diag(suite.pre, indent)
    for j, c in enumerate(suite.cases, 1):
        out += diag(c.lines, indent)
        if c.status == "crashed":
            out.append(f"{indent}# {c.name}: did not finish "
                       f"({status_text(status)})")
        # A skip is KTAP's "ok N name # SKIP", never a bare "ok".
        res = "not ok" if c.failed else "ok"
        skip = " # SKIP" if c.status == "skipped" else ""
        out.append(f"{indent}{res} {j} {c.name}{skip}")
    out += diag(suite.post, indent)
    failed = any(c.failed for c in suite.cases)
    ok = status == 0 and not failed
    if status != 0 and not failed:
        out.append(f"{indent}# {name}: {status_text(status)}")
    return out, ok


def document(subtests):
    """subtests: [(name, lines, ok)] -> the whole KTAP text."""
    out = ["KTAP version 1", f"1..{len(subtests)}"]
    for i, (name, lines, ok) in enumerate(subtests, 1):
        out += lines
        out.append(f"{'ok' if ok else 'not ok'} {i} {name}")
    return "\n".join(out) + "\n"


# The reader: a KUnit console log (kunit/run's ktap*.log, the kernel's
# console from boot on).  KUnit 6.1 prints a suite's "# NAME: pass:N ..."
# line only when the suite has more than one result
# (kunit_should_print_stats()), so a one-case suite -- the headline's --
# has none: its cases are counted from their own result lines then.
START = re.compile(r"^\s*K?TAP version \d+")
RESULT = re.compile(r"^(\s*)(not )?ok \d+ (\S+)(.*)$")
STATS = re.compile(r"^\s*# (\S+): pass:(\d+) fail:(\d+) skip:(\d+) "
                   r"total:(\d+)")
KEYS = ("pass", "fail", "skip", "total")


class SuiteResult:
    """One suite of a console's KTAP: its name (None until its own result
    line), its counts, its "not ok" lines, and whether it finished."""

    def __init__(self):
        self.name = None
        self.stats = None  # KUnit's own "# NAME: pass:..." line, if any
        self.counted = dict.fromkeys(KEYS, 0)  # from the cases' lines
        self.not_ok = []
        self.done = False

    @property
    def counts(self):
        return self.stats or self.counted

    def summary(self):
        c = self.counts
        return f"# {self.name or '(unfinished)'}: " + \
            " ".join(f"{k}:{c[k]}" for k in KEYS)


# A console line's printk timestamp, "[    1.234567] ", if it has one.
TIMESTAMP = re.compile(r"^\[[^]]*\] ?")


def console_lines(text):
    """The console's lines without their printk timestamps."""
    return [TIMESTAMP.sub("", ln) for ln in text.splitlines()]


def suites(text):
    """The suites of a console log's KTAP, in order; [] if it has none.
    The top level is the indentation of the first "KTAP version" line; a
    suite's cases are the result lines one level in (a parameterised
    case's own results, further in, are counted by KUnit's stats line).
    printk timestamps are left out (console_lines())."""
    out, cur, top = [], None, None
    for line in console_lines(text):
        if top is None:
            if START.match(line):
                top = len(line) - len(line.lstrip())
            continue
        m = RESULT.match(line)
        if m:
            depth = len(m.group(1)) - top
            if cur is None:
                cur = SuiteResult()
            if m.group(2):
                cur.not_ok.append(line.strip())
            if depth <= 0:
                cur.name, cur.done = m.group(3), True
                out.append(cur)
                cur = None
            elif depth <= 4:
                skip = re.match(r"\s*#\s*SKIP", m.group(4), re.I)
                key = "skip" if skip else "fail" if m.group(2) else "pass"
                cur.counted[key] += 1
                cur.counted["total"] += 1
            continue
        m = STATS.match(line)
        if m and m.group(1) != "Totals":
            if cur is None:
                cur = SuiteResult()
            cur.stats = dict(zip(KEYS, map(int, m.groups()[1:])))
    if cur is not None:
        out.append(cur)
    return out


def started(text):
    """The console shows KUnit's KTAP header: KUnit started."""
    return any(START.match(ln) for ln in console_lines(text))


def booted(text):
    """kunit/run's test of a boot: KUnit started and printed at least one
    result line."""
    lines = console_lines(text)
    return any(START.match(ln) for ln in lines) and \
        any(RESULT.match(ln) for ln in lines)


def totals(results):
    """The counts of all suites together."""
    t = dict.fromkeys(KEYS, 0)
    for s in results:
        for k in KEYS:
            t[k] += s.counts[k]
    return t


def totals_text(results):
    t = totals(results)
    return " ".join(f"{k}:{t[k]}" for k in KEYS)


def summary_lines(text):
    """kunit/run's KTAP summary of one console log: each suite's counts
    and "not ok" lines, then all suites'."""
    res = suites(text)
    out = []
    for s in res:
        out.append("  " + s.summary())
        out += ["  " + ln for ln in s.not_ok]
    return out + [f"  # all suites: {totals_text(res)}"]


def read(path, prog):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError as e:
        raise SystemExit(f"{prog}: error: {path}: {e.strerror}")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="napitest.ktap",
        description="KUnit console logs' KTAP results (kunit/run, "
        "kunit/smp)")
    ap.add_argument("--prog", default="napitest.ktap")
    ap.add_argument("cmd", choices=["summary", "totals", "started",
                                    "booted"],
                    help="summary: per log, its name, each suite's counts "
                    "and not ok lines, all suites'; totals: all suites' "
                    "counts of each log, on one line; started, booted: "
                    "exit 0 if every log shows KUnit's KTAP header "
                    "(started), and a result line (booted), 1 if not")
    ap.add_argument("logs", nargs="+", metavar="LOG")
    a = ap.parse_args(argv)
    if a.cmd in ("started", "booted"):
        test = started if a.cmd == "started" else booted
        for p in a.logs:
            try:
                with open(p, errors="replace") as f:
                    if not test(f.read()):
                        return 1
            except OSError:
                return 1
        return 0
    texts = [read(p, a.prog) for p in a.logs]
    if a.cmd == "totals":
        print(" ".join(totals_text(suites(t)) for t in texts))
        return 0
    for p, t in zip(a.logs, texts):
        print(f"{os.path.basename(p)}:")
        print("\n".join(summary_lines(t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
