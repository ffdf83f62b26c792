# SPDX-License-Identifier: GPL-2.0
"""kernel-src/series-check over two small orders, with its builds faked:
the table it writes (table.md, table.tsv, stdout) is the recorded one in
data/series-check/.  What it fakes is only what needs a kernel: the
prepared tree, patch(1), kbuild and the unit suites; the orders, the fork
of the later order off the earlier one at their last common prefix, a
patch that does not apply, forced-RT prefixes and the table writers run
as they are.

The fake results depend only on the patches applied so far, so a change
of the walk (a prefix built twice, a missed fork, a row after a patch that
did not apply) changes the table.  Regenerate the recorded files after an
intended change of the output: NAPITEST_RECORD=1 pytest-3 tools/tests.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import types

from napitest.kbuild import OBJS

from napitest import series_check

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "series-check")
SERIES = {
    "series": ["0001-a.patch", "0002-b.patch", "0003-c.patch",
               "0004-d.patch"],
    # the same first two patches, then another third that does not apply
    "series.as-posted": ["0001-a.patch", "0002-b.patch", "0003-c2.patch",
                         "0004-d.patch"],
}


def applied(tree):
    try:
        with open(os.path.join(tree, "applied")) as f:
            return f.read().split()
    except OSError:
        return []


def fake_apply(tree, patch, logf):
    name = os.path.basename(patch)
    if name == "0003-c2.patch":
        return "1 out of 2 hunks FAILED"
    # as patch(1): a new file, never written through a hard link
    tmp = os.path.join(tree, "applied.new")
    with open(tmp, "w") as f:
        f.write(" ".join(applied(tree) + [name]))
    os.replace(tmp, os.path.join(tree, "applied"))
    return None


def fake_kbuild(tree, kb, env, logf, jobs, extra=(), strict=True):
    n = len(applied(tree))
    rt = bool(extra)
    dev = ("FAIL", "net/core/dev.c:12: error: 'x' undeclared") \
        if rt and n == 2 else ("ok", "")
    skb = ("ok (1 warning)", "net/core/skbuff.c:3: warning: unused") \
        if n == 1 else ("ok", "")
    return {OBJS[0]: dev, OBJS[1]: skb}


def fake_unit(tree, builddir, logf, jobs, timeout):
    n = len(applied(tree))
    failed = {}
    if n < 3:
        failed["v20_backlog_poll_list_initialised"] = ["rt-rps", "rps"]
    if n == 1:
        failed["backlog_threads:norps (Timeout)"] = ["norps"]
    if n == 4:
        return "BUILD FAIL: unit/x.c:1: error: nope", {}
    return f"40 tests, {len(failed)} failed", failed


def run_series_check(tmp_path, monkeypatch, capsys):
    sc = series_check
    patches = tmp_path / "patches"
    patches.mkdir()
    for order, names in SERIES.items():
        (patches / order).write_text("\n".join(names) + "\n")
        for n in names:
            (patches / n).write_text(f"patch {n}\n")
    base = tmp_path / "base"
    base.mkdir()
    (base / "Makefile").write_text("# the base tree\n")
    monkeypatch.setattr(sc, "PATCHES", str(patches))
    monkeypatch.setattr(sc, "prepare", lambda variant: str(base))
    monkeypatch.setattr(sc, "stamp_ok", lambda tree: True)
    monkeypatch.setattr(sc, "apply_patch", fake_apply)
    monkeypatch.setattr(sc, "kbuild_setup", lambda *a: None)
    monkeypatch.setattr(sc, "kbuild_setup_rt", lambda *a: None)
    monkeypatch.setattr(sc, "kbuild", fake_kbuild)
    monkeypatch.setattr(sc, "unit", fake_unit)
    monkeypatch.setattr(sc.shutil, "which", lambda tool: "/usr/bin/" + tool)
    monkeypatch.setattr(sc, "time", types.SimpleNamespace(time=lambda: 0.0))
    monkeypatch.delenv("CCACHE_BASEDIR", raising=False)
    out = tmp_path / "out"
    monkeypatch.setattr("sys.argv", [
        "series-check", "--work", str(tmp_path / "work"), "--out", str(out),
        "--rt-prefixes", "0,2,3", "--no-doc"])
    assert sc.main() == 0
    stdout = capsys.readouterr().out.replace(str(out), "OUT")
    return {"stdout": stdout,
            "table.md": (out / "table.md").read_text(),
            "table.tsv": (out / "table.tsv").read_text()}


def test_table_is_the_recorded_one(tmp_path, monkeypatch, capsys):
    got = run_series_check(tmp_path, monkeypatch, capsys)
    for name, text in got.items():
        path = os.path.join(DATA, name)
        if os.environ.get("NAPITEST_RECORD"):
            with open(path, "w") as f:
                f.write(text)
        with open(path) as f:
            assert text == f.read(), f"{name} differs from {path}"
    # the later order reuses the earlier one's first prefixes
    assert "= series p2" in got["table.md"]
    assert "not reached" in got["table.md"]


def test_unit_results_from_ctest_junit(tmp_path):
    """The failing column comes from CTest's JUnit file and the cmocka
    output in it (recorded: data/ctest-junit.xml)."""
    sc = series_check
    summary, failed = sc.unit_results(os.path.join(
        os.path.dirname(DATA), "ctest-junit.xml"))
    assert summary == "8 tests, 4 failed"
    assert failed == {
        "v18_backlog_completion_keeps_threaded": ["rt-rps"],
        "v19_cpu_dead_keeps_threaded": ["rt-rps"],
        "explore_c_defer_kick_vs_flush": ["rt-rps"],
        "explore_c2_defer_kick_vs_local_backlog": ["rt-rps"],
        "explore_e_cpu_dead_vs_enqueue": ["rt-rps"],
        "threaded_rps:rps (Not Run)": ["rps"],
        "kbuild:rt-rps (Failed)": ["rt-rps"]}
    assert sc.inv_ids(failed) == (
        "V18, V19, [explore_c2_defer_kick_vs_local_backlog], "
        "[explore_c_defer_kick_vs_flush], [explore_e_cpu_dead_vs_enqueue], "
        "[kbuild Failed], [threaded_rps Not Run]")
    # A binary that stopped in a case (a crash; CTest's JUnit file does not
    # tell its wall-clock timeout apart) and one run-suite's CPU-time guard
    # stopped.
    j = tmp_path / "ctest-junit.xml"
    j.write_text(
        '<testsuite><testcase name="defer_list:rps" status="fail">'
        '<failure message=""/><system-out>'
        "[==========] Running 2 test(s).\n[ RUN      ] v1_a\n"
        "[       OK ] v1_a\n[ RUN      ] v24_b\n"
        "kernel BUG at net/core/dev.c:1: x\n</system-out></testcase>"
        '<testcase name="limits:norps" status="fail"><failure message=""/>'
        "<system-out>[ RUN      ] v32_c\nrun-suite: hang (CPU-time guard): "
        "limits-norps used 120 s of CPU\n</system-out></testcase>"
        '<testcase name="napi_api:rps" status="run"><system-out>'
        "</system-out></testcase></testsuite>")
    summary, failed = sc.unit_results(str(j))
    assert summary == "3 tests, 2 failed"
    assert failed == {"v24_b": ["rps"], "defer_list:rps (stopped)": ["rps"],
                      "v32_c": ["norps"],
                      "limits:norps (hang (CPU-time guard))": ["norps"]}
