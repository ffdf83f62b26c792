# SPDX-License-Identifier: GPL-2.0
"""What the tests over recorded inputs share: the data directory and a
command of the tooling package run as the scripts run it."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")


def data(name):
    """The text of tools/tests/data/NAME."""
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def run(module, *args, stdin=None):
    """python3 -m napitest.MODULE ARGS... from tools/ (the interpreter
    itself: no version manager's shim)."""
    return subprocess.run([sys.executable, "-S", "-m", f"napitest.{module}",
                           *args], cwd=os.path.join(TOP, "tools"),
                          input=stdin, capture_output=True, text=True)
