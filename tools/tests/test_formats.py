# SPDX-License-Identifier: GPL-2.0
"""Tests of the readers that replaced the shell scripts' own parsing, over
recorded inputs:

  - napitest.explore_output (tools/determinism-check, bench/explore) over
    a recorded explore_napi run;
  - napitest.matrix_tsv (tools/determinism-check, hunk-matrix/) over a
    slice of a recorded matrix.tsv;
  - napitest.expected_failures (tools/expected-failures) over
    unit/expected-failures-base.txt;
  - napitest.depfile and napitest.check_inputs (the Makefile's
    CHECK_INPUTS) over a depfile and a recorded `ninja -t deps`;
  - a kernel Makefile's version, read by napitest.extract.kernel_version()
    only: kernel-src/resolve-tree (through tree-info) and
    napitest.kbuild_check (its O= slots) over the fixture tree
    data/verify-series/tree and Makefiles kbuild accepts.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import io
import os
import shutil
import subprocess

import pytest

from napitest import Error, check_inputs, depfile, expected_failures
from napitest import explore_output, extract, kbuild_check, manifest
from napitest import matrix_tsv

from .recorded import DATA, TOP, data, run


# napitest.explore_output

def test_explore_figures_of_a_recorded_run():
    figs = explore_output.figures(data("explore_napi-rps.txt"))
    assert len(figs) == 9
    e = [f for f in figs if f.name == "e_cpu_dead_vs_enqueue"][0]
    assert (e.bound, e.schedules) == (2, 11092) and e.cpu is not None


def test_explore_verdict_lines_leave_out_cpu_time_only():
    text = data("explore_napi-rps.txt")
    lines = explore_output.verdict_lines(text)
    assert not any("s CPU" in ln for ln in lines)
    assert lines.count("explore_f_defer_kick_vs_backlog_on_poll_list: "
                       "skipped") == 1
    assert lines[-1] == "10 cases"
    # Another CPU time is the same verdict; another count is not.
    assert explore_output.verdict_lines(
        text.replace("[0.00 s CPU]", "[9.99 s CPU]")) == lines
    assert explore_output.verdict_lines(
        text.replace("11092 schedules", "11093 schedules")) != lines


def test_explore_incomplete_and_failed():
    text = ("[ RUN      ] explore_x\n"
            "  x: bound 3, 9 schedules (INCOMPLETE: schedule budget reached)"
            " + 0 random walks (seed 1), 9 steps (0 stack-local points "
            "skipped), 0 violating [1.00 s CPU]\n"
            "  x: INCOMPLETE: the bounded search was not exhausted within 9 "
            "schedules (max_schedules, NAPITEST_EXPLORE_SCHEDULES): not a "
            "pass\n"
            "ERROR: x: incomplete\n"
            "[  FAILED  ] explore_x\n"
            "[==========] 1 test(s) run.\n")
    assert explore_output.verdict_lines(text) == [
        "  x: bound 3, 9 schedules (INCOMPLETE: schedule budget reached) + "
        "0 random walks (seed 1), 9 steps (0 stack-local points skipped), "
        "0 violating",
        "  x: INCOMPLETE: the bounded search was not exhausted within 9 "
        "schedules (max_schedules, NAPITEST_EXPLORE_SCHEDULES): not a pass",
        "explore_x: failed: x: incomplete", "1 cases"]


def test_explore_commands():
    p = run("explore_output", "figures", os.path.join(DATA,
                                                      "explore_napi-rps.txt"))
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0].startswith(
        "a_remote_enqueue_vs_backlog_sleep 367 ")


# napitest.matrix_tsv

def test_matrix_rows_and_results():
    path = os.path.join(DATA, "matrix-slice.tsv")
    rows = matrix_tsv.read(path)
    assert list(rows) == ["1.1", "2.1", "4.4", "7.1"]
    assert matrix_tsv.results(rows)[2] == (
        "4.4", "killed",
        "net_rx_action:rt-rps:v5_budget_exhausted_exit_clears_in_net_rx_"
        "action")
    # Written back as read.
    out = io.StringIO()
    matrix_tsv.write(out, rows.values())
    assert out.getvalue() == data("matrix-slice.tsv")
    assert matrix_tsv.read(os.path.join(DATA, "absent.tsv")) == {}


def test_matrix_bad_input(tmp_path):
    p = tmp_path / "matrix.tsv"
    p.write_text("hunk\tresult\n1.1\tkilled\n")
    with pytest.raises(Error, match="matrix.tsv:1: not a hunk matrix"):
        matrix_tsv.read(str(p))
    p.write_text("\t".join(matrix_tsv.COLUMNS) + "\n1.1\tx\n")
    with pytest.raises(Error, match="matrix.tsv:2: 2 cells"):
        matrix_tsv.read(str(p))


def test_matrix_command_as_determinism_check_reads_it():
    p = run("matrix_tsv", "results", os.path.join(DATA, "matrix-slice.tsv"))
    assert p.returncode == 0, p.stderr
    assert [ln.split("\t")[:2] for ln in p.stdout.splitlines()] == [
        ["1.1", "killed-build"], ["2.1", "equivalent"], ["4.4", "killed"],
        ["7.1", "killed"]]


# napitest.expected_failures

LIST = os.path.join(TOP, "unit", "expected-failures-base.txt")


def test_committed_list_parses():
    got = expected_failures.read(LIST)
    assert len(got) > 100 and got == sorted(set(got))
    assert "backlog_rps:rt-rps v16_rt_remote_enqueue_sends_no_ipi" in got


def test_list_comments_blanks_and_bad_lines():
    assert expected_failures.parse(
        "# c\n\n  a:rt-rps t1\nb:rps *crashed*\na:rt-rps t1\n", "L") == [
        "a:rt-rps t1", "b:rps *crashed*"]
    with pytest.raises(Error, match="L:2: not '<suite>:<config> <test>'"):
        expected_failures.parse("a:rps t\na:rps\n", "L")


def test_compare(tmp_path):
    got = tmp_path / "failures.txt"
    entries = expected_failures.read(LIST)
    got.write_text("\n".join(reversed(entries)) + "\n")
    p = run("expected_failures", "compare", LIST, str(got))
    assert p.returncode == 0, p.stderr
    assert p.stdout == (f"base fails exactly the {len(entries)} expected "
                        "cases\n")
    got.write_text("\n".join(entries[1:] + ["x:rps new"]) + "\n")
    p = run("expected_failures", "compare", LIST, str(got))
    assert p.returncode == 1
    assert f"-{entries[0]}\n+x:rps new\n" in p.stderr
    p = run("expected_failures", "count", LIST)
    assert p.stdout == f"{len(entries)}\n"


# napitest.depfile, napitest.check_inputs

def test_depfile_round_trip():
    paths = ["/t/net/core/dev.c", "/a tree/x#1.c", "/d$/b\\c"]
    text = depfile.text("/b/extract.stamp", paths)
    assert text.count("\n") == 1
    assert depfile.parse(text) == [("/b/extract.stamp", paths)]
    assert depfile.prerequisites("a b: c \\\n d\ne: c f\n") == [
        "c", "d", "f"]


NINJA_DEPS = """\
CMakeFiles/sim-rps.dir/shims/sim/sim.c.o: #deps 2, deps mtime 1 (VALID)
    /usr/include/stdio.h
    shims/include/kernel_prelude.h

