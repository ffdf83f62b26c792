# SPDX-License-Identifier: GPL-2.0
"""Parser of cmocka's standard output (CMOCKA_MESSAGE_OUTPUT=STDOUT).

The input is the suite binary's stdout and stderr merged on one pipe (as
tools/run-suite.c records it), each line with the time it arrived, so that
every line the test printed -- cmocka's own failure lines, the simulator's
WARNING/pr_warn/BUG lines, require_definition()'s message -- falls between
that test's "[ RUN      ]" and its "[       OK ]"/"[  FAILED  ]" line and is
attributed to it.  Lines outside any test (boot messages, the seed, the
closing summary) belong to the suite.
"""

import re

RUN = re.compile(r"^\[ RUN      \] (\S+)\s*$")
END = re.compile(r"^\[ {0,7}(OK|FAILED|SKIPPED) {0,7}\] (\S+)\s*$")
RUN_COUNT = re.compile(r"^\[==========\] (?:\S+: )?Running (\d+) test")
DONE = re.compile(r"^\[==========\] (?:\S+: )?\d+ test\(s\) run\.")
# cmocka's failure detail: "[  ERROR   ] --- msg", "[   LINE   ] --- loc".
DETAIL = re.compile(r"^\[ {2}ERROR {3}\] --- ?(.*)$|^\[ {3}LINE {3}\] --- ?(.*)$")


class Case:
    """One cmocka test: status is ok, failed, skipped or crashed."""

    def __init__(self, name, start):
        self.name = name
        self.status = "crashed"
        self.start = start
        self.end = start
        self.lines = []

    @property
    def time(self):
        return max(0.0, self.end - self.start)

    @property
    def ok(self):
        return self.status in ("ok", "skipped")

    def message(self):
        """One line for the failure: what failed, then where."""
        what, where = [], []
        for line in self.lines:
            for part in re.split(r"(?=\[ {3}LINE {3}\] ---)", line):
                m = DETAIL.match(part.strip())
                if not m:
                    continue
                if m.group(1) is not None and m.group(1).strip():
                    # "[  ERROR   ] --- [   LINE   ] --- loc" has no text.
                    what.append(m.group(1).strip())
                elif m.group(2):
                    where.append(re.sub(r": error: Failure!$", "",
                                        m.group(2).strip()))
        # fail_msg() text is printed as "ERROR: text" before the detail.
        what = [ln[len("ERROR: "):] for ln in self.lines
                if ln.startswith("ERROR: ")] + what
        kernel = [ln for ln in self.lines
                  if ln.startswith(("WARNING: ", "kernel BUG at "))]
        if self.status == "crashed":
            what = kernel[-1:] + what or ["the suite stopped in this test"]
        elif not what:
            what = kernel[:1]
        msg = what[0] if what else "failed"
        return msg + (f" (at {where[0]})" if where else "")


class Suite:
    """pre: lines before the first test; post: lines after the last."""

    def __init__(self):
        self.cases = []
        self.planned = None
        self.pre = []
        self.post = []

    def failures(self, name, status):
        """The failing tests as "<ctest name> <test>" (the format of the
        expected-failure lists); a binary that failed or crashed with no
        failing test is "<ctest name> *crashed*"."""
        out = [f"{name} {c.name}" for c in self.cases if not c.ok]
        if status != 0 and not out:
            out.append(f"{name} *crashed*")
        return out


def parse(lines, end_time=None):
    """lines: [(time, text)] in arrival order; end_time: when the process
    ended (the end of a test it did not finish).  Returns a Suite."""
    s = Suite()
    cur, done = None, False
    for t, text in lines:
        text = text.rstrip("\n")
        m = RUN_COUNT.match(text)
        if m and s.planned is None:
            s.planned = int(m.group(1))
            continue
        if done:
            # The closing summary repeats "[  FAILED  ] name": not results.
            s.post.append(text)
            continue
        if DONE.match(text):
            if cur:
                s.cases.append(cur)
                cur = None
            done = True
            s.post.append(text)
            continue
        m = RUN.match(text)
        if m:
            if cur:
                s.cases.append(cur)
            cur = Case(m.group(1), t)
            continue
        m = END.match(text)
        if m and cur and m.group(2) == cur.name:
            cur.status = {"OK": "ok", "FAILED": "failed",
                          "SKIPPED": "skipped"}[m.group(1)]
            cur.end = t
            s.cases.append(cur)
            cur = None
            continue
        if cur:
            cur.lines.append(text)
            cur.end = t
        else:
            (s.post if s.cases else s.pre).append(text)
    if cur:
        if end_time is not None:
            cur.end = max(cur.end, end_time)
        s.cases.append(cur)
    return s
