# SPDX-License-Identifier: GPL-2.0
"""Tests of the tooling behind make check's verdict: the hunk locator, the
catalogue and guard-table parsers, the CTest JUnit and cmocka parsers
(over recorded output) and the per-invariant summary.

Run: pytest-3 tools/tests (CTest: tools-pytest).
"""

import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout


HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")

from napitest import hunks  # noqa: E402
from napitest import invariants  # noqa: E402
from napitest import cmocka_output  # noqa: E402
from napitest import testresults  # noqa: E402

PRE = """\
static int complete(struct thing *t)
{
    bool again = true;
    if (queue_empty(t)) {
        /* only this CPU owns t */
        list_del(&t->node);
        t->state = 0;
        again = false;
    }
    return again;
}

static void other(struct thing *t)
{
    t->state &= FLAG_KEEP;
}

static void teardown(struct thing *t)
{
    stop_timer(t);
    put_ref(t);
    drain(t);
    if (t->old_guard)
        release_guard(t);
    wake_waiters(t);
    free_thing(t);
    return;
}
""".replace("    ", "\t")


def post(text):
    return (text.replace("\t\tt->state = 0;", "\t\tt->state &= FLAG_KEEP;")
            .replace("\tif (t->old_guard)\n\t\trelease_guard(t);\n", ""))


class Locator(unittest.TestCase):
    def locate(self, text):
        series = os.path.join(DATA, "series", "series")
        with tempfile.TemporaryDirectory() as tree:
            with open(os.path.join(tree, "demo.c"), "w") as f:
                f.write(text)
            return hunks.locate(tree, hunks.series_hunks(series))

    def test_parse(self):
        hs = hunks.series_hunks(os.path.join(DATA, "series", "series"))
        self.assertEqual([h.id for h in hs], ["1.1", "1.2"])
        self.assertEqual(hs[0].subject, "demo: keep the flag on completion "
                         "and drop the old guard")
        self.assertEqual(hs[1].path, "demo.c")

    def test_present_with_context_drift(self):
        text = "/* moved down */\n\n" + post(PRE).replace(
            "list_del(&t->node);", "list_del_init(&t->node);\n\t\tcount(t);")
        self.assertEqual(self.locate(text), {"1.1": "present",
                                             "1.2": "present"})

    def test_missing(self):
        # The other function holds the new line: context places the hunk.
        self.assertEqual(self.locate(PRE), {"1.1": "missing",
                                            "1.2": "missing"})

    def test_one_hunk_dropped(self):
        text = post(PRE).replace("\t\tt->state &= FLAG_KEEP;\n\t\tagain",
                                 "\t\tt->state = 0;\n\t\tagain")
        self.assertEqual(self.locate(text), {"1.1": "missing",
                                             "1.2": "present"})

    def test_dropped_hunk_named_at_its_line(self):
        text = post(PRE).replace("\t\tt->state &= FLAG_KEEP;\n\t\tagain",
                                 "\t\tt->state = 0;\n\t\tagain")
        series = os.path.join(DATA, "series", "series")
        with tempfile.TemporaryDirectory() as tree:
            with open(os.path.join(tree, "demo.c"), "w") as f:
                f.write(text)
            loc = hunks.locate_detail(tree, hunks.series_hunks(series))
        self.assertEqual(loc["1.1"].line, 7)
        self.assertEqual(loc["1.1"].have, "t->state = 0;")
        self.assertEqual(loc["1.1"].want, "t->state &= FLAG_KEEP;")

    def test_modified(self):
        text = post(PRE).replace("\t\tt->state &= FLAG_KEEP;\n\t\tagain",
                                 "\t\tt->state &= FLAG_OTHER;\n\t\tagain")
        self.assertEqual(self.locate(text)["1.1"], "modified")

    def test_file_missing(self):
        with tempfile.TemporaryDirectory() as tree:
            st = hunks.locate(tree, hunks.series_hunks(
                os.path.join(DATA, "series", "series")))
        self.assertEqual(st, {"1.1": "missing", "1.2": "missing"})

    def test_real_series_parses(self):
        hs = hunks.series_hunks()
        self.assertIn("14.8", [h.id for h in hs])
        h = [h for h in hs if h.id == "14.8"][0]
        self.assertIn("napi->state &= NAPIF_STATE_THREADED;", h.image("+"))
        self.assertIn("napi->state = 0;", h.image("-"))
        self.assertTrue(h.subject.startswith("net: Allow to use SMP threads"))