unit/x.c.o: #deps 1, deps mtime 2 (STALE)
    /usr/include/stdio.h

"""


def test_check_inputs(tmp_path):
    assert check_inputs.ninja_deps(NINJA_DEPS) == [
        "/usr/include/stdio.h", "shims/include/kernel_prelude.h"]
    gen = tmp_path / "b" / "gen" / "extracted"
    gen.mkdir(parents=True)
    (gen / "extract.d").write_text(depfile.text(
        str(tmp_path / "b" / "gen" / "extract.stamp"),
        ["/tree/net/core/dev.c", "/tree/kernel/smp.c"]))
    patch = os.path.join(DATA, "series", "0001-demo-keep-flag.patch")
    out = tmp_path / "inputs.txt"
    p = run("check_inputs", "--out", str(out), "--build-dir",
            str(tmp_path / "b"), "--tree", "/tree", patch,
            stdin=NINJA_DEPS)
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    assert lines == sorted(set(lines)) and "" not in lines
    for want in ["/usr/include/stdio.h", "shims/include/kernel_prelude.h",
                 "/tree/net/core/dev.c", "/tree/kernel/smp.c",
                 "/tree/demo.c", "/tree/Makefile"]:
        assert want in lines, want
    assert len(lines) == 6


# A kernel Makefile's version: napitest.extract.kernel_version(), its one
# reader (tree-info's banner and range check, resolve-tree, kbuild-check).

VERSION_TREE = os.path.join(DATA, "verify-series", "tree")


def ksrc_tree(tmp_path, makefile):
    """A tree resolve-tree accepts but for its Makefile: include/linux and
    every file the manifest requires (empty)."""
    t = tmp_path / "linux"
    (t / "include" / "linux").mkdir(parents=True)
    for rel in manifest.required_files(os.path.join(TOP, "kernel-src",
                                                    "manifest")):
        (t / rel).parent.mkdir(parents=True, exist_ok=True)
        (t / rel).write_text("")
    (t / "Makefile").write_text(makefile)
    return str(t)


def resolve_tree(tree):
    return subprocess.run([os.path.join(TOP, "kernel-src", "resolve-tree"),
                           tree], capture_output=True, text=True)


def test_makefile_version_one_reader():
    assert extract.kernel_version(VERSION_TREE) == (6, 1, 192, "")
    assert kbuild_check.kernel_version(VERSION_TREE) == "6.1.192"


def test_makefile_version_as_kbuild_writes_it(tmp_path):
    """make reads 'VERSION=6' as well as 'VERSION = 6'."""
    t = ksrc_tree(tmp_path, "# SPDX-License-Identifier: GPL-2.0\n"
                  "VERSION=6\nPATCHLEVEL\t= 6\nSUBLEVEL = 3\n"
                  "EXTRAVERSION = -rc1\nNAME = Hurr durr\n")
    assert extract.kernel_version(t) == (6, 6, 3, "-rc1")
    assert kbuild_check.kernel_version(t) == "6.6.3"
    r = resolve_tree(t)
    assert (r.returncode, r.stdout, r.stderr) == (0, t + "\n", "")


def test_makefile_without_version(tmp_path):
    t = ksrc_tree(tmp_path, "all:\n\ttrue\n")
    assert kbuild_check.kernel_version(t) == "?.?.?"
    with pytest.raises(Error, match="no numeric VERSION"):
        extract.kernel_version(t)
    r = resolve_tree(t)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "not a kernel tree" in r.stderr
    shutil.rmtree(os.path.join(t, "include"))
    r = resolve_tree(t)
    assert r.returncode == 1 and "is not a kernel tree (no top-level " \
        "Makefile, or no include/linux)" in r.stderr
