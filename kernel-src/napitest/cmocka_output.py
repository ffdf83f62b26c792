# SPDX-License-Identifier: GPL-2.0
"""The one parser of cmocka's standard output (CMOCKA_MESSAGE_OUTPUT=STDOUT).

The input is the suite binary's stdout and stderr merged on one pipe (as
tools/run-suite.c records it), each line with the time it arrived, so that
every line the test printed -- cmocka's own failure lines, the simulator's
WARNING/pr_warn/BUG lines, require_definition()'s message -- falls between
that test's "[ RUN      ]" and its "[       OK ]"/"[  FAILED  ]" line and is
attributed to it.  Lines outside any test (boot messages, the seed, the
closing summary) belong to the suite.

parse() takes lines with their arrival times (tools/results); parse_text()
takes the plain text CTest captured (cases.py for tools/verdict, the hunk
matrix), with no times.
"""

import re

RUN = re.compile(r"^\[ RUN      \] (\S+)\s*$")
# A test whose setup failed ends "[  ERROR   ] name" (cmocka's "Could not
# run test"): a failure, not a stop of the suite.
END = re.compile(r"^\[ {0,7}(OK|FAILED|SKIPPED|ERROR) {0,7}\] (?!---)(\S+)\s*$")
RUN_COUNT = re.compile(r"^\[==========\] (?:\S+: )?Running (\d+) test")
DONE = re.compile(r"^\[==========\] (?:\S+: )?\d+ test\(s\) run\.")
# cmocka's failure detail: "[  ERROR   ] --- msg", "[   LINE   ] --- loc".
DETAIL = re.compile(r"^\[ {2}ERROR {3}\] --- ?(.*)$|^\[ {3}LINE {3}\] --- ?(.*)$")
# Any line of cmocka's own (a result or a detail), not the test's output.
TAGGED = re.compile(r"^\[\s*(RUN|OK|FAILED|SKIPPED|ERROR|LINE)\s*\]"
                    r"\s?(?:--- )?(.*)$")


def last_message(output):
    """The message print_error() wrote before cmocka's ERROR tag: the last
    fail_msg() text ("ERROR: ...", even inside a line of stdout it was
    interleaved with), else the last line printed."""
    for line in reversed(output):
        if "ERROR: " in line:
            return line.split("ERROR: ", 1)[1].strip()
    lines = [ln.strip() for ln in output if ln.strip()]
    return lines[-1] if lines else ""


class Case:
    """One cmocka test: status is ok, failed, skipped or crashed."""

    def __init__(self, name, start):
        self.name = name
        self.status = "crashed"
        self.start = start
        self.end = start
        self.lines = []  # every line between RUN and its result
        self.messages = []  # each cmocka ERROR's message, in order
        self.where = ""  # the last [   LINE   ] location

    @property
    def output(self):
        """What the test printed: its lines without cmocka's tags."""
        return [ln for ln in self.lines if not TAGGED.match(ln)]

    def add(self, text):
        """One line printed while the test ran; cmocka's ERROR and LINE
        tags give messages and where."""
        m = TAGGED.match(text)
        tag, rest = (m.group(1), m.group(2).strip()) if m else ("", "")
        if tag == "ERROR" and "[   LINE   ] --- " in rest:
            # cmocka writes the (empty) buffered message and the location
            # on one line: "[  ERROR   ] --- [   LINE   ] --- file:line: ..."
            rest, where = rest.split("[   LINE   ] --- ", 1)
            self.where = re.sub(r":\s*error:.*$", "", where.strip())
            self.messages.append(rest.strip() or last_message(self.output))
        elif tag == "ERROR":
            # print_error() writes the message before cmocka's tag:
            # "msg" then "[  ERROR   ] --- " (fail_msg() adds "ERROR: ").
            self.messages.append(rest or last_message(self.output))
        elif tag == "LINE":
            self.where = re.sub(r":\s*error:.*$", "", rest)
        elif "[   LINE   ] --- " in text:
            # "Could not run test: [   LINE   ] --- file:line: error: ..."
            where = text.split("[   LINE   ] --- ", 1)[1]
            self.where = re.sub(r":\s*error:.*$", "", where.strip())
        self.lines.append(text)

    @property
    def time(self):
        return max(0.0, self.end - self.start)

    @property
    def ok(self):
        """Passed: a skipped case is neither a pass nor a failure."""
        return self.status == "ok"

    @property
    def failed(self):
        """Failed, or did not finish."""
        return self.status in ("failed", "crashed")

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
        out = [f"{name} {c.name}" for c in self.cases if c.failed]
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
            cur.status = {"OK": "ok", "FAILED": "failed", "ERROR": "failed",
                          "SKIPPED": "skipped"}[m.group(1)]
            cur.end = t
            s.cases.append(cur)
            cur = None
            continue
        if cur:
            cur.add(text)
            cur.end = t
        else:
            (s.post if s.cases else s.pre).append(text)
    if cur:
        if end_time is not None:
            cur.end = max(cur.end, end_time)
        s.cases.append(cur)
    return s


def parse_text(text):
    """parse() of captured text without arrival times."""
    return parse([(0.0, ln) for ln in text.splitlines()])
