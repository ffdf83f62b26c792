# SPDX-License-Identifier: GPL-2.0
"""hunk-matrix/verdicts.md, the claims table make verdicts writes:
"| N | claim | `command` | **verdict** | evidence |" rows."""
import re

ROW = re.compile(r"^\| (\d+) \| (.*?) \| `(.*?)` \| \*\*(.*?)\*\* \| (.*) \|$")


def claims(text):
    """{claim: (command, verdict, evidence)} of the first claims table
    (the prefix table further down has rows of another shape)."""
    out = {}
    for ln in text.split("\n"):
        m = ROW.match(ln)
        if m:
            out[m.group(2)] = m.group(3, 4, 5)
        elif out:
            break
    return out
