# SPDX-License-Identifier: GPL-2.0
"""tools/run-suite.c's result cache: a pass is reused only while its key
(the binary, its inputs, its environment) is unchanged, and says so; a
failure, a changed input or a missing input list runs the test again.

run-suite is compiled here from the checkout's source, and runs small
shell scripts as its "suites", so each part of the key is changed alone.
"""

import os
import shutil
import subprocess
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "run-suite.c")
REUSED = "run-suite: reused (cached):"


@pytest.fixture(scope="module")
def harness():
    d = tempfile.mkdtemp(prefix="run-suite-test.")
    exe = os.path.join(d, "run-suite")
    subprocess.run(["gcc", "-O2", "-o", exe, SRC], check=True)
    yield exe
    shutil.rmtree(d)


@pytest.fixture
def work(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a").write_text("1\n")
    (tmp_path / "dep").write_text("x\n")
    (tmp_path / "list").write_text(f"{tmp_path / 'dep'}\n")
    script = tmp_path / "suite"
    # Counts its runs in a file outside every input: a reuse leaves it.
    script.write_text(f"#!/bin/sh\necho run >>{tmp_path / 'runs'}\n"
                      f"echo out; exit ${{SUITE_EXIT:-0}}\n")
    script.chmod(0o755)
    return tmp_path


def run(harness, w, extra_env=None, name="t"):
    env = dict(os.environ)
    env.pop("NAPITEST_NO_CACHE", None)
    env.update(extra_env or {})
    r = subprocess.run([harness, str(w / "build"), name,
                        "--input", str(w / "in"),
                        "--input-list", str(w / "list"),
                        "--", str(w / "suite")],
                       capture_output=True, text=True, env=env)
    runs = (w / "runs").read_text().count("run") \
        if (w / "runs").exists() else 0
    return r.returncode, r.stdout, runs


def touch_later(path, text):
    """Rewrite a file so that its mtime surely moves on."""
    time.sleep(0.01)
    path.write_text(text)


def test_a_pass_is_reused_and_says_so(harness, work):
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 1) and REUSED not in out and "out" in out
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 1)
    assert out.startswith(REUSED) and "out" in out


@pytest.mark.parametrize("change", ["input", "new-input", "listed", "binary",
                                    "env", "no-cache"])
def test_any_change_of_the_key_runs_again(harness, work, change):
    run(harness, work)
    env = {}
    if change == "input":
        touch_later(work / "in" / "a", "2\n")
    elif change == "new-input":
        (work / "in" / "b").write_text("new\n")
    elif change == "listed":
        touch_later(work / "dep", "y\n")
    elif change == "binary":
        touch_later(work / "suite", (work / "suite").read_text() + "\n")
    elif change == "env":
        env = {"NAPITEST_SEED": "7"}
    else:
        env = {"NAPITEST_NO_CACHE": "1"}
    rc, out, runs = run(harness, work, env)
    assert (rc, runs) == (0, 2) and REUSED not in out


def test_a_failure_is_never_reused(harness, work):
    rc, _, runs = run(harness, work, {"SUITE_EXIT": "1"})
    assert (rc, runs) == (1, 1)
    rc, out, runs = run(harness, work, {"SUITE_EXIT": "1"})
    assert (rc, runs) == (1, 2) and REUSED not in out


def test_a_missing_input_list_is_never_reused(harness, work):
    (work / "list").unlink()
    run(harness, work)
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 2) and REUSED not in out
