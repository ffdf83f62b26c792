# SPDX-License-Identifier: GPL-2.0
"""tools/series-prefixes' walk and table (napitest.series_prefixes) over a
two-patch fixture series (data/series-prefixes: base/demo.c, three hunks),
patched with patch(1) and located by the real hunk locator; only make
check is faked, by failures() below, whose verdicts depend on the tree's
content alone.

  - the table it writes is what napitest.invariants.load_prefixes()
    reads, and reading and writing it again changes nothing;
  - a run of every prefix writes the cases that ran, and no other: a
    test removed or renamed since the old table leaves it;
  - --prefixes keeps an old measured row only if its hunks are the same;
    the others are unmeasured;
  - a failure of the harness (CPU-time guard, a configuration that did
    not run) is warned about and not recorded.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import shutil
import tempfile
import unittest

from napitest import hunks, invariants, patches
from napitest import series_prefixes as SP

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "series-prefixes")
SERIES_FILE = os.path.join(DATA, "series")
SERIES = hunks.read_series(SERIES_FILE)
HUNKS = hunks.series_hunks(SERIES_FILE)

# case: (text whose presence makes it pass, or absence with "!", reason)
CASES = {
    "demo:rps v1_keep": ("\t\tt->state &= FLAG_KEEP;",
                         "demo.c:7: state 0 after complete, expected "
                         "FLAG_KEEP"),
    "demo:rps v2_guard": ("!old_guard",
                          "demo.c:23: release_guard() on a freed guard"),
    "demo:norps v3_sched": ("FLAG_SCHED", "demo.c:15: FLAG_SCHED cleared"),
    "demo:norps v4_other": None,
}


class Fake:
    """make check KSRC=tree: CASES, judged on the tree's demo.c; harness
    {case: reason} fail as the harness does, whatever the tree."""

    def __init__(self, harness=None):
        self.calls, self.harness = 0, harness or {}

    def __call__(self, tree):
        self.calls += 1
        with open(os.path.join(tree, "demo.c")) as f:
            text = f.read()
        res, why = [], {}
        for case, rule in CASES.items():
            ok = True
            if rule:
                need, reason = rule
                ok = (need[1:] not in text) if need[0] == "!" else \
                    (need in text)
            if case in self.harness:
                ok, reason = False, self.harness[case]
            res.append(("passed" if ok else "failed", case))
            if not ok:
                why[case] = reason
        return res, why


def apply(tree, name):
    err = patches.apply(tree, os.path.join(DATA, name))
    if err:
        raise AssertionError(f"{name}: {err}")


class SeriesPrefixes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="series-prefixes-test.")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.said = []

    def walk(self, want=(0, 1, 2), old=None, fake=None):
        tree = os.path.join(self.tmp, "tree")
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(os.path.join(DATA, "base"), tree)
        self.fake = fake or Fake()
        return SP.walk(tree, SERIES, HUNKS, set(want), old or {},
                       self.fake, apply, self.said.append)

    def write(self, prefixes, cases, name="table.txt"):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(SP.table(prefixes, cases))
        return path

    def load(self, path):
        return {p.n: p for p in invariants.load_prefixes(path)}

    def test_round_trip(self):
        ps, cases = self.walk()
        self.assertEqual(self.fake.calls, 3)
        self.assertEqual([(p.n, p.patch, p.sig) for p in ps],
                         [(0, "base", "---"),
                          (1, "0001-demo-keep-flag.patch", "PP-"),
                          (2, "0002-demo-sched-flag.patch", "PPP")])
        path = self.write(ps, cases)
        back = invariants.load_prefixes(path)
        self.assertEqual([(p.n, p.patch, p.sig, p.measured) for p in back],
                         [(p.n, p.patch, p.sig, True) for p in ps])
        self.assertEqual(back[0].fails, {"demo:rps v1_keep",
                                         "demo:rps v2_guard",
                                         "demo:norps v3_sched"})
        self.assertEqual(back[1].fails, {"demo:norps v3_sched"})
        self.assertEqual(back[2].fails, set())
        # The reason as the table keeps it: file:line as the file.
        self.assertEqual(back[1].why["demo:norps v3_sched"],
                         "demo.c: FLAG_SCHED cleared")
        self.assertEqual(back[2].cases, set(CASES))
        # Written again from what was read: the same text.
        with open(path) as f:
            text = f.read()
        self.assertEqual(SP.table(back, back[0].cases), text)
        self.assertTrue(text.startswith("# SPDX-License-Identifier"))
        self.assertIn("\nfail 1 demo:norps v3_sched : demo.c: FLAG_SCHED "
                      "cleared\n", text)

    def old_table(self, extra=""):
        """The full run's table, with extra lines added."""
        ps, cases = self.walk()
        path = self.write(ps, cases)
        with open(path, "a") as f:
            f.write(extra)
        self.said.clear()
        return self.load(path)

    def test_full_run_cases_are_those_that_ran(self):
        old = self.old_table("fail 1 demo:rps v0_renamed : gone\n"
                             "case demo:rps v0_removed\n")
        self.assertIn("demo:rps v0_removed", old[2].cases)
        ps, cases = self.walk(old=old)
        self.assertEqual(cases, set(CASES))
        self.assertEqual(ps[1].fails, {"demo:norps v3_sched"})

    def test_partial_run_keeps_rows_with_the_same_hunks(self):
        old = self.old_table("fail 2 demo:rps v0_renamed : kept\n"
                             "case demo:rps v0_removed\n")
        ps, cases = self.walk(want=(0,), old=old)
        self.assertEqual(self.fake.calls, 1)
        self.assertTrue(all(p.measured for p in ps))
        self.assertEqual(ps[1].fails, {"demo:norps v3_sched"})
        self.assertEqual(ps[1].why, old[1].why)
        self.assertEqual(ps[2].fails, {"demo:rps v0_renamed"})
        # Not every prefix ran: the old cases stay (its rows name them).
        self.assertEqual(cases, set(CASES) | {"demo:rps v0_removed",
                                              "demo:rps v0_renamed"})
        back = self.load(self.write(ps, cases))
        self.assertEqual(back[2].fails, {"demo:rps v0_renamed"})

    def test_partial_run_drops_rows_whose_hunks_changed(self):
        old = self.old_table()
        # Prefix 1 as an older series had it: other hunks.
        old[1].sig = "P--"
        old[2].measured = False
        ps, _ = self.walk(want=(0,), old=old)
        self.assertEqual([p.measured for p in ps], [True, False, False])
        self.assertEqual(ps[1].fails, set())
        self.assertEqual(ps[1].sig, "PP-")
        self.assertIn("prefix  1 0001-demo-keep-flag.patch: 2 hunks present, "
                      "0 modified; unmeasured, 0 failing cases", self.said)
        text = SP.table(ps, set(CASES))
        self.assertIn("\nprefix 1 0001-demo-keep-flag.patch PP- unmeasured\n"
                      "prefix 2", text)
        back = self.load(self.write(ps, set(CASES)))
        self.assertEqual([p.measured for p in back.values()],
                         [True, False, False])
        # Measured again: the row comes back (prefix 0, the same hunks
        # as in the old table, keeps its row).
        ps, _ = self.walk(want=(1,), old=old)
        self.assertEqual([p.measured for p in ps], [True, True, False])
        self.assertEqual(ps[1].fails, {"demo:norps v3_sched"})

    def test_harness_failure_warned_not_recorded(self):
        fake = Fake({"demo:norps v4_other": "hang (CPU-time guard): 60 s",
                     "demo:rps v2_guard": "not run: demo:rps notrun"})
        ps, cases = self.walk(fake=fake)
        self.assertEqual(ps[0].fails, {"demo:rps v1_keep",
                                       "demo:norps v3_sched"})
        self.assertEqual(ps[2].fails, set())
        self.assertNotIn("demo:norps v4_other", ps[2].why)
        self.assertEqual(cases, set(CASES))
        warned = [s for s in self.said if s.startswith("warning:")]
        self.assertEqual(len(warned), 6)
        self.assertIn("warning: prefix 2: demo:norps v4_other: hang "
                      "(CPU-time guard): 60 s (harness failure, not "
                      "recorded)", warned)
        text = SP.table(ps, cases)
        self.assertNotIn("v4_other :", text)
        self.assertNotIn("fail 1 demo:rps v2_guard", text)


if __name__ == "__main__":
    unittest.main()
