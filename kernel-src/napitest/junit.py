# SPDX-License-Identifier: GPL-2.0
"""JUnit XML writer: one <testsuite> per CTest test (a suite binary in one
configuration), one <testcase> per cmocka test, with its real time (from
the arrival times of its first and last lines), its <failure> (or <error>
for a test the binary did not finish) with a one-line message and the full
text, and what it printed -- the kernel's WARNING and pr_warn lines among
them -- in <system-out>."""

import re
import xml.etree.ElementTree as ET

from napitest.ktap import FRAMING, status_text

# Characters XML 1.0 does not allow, even escaped.
BAD_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# cmocka's report of the failure (in <failure>), not what the test printed.
CMOCKA_DETAIL = re.compile(r"^(\[ {2}ERROR {3}\]|\[ {3}LINE {3}\]|ERROR: )")


def clean(text):
    return BAD_XML.sub("?", text)


def text_of(lines):
    return clean("\n".join(ln for ln in lines if not FRAMING.match(ln)))


def testsuite(name, suite, status, elapsed):
    fails = sum(c.status == "failed" for c in suite.cases)
    errs = sum(c.status == "crashed" for c in suite.cases)
    # A binary that failed with no failing test gets a test of its own.
    whole = status != 0 and not fails and not errs
    ts = ET.Element("testsuite", name=name,
                    tests=str(len(suite.cases) + whole),
                    failures=str(fails), errors=str(errs + whole),
                    skipped=str(sum(c.status == "skipped"
                                    for c in suite.cases)),
                    time=f"{elapsed:.6f}")
    for c in suite.cases:
        tc = ET.SubElement(ts, "testcase", classname=name, name=c.name,
                           time=f"{c.time:.6f}")
        if c.status == "skipped":
            ET.SubElement(tc, "skipped")
        elif c.status in ("failed", "crashed"):
            msg = c.message()
            if c.status == "crashed":
                msg = f"{msg} ({status_text(status)})"
            el = ET.SubElement(tc, "failure" if c.status == "failed"
                               else "error", message=clean(msg),
                               type=c.status)
            el.text = text_of(c.lines)
        printed = [ln for ln in c.lines if not CMOCKA_DETAIL.match(ln)]
        if printed:
            ET.SubElement(tc, "system-out").text = text_of(printed)
    if whole:
        tc = ET.SubElement(ts, "testcase", classname=name, name=name,
                           time=f"{elapsed:.6f}")
        ET.SubElement(tc, "error", message=f"{name}: {status_text(status)}",
                      type="crashed").text = text_of(suite.pre + suite.post)
    rest = suite.pre + suite.post
    if any(not FRAMING.match(ln) for ln in rest):
        ET.SubElement(ts, "system-out").text = text_of(rest)
    return ts


def document(suites):
    root = ET.Element("testsuites")
    root.extend(suites)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + \
        ET.tostring(root, encoding="unicode") + "\n"
