# SPDX-License-Identifier: GPL-2.0
"""Load one of the repository's scripts (a Python file without .py, such as
kunit/splats or kernel-src/kbuild-check) as a module, for its tests."""

import importlib.machinery
import importlib.util
import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def load_script(rel, name):
    """The script at TOP/rel, executed as a module called name."""
    loader = importlib.machinery.SourceFileLoader(name,
                                                  os.path.join(TOP, rel))
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod
