# SPDX-License-Identifier: GPL-2.0
"""How a hunk-matrix worker runs one suite binary (hunk-matrix/hmlib.py,
Worker.run()): its own exit status, whatever HM_TRACE says.

A binary a signal killed (the simulator's abort(), the OOM killer) is not
known to be a deterministic kill: the worker is marked unstable, so the
verdict is not stored, with tracing on and off.  A binary past the
wall-clock hang guard is Hang, and neither it nor a child of it is left
running.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import importlib
import sys

import pytest


@pytest.fixture
def H(monkeypatch, tmp_path):
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    sys.modules.pop("napitest.hmlib", None)
    return importlib.import_module("napitest.hmlib")


def worker(H, tmp_path, script):
    """A worker whose binary x-norps is the shell script script."""
    w = H.Worker.__new__(H.Worker)
    w.idx, w.combined, w.bdir = 0, set(), str(tmp_path)
    w.hung, w.unstable = False, ""
    b = tmp_path / "x-norps"
    b.write_text("#!/bin/sh\n" + script)
    b.chmod(0o755)
    return w


@pytest.mark.parametrize("trace", [False, True])
def test_signal_death_is_unstable(H, tmp_path, monkeypatch, trace):
    monkeypatch.setattr(H, "TRACE", trace)
    w = worker(H, tmp_path, 'echo "[ RUN      ] t"\nkill -ABRT $$\n')
    failed = w.run("x", "norps")
    # the case that started and never ended is the one that failed
    assert failed == {"x:norps:t"}
    assert w.unstable == "x-norps killed by signal 6", w.unstable


@pytest.mark.parametrize("trace", [False, True])
def test_exit_code_is_a_kill_not_unstable(H, tmp_path, monkeypatch, trace):
    monkeypatch.setattr(H, "TRACE", trace)
    w = worker(H, tmp_path, "exit 3\n")
    assert w.run("x", "norps") == {"x:norps:(exit 3)"}
    assert w.unstable == ""


def gone(pid):
    """pid no longer runs (gone, or a zombie no one reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("trace", [False, True])
def test_hang_guard_leaves_no_process(H, tmp_path, monkeypatch, trace):
    import time
    monkeypatch.setattr(H, "TRACE", trace)
    monkeypatch.setattr(H, "HANG_GUARD", 1)
    pids = tmp_path / "pids"
    w = worker(H, tmp_path, f"sleep 600 & echo $$ $! > {pids}\nwait\n")
    with pytest.raises(H.Hang, match=r"hang \(wall-clock guard\)"):
        w.run("x", "norps")
    left = [int(p) for p in pids.read_text().split()]
    assert len(left) == 2
    # SIGKILL is delivered at once; init reaps the orphan (bounded wait)
    for _ in range(50):
        if all(gone(p) for p in left):
            break
        time.sleep(0.1)
    assert [p for p in left if not gone(p)] == []
