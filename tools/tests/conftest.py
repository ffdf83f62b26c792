# SPDX-License-Identifier: GPL-2.0
"""Fixtures the tooling's tests share (a test file's own fixture of the
same name overrides one here)."""

import importlib
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def M(monkeypatch, tmp_path):
    """hunk-matrix/matrix.py, imported afresh (with hmlib), its scratch
    directory (HM_SCRATCH) under tmp_path."""
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    monkeypatch.syspath_prepend(os.path.join(HERE, "..", "..", "hunk-matrix"))
    for m in ("napitest.hmlib", "hmlib", "matrix"):
        sys.modules.pop(m, None)
    return importlib.import_module("matrix")
