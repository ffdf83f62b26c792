# SPDX-License-Identifier: GPL-2.0
"""napitest.cases over a recorded CTest JUnit file (data/ctest-junit.xml):
each case's status per configuration, its first reason in the tree's
terms, and the other checks that failed.  tools/verdict's summary and
hunk-matrix/verdicts.py read results with it.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import sys
from xml.sax.saxutils import escape

from napitest import cases, verdict

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
JUNIT = os.path.join(DATA, "ctest-junit.xml")


def by_key():
    return {r.key(): r for r in cases.results(JUNIT, cases.suite_cases())}


def test_statuses_per_configuration():
    rs = by_key()
    v18 = "backlog_threads:{} v18_backlog_completion_keeps_threaded"
    assert rs[v18.format("rt-rps")].status == "failed"
    assert rs[v18.format("norps")].status == "passed"
    assert "NAPI_STATE_THREADED clear on backlog of CPU 1" in \
        rs[v18.format("rt-rps")].reason
    assert cases.status_of([rs[v18.format("rt-rps")],
                            rs[v18.format("norps")]]) == "FAIL"
    assert cases.status_of([rs[v18.format("norps")]]) == "pass"
    assert cases.status_of([]) == "n/a"


def test_binary_that_never_started_fails_every_case():
    rs = by_key()
    mine = [r for k, r in rs.items() if k.startswith("threaded_rps:rps ")]
    assert mine and all(r.status == "failed" for r in mine)
    assert all(r.reason.startswith("not run: threaded_rps:rps notrun")
               for r in mine)
    # every case of the suite's source, not only those that ran
    assert len(mine) == len(cases.suite_cases()["threaded_rps"])


def test_other_failures_are_not_suites():
    names = [n for n, _ in cases.other_failures(JUNIT, cases.suite_cases())]
    assert names == ["kbuild:rt-rps"]


def test_kernel_terms(tmp_path):
    tree = tmp_path / "tree"
    (tree / "net" / "core").mkdir(parents=True)
    (tree / "net" / "core" / "dev.c").write_text(
        "static int napi_poll(int x)\n{\n\treturn x;\n}\n")
    t = str(tree)
    assert cases.kernel_terms(f"at {t}/net/core/dev.c:3 here", t) == \
        "at net/core/dev.c:3 (napi_poll()) here"
    # through the build's link to the tree: the user's path, in full
    link = str(tmp_path / "build" / "tree")
    assert cases.kernel_terms(f"{link}/net/core/dev.c:3", t, link) == \
        f"{t}/net/core/dev.c:3 (napi_poll())"
    # a compiler's line:column: the function after both
    assert cases.kernel_terms(f"{t}/net/core/dev.c:3:9: error: x", t) == \
        "net/core/dev.c:3:9 (napi_poll()): error: x"


def test_cache_value(tmp_path):
    (tmp_path / "CMakeCache.txt").write_text("KSRC:PATH=/some/tree\n")
    assert cases.cache_value(str(tmp_path), "KSRC") == "/some/tree"
    assert cases.cache_value(str(tmp_path / "none"), "KSRC") == ""


def test_source_cases(tmp_path):
    """The one reader of the case lists in the suites' sources (the
    verdict's cases that never ran, tools/check-invariant-map)."""
    src = tmp_path / "suite.c"
    src.write_text("\tconst struct CMUnitTest tests[] = {\n"
                   "\t\tcmocka_unit_test_setup(v1_a, setup),\n"
                   "\t\tcmocka_unit_test_setup(\n"
                   "\t\t\tv21_long_name, setup),\n"
                   "\t\tcmocka_unit_test(helper_case),\n"
                   "\t};\n"
                   "/* not_a_cmocka_unit_test(x) */\n"
                   "static struct kunit_case c[] = { KUNIT_CASE(v19_k), {} };\n")
    assert cases.source_cases(str(src)) == ["v1_a", "v21_long_name",
                                            "helper_case", "v19_k"]


def ctest_junit(path, name, status, output):
    """A CTest JUnit file (ctest --output-junit) of one test."""
    fail = '<failure message="" />' if status == "fail" else ""
    path.write_text(
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<testsuite name="(empty)" tests="1">'
        f'<testcase name="{name}" classname="{name}" time="1" '
        f'status="{status}">{fail}<system-out>{escape(output)}'
        "</system-out></testcase></testsuite>\n")
    return str(path)


