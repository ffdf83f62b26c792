# SPDX-License-Identifier: GPL-2.0
"""Tests of napitest.ktap's reader (kunit/run's KTAP summary, kunit/smp's
totals) over the KTAP of recorded consoles: make kunit-smp's PREEMPT_RT
kernel, UML's boot without thread_backlog_napi, and the headline's
one-case suite, whose counts KUnit does not print.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

from napitest import ktap

from .recorded import DATA, data, run


def test_ktap_suites_of_a_recorded_console():
    res = ktap.suites(data("kunit-ktap-rt.log"))
    assert [(s.name, s.counts["pass"], s.counts["total"]) for s in res] == [
        ("net_backlog_napi_smp", 3, 3), ("net_backlog_napi_headline", 1, 1),
        ("net_backlog_napi_init", 2, 2), ("net_threaded_napi", 3, 3),
        ("net_rx_action", 4, 4), ("net_backlog_napi_threads", 5, 5)]
    assert all(s.done and not s.not_ok for s in res)
    # The one-case suite has no "# NAME: pass:" line: counted, and the
    # others' counted cases agree with KUnit's own lines.
    assert res[1].stats is None
    assert all(s.counted == s.stats for s in res if s.stats)
    assert ktap.totals_text(res) == "pass:18 fail:0 skip:0 total:18"


def test_ktap_headline_boot_is_not_zero():
    """The headline boot's summary said "pass:0 ... total:0"."""
    lines = ktap.summary_lines(data("kunit-console-rt-headline-base.log"))
    assert lines == [
        "  # net_backlog_napi_headline: pass:1 fail:0 skip:0 total:1",
        "  # all suites: pass:1 fail:0 skip:0 total:1"]


def test_ktap_failed_skipped_and_unfinished():
    text = ("[    1.0] boot\n"
            "KTAP version 1\n1..2\n"
            "    KTAP version 1\n    # Subtest: a\n    1..3\n"
            "    ok 1 x\n"
            "    # y: EXPECTATION FAILED at net/core/dev.c:10\n"
            "    not ok 2 y\n"
            "    ok 3 z # SKIP not here\n"
            "not ok 1 a\n"
            "    KTAP version 1\n    # Subtest: b\n    1..2\n"
            "    ok 1 p\n"
            "        ok 1 param-0\n"
            "[   60.0] timed out\n")
    a, b = ktap.suites(text)
    assert (a.name, a.counts, a.done) == (
        "a", {"pass": 1, "fail": 1, "skip": 1, "total": 3}, True)
    assert a.not_ok == ["not ok 2 y", "not ok 1 a"]
    # An unfinished suite is counted as far as it got.
    assert (b.name, b.counts["total"], b.done) == (None, 1, False)
    assert ktap.summary_lines(text)[-1] == \
        "  # all suites: pass:2 fail:1 skip:1 total:4"
    # No KTAP at all (a boot that hung before KUnit): nothing counted.
    assert ktap.suites("[ 1.0] ok 1 not a result\n") == []


def test_ktap_commands():
    log = os.path.join(DATA, "kunit-ktap-rt.log")
    off = os.path.join(DATA, "kunit-ktap-um-threads-off.log")
    p = run("ktap", "totals", log, off)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ("pass:18 fail:0 skip:0 total:18 "
                        "pass:2 fail:0 skip:0 total:2\n")
    p = run("ktap", "summary", log, off)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "kunit-ktap-rt.log:"
    assert "kunit-ktap-um-threads-off.log:" in p.stdout
    p = run("ktap", "totals", os.path.join(DATA, "absent.log"))
    assert p.returncode != 0 and "absent.log" in p.stderr
