# SPDX-License-Identifier: GPL-2.0
"""The parser of the JUnit XML CTest writes (ctest --output-junit): one
<testcase> per CTest test ("suite:config"), its status and its captured
output.  The cmocka output inside it is cmocka_output's to parse.
"""

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