def test_a_skipped_case_is_not_checked(tmp_path, capsys, monkeypatch):
    """An explorer scenario skipped (NAPITEST_EXPLORE_ONLY) is n/a in the
    per-invariant summary, never a pass, and not counted as checked."""
    out = "[==========] Running 1 test(s).\n" \
        "[ RUN      ] explore_c_defer_kick_vs_flush\n" \
        "  c_defer_kick_vs_flush: skipped (NAPITEST_EXPLORE_ONLY=x)\n" \
        "[  SKIPPED ] explore_c_defer_kick_vs_flush\n" \
        "[==========] 1 test(s) run.\n" \
        "[  PASSED  ] 0 test(s).\n"
    junit = ctest_junit(tmp_path / "j.xml", "explore_napi:rps", "run", out)
    rs = cases.results(junit, cases.suite_cases())
    assert [(r.test, r.status) for r in rs] == \
        [("explore_c_defer_kick_vs_flush", "skipped")]
    assert cases.status_of(rs) == "n/a"
    (tmp_path / "CMakeCache.txt").write_text("KSRC:PATH=/nonexistent\n")
    monkeypatch.setattr(sys, "argv", ["verdict", str(tmp_path), junit])
    assert verdict.main() == 0
    text = capsys.readouterr().out
    v25 = next(ln for ln in text.splitlines() if ln.startswith("  V25 "))
    assert v25.split()[1:6] == ["-", "n/a", "-", "-", "-"]
    assert " 0 of " in text and "invariants checked" in text


def test_other_failure_says_where_cmocka_failed(tmp_path):
    """A failing check that is not a unit/ suite (the simulator's
    self-tests) says its case, cmocka's message and the file:line that
    cmocka printed on the next line."""
    where = os.path.join(cases.ROOT, "shims/tests/explore/search.c")
    out = "[==========] Running 1 test(s).\n" \
        "[ RUN      ] explore_kernel_wait_loop_passes\n" \
        "[  ERROR   ] --- 0 != 0x1\n" \
        f"[   LINE   ] --- {where}:174: error: Failure!\n" \
        "[  FAILED  ] explore_kernel_wait_loop_passes\n" \
        "[==========] 1 test(s) run.\n"
    junit = ctest_junit(tmp_path / "j.xml", "sim_checks:rps", "fail", out)
    [(name, err)] = cases.other_failures(junit, cases.suite_cases())
    assert name == "sim_checks:rps"
    assert err == f"explore_kernel_wait_loop_passes: 0 != 0x1 (at {where}:174)"
    assert cases.kernel_terms(err, "/nonexistent") == \
        "explore_kernel_wait_loop_passes: 0 != 0x1 " \
        "(at shims/tests/explore/search.c:174)"


def test_other_failure_long_message_keeps_where(tmp_path):
    """A long message is cut in its middle: the file:line at its end,
    which says where the check failed, stays."""
    where = os.path.join(cases.ROOT, "shims/tests/explore/search.c")
    out = "[==========] Running 1 test(s).\n" \
        "[ RUN      ] explore_kernel_wait_loop_passes\n" \
        f"[  ERROR   ] --- {'x' * 400}\n" \
        f"[   LINE   ] --- {where}:174: error: Failure!\n" \
        "[  FAILED  ] explore_kernel_wait_loop_passes\n" \
        "[==========] 1 test(s) run.\n"
    junit = ctest_junit(tmp_path / "j.xml", "sim_checks:rps", "fail", out)
    [(_, err)] = cases.other_failures(junit, cases.suite_cases())
    assert len(err) < 300 + len(where)
    assert err.endswith(f" ... (at {where}:174)")
    assert cases.kernel_terms(err, "/nonexistent").endswith(
        "(at shims/tests/explore/search.c:174)")


