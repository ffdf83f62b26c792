# SPDX-License-Identifier: GPL-2.0
"""napitest/{cmocka_output,ktap,junit,run_record}.py over recorded runs.

The records in data/ are tools/run-suite.c's records of real runs (paths of
the checkout replaced by /src/napi-backport-test): base-* against the
unpatched base tree, patched-* against the patched tree; crash-* is the base
defer_list run cut by a kernel BUG (SIGABRT) in its sixth test.
"""

import json
import os
import xml.etree.ElementTree as ET

from napitest import cmocka_output, junit, ktap, run_record

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, "data", name + ".json")) as f:
        rec = json.load(f)
    return rec, cmocka_output.parse(rec["lines"], rec["elapsed"])


def case(suite, name):
    return next(c for c in suite.cases if c.name == name)


def test_cases_and_statuses():
    rec, s = load("base-defer_list_rt-rps")
    assert s.planned == 10 and len(s.cases) == 10
    assert case(s, "v3_flush_keeps_irqs_enabled").status == "ok"
    skip = case(s, "v1_each_kick_sends_one_csd")
    assert skip.status == "skipped"
    # A skip is neither a pass nor a failure.
    assert not skip.ok and not skip.failed
    assert case(s, "v3_flush_keeps_irqs_enabled").ok
    assert case(s, "v24_defer_kick_uses_backlog_thread").status == "failed"
    assert s.failures("defer_list:rt-rps", rec["status"]) == [
        "defer_list:rt-rps v24_defer_kick_uses_backlog_thread",
        "defer_list:rt-rps v1_trigger_rx_softirq_rearms_defer_ipi",
        "defer_list:rt-rps v11_threaded_poll_flushes_defer_list",
        "defer_list:rt-rps v9_remote_dst_warns_once",
        "defer_list:rt-rps v9_remote_destructor_warns_once",
        "defer_list:rt-rps v25_kick_skips_scheduled_backlog"]


def test_closing_summary_is_not_a_result():
    """cmocka repeats "[  FAILED  ] name" after the run: not a second case."""
    rec, s = load("base-explore_napi_rt-rps")
    names = [c.name for c in s.cases]
    assert len(names) == len(set(names)) == 7
    assert any("3 FAILED TEST" in ln for ln in s.post)


def test_message_says_what_and_where():
    _, s = load("base-defer_list_rt-rps")
    msg = case(s, "v24_defer_kick_uses_backlog_thread").message()
    assert msg.startswith("use_backlog_threads() is not in this tree")
    assert msg.endswith("(at /src/napi-backport-test/unit/defer_list.c:86)")
    msg = case(s, "v11_threaded_poll_flushes_defer_list").message()
    assert msg == ("READ_ONCE(sd->defer_list) "
                   "(at /src/napi-backport-test/unit/defer_list.c:66)")


def test_kernel_lines_belong_to_their_test():
    """The simulator's WARNING lines (stderr) sit inside the test that
    caused them, not after the results."""
    _, s = load("base-backlog_rps_rt-rps")
    v16 = case(s, "v16_rt_remote_enqueue_sends_no_ipi")
    assert any(ln.startswith("WARNING: CPU: 0 at ") and
               ln.endswith("kernel/softirq.c:740: !irqs_disabled()")
               for ln in v16.lines)
    for c in s.cases:
        if c is not v16:
            assert not any(ln.startswith("WARNING") for ln in c.lines)


def test_real_times():
    rec, s = load("base-explore_napi_rt-rps")
    b = case(s, "explore_b_napi_schedule_vs_napi_thread_wait")
    assert abs(b.time - (0.058861 - 0.028998)) < 1e-6
    assert sum(c.time for c in s.cases) <= rec["elapsed"]


def test_crash_is_pinned_on_the_test():
    rec, s = load("crash-defer_list_rt-rps")
    v11 = case(s, "v11_threaded_poll_flushes_defer_list")
    assert v11.status == "crashed" and not v11.ok
    assert v11.message().startswith("kernel BUG at ")
    assert v11.end == rec["elapsed"]
    assert "defer_list:rt-rps v11_threaded_poll_flushes_defer_list" in \
        s.failures("defer_list:rt-rps", rec["status"])


def test_crash_without_a_test():
    s = cmocka_output.parse([(0.0, "[==========] Running 3 test(s).")])
    assert s.failures("x:rps", -11) == ["x:rps *crashed*"]
    assert s.failures("x:rps", 0) == []


def ktap_lines(name, rec_name):
    rec, s = load(rec_name)
    lines, ok = ktap.subtest(name, s, rec["status"])
    return lines, ok


def test_ktap_diagnostics_precede_their_result():
    lines, ok = ktap_lines("backlog_rps:rt-rps", "base-backlog_rps_rt-rps")
    assert not ok
    first = lines.index("    not ok 1 v16_rt_remote_enqueue_sends_no_ipi")
    warn = [i for i, ln in enumerate(lines) if "# WARNING: CPU: 0 at" in ln]
    assert warn and all(3 <= i < first for i in warn)
    # v17's message after v16's result, before its own.
    msg = [i for i, ln in enumerate(lines)
           if "no backlog_napi/0 thread in this tree" in ln]
    second = lines.index("    not ok 2 v17_local_enqueue_uses_poll_list")
    assert msg and first < msg[0] < second
    # Nothing after the last result but the suite's own lines.
    assert lines[-1].startswith("    not ok 4 ")


