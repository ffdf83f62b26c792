# SPDX-License-Identifier: GPL-2.0
"""KTAP writer (Documentation/dev-tools/ktap.rst), readable by kunit.py parse.

One subtest per CTest test (a suite binary in one configuration), one
result line per cmocka test.  Each test's diagnostics -- what it printed
between its start and its result, the kernel's WARNING and pr_warn lines
among them -- are "# " lines just before its own result line, where KUnit
puts a test's log; lines outside any test go before the subtest's result.
"""

import re

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
        res = "ok" if c.ok else "not ok"
        skip = " # SKIP" if c.status == "skipped" else ""
        out.append(f"{indent}{res} {j} {c.name}{skip}")
    out += diag(suite.post, indent)
    ok = status == 0 and all(c.ok for c in suite.cases)
    if status != 0 and all(c.ok for c in suite.cases):
        out.append(f"{indent}# {name}: {status_text(status)}")
    return out, ok


def document(subtests):
    """subtests: [(name, lines, ok)] -> the whole KTAP text."""
    out = ["KTAP version 1", f"1..{len(subtests)}"]
    for i, (name, lines, ok) in enumerate(subtests, 1):
        out += lines
        out.append(f"{'ok' if ok else 'not ok'} {i} {name}")
    return "\n".join(out) + "\n"
