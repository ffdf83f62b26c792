# SPDX-License-Identifier: GPL-2.0
"""make help lists every target of the Makefile, and every target is
phony (none names a file).

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

MAKEFILE = os.path.join(TOP, "Makefile")


def targets():
    with open(MAKEFILE) as f:
        text = f.read()
    names = re.findall(r"^([A-Za-z0-9_.-]+):(?!=)", text, re.M)
    phony = set(" ".join(re.findall(r"^\.PHONY:((?:.*\\\n)*.*)", text, re.M))
                .replace("\\", " ").split())
    return [n for n in dict.fromkeys(names)
            if not n.startswith(".") and n != "FORCE"], phony


def test_help_lists_every_target():
    names, _ = targets()
    assert "check" in names and "help" in names
    out = subprocess.run(["make", "-s", "-C", TOP, "help"], text=True,
                         capture_output=True, check=True).stdout
    listed = set(re.findall(r"^  (\S+) ", out, re.M))
    assert [n for n in names if n not in listed] == []


def test_every_target_is_phony():
    names, phony = targets()
    assert [n for n in names if n not in phony] == []
