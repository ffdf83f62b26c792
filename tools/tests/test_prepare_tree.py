# SPDX-License-Identifier: GPL-2.0
"""kernel-src/prepare-tree's interpreter: PYTHON when it names a command,
else the one python3 runs, asked once (a version manager's shim costs
some 0.4 s a start, and a prepared tree takes four).  A PYTHON that is a
command line (make exports an environment PYTHON with the Makefile's
value, "python3 -S") or names nothing is not used.

Needs the prepared patched tree (make check prepares it); skipped
without it, as prepare-tree would unpack and patch a kernel tree.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
PREPARE = os.path.join(ROOT, "kernel-src", "prepare-tree")
CACHE = os.environ.get("NAPITEST_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "napi-backport-test")


def prepare(python):
    env = dict(os.environ)
    env.pop("PYTHON", None)
    if python is not None:
        env["PYTHON"] = python
    return subprocess.run([PREPARE, "patched"], capture_output=True,
                          text=True, env=env)


@pytest.mark.skipif(not glob.glob(os.path.join(CACHE, "trees", "patched-*")),
                    reason="the patched tree is not prepared (make check)")
@pytest.mark.parametrize("python", [
    None, sys.executable, f"{sys.executable} -S", "/nonexistent/python3"])
def test_python_only_when_it_names_a_command(python):
    r = prepare(python)
    assert r.returncode == 0, r.stderr
    tree = r.stdout.strip().splitlines()[-1]
    assert os.path.isfile(os.path.join(tree, "net", "core", "dev.c"))
