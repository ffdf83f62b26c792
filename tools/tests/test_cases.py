# SPDX-License-Identifier: GPL-2.0
"""napitest.cases over a recorded CTest JUnit file (data/ctest-junit.xml):
each case's status per configuration, its first reason in the tree's
terms, and the other checks that failed.  tools/verdict's summary and
hunk-matrix/verdicts.py read results with it.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

from napitest import cases

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