class Catalogue(unittest.TestCase):
    def test_every_invariant_has_statement_and_hunks(self):
        invs = invariants.load()
        self.assertEqual(invs[0].id, "V1")
        for inv in invs:
            self.assertTrue(inv.statement, inv.id)
            self.assertTrue(inv.guards, inv.id)
        v22 = [i for i in invs if i.id == "V22"][0]
        self.assertEqual(v22.hunks(), ["14.6", "14.7", "14.11"])

    def test_invariant_of(self):
        invs = invariants.load()
        self.assertEqual(invariants.invariant_of("v18_x"), "V18")
        self.assertEqual(invariants.invariant_of(
            "explore_e_cpu_dead_vs_enqueue", invs), "V19")
        self.assertIsNone(invariants.invariant_of("helper"))

    def test_bad_row(self):
        with tempfile.NamedTemporaryFile("w", suffix=".md") as f:
            f.write("| " + " | ".join(invariants.COLUMNS) + " |\n"
                    "|---|\n| V1 | only two |\n")
            f.flush()
            with self.assertRaises(ValueError):
                invariants.load(f.name)

    def test_guards(self):
        gs = invariants.load_guards()
        g = {x.hunk: x for x in gs}
        # Every hunk the matrix saw killed by a test names an invariant.
        for x in gs:
            if x.result == "killed":
                self.assertTrue(x.invariants, x.hunk)
        self.assertEqual(g["14.8"].on_patched, "present")

    def test_guards_written_as_read(self):
        """The hunk matrix writes guards.tsv with guards_text(), the
        format load_guards() reads: the committed table round-trips."""
        path = invariants.GUARDS
        with open(path, encoding="utf-8") as f:
            committed = f.read()
        rows = [[g.hunk, g.patch, g.subject, g.path, g.function, g.result,
                 g.on_patched, " ".join(g.invariants) or "-", g.tests]
                for g in invariants.load_guards(path)]
        self.assertEqual(invariants.guards_text(rows), committed)
        with self.assertRaises(ValueError):
            invariants.guards_text([["1.1", "0001"]])


class Results(unittest.TestCase):
    def test_cmocka_failure(self):
        with open(os.path.join(DATA, "cmocka-v18-fails.txt")) as f:
            cases = cmocka_output.parse_text(f.read()).cases
        st = {c.name: c.status for c in cases}
        self.assertEqual(st["v20_backlog_poll_list_initialised"], "ok")
        self.assertEqual(st["v18_backlog_completion_keeps_threaded"],
                         "failed")
        c = [c for c in cases if c.status == "failed"][0]
        self.assertTrue(c.messages[0].startswith(
            "NAPI_STATE_THREADED clear on backlog of CPU 1, expected set"))
        self.assertTrue(c.where.endswith("unit/backlog_threads.c:200"))

    def test_cmocka_crash(self):
        text = ("[ RUN      ] v26_a\n[       OK ] v26_a\n[ RUN      ] v26_b\n"
                "kernel BUG at net/core/dev.c:240: unlock (CPU 0, seed 0)\n")
        cases = cmocka_output.parse_text(text).cases
        self.assertEqual([c.status for c in cases], ["ok", "crashed"])
        self.assertIn("kernel BUG", cases[1].output[0])

    def test_junit(self):
        ts = testresults.parse_ctest_junit(
            os.path.join(DATA, "ctest-junit.xml"))
        st = {t.name: t.status for t in ts}
        self.assertEqual(st["backlog_threads:rt-rps"], "failed")
        self.assertEqual(st["rename:rt-rps"], "passed")
        self.assertEqual(st["threaded_rps:rps"], "notrun")
        bt = [t for t in ts if t.name == "backlog_threads:rt-rps"][0]
        self.assertIn("[ RUN      ] v18_backlog_completion_keeps_threaded",
                      bt.output)