def test_a_tree_that_does_not_build_is_no_pass(tmp_path, capsys, monkeypatch):
    """The suites passed in rps, but the tree's own kbuild failed there:
    the summary names the compiler's error first, the invariant's rps cell
    is BUILD, not pass, and the closing count does not call it checked
    without a failure."""
    ok = "[==========] Running 1 test(s).\n" \
        "[ RUN      ] explore_c_defer_kick_vs_flush\n" \
        "[       OK ] explore_c_defer_kick_vs_flush\n" \
        "[==========] 1 test(s) run.\n" \
        "[  PASSED  ] 1 test(s).\n"
    err = "net/core/dev.c:6025:9: error: implicit declaration of " \
        "function 'rps_lock_irq_disable'"
    cases_xml = [("explore_napi:rps", "run", ok, ""),
                 ("kbuild:rps", "fail", f"make: ...\n{err}\n",
                  '<failure message="" />')]
    (tmp_path / "j.xml").write_text(
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<testsuite name="(empty)" tests="2">' + "".join(
            f'<testcase name="{n}" classname="{n}" time="1" '
            f'status="{st}">{fail}<system-out>{escape(out)}'
            "</system-out></testcase>" for n, st, out, fail in cases_xml)
        + "</testsuite>\n")
    (tmp_path / "CMakeCache.txt").write_text("KSRC:PATH=/nonexistent\n")
    monkeypatch.setattr(sys, "argv", ["verdict", str(tmp_path),
                                      str(tmp_path / "j.xml")])
    assert verdict.main() == 0
    text = capsys.readouterr().out
    assert "the tree's own kbuild fails in rps: " \
        "net/core/dev.c:6025:9: error: implicit declaration" in text
    v25 = next(ln for ln in text.splitlines() if ln.startswith("  V25 "))
    assert v25.split()[1:6] == ["-", "BUILD", "-", "-", "-"]
    assert " 0 of " in text
    assert "1 not verified: the tree's kbuild fails in rps" in text


def skipped_f(tmp_path, capsys, monkeypatch, cfg, why):
    """Scenario f skipped in cfg, its output line saying why: its one
    Result and the verdict's output."""
    out = "[==========] Running 1 test(s).\n" \
        "[ RUN      ] explore_f_defer_kick_vs_backlog_on_poll_list\n" \
        f"  f_defer_kick_vs_backlog_on_poll_list: {why}\n" \
        "[  SKIPPED ] explore_f_defer_kick_vs_backlog_on_poll_list\n" \
        "[==========] 1 test(s) run.\n" \
        "[  PASSED  ] 0 test(s).\n"
    junit = ctest_junit(tmp_path / "j.xml", f"explore_napi:{cfg}", "run",
                        out)
    [r] = cases.results(junit, cases.suite_cases())
    (tmp_path / "CMakeCache.txt").write_text("KSRC:PATH=/nonexistent\n")
    monkeypatch.setattr(sys, "argv", ["verdict", str(tmp_path), junit])
    assert verdict.main() == 0
    return r, capsys.readouterr().out


def test_a_scenario_that_does_not_apply_says_why(tmp_path, capsys,
                                                 monkeypatch):
    """An explorer scenario the tree cannot reach (f on 6.12: no
    ksoftirqd_running()) is n/a, and the summary says why under its
    invariant, without the tree's path."""
    r, text = skipped_f(tmp_path, capsys, monkeypatch, "rps-threads",
                        "not applicable on this tree (/t/linux-6.12): its "
                        "invoke_softirq() runs a pending NET_RX at once")
    assert (r.status, r.reason) == ("skipped", "not applicable on this "
                                    "tree: its invoke_softirq() runs a "
                                    "pending NET_RX at once")
    assert "        not checked in rps-threads: explore_f_defer_kick_vs_" \
        "backlog_on_poll_list: not applicable on this tree: its " \
        "invoke_softirq() runs a pending NET_RX at once\n" in text


def test_a_scenario_the_environment_left_out_says_so(tmp_path, capsys,
                                                     monkeypatch):
    """NAPITEST_EXPLORE_ONLY naming another scenario skips this one: the
    summary names the variable and its value under the invariant and
    counts the cases it left out, so a narrowed run is not read as the
    whole verdict."""
    monkeypatch.setenv("NAPITEST_EXPLORE_ONLY", "no-such")
    r, text = skipped_f(tmp_path, capsys, monkeypatch, "rps",
                        "skipped (NAPITEST_EXPLORE_ONLY names another "
                        "scenario)")
    assert (r.status, r.reason) == (
        "skipped", "skipped by NAPITEST_EXPLORE_ONLY=no-such "
        "(names another scenario)")
    assert "        not checked in rps: explore_f_defer_kick_vs_backlog_" \
        "on_poll_list: skipped by NAPITEST_EXPLORE_ONLY=no-such " \
        "(names another scenario)\n" in text
    assert "  1 case(s) skipped by NAPITEST_EXPLORE_ONLY=no-such: unset " \
        "it to run them\n" in text