def test_ktap_skip_and_plan():
    lines, ok = ktap_lines("defer_list:rt-rps", "patched-defer_list_rt-rps")
    assert ok
    assert lines[:3] == ["    KTAP version 1",
                         "    # Subtest: defer_list:rt-rps", "    1..10"]
    assert "    ok 3 v1_each_kick_sends_one_csd # SKIP" in lines
    doc = ktap.document([("defer_list:rt-rps", lines, ok)])
    assert doc.startswith("KTAP version 1\n1..1\n")
    assert doc.endswith("ok 1 defer_list:rt-rps\n")
    # Read back: the skip is counted as a skip, not a pass.
    [r] = ktap.suites(doc)
    assert r.counted == {"pass": 9, "fail": 0, "skip": 1, "total": 10}


def test_ktap_crash():
    lines, ok = ktap_lines("defer_list:rt-rps", "crash-defer_list_rt-rps")
    assert not ok
    i = lines.index("    not ok 6 v11_threaded_poll_flushes_defer_list")
    assert lines[i - 1] == ("    # v11_threaded_poll_flushes_defer_list: "
                            "did not finish (killed by SIGABRT)")
    assert lines[i - 2].startswith("    # kernel BUG at ")


def junit_of(name, rec_name):
    rec, s = load(rec_name)
    xml = junit.document([junit.testsuite(name, s, rec["status"],
                                          rec["elapsed"])])
    return ET.fromstring(xml.split("\n", 1)[1])


def test_junit_failure_message_and_kernel_lines():
    root = junit_of("backlog_rps:rt-rps", "base-backlog_rps_rt-rps")
    ts = root.find("testsuite")
    assert ts.get("failures") == "4" and ts.get("tests") == "4"
    tc = ts.find("testcase[@name='v16_rt_remote_enqueue_sends_no_ipi']")
    f = tc.find("failure")
    assert f.get("message").startswith("2 WARN(s) (at ")
    assert "backlog_rps.c:97" in f.get("message")
    out = tc.find("system-out").text
    assert "WARNING: CPU: 0 at " in out and "[  ERROR   ]" not in out


def test_junit_times_skips_and_crash():
    root = junit_of("explore_napi:rt-rps", "base-explore_napi_rt-rps")
    b = root.find(".//testcase[@name="
                  "'explore_b_napi_schedule_vs_napi_thread_wait']")
    assert float(b.get("time")) > 0.02
    root = junit_of("defer_list:rt-rps", "patched-defer_list_rt-rps")
    assert root.find(".//testcase[@name='v1_each_kick_sends_one_csd']"
                     "/skipped") is not None
    root = junit_of("defer_list:rt-rps", "crash-defer_list_rt-rps")
    err = root.find(".//testcase[@name="
                    "'v11_threaded_poll_flushes_defer_list']/error")
    assert err.get("message").startswith("kernel BUG at ")
    assert err.get("message").endswith("(killed by SIGABRT)")
    assert root.find("testsuite").get("errors") == "1"


def test_record_key(tmp_path, monkeypatch):
    """A record is fresh only for the same binary, arguments and
    NAPITEST_/CMOCKA_ environment."""
    binary = tmp_path / "suite-rps"
    binary.write_bytes(b"\x7fELF one")
    argv = [str(binary)]
    env = {"NAPITEST_SEED": "5", "HOME": "/root"}
    run_record.write(str(tmp_path), "suite:rps", argv,
                     run_record.key(argv, env), 0, 0.5, [(0.1, "x")])
    assert run_record.fresh(str(tmp_path), "suite:rps", argv, env)
    assert run_record.fresh(str(tmp_path), "suite:rps", argv,
                            dict(env, HOME="/tmp"))
    assert not run_record.fresh(str(tmp_path), "suite:rps", argv,
                                dict(env, NAPITEST_SEED="6"))
    assert not run_record.fresh(str(tmp_path), "suite:rps", argv + ["-v"],
                                env)
    # What run-suite sets for the binary, whether to reuse, where make
    # was typed and the make check's run are not in the key
    # (tools/run-suite.c leaves them out).
    assert run_record.fresh(str(tmp_path), "suite:rps", argv, dict(
        env, CMOCKA_MESSAGE_OUTPUT="STDOUT", NAPITEST_NO_CACHE="1",
        NAPITEST_INVOKED_FROM="/home/me", NAPITEST_CHECK_RUN="r"))
    binary.write_bytes(b"\x7fELF two")
    assert not run_record.fresh(str(tmp_path), "suite:rps", argv, env)
    assert not run_record.fresh(str(tmp_path), "other:rps", argv, env)


def test_a_setup_that_failed_is_that_test_failing_with_its_message():
    """cmocka ends a test whose setup failed with "[  ERROR   ] name": a
    failure of that test, with require_definition()'s message, not a stop
    of the suite (the flipped-#ifndef proof said "Could not run test ...
    stopped here" for every case after it)."""
    from napitest.cases import case_reason
    text = ("[==========] Running 2 test(s).\n"
            "[ RUN      ] a\n"
            "ERROR: f() is not in this tree in this configuration (/t): "
            "the tree's #if around it leaves it out\n"
            "Could not run test: [   LINE   ] --- /r/unit/support/"
            "napitest.h:164: error: Failure!Test setup failed\n"
            "[  ERROR   ] a\n"
            "[ RUN      ] b\n"
            "[       OK ] b\n"
            "[==========] 2 test(s) run.\n")
    cases = cmocka_output.parse_text(text).cases
    assert [(c.name, c.status) for c in cases] == [
        ("a", "failed"), ("b", "ok")]
    assert case_reason(cases[0]) == (
        "f() is not in this tree in this configuration (/t): the tree's #if "
        "around it leaves it out (at /r/unit/support/napitest.h:164)")