class Summary(unittest.TestCase):
    def run_verdict(self, opts=()):
        from napitest import verdict as v
        with tempfile.TemporaryDirectory() as build:
            with open(os.path.join(build, "CMakeCache.txt"), "w") as f:
                f.write("KSRC:PATH=/nonexistent/tree\n")
            out = io.StringIO()
            sys.argv = ["verdict", *opts, build,
                        os.path.join(DATA, "ctest-junit.xml")]
            with redirect_stdout(out):
                rc = v.main()
        return rc, out.getvalue()

    def test_lines(self):
        rc, out = self.run_verdict()
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        v18 = [x for x in lines if x.startswith("  V18 ")][0]
        self.assertEqual(v18.split()[1:6], ["FAIL", "n/a", "-", "-", "pass"])
        self.assertIn("process_backlog() completion", v18)
        # Its suites passed in rt-rps, where the tree's kbuild fails.
        v4 = [x for x in lines if x.startswith("  V4 ")][0]
        self.assertEqual(v4.split()[1], "BUILD")
        self.assertIn("the tree's own kbuild fails in rt-rps: "
                      "net/core/dev.c:4951:17: error: implicit declaration",
                      out)
        # A binary CTest could not start fails every case it has.
        v13 = [x for x in lines if x.startswith("  V13 ")][0]
        self.assertEqual(v13.split()[2], "FAIL")
        text = "\n".join(lines)
        self.assertIn("NAPI_STATE_THREADED clear on backlog of CPU 1", text)
        self.assertIn("patch 14 hunk 8", text)
        # A tree that does not build is no green summary.
        self.assertIn("also FAILED: kbuild:rt-rps: net/core/dev.c:4951:17: "
                      "error: implicit declaration", text)
        self.assertIn("1 other check(s) failed", lines[-1])

    def test_hunk_wording(self):
        """The hunks the tree lacks or alters, said in plain words: "the
        tree lacks patch 14 hunk 8 (...) at FILE:LINE" under V18 and "the
        tree lacks 14.8; it alters 3.1" in the closing legend, never
        "lacks or alters 14.8 missing"."""
        from napitest import verdict as v
        ref = {g.hunk: g.on_patched for g in invariants.load_guards()}
        located = {h.id: v.HL.Located(ref.get(h.id, "present"))
                   for h in v.HL.series_hunks()}
        self.assertEqual(located["11.1"].status, "present")
        located["14.8"] = v.HL.Located("missing", 6157,
                                       "napi->state = 0;",
                                       "napi->state &= NAPIF_STATE_THREADED;")
        located["11.1"] = v.HL.Located("modified")
        with tempfile.TemporaryDirectory() as build:
            tree = os.path.join(build, "tree")
            os.mkdir(tree)
            with open(os.path.join(build, "CMakeCache.txt"), "w") as f:
                f.write(f"KSRC:PATH={tree}\n")
            out = io.StringIO()
            sys.argv = ["verdict", build,
                        os.path.join(DATA, "ctest-junit.xml")]
            old = v.HL.locate_detail
            v.HL.locate_detail = lambda *a: located
            try:
                with redirect_stdout(out):
                    v.main()
            finally:
                v.HL.locate_detail = old
        text = out.getvalue()
        self.assertIn("        the tree lacks patch 14 hunk 8 (14.8, \"",
                      text)
        self.assertIn("\") at net/core/dev.c:6157: the tree has "
                      "`napi->state = 0;` where the patch writes "
                      "`napi->state &= NAPIF_STATE_THREADED;`", text)
        n = len(located)
        self.assertIn(f"hunks of the series: {n - 2} of {n} as in the "
                      "patched tree; the tree lacks 14.8; it alters 11.1",
                      text)
        self.assertNotIn("lacks or alters", text)
        self.assertNotIn("MISSING", text)

    def test_hunk_wording_against_on_patched(self):
        """A hunk a later patch rewrites (on_patched modified or missing
        in guards.tsv) is worded against the patched series, not as if
        the series had it as its own patch wrote it."""
        from napitest import verdict as v
        by_id = {g.hunk: g for g in invariants.load_guards()}
        self.assertEqual((by_id["1.3"].on_patched, by_id["2.1"].on_patched),
                         ("missing", "modified"))
        loc = {"1.3": v.HL.Located("modified"),
               "2.1": v.HL.Located("present"),
               "3.1": v.HL.Located("present"),
               "11.1": v.HL.Located("modified"),
               "14.8": v.HL.Located("missing")}
        self.assertEqual(
            v.lacks_alters(["1.3", "2.1"], loc, by_id),
            "the tree has part of 1.3, which the patched series does not "
            "have (a later patch rewrites it); it has 2.1 as its patch "
            "wrote it, where the patched series has it changed by a later "
            "patch")
        self.assertEqual(
            v.lacks_alters(["2.1", "3.1", "11.1", "14.8"], loc, by_id),
            "the tree lacks 14.8; it alters 11.1; it has 2.1 and 3.1 as "
            "their patches wrote them, where the patched series has them "
            "changed by later patches")
        self.assertIn("the tree has patch 02 hunk 1 (2.1, \"",
                      v.describe("2.1", loc["2.1"], by_id["2.1"], verb=True))
        self.assertIn("\") as its patch wrote it, where the patched series "
                      "has it changed by a later patch",
                      v.describe("2.1", loc["2.1"], by_id["2.1"], verb=True))


