# SPDX-License-Identifier: GPL-2.0
"""Parsers of test results, one per format:

  parse_ctest_junit()  the JUnit XML CTest writes (ctest --output-junit):
                       one <testcase> per CTest test ("suite:config"),
                       its status and its captured output
  parse_cmocka()       cmocka's standard output of one suite binary: one
                       entry per test case, its result and its messages
"""

import re
import xml.etree.ElementTree as ET


class CtestTest:
    def __init__(self, name, status, output, seconds, message):
        self.name, self.status, self.output = name, status, output
        self.seconds, self.message = seconds, message

    @property
    def passed(self):
        return self.status == "passed"


def parse_ctest_junit(path):
    """[CtestTest] in file order.  status: passed, failed, skipped or
    notrun (CTest could not start it)."""
    root = ET.parse(path).getroot()
    out = []
    for tc in root.iter("testcase"):
        st = tc.get("status", "run")
        fail = tc.find("failure")
        skip = tc.find("skipped")
        if st == "notrun":
            status = "notrun"
        elif fail is not None:
            status = "failed"
        elif skip is not None or st == "disabled":
            status = "skipped"
        else:
            status = "passed"
        so = tc.find("system-out")
        msg = ""
        for el in (fail, skip):
            if el is not None:
                msg = el.get("message", "") or (el.text or "")
        out.append(CtestTest(tc.get("name", ""), status,
                             so.text or "" if so is not None else "",
                             float(tc.get("time", "0") or 0), msg.strip()))
    return out


class CmockaCase:
    def __init__(self, name):
        self.name = name
        self.status = "running"  # passed, failed, skipped, or running
        self.messages = []  # [  ERROR   ] lines, then others
        self.where = ""  # the [   LINE   ] location
        self.output = []  # everything printed while it ran


def last_message(output):
    """The message print_error() wrote before cmocka's ERROR tag: the last
    fail_msg() text ("ERROR: ...", even inside a line of stdout it was
    interleaved with), else the last line printed."""
    for line in reversed(output):
        if "ERROR: " in line:
            return line.split("ERROR: ", 1)[1].strip()
    lines = [ln.strip() for ln in output if ln.strip()]
    return lines[-1] if lines else ""


RESULT_RE = re.compile(r"^\[\s*(RUN|OK|FAILED|SKIPPED|ERROR|LINE)\s*\]"
                       r"\s?(?:--- )?(.*)$")


def parse_cmocka(text):
    """[CmockaCase] of one cmocka run, in order.  A case left "running" is
    where the binary stopped (a crash or an abort)."""
    cases, cur = [], None
    for line in text.splitlines():
        m = RESULT_RE.match(line)
        if not m:
            if cur is not None and cur.status == "running":
                cur.output.append(line)
            continue
        tag, rest = m.group(1), m.group(2).strip()
        if tag == "RUN":
            cur = CmockaCase(rest)
            cases.append(cur)
        elif cur is None:
            continue
        elif tag == "ERROR" and "[   LINE   ] --- " in rest:
            # cmocka writes the (empty) buffered message and the location
            # on one line: "[  ERROR   ] --- [   LINE   ] --- file:line: ..."
            rest, where = rest.split("[   LINE   ] --- ", 1)
            cur.where = re.sub(r":\s*error:.*$", "", where.strip())
            cur.messages.append(rest.strip() or last_message(cur.output))
        elif tag == "ERROR":
            # print_error() writes the message before cmocka's tag:
            # "msg" then "[  ERROR   ] --- " (fail_msg() adds "ERROR: ").
            cur.messages.append(rest or last_message(cur.output))
        elif tag == "LINE":
            cur.where = re.sub(r":\s*error:.*$", "", rest)
        elif tag == "OK" and rest == cur.name:
            cur.status = "passed"
        elif tag == "FAILED" and rest == cur.name:
            cur.status = "failed"
        elif tag == "SKIPPED" and rest == cur.name:
            cur.status = "skipped"
    return cases