PREFIXES = """\
# a comment
prefix 0 base --- measured
fail 0 backlog_threads:rt-rps v18_backlog_completion_keeps_threaded
fail 0 threaded_rps:rps v13_threaded_poll_sends_rps_ipis
prefix 1 0001-a.patch P-- measured
fail 1 backlog_threads:rt-rps v18_backlog_completion_keeps_threaded
prefix 2 0002-b.patch PMP measured
"""


class Prefixes(unittest.TestCase):
    """unit/series-prefixes.txt: its parser, the prefix detection from the
    hunks a tree has, and the verdict of make check SERIES_PREFIX=N."""

    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_parse(self):
        ps = invariants.load_prefixes(self.write(PREFIXES))
        self.assertEqual([(p.n, p.patch, p.sig) for p in ps],
                         [(0, "base", "---"), (1, "0001-a.patch", "P--"),
                          (2, "0002-b.patch", "PMP")])
        self.assertEqual(ps[0].fails, {
            "backlog_threads:rt-rps v18_backlog_completion_keeps_threaded",
            "threaded_rps:rps v13_threaded_poll_sends_rps_ipis"})
        self.assertEqual(ps[2].fails, set())
        self.assertEqual(ps[2].cases, set())
        self.assertTrue(ps[2].measured)
        ps = invariants.load_prefixes(self.write(
            PREFIXES + "case threaded_rps:rps v12_x\n"))
        self.assertEqual(ps[1].cases, {
            "threaded_rps:rps v12_x",
            "backlog_threads:rt-rps v18_backlog_completion_keeps_threaded"})

    def test_malformed(self):
        for bad in ("prefix 1 base --- measured\n",  # N out of order
                    "prefix 0 base -x- measured\n",  # not a signature
                    "prefix 0 base ---\n",           # no state
                    "fail 0 a:rps t\n",             # before its prefix
                    "prefix 0 a -- measured\n"
                    "prefix 1 b --- measured\n",    # lengths differ
                    "# nothing\n"):
            with self.assertRaises(ValueError, msg=bad):
                invariants.load_prefixes(self.write(bad))

    def test_detect(self):
        ps = invariants.load_prefixes(self.write(PREFIXES))
        h = [hunks.Hunk("p", "1", "s", i, "f", "@@ -1 +1 @@", [])
             for i in (1, 2, 3)]
        st = {"1.1": "present", "1.2": "modified", "1.3": "present"}
        self.assertEqual(hunks.signature(st, h), "PMP")
        self.assertEqual(hunks.detect_prefix("P--", ps), (ps[1], None))
        # One hunk of prefix 2 missing: closest is 2, differing in it.
        self.assertEqual(hunks.detect_prefix("PM-", ps), (ps[2], [2]))
        # Equally far from 0 and 1: the longer prefix is named.
        self.assertEqual(hunks.detect_prefix("M--", ps)[0].n, 1)
        with self.assertRaises(ValueError):
            hunks.detect_prefix("PM", ps)

    def test_table_knows_every_unit_test(self):
        """tools/check-invariant-map: a table without a case of a unit/
        test fails, naming its invariant; one with every test passes."""
        import importlib.util
        from importlib.machinery import SourceFileLoader
        loader = SourceFileLoader("cim", os.path.join(
            TOOLS, "check-invariant-map"))
        cim = importlib.util.module_from_spec(
            importlib.util.spec_from_loader("cim", loader))
        loader.exec_module(cim)
        root = os.path.dirname(TOOLS)
        invs = invariants.load()
        tests = sorted(cim.code_tests(root, ("unit/*.c",)))
        self.assertIn("v55_schedule_during_poll_gets_another_poll", tests)
        full = PREFIXES + "".join(f"case net_rx_action:rps {t}\n"
                                  for t in tests)
        self.assertEqual(cim.prefix_problems(self.write(full), root, invs),
                         [])
        errs = cim.prefix_problems(self.write(full.replace(
            "case net_rx_action:rps v55_", "# v55_")), root, invs)
        self.assertEqual(len(errs), 1)
        self.assertIn("has no entry for V55 (v55_schedule_during_poll_gets_"
                      "another_poll): rerun tools/series-prefixes", errs[0])

    def run_verdict(self, prefixes, spec):
        saved = invariants.PREFIXES
        invariants.PREFIXES = self.write(prefixes)
        try:
            return Summary.run_verdict(self, ["--prefix", spec])
        finally:
            invariants.PREFIXES = saved

    def test_failures(self):
        rc, out = Summary.run_verdict(self, ["--failures"])
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(len(lines), 10)
        self.assertIn("backlog_threads:rt-rps "
                      "v18_backlog_completion_keeps_threaded", lines)
        self.assertIn("explore_napi:rt-rps explore_c_defer_kick_vs_flush",
                      lines)
        # A binary that ran to its end failed only what it reported: a
        # case it did not run (an #if of the suite leaves it out; here
        # explore_b_tso_*, newer than the recording) is no failure.
        self.assertFalse([x for x in lines if "explore_b_tso" in x])
        # One CTest could not start: each of its cases failed.
        self.assertIn("threaded_rps:rps v13_threaded_poll_sends_rps_ipis",
                      lines)

    def test_verdict(self):
        _, fails = Summary.run_verdict(self, ["--failures"])
        _, cases = Summary.run_verdict(self, ["--cases"])
        known = "".join(f"case {x.split(' ', 1)[1]}\n"
                        for x in cases.splitlines())
        self.assertIn("case threaded_rps:rps v13_threaded_poll_sends_rps_ipis",
                      known)
        table = "prefix 0 base --- measured\n" + "".join(
            f"fail 0 {x}\n" for x in fails.splitlines()) + known
        rc, out = self.run_verdict(table, "0")
        # The same failures, but kbuild:rt-rps failed: not prefix 0.
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"Series prefix 0 \(base; SERIES_PREFIX\): "
                         r"10 expected failure\(s\) among \d+ cases")
        self.assertIn("  FAILED: kbuild:rt-rps: net/core/dev.c:4951", out)
        self.assertNotIn("fails, but passes", out)
        self.assertNotIn("not judged", out)
        # A case failing for another reason than the table's is not
        # excused; the same reason (file:line, seed aside) is.
        _, why = Summary.run_verdict(self, ["--why"])
        self.assertIn("backlog_threads:rt-rps v18_backlog_completion_keeps_"
                      "threaded : NAPI_STATE_THREADED clear on backlog of "
                      "CPU 1, expected set", why)
        self.assertNotRegex(why, r"\.c:\d")
        reasons = why.replace("NAPI_STATE_THREADED clear",
                              "NAPI_STATE_SCHED set")
        table = "prefix 0 base --- measured\n" + "".join(
            f"fail 0 {x}\n" for x in reasons.splitlines()) + known
        rc, out = self.run_verdict(table, "0")
        self.assertIn("fails for another reason than at prefix 0: "
                      "backlog_threads:rt-rps v18_", out)
        # v18 and v19 (the same message); no other case.
        self.assertEqual(out.count("fails for another reason"), 2)
        table = "prefix 0 base --- measured\n" + "".join(
            f"fail 0 {x}\n" for x in why.splitlines()) + known
        rc, out = self.run_verdict(table, "0")
        self.assertNotIn("fails for another reason", out)
        rc, out = self.run_verdict(PREFIXES + known, "0")
        self.assertEqual(rc, 1)
        self.assertIn("fails, but passes at prefix 0: explore_napi:rt-rps "
                      "explore_c_defer_kick_vs_flush", out)
        self.assertNotIn("passes, but fails", out)
        # A case the table does not know is newer: not judged.
        rc, out = self.run_verdict(PREFIXES + known.replace(
            "case explore_napi:rt-rps explore_c_defer_kick_vs_flush\n", ""),
            "0")
        self.assertIn("not judged: 1 case(s) newer than", out)
        self.assertNotIn("fails, but passes at prefix 0: explore_napi:rt-rps "
                         "explore_c_defer_kick_vs_flush", out)
        # Expected failures that did not run here (another LABEL, a
        # configuration left out) are not asked for.
        rc, out = self.run_verdict(
            PREFIXES + known + "fail 2 backlog_rps:rps-threads v17_x\n"
            "fail 2 threaded_rps:rps v13_threaded_poll_sends_rps_ipis\n",
            "2")
        self.assertIn("fails, but passes at prefix 2: backlog_threads:rt-rps",
                      out)
        self.assertNotIn("v17_x", out)
        self.assertNotIn("passes at prefix 2: threaded_rps:rps v13", out)
        self.assertIn("does NOT behave as prefix 2", out)
        for bad in ("3", "x"):
            self.assertEqual(self.run_verdict(PREFIXES, bad)[0], 2)
        # A prefix whose failures are not measured is not judged.
        self.assertEqual(self.run_verdict(PREFIXES.replace(
            "PMP measured", "PMP unmeasured"), "2")[0], 2)
        # auto needs a tree to read the hunks from.
        self.assertEqual(self.run_verdict(PREFIXES, "auto")[0], 2)


if __name__ == "__main__":
    unittest.main()
