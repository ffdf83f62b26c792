# SPDX-License-Identifier: GPL-2.0
"""Tests of make kunit-smp's tooling that need no kernel build: the splat
classifier (kunit/splats) over a recorded PREEMPT_RT console log, and
kunit/run's bad-input checks (QEMU missing, a tree whose arch/x86 cannot
enable PREEMPT_RT), which must fail before anything is written.

Run: pytest-3 tools/tests (CTest: tools-pytest).
"""

import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

from napitest import cases
from napitest import headline as headline_tsv
from napitest import kunit_headline, splats, sync_copy

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
RUN = os.path.join(TOP, "kunit", "run")
LOG = os.path.join(HERE, "data", "kunit-console-rt.log")
# kunit/splats --label rt over LOG (no --build: nothing is taken as known).
SPLATS_REPORT = os.path.join(HERE, "data", "splats-report-rt.txt")
# The console of kunit/headline --trees base --kernels rt (6.1.192 +
# rt-base, qemu -smp 2, 2026-12-02), from its KTAP header on: base's own
# __raise_softirq_irqoff() WARN under enqueue_to_backlog(), then the
# post-flush WARN, then the napitest-headline line.
HEADLINE_BASE_LOG = os.path.join(HERE, "data",
                                 "kunit-console-rt-headline-base.log")


FAKE_KUNIT = """\
import os, sys
b = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--build_dir=")][0]
print("Starting KUnit Kernel (1/1)...")
with open(os.path.join(b, "test.log"), "w") as f:
    f.write("[    0.10] Linux version 6.1.192\\n"
            "[    0.20] smpboot: Allowing 2 CPUs\\n"
            "[    0.30] Kernel panic - not syncing: VFS: Unable to mount\\n")
sys.exit(1)
"""


class SplatsSummaryTest(unittest.TestCase):
    """kunit/splats' last line, read back by kunit/smp through
    napitest.splats counts (its one reader)."""

    def test_report_over_recorded_log(self):
        r = subprocess.run([sys.executable, os.path.join(TOP, "kunit",
                                                         "splats"),
                            "--label", "rt", LOG],
                           capture_output=True, text=True)
        with open(SPLATS_REPORT) as f:
            self.assertEqual(r.stdout, f.read())
        self.assertEqual(r.returncode, 1)
        self.assertEqual(splats.counts(r.stdout), (0, 3))

    def test_counts_reads_the_last_summary_only(self):
        text = ("rt: splats: 1 known, 2 unknown (fails the run)\n"
                "rt: splats: 4 known: 6.1 console\n"
                "rt: splats: 4 known, 0 unknown\n")
        self.assertEqual(splats.counts(text), (4, 0))
        self.assertIsNone(splats.counts("rt: splats: 4 known: x\n"))
        for k, u, lab in ((0, 0, ""), (12, 1, "preempt")):
            self.assertEqual(splats.counts(splats.summary(k, u, lab)),
                             (k, u))

    def test_counts_command(self):
        out = io.StringIO()
        with mock.patch("sys.stdout", out):
            self.assertEqual(splats.main(["counts", SPLATS_REPORT]), 0)
        self.assertEqual(out.getvalue(), "0 known, 3 unknown\n")
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write("rt: splats: 4 known: x\n")
            f.flush()
            with mock.patch("sys.stderr", io.StringIO()) as err:
                self.assertEqual(splats.main(["counts", f.name]), 2)
            self.assertIn("has no 'splats: N known", err.getvalue())


class SplatsTest(unittest.TestCase):
    def setUp(self):
        self.m = splats
        with open(LOG) as f:
            self.splats = self.m.splats(f)
        # what nm would find in net/ and kernel/softirq.c
        self.protected = {"net_rx_action", "do_softirq_post_smp_call_flush",
                          "__do_softirq"}

    def test_three_splats_with_headers(self):
        self.assertEqual([self.m.header(s).split(" at ")[0]
                          for s in self.splats],
                         ["BUG: sleeping function called from invalid "
                          "context", "WARNING: CPU: 1 PID: 0",
                          "BUG: sleeping function called from invalid "
                          "context"])

    def test_console_splat_is_known(self):
        name, why = self.m.classify(self.splats[0], self.protected)
        self.assertIn("serial8250_console_write", name)
        self.assertIsNone(why)

    def test_post_flush_warn_is_never_known(self):
        self.assertEqual(self.m.classify(self.splats[1], self.protected),
                         (None, None))

    def test_console_signature_through_net_is_not_hidden(self):
        name, why = self.m.classify(self.splats[2], self.protected)
        self.assertIsNone(name)
        self.assertIn("net_rx_action", why)

    def test_state_lines_are_not_the_stack(self):
        # A real 6.1-rt boot (make kunit-smp): lockdep's "softirqs last
        # enabled at copy_process" and "locks held ... at: vprintk_emit"
        # lines are not frames; the Call Trace through the console is.
        with open(os.path.join(HERE, "data", "kunit-console-rt-boot.log")) as f:
            boot = self.m.splats(f)
        self.assertEqual(len(boot), 1)
        st = self.m.stack(boot[0])
        self.assertNotIn("copy_process", st)
        self.assertNotIn("__down_trylock_console_sem", st)
        self.assertIn("native_smp_prepare_cpus", st)
        name, why = self.m.classify(boot[0], self.protected | {"copy_process"})
        self.assertIn("serial8250_console_write", name)
        self.assertIsNone(why)

    def test_defined_in_names_each_function_s_file(self):
        # nm over several objects names each file; over one it does not
        from napitest import splats as m
        with tempfile.TemporaryDirectory() as b:
            for rel, fn in (("net/core/dev", "enqueue_to_backlog"),
                            ("net/core/skbuff", "skb_attempt_defer_free"),
                            ("kernel/softirq", "__raise_softirq_irqoff")):
                os.makedirs(os.path.join(b, os.path.dirname(rel)),
                            exist_ok=True)
                with open(os.path.join(b, rel + ".c"), "w") as f:
                    f.write(f"int {fn}(void) {{ return 0; }}\n")
                subprocess.run(["gcc", "-c", "-o", os.path.join(b, rel + ".o"),
                                os.path.join(b, rel + ".c")], check=True)
            self.assertEqual(m.defined_in(b), {
                "enqueue_to_backlog": "net/core/dev.c",
                "skb_attempt_defer_free": "net/core/skbuff.c",
                "__raise_softirq_irqoff": "kernel/softirq.c"})
            self.assertEqual(m.protected_functions(b), {
                "enqueue_to_backlog", "skb_attempt_defer_free",
                "__raise_softirq_irqoff"})
            os.remove(os.path.join(b, "kernel", "softirq.o"))
            self.assertIsNone(m.defined_in(b))

    def test_nothing_hidden_without_the_build(self):
        name, why = self.m.classify(self.splats[0], None)
        self.assertIsNone(name)
        self.assertIn("not hidden", why)


class RunBadInputTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="napitest-kunit-smp-")
        self.cache = os.path.join(self.tmp, "cache")
        os.mkdir(self.cache)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_kunit(self, args, path=None):
        env = dict(os.environ, NAPITEST_KUNIT_DIR=self.cache)
        if path:
            env["PATH"] = path
        return subprocess.run([RUN] + args, capture_output=True, text=True,
                              env=env)

    def fake_tree(self, rt_line):
        t = os.path.join(self.tmp, "linux")
        for d in ("net/core", "tools/testing/kunit", "arch/um", "arch/x86",
                  "include/linux"):
            os.makedirs(os.path.join(t, d))
        # What kunit/run asks the extractor about (kunit/manifest): here
        # empty files, a tree without any of the series' definitions.
        for f in ("Makefile", "net/core/dev.c", "net/Kconfig",
                  "include/linux/netdevice.h",
                  "tools/testing/kunit/kunit.py"):
            open(os.path.join(t, f), "w").close()
        with open(os.path.join(t, "Makefile"), "w") as f:
            f.write("VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n")
        with open(os.path.join(t, "arch/x86/Kconfig"), "w") as f:
            f.write("config X86_64\n\tselect ARCH_SUPPORTS_INT128\n"
                    + rt_line)
        return t

    def test_qemu_missing(self):
        bin_dir = os.path.join(self.tmp, "bin")
        os.mkdir(bin_dir)
        for t in ("bash", "dirname", "flex", "bison", "bc", "gcc", "make",
                  "python3", "ccache", "perl"):
            w = shutil.which(t)
            if w:
                os.symlink(w, os.path.join(bin_dir, t))
        for k in ("rt", "preempt"):
            r = self.run_kunit(["--arch=x86_64", "--kernel=" + k],
                               path=bin_dir)
            if "missing build tool" in r.stderr:
                self.skipTest("build tools not installed: " + r.stderr)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("qemu-system-x86_64", r.stderr)
            self.assertEqual(r.stderr.count("error:"), 1)
            self.assertEqual(os.listdir(self.cache), [])

    def test_tree_that_cannot_enable_rt(self):
        if not shutil.which("qemu-system-x86_64"):
            self.skipTest("qemu-system-x86_64 not installed")
        t = self.fake_tree("")
        r = self.run_kunit(["--arch=x86_64", "--kernel=rt", "KSRC=" + t])
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("select ARCH_SUPPORTS_RT", r.stderr)
        self.assertIn("arch/x86/Kconfig", r.stderr)
        self.assertEqual(r.stderr.count("error:"), 1)
        self.assertEqual(os.listdir(self.cache), [])

    def test_kernel_that_does_not_boot_names_its_last_lines(self):
        self.does_not_boot("rt", "\tselect ARCH_SUPPORTS_RT\n")

    def test_non_rt_kernel_that_does_not_boot_names_its_last_lines(self):
        # the preempt kernel needs no ARCH_SUPPORTS_RT: such a tree is
        # built and booted, and fails as a kernel that does not boot
        self.does_not_boot("preempt", "")

    def does_not_boot(self, kernel, rt_line):
        if not shutil.which("qemu-system-x86_64"):
            self.skipTest("qemu-system-x86_64 not installed")
        t = self.fake_tree(rt_line)
        # a kunit.py whose kernel builds, then stops before any KTAP
        with open(os.path.join(t, "tools/testing/kunit/kunit.py"), "w") as f:
            f.write(FAKE_KUNIT)
        # of the series' definitions, only use_backlog_threads()
        with open(os.path.join(t, "net/core/dev.c"), "w") as f:
            f.write("static bool use_backlog_threads(void)\n{\n"
                    "\treturn true;\n}\n")
        r = self.run_kunit(["--arch=x86_64", "--kernel=" + kernel,
                            "KSRC=" + t])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("did not boot", r.stderr)
        # what the tree has, as the extractor found it (kunit/manifest)
        [tree_h] = glob.glob(os.path.join(
            self.cache, "kunit-build", "x86_64-" + kernel, "src", "net",
            "core", "dev_backlog_kunit_tree.h"))
        with open(tree_h) as f:
            has = dict(re.findall(r"#define NAPITEST_HAS_(\w+) (\d)",
                                  f.read()))
        self.assertEqual(has, {"IN_NET_RX_ACTION": "0",
                               "IN_NAPI_THREADED_POLL": "0",
                               "BACKLOG_THREADS": "1", "BACKLOG_LOCK": "0",
                               "KICK_DEFER_LIST_PURGE": "0"})
        self.assertIn("Kernel panic - not syncing: VFS", r.stderr)
        self.assertIn("last console lines", r.stderr)

    def test_rt_needs_x86_64(self):
        # only the rt kernel is refused for PREEMPT_RT (commit 068593f)
        for k, why in (("rt", "uniprocessor and cannot select PREEMPT_RT"),
                       ("preempt", "uniprocessor")):
            r = self.run_kunit(["--kernel=" + k])
            self.assertEqual(r.returncode, 2)
            self.assertIn(f"--kernel={k} needs --arch=x86_64 (UML is {why})"
                          "\n", r.stderr)
            self.assertEqual(r.stderr.count("error"), 1, r.stderr)
            self.assertEqual(os.listdir(self.cache), [])


class HeadlineTest(unittest.TestCase):
    """kunit/headline's expectations over recorded counter lines."""

    BASE = dict(n="2048", delivered="2048", received_rps="2048",
                post_flush_warn="1", rps_net_rx="2048", defer_net_rx="62",
                threads="0", ktap="ok")
    PATCHED = dict(n="2048", delivered="2048", received_rps="0",
                   post_flush_warn="0", rps_net_rx="0", defer_net_rx="0",
                   threads="1", ktap="ok")

    def setUp(self):
        self.m = kunit_headline

    def test_expected_effect(self):
        self.assertEqual(self.m.verdict({("base", "rt"): self.BASE,
                                         ("patched", "rt"): self.PATCHED}),
                         [])

    def test_patched_rt_with_an_ipi_or_the_warn_fails(self):
        for key in ("received_rps", "post_flush_warn"):
            p = dict(self.PATCHED, **{key: "1"})
            bad = self.m.verdict({("base", "rt"): self.BASE,
                                  ("patched", "rt"): p})
            self.assertEqual(bad, [f"patched rt: {key}=1, expected 0"])

    def test_post_flush_warn_counted_other_splats_named(self):
        with open(LOG) as f:
            console = f.read()
        # no build objects: nothing is taken as known, both 8250 splats
        # are named; the post-flush WARN is counted, by name
        warn, effects, other = self.m.count_splats(console, "/nonexistent")
        self.assertEqual(warn, 1)
        self.assertEqual(effects, {})
        self.assertEqual(len(other), 2)
        self.assertTrue(all("spinlock_rt.c:46" in h for h in other))
        bad = self.m.verdict({("base", "rt"): dict(self.BASE,
                                                   other_splats="2"),
                              ("patched", "rt"): self.PATCHED})
        self.assertEqual(len(bad), 1)
        self.assertIn("base rt: 2 splat(s) other than the post-flush", bad[0])

    def headline_console(self):
        with open(HEADLINE_BASE_LOG) as f:
            return f.read()

    def test_base_raise_warn_counted_by_name_on_base(self):
        # what nm finds in the build: the test case is part of dev.o
        nm = {"enqueue_to_backlog": "net/core/dev.c",
              "headline_remote_flood_cpu1_idle": "net/core/dev.c",
              "__raise_softirq_irqoff": "kernel/softirq.c"}
        with mock.patch.object(self.m.splats, "defined_in",
                               lambda build: nm):
            warn, effects, other = self.m.count_splats(
                self.headline_console(), "/b", base=True)
        self.assertEqual(warn, 1)
        self.assertEqual(other, [])
        self.assertEqual(effects, {"rps_raise_irqs_on_warn": (
            1, "kernel/softirq.c:740<enqueue_to_backlog(net/core/dev.c)"
            "<headline_remote_flood_cpu1_idle(net/core/dev.c)")})
        row = dict(self.BASE, other_splats="0", rps_raise_irqs_on_warn="1")
        self.assertEqual(self.m.verdict({("base", "rt"): row,
                                         ("patched", "rt"): self.PATCHED}),
                         [])

    def test_base_raise_warn_without_objects_is_still_named(self):
        warn, effects, other = self.m.count_splats(self.headline_console(),
                                                   "/nonexistent", base=True)
        self.assertEqual(other, [])
        n, where = effects["rps_raise_irqs_on_warn"]
        self.assertEqual(n, 1)
        self.assertTrue(where.startswith("kernel/softirq.c:740<net/-frames-"
                                         "unknown"), where)

    def test_the_same_splat_fails_on_any_other_tree(self):
        warn, effects, other = self.m.count_splats(self.headline_console(),
                                                   "/nonexistent")
        self.assertEqual((warn, effects), (1, {}))
        self.assertEqual(len(other), 1)
        self.assertIn("softirq.c:740 __raise_softirq_irqoff", other[0])
        self.assertIn("stack: enqueue_to_backlog <", other[0])
        bad = self.m.verdict({("base", "rt"): self.BASE,
                              ("patched", "rt"): dict(self.PATCHED,
                                                      other_splats="1")})
        self.assertIn("patched rt: 1 splat(s) other than", bad[0])

    def test_raise_warn_elsewhere_is_not_base_effect(self):
        # the same WARN not under enqueue_to_backlog() is not the one named
        console = self.headline_console().replace(
            " enqueue_to_backlog+", " napi_schedule_prep+")
        warn, effects, other = self.m.count_splats(console, "/nonexistent",
                                                   base=True)
        self.assertEqual(effects["rps_raise_irqs_on_warn"], (0, None))
        self.assertEqual(len(other), 1)

    def test_post_flush_warn_is_not_applicable_on_non_rt(self):
        self.assertEqual(self.m.warn_cell("preempt", 0), "n/a")
        self.assertEqual(self.m.warn_cell("preempt", 1), "1")
        self.assertEqual(self.m.warn_cell("rt", 0), "0")

    def test_base_non_rt_without_ipis_means_the_flood_tests_nothing(self):
        b = dict(self.BASE, post_flush_warn="n/a")
        res = {("base", "rt"): self.BASE, ("patched", "rt"): self.PATCHED,
               ("base", "preempt"): b,
               ("patched", "preempt"): b}
        self.assertEqual(self.m.verdict(res), [])
        res[("base", "preempt")] = dict(b, received_rps="0")
        bad = self.m.verdict(res)
        self.assertEqual(len(bad), 1)
        self.assertIn("base preempt: received_rps=0", bad[0])

    def test_only_the_prepared_base_is_excused_base_effects(self):
        # run_one() counts BASE_EFFECTS by name (not as a failing splat)
        # only on the prepared base: a patched tree or any KSRC given as
        # LABEL=PATH, even labelled base, must fail on the same WARN
        self.assertTrue(self.m.is_base("base"))
        for spec in ("patched", "base=/var/tmp/mut", "patched=/x"):
            self.assertFalse(self.m.is_base(spec), spec)

    def test_run_one_excuses_base_effects_on_base_only(self):
        # run_one() as kunit/headline runs it, kunit/run faked: which
        # trees get their base splats counted by name, not failed
        tmp = tempfile.mkdtemp(prefix="napitest-headline-")
        self.addCleanup(shutil.rmtree, tmp)
        console = os.path.join(tmp, "console.log")
        with open(console, "w") as f:
            f.write(self.headline_console())

        def run(argv, stdout, stderr):
            stdout.write(f"raw KTAP: {console}\n")
            return mock.Mock(returncode=0)

        seen = []

        def count(text, build, base=False):
            seen.append(base)
            return 0, {}, []

        for spec, want in (("base", True), ("patched", False),
                           ("base=/var/tmp/mut", False)):
            label = spec.split("=")[0]
            with mock.patch.object(self.m, "tree_path",
                                   lambda s: (label, "/t")), \
                    mock.patch.object(self.m.subprocess, "run", run), \
                    mock.patch.object(self.m, "count_splats", count), \
                    mock.patch.object(self.m.sys, "stdout"):
                v, rc = self.m.run_one(spec, "rt", tmp)
            self.assertEqual(rc, 0, spec)
            self.assertEqual(seen.pop(), want, spec)

    def test_threads_word_boots_its_flavour_with_the_parameter(self):
        self.assertEqual(self.m.flavour("preempt+threads"), "preempt")
        self.assertEqual(self.m.flavour("rt"), "rt")
        self.assertEqual(self.m.boot_args("preempt"), [])
        self.assertEqual(self.m.boot_args("preempt+threads"),
                         ["--", "--kernel_args=thread_backlog_napi"])
        self.assertEqual(self.m.bad_kernels(
            ["rt", "preempt+threads", "none", "rt+x", "+threads"]),
            ["none", "rt+x", "+threads"])
        # post-flush WARN: RT's only, whatever the command line
        self.assertEqual(self.m.warn_cell("rt+threads", 0), "0")
        self.assertEqual(self.m.warn_cell("preempt+threads", 0), "n/a")
        cols = [("patched", "preempt+threads"), ("patched", "rt"),
                ("base", "preempt"), ("patched", "preempt"), ("base", "rt")]
        self.assertEqual(sorted(cols, key=self.m.column_order),
                         [("base", "rt"), ("patched", "rt"),
                          ("base", "preempt"), ("patched", "preempt"),
                          ("patched", "preempt+threads")])

    def test_unknown_kernel_word_is_refused_before_anything(self):
        out = os.path.join(tempfile.mkdtemp(prefix="napitest-headline-"),
                           "out")
        self.addCleanup(shutil.rmtree, os.path.dirname(out))
        err = io.StringIO()
        with mock.patch.object(self.m.sys, "argv", [
                "kunit/headline", "--out", out,
                "--kernels", "rt preempt+thread"]), \
                mock.patch.object(self.m.sys, "stderr", err), \
                mock.patch.object(self.m, "run_one") as run_one:
            self.assertEqual(self.m.main(), 2)
        run_one.assert_not_called()
        self.assertFalse(os.path.exists(out))
        self.assertEqual(err.getvalue().count("error:"), 1)
        self.assertIn("preempt+thread in --kernels", err.getvalue())

    def test_run_one_boots_threads_word_with_the_parameter(self):
        tmp = tempfile.mkdtemp(prefix="napitest-headline-")
        self.addCleanup(shutil.rmtree, tmp)
        argvs = []

        def run(argv, stdout, stderr):
            argvs.append(argv)
            return mock.Mock(returncode=2)

        with mock.patch.object(self.m, "tree_path",
                               lambda s: ("patched", "/t")), \
                mock.patch.object(self.m.subprocess, "run", run), \
                mock.patch.object(self.m.sys, "stdout"):
            self.m.run_one("patched", "preempt+threads", tmp)
            self.m.run_one("patched", "preempt", tmp)
        self.assertEqual(argvs[0][2:], [
            "--kernel=preempt", "--headline", "KSRC=/t", "--",
            "--kernel_args=thread_backlog_napi"])
        self.assertEqual(argvs[1][2:],
                         ["--kernel=preempt", "--headline", "KSRC=/t"])

    def test_non_rt_patched_keeps_the_old_path_unless_booted_with_threads(
            self):
        # non-RT: use_backlog_threads() is a static key only
        # thread_backlog_napi enables, so with the default command line
        # patched keeps the csd/IPI path; with it, the RT expectations
        b = dict(self.BASE, post_flush_warn="n/a", threads="0")
        old = dict(b, threads="0")
        new = dict(self.PATCHED, post_flush_warn="n/a", threads="1")
        res = {("base", "rt"): self.BASE, ("patched", "rt"): self.PATCHED,
               ("base", "preempt"): b, ("patched", "preempt"): old,
               ("patched", "preempt+threads"): new}
        self.assertEqual(self.m.verdict(res), [])
        res[("patched", "preempt")] = dict(old, threads="1")
        self.assertEqual(self.m.verdict(res), [
            "patched preempt: backlog threads on with the default command "
            "line (upstream: on non-RT only with thread_backlog_napi)"])
        res[("patched", "preempt")] = old
        for key, v, want in (
                ("received_rps", "2048", "received_rps=2048, expected 0"),
                ("post_flush_warn", "1", "post_flush_warn=1, expected 0"),
                ("threads", "0", "backlog threads off "
                 "(use_backlog_threads() false)")):
            res[("patched", "preempt+threads")] = dict(new, **{key: v})
            self.assertEqual(self.m.verdict(res),
                             [f"patched preempt+threads: {want}"])

    def full(self):
        """A run of every kernel word as expected: base and patched,
        rt, preempt and preempt+threads."""
        b = dict(self.BASE, post_flush_warn="n/a")
        return {("base", "rt"): self.BASE, ("patched", "rt"): self.PATCHED,
                ("base", "preempt"): b, ("patched", "preempt"): b,
                ("base", "preempt+threads"): b,
                ("patched", "preempt+threads"): dict(self.PATCHED,
                                                     post_flush_warn="n/a")}

    def test_a_failed_kunit_case_fails_whatever_the_counters(self):
        # run_one() records kunit/run's non-zero exit as ktap=FAIL; the
        # counters of a failed case are not evidence of anything
        self.assertEqual(self.m.verdict(self.full()), [])
        for col in self.full():
            for ktap in ("FAIL", None):
                res = self.full()
                res[col] = dict(res[col], ktap=ktap)
                if ktap is None:
                    del res[col]["ktap"]
                bad = self.m.verdict(res)
                self.assertEqual(len(bad), 1, (col, bad))
                self.assertTrue(bad[0].startswith(
                    f"{col[0]} {col[1]}: KUnit case "), bad)

    def test_main_exits_1_on_a_failed_kunit_case(self):
        out = tempfile.mkdtemp(prefix="napitest-headline-")
        self.addCleanup(shutil.rmtree, out)
        for ktap, rc in (("ok", 0), ("FAIL", 1)):
            rows = {"base": self.BASE,
                    "patched": dict(self.PATCHED, ktap=ktap)}
            with mock.patch.object(self.m.sys, "argv", [
                    "kunit/headline", "--out", out, "--kernels", "rt"]), \
                    mock.patch.object(self.m, "run_one",
                                      lambda t, k, o: (rows[t], 0)), \
                    mock.patch.object(self.m.sys, "stdout", io.StringIO()):
                self.assertEqual(self.m.main(), rc, ktap)

    def test_patched_must_be_zero_counters_and_delivery(self):
        for col in (("patched", "rt"), ("patched", "preempt+threads")):
            for key in ("received_rps", "post_flush_warn", "rps_net_rx",
                        "defer_net_rx"):
                res = self.full()
                res[col] = dict(res[col], **{key: "1"})
                self.assertEqual(self.m.verdict(res),
                                 [f"{col[0]} {col[1]}: {key}=1, expected 0"])
            res = self.full()
            res[col] = dict(res[col], delivered="2047")
            self.assertEqual(self.m.verdict(res),
                             [f"{col[0]} {col[1]}: delivered 2047 of 2048"])

    def test_patched_non_rt_default_command_line_keeps_the_csd_path(self):
        # net/core/dev.c: use_backlog_threads() without thread_backlog_napi
        # is off on non-RT, so the RPS flood still runs the csd
        res = self.full()
        res[("patched", "preempt")] = dict(res[("patched", "preempt")],
                                           received_rps="0")
        self.assertEqual(self.m.verdict(res), [
            "patched preempt: received_rps=0 for n=2048: the default "
            "command line must keep the RPS csd path (threads off)"])
        # a share of N is timing (one csd covers the packets queued while
        # CPU 1's backlog is still scheduled): 878 of 2048 seen under TCG
        res[("patched", "preempt")]["received_rps"] = "878"
        self.assertEqual(self.m.verdict(res), [])

    def test_a_row_without_threads_fails_the_threads_checks(self):
        for col in (("patched", "rt"), ("patched", "preempt"),
                    ("patched", "preempt+threads")):
            res = self.full()
            res[col] = {x: y for x, y in res[col].items() if x != "threads"}
            bad = self.m.verdict(res)
            self.assertEqual(len(bad), 1, (col, bad))
            self.assertIn(f"{col[0]} {col[1]}: backlog threads unknown",
                          bad[0])

    def test_every_base_column_must_exercise_the_flood(self):
        for k in ("rt", "preempt", "preempt+threads"):
            res = self.full()
            res[("base", k)] = dict(res[("base", k)], received_rps="0")
            bad = self.m.verdict(res)
            self.assertEqual(len(bad), 1, (k, bad))
            self.assertIn(f"base {k}: received_rps=0 for n=2048", bad[0])
            # how many packets one csd covers is timing: any run counts
            res[("base", k)] = dict(res[("base", k)], received_rps="1")
            self.assertEqual(self.m.verdict(res), [], k)

    def test_base_without_ipis_means_the_flood_tests_nothing(self):
        b = dict(self.BASE, received_rps="0")
        bad = self.m.verdict({("base", "rt"): b,
                              ("patched", "rt"): self.PATCHED})
        self.assertIn("does not exercise", bad[0])


class SyncCopyTest(unittest.TestCase):
    """kunit/sync-copy: the one copy per kernel flavour switches trees so
    that kbuild rebuilds exactly what differs."""

    def setUp(self):
        self.m = sync_copy
        self.tmp = tempfile.mkdtemp(prefix="napitest-sync-copy-")
        self.a = os.path.join(self.tmp, "a")
        self.b = os.path.join(self.tmp, "b")
        self.copy = os.path.join(self.tmp, "copy")
        files = {"Makefile": "all:\n", "net/core/dev.c": "patched\n",
                 "net/core/gone.c": "only in a\n", "gone/x.h": "x\n",
                 "include/same.h": "same\n"}
        for rel, text in files.items():
            p = os.path.join(self.a, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        os.symlink("same.h", os.path.join(self.a, "include", "link.h"))
        # b: a's files as hard links (as prepared trees share src/), then
        # one changed file of the same size, one new, two removed.
        shutil.copytree(self.a, self.b, symlinks=True,
                        copy_function=os.link)
        os.unlink(os.path.join(self.b, "net/core/dev.c"))
        with open(os.path.join(self.b, "net/core/dev.c"), "w") as f:
            f.write("base!!!\n")
        os.unlink(os.path.join(self.b, "net/core/gone.c"))
        shutil.rmtree(os.path.join(self.b, "gone"))
        with open(os.path.join(self.b, "net/core/new.c"), "w") as f:
            f.write("new\n")
        # the copy holds a (cp -al), its files all older than the build
        shutil.copytree(self.a, self.copy, symlinks=True,
                        copy_function=os.link)
        for root, _, fs in os.walk(self.a):
            for f in fs:
                os.utime(os.path.join(root, f), (1000, 1000),
                         follow_symlinks=False)
        os.utime(os.path.join(self.b, "net/core/dev.c"), (1000, 1000))
        with open(os.path.join(self.copy, ".napitest-copy-of"), "w") as f:
            f.write(self.a + "\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_switch_rebuilds_what_differs(self):
        n = self.m.sync(self.b, self.copy)
        dev = os.path.join(self.copy, "net/core/dev.c")
        with open(dev) as f:
            self.assertEqual(f.read(), "base!!!\n")
        # newer than any object built from a: kbuild recompiles it
        self.assertGreater(os.stat(dev).st_mtime, 2000)
        # a new file, not b's inode: the copy never writes into a tree
        self.assertNotEqual(os.stat(dev).st_ino,
                            os.stat(os.path.join(self.b,
                                                 "net/core/dev.c")).st_ino)
        # unchanged files keep their inode and mtime: nothing rebuilds
        same = os.path.join(self.copy, "include/same.h")
        self.assertEqual(os.stat(same).st_ino, os.stat(
            os.path.join(self.b, "include/same.h")).st_ino)
        self.assertEqual(os.readlink(os.path.join(self.copy,
                                                  "include/link.h")),
                         "same.h")
        self.assertTrue(os.path.exists(os.path.join(self.copy,
                                                    "net/core/new.c")))
        self.assertFalse(os.path.lexists(os.path.join(self.copy,
                                                      "net/core/gone.c")))
        self.assertFalse(os.path.lexists(os.path.join(self.copy, "gone")))
        self.assertTrue(os.path.exists(os.path.join(self.copy,
                                                    ".napitest-copy-of")))
        # a's own file is untouched
        with open(os.path.join(self.a, "net/core/dev.c")) as f:
            self.assertEqual(f.read(), "patched\n")
        self.assertEqual(n, {"same": 3, "replaced": 2, "removed": 2})

    def synced(self, src, **kw):
        """sync-copy --db, the copy's record in the copy (kunit/run's),
        the clock's racy window patched away unless kw says otherwise."""
        db = os.path.join(self.copy, ".napitest-synced.json")
        with mock.patch.object(self.m, "RACY_NS", kw.get("racy", -10**18)):
            self.assertEqual(self.m.main(["--db", db, src, self.copy]), 0)
        return self.m.load_db(db)

    def rewrite_in_place(self, rel, text):
        """a's rel given other content in place (the same inode, shared
        with the copy since its cp -al), its mtime 1000: cp -a onto it."""
        path = os.path.join(self.a, rel)
        time.sleep(0.05)  # a tick of a coarse ctime clock (Linux < 6.13)
        with open(path, "w") as f:
            f.write(text)
        os.utime(path, (1000, 1000))

    def test_a_file_rewritten_in_place_with_its_old_mtime_is_new(self):
        self.synced(self.a)
        self.rewrite_in_place("net/core/dev.c", "mutant\n")
        self.synced(self.a)
        dev = os.path.join(self.copy, "net/core/dev.c")
        # newer than any object built from the old content
        self.assertGreater(os.stat(dev).st_mtime, 2000)
        with open(dev) as f:
            self.assertEqual(f.read(), "mutant\n")
        # a new file: a's keeps its inode and its mtime of 1000
        st = os.stat(os.path.join(self.a, "net/core/dev.c"))
        self.assertNotEqual(os.stat(dev).st_ino, st.st_ino)
        self.assertEqual(st.st_mtime, 1000)
        db = self.m.load_db(os.path.join(self.copy,
                                         ".napitest-synced.json"))
        self.assertEqual(self.m.sync(self.a, self.copy, db)["replaced"], 0)

    def test_without_a_db_a_shared_inode_is_trusted(self):
        self.rewrite_in_place("net/core/dev.c", "mutant\n")
        self.m.sync(self.a, self.copy)
        self.assertEqual(os.stat(os.path.join(
            self.copy, "net/core/dev.c")).st_mtime, 1000)

    def test_a_new_hard_link_rewrites_nothing(self):
        # another flavour's cp -al of the same tree moves every ctime
        self.synced(self.a)
        time.sleep(0.05)
        os.link(os.path.join(self.a, "net/core/dev.c"),
                os.path.join(self.tmp, "another-copy.c"))
        db = self.synced(self.a)
        self.assertEqual(self.m.sync(self.a, self.copy, db)["replaced"], 0)
        self.assertEqual(os.stat(os.path.join(
            self.copy, "net/core/dev.c")).st_mtime, 1000)

    def test_a_file_of_another_tree_edited_while_the_copy_holds_this(self):
        # the copy holds b, its same.h still a's inode (equal content);
        # a's same.h is rewritten in place: the copy's content is no
        # longer b's, whatever the dates
        same_b = os.path.join(self.b, "include/same.h")
        os.unlink(same_b)
        with open(same_b, "w") as f:
            f.write("same\n")
        self.synced(self.b)
        copy_same = os.path.join(self.copy, "include/same.h")
        self.assertEqual(os.stat(copy_same).st_ino, os.stat(
            os.path.join(self.a, "include/same.h")).st_ino)
        self.rewrite_in_place("include/same.h", "edited\n")
        self.synced(self.b)
        with open(copy_same) as f:
            self.assertEqual(f.read(), "same\n")
        self.assertGreater(os.stat(copy_same).st_mtime, 2000)

    def test_a_stat_just_written_is_not_recorded(self):
        db = self.synced(self.a, racy=10**18)
        self.assertEqual(db["net/core/dev.c"][:2], [None, None])
        self.assertEqual(len(db["net/core/dev.c"][2]), 40)

    def test_a_hooked_file_is_left_to_kunit_run(self):
        # kunit/run writes dev.c (the suite included) and its own files
        # itself, by content: the sync neither rewrites nor removes them
        dev = os.path.join(self.copy, "net/core/dev.c")
        os.unlink(dev)
        with open(dev, "w") as f:
            f.write("patched\n#include \"dev_backlog_kunit.c\"\n")
        os.utime(dev, (3000, 3000))
        own = os.path.join(self.copy, "net/core/dev_backlog_kunit.c")
        with open(own, "w") as f:
            f.write("suite\n")
        keep = ["--keep", "net/core/dev.c",
                "--keep", "net/core/dev_backlog_kunit.c"]
        db = os.path.join(self.copy, ".napitest-synced.json")
        for src in (self.a, self.b, self.a):
            self.assertEqual(self.m.main(["--db", db] + keep +
                                         [src, self.copy]), 0)
            self.assertEqual(os.stat(dev).st_mtime, 3000)
            self.assertTrue(os.path.exists(own))

    def test_a_prepared_tree_s_shared_inode_is_not_hashed(self):
        # --trust-shared: a prepared tree is never written in place, so
        # the ctimes its siblings' links move need no hashing
        self.synced(self.a)
        time.sleep(0.05)
        os.link(os.path.join(self.a, "net/core/dev.c"),
                os.path.join(self.tmp, "another-copy.c"))
        db = os.path.join(self.copy, ".napitest-synced.json")
        with mock.patch.object(self.m, "RACY_NS", -10**18), \
                mock.patch.object(self.m, "digest",
                                  wraps=self.m.digest) as digest:
            self.assertEqual(self.m.main(["--db", db, "--trust-shared",
                                          self.a, self.copy]), 0)
        digest.assert_not_called()

    def test_an_unchanged_record_is_not_written_again(self):
        self.synced(self.a)
        db = os.path.join(self.copy, ".napitest-synced.json")
        before = os.stat(db).st_mtime_ns
        time.sleep(0.05)
        self.synced(self.a)
        self.assertEqual(os.stat(db).st_mtime_ns, before)

    def old_format(self, record):
        """The copy's record rewritten as record(files) says."""
        db = os.path.join(self.copy, ".napitest-synced.json")
        with open(db) as f:
            files = json.load(f)["files"]
        for rec in files.values():
            rec[2] = "0" * 64  # SHA-256 digests, of another algorithm
        with open(db, "w") as f:
            json.dump(record(files), f)
        return db

    def test_a_record_of_another_format_keeps_its_stats_only(self):
        # its digests would all differ: a file whose stats did not move
        # is trusted, not rewritten (no whole-tree rebuild)...
        self.synced(self.a)
        db = self.old_format(lambda files: files)  # 2bb1488's: no version
        self.assertTrue(all(r[2] is None
                            for r in self.m.load_db(db).values()))
        self.synced(self.a)
        dev = os.path.join(self.copy, "net/core/dev.c")
        self.assertEqual(os.stat(dev).st_mtime, 1000)
        # ... and one rewritten in place since is written again
        self.old_format(lambda files: {"version": "sync-copy 0, sha256",
                                       "files": files})
        self.rewrite_in_place("net/core/dev.c", "mutant\n")
        self.synced(self.a)
        self.assertGreater(os.stat(dev).st_mtime, 2000)

    def test_a_prepared_tree_rerun_sees_a_user_tree_s_edit(self):
        # the copy holds b (prepared) with a's inode for an equal file;
        # a is rewritten in place: b's rerun (--trust-shared) puts b's
        same_b = os.path.join(self.b, "include/same.h")
        os.unlink(same_b)
        with open(same_b, "w") as f:
            f.write("same\n")
        db = os.path.join(self.copy, ".napitest-synced.json")
        self.assertEqual(self.m.main(["--db", db, "--trust-shared",
                                      self.b, self.copy]), 0)
        self.rewrite_in_place("include/same.h", "edited\n")
        self.assertEqual(self.m.main(["--db", db, "--trust-shared",
                                      self.b, self.copy]), 0)
        with open(os.path.join(self.copy, "include/same.h")) as f:
            self.assertEqual(f.read(), "same\n")

    def test_a_link_out_of_the_tree_is_copied_as_its_file(self):
        """a's dev.c a link to a file outside a (a tree of links, cp -as):
        the copy holds the content, so that kbuild does not take the
        target's mtime; the target rewritten in place with an older mtime,
        then the link pointed at another old file, each reaches the copy
        as a new file.  An in-tree link stays a link."""
        store = os.path.join(self.tmp, "store")
        os.makedirs(store)
        dev = os.path.join(self.a, "net/core/dev.c")
        os.rename(dev, os.path.join(store, "dev.c"))
        os.symlink(os.path.join(store, "dev.c"), dev)
        copy_dev = os.path.join(self.copy, "net/core/dev.c")
        os.unlink(copy_dev)
        os.link(dev, copy_dev, follow_symlinks=False)  # cp -al's
        self.synced(self.a)
        # the file kbuild followed, without its space: a hard link
        self.assertFalse(os.path.islink(copy_dev))
        self.assertEqual(os.stat(copy_dev).st_ino,
                         os.stat(os.path.join(store, "dev.c")).st_ino)
        for step in ("in place", "link moved"):
            if step == "in place":
                self.rewrite_in_place("../store/dev.c", "mutant\n")
                want = "mutant\n"
            else:
                with open(os.path.join(store, "old.c"), "w") as f:
                    f.write("older\n")
                os.utime(os.path.join(store, "old.c"), (1000, 1000))
                os.unlink(dev)
                os.symlink(os.path.join(store, "old.c"), dev)
                want = "older\n"
            os.utime(copy_dev, (1500, 1500))  # as old as its objects
            self.synced(self.a)
            with open(copy_dev) as f:
                self.assertEqual(f.read(), want, step)
            self.assertFalse(os.path.islink(copy_dev), step)
            self.assertGreater(os.stat(copy_dev).st_mtime, 2000, step)
        self.assertEqual(os.readlink(os.path.join(self.copy,
                                                  "include/link.h")),
                         "same.h")

    def test_a_link_to_a_directory_in_the_copy_is_never_followed(self):
        # the copy has gone -> (a directory of a's); the tree has a real
        # directory gone/: the sync must not write into a's
        shutil.rmtree(os.path.join(self.copy, "gone"))
        os.symlink(os.path.join(self.a, "include"),
                   os.path.join(self.copy, "gone"))
        self.m.sync(self.a, self.copy)
        self.assertFalse(os.path.islink(os.path.join(self.copy, "gone")))
        self.assertEqual(sorted(os.listdir(os.path.join(self.a, "include"))),
                         ["link.h", "same.h"])

    def test_a_fifo_is_never_opened(self):
        os.mkfifo(os.path.join(self.a, "fifo"))
        os.link(os.path.join(self.a, "fifo"),
                os.path.join(self.copy, "fifo"))
        db = os.path.join(self.copy, ".napitest-synced.json")
        self.m.sync(self.a, self.copy, {})
        self.assertEqual(self.m.main(["--db", db, self.a, self.copy]), 0)
        self.assertNotIn("fifo", self.m.load_db(db))

    def test_an_unreadable_source_directory_is_an_error(self):
        with mock.patch.object(self.m.os, "scandir",
                               side_effect=PermissionError("denied")):
            self.assertEqual(self.m.main([self.a, self.copy]), 2)

    def test_the_db_is_kept_in_the_copy(self):
        self.synced(self.a)
        self.synced(self.b)
        self.assertTrue(os.path.exists(os.path.join(
            self.copy, ".napitest-synced.json")))

    def test_switch_back_is_idempotent(self):
        self.m.sync(self.b, self.copy)
        self.m.sync(self.a, self.copy)
        n = self.m.sync(self.a, self.copy)
        self.assertEqual(n["replaced"] + n["removed"], 0)
        with open(os.path.join(self.copy, "net/core/gone.c")) as f:
            self.assertEqual(f.read(), "only in a\n")


class HeadlineVerdictTest(unittest.TestCase):
    """make verdicts' two headline claims read the real-kernel table."""

    def setUp(self):
        self.m = headline_tsv
        base = dict(HeadlineTest.BASE, rps_call_ipis="2049",
                    defer_call_ipis="31", rps_resched_ipis="2",
                    tree="/c/base-6.1", kernel="6.1.192",
                    other_splats="0", ktap="ok",
                    date="2026-12-02T03:00:00Z")
        patched = dict(HeadlineTest.PATCHED, rps_call_ipis="0",
                       defer_call_ipis="0", rps_resched_ipis="1210",
                       tree="/c/patched-6.1",
                       other_splats="0", ktap="ok",
                       kernel="6.1.192", date="2026-12-02T03:10:00Z")
        self.hl = {("base", "rt"): base, ("patched", "rt"): patched}

    def test_not_run_without_the_table(self):
        for hl in ({}, {("patched", "rt"): self.hl[("patched", "rt")]}):
            warn, ipi = self.m.headline_verdicts(hl, [])
            self.assertTrue(warn[0].startswith("not run"), warn[0])
            self.assertTrue(ipi[0].startswith("not run"), ipi[0])

    COUNTS = ("2048 packets: function-call IPIs 2080 \u2192 0; reschedule "
              "IPIs 2 \u2192 1210 (backlog-thread wakeups); post-flush WARN "
              "1 \u2192 0")

    def test_holds_with_the_counts(self):
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        # the reschedule IPIs that wake the backlog thread are named, and
        # the WARN claim's ksoftirqd half is not decided by the kernel run
        self.assertEqual(warn[0], (
            "holds for the WARN in a PREEMPT_RT kernel under QEMU ("
            + self.COUNTS + "); the wakeup_softirqd() call from IPI "
            "context is not counted by the kernel run: that half rests on "
            "the simulator (V16)"))
        self.assertEqual(ipi[0], (
            "holds for the function-call IPIs in a PREEMPT_RT kernel under "
            "QEMU (" + self.COUNTS + "): the cross-CPU RPS IPIs are gone; "
            "the reschedule IPIs that wake the backlog thread are the "
            "price, not removed"))
        self.assertIn("base-6.1, 6.1.192, 2026-12-02T03:00:00Z", warn[1])

    def test_a_failed_or_foreign_row_decides_nothing(self):
        for t, k, v in (("base", "other_splats", "1"),
                        ("patched", "ktap", "FAIL"),
                        ("patched", "tree", "/var/tmp/mutant")):
            hl = {key: dict(row) for key, row in self.hl.items()}
            hl[(t, "rt")][k] = v
            warn, ipi = self.m.headline_verdicts(hl, [])
            self.assertTrue(warn[0].startswith("not decided"), warn[0])
            self.assertTrue(ipi[0].startswith("not decided"), ipi[0])
            self.assertIn(t + ":", warn[0])

    def test_base_effect_is_named_in_the_claim(self):
        self.hl[("base", "rt")].update(
            rps_raise_irqs_on_warn="1",
            rps_raise_irqs_on_warn_at="kernel/softirq.c:740<enqueue_to_"
            "backlog(net/core/dev.c)<headline_remote_flood_cpu1_idle("
            "net/core/dev.c)")
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        want = (self.COUNTS + " (+1 WARN at kernel/softirq.c:740 under "
                "enqueue_to_backlog() on base (6.1.192 + rt-base "
                "emulation), counted by name in headline.md))")
        self.assertIn(want, warn[0])
        self.assertIn(want, ipi[0])

    def test_non_rt_rows_are_evidence_only(self):
        row = dict(HeadlineTest.BASE, rps_call_ipis="2047",
                   defer_call_ipis="0", threads="0", other_splats="0",
                   ktap="ok", kernel="6.1.192", date="2026-12-02T10:00:00Z")
        self.hl[("base", "preempt")] = dict(row, tree="/c/base-6.1")
        self.hl[("patched", "preempt")] = dict(row, tree="/c/patched-6.1")
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        self.assertTrue(ipi[0].startswith("holds for the function-call IPIs"))
        self.assertIn("; non-RT PREEMPT, the kernel's default command line "
                      "(no thread_backlog_napi, without which the series "
                      "uses no backlog threads on non-RT): base 2048 RPS "
                      "csd runs, 2047+0 function-call IPIs, threads off; "
                      "patched 2048 RPS csd runs, 2047+0 function-call "
                      "IPIs, threads off (6.1.192, 2026-12-02T10:00:00Z)",
                      ipi[1])
        self.assertNotIn("thread_backlog_napi:", ipi[1])
        # the same kernel booted with thread_backlog_napi, when run
        self.hl[("patched", "preempt+threads")] = dict(
            HeadlineTest.PATCHED, rps_call_ipis="0", defer_call_ipis="0",
            threads="1", other_splats="0", ktap="ok",
            tree="/c/patched-6.1", date="2026-12-02T10:05:00Z")
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        self.assertIn("threads off (6.1.192, 2026-12-02T10:00:00Z); "
                      "patched booted with thread_backlog_napi: 0 RPS csd "
                      "runs, 0+0 function-call IPIs, threads on "
                      "(2026-12-02T10:05:00Z; function-call IPIs without an "
                      "RPS csd run are others", ipi[1])
        self.hl[("patched", "preempt+threads")]["ktap"] = "FAIL"
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        self.assertNotIn("thread_backlog_napi:", ipi[1])
        # a non-RT row that cannot count is left out, deciding nothing
        self.hl[("patched", "preempt")]["ktap"] = "FAIL"
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        self.assertNotIn("non-RT", ipi[1])
        self.assertTrue(ipi[0].startswith("holds for the function-call IPIs"))

    def test_an_ipi_on_patched_does_not_hold(self):
        self.hl[("patched", "rt")]["received_rps"] = "1"
        warn, ipi = self.m.headline_verdicts(self.hl, [])
        self.assertTrue(ipi[0].startswith("does not hold"), ipi[0])
        self.assertTrue(warn[0].startswith("does not hold"), warn[0])

    def test_a_call_ipi_on_patched_does_not_hold(self):
        # no RPS csd run, but CPU 1 still got function-call IPIs
        for k in ("rps_call_ipis", "defer_call_ipis"):
            hl = {key: dict(row) for key, row in self.hl.items()}
            hl[("patched", "rt")][k] = "1900"
            warn, ipi = self.m.headline_verdicts(hl, [])
            self.assertTrue(ipi[0].startswith("does not hold"), ipi[0])
            self.assertTrue(warn[0].startswith("does not hold"), warn[0])


class UpstreamRowTest(unittest.TestCase):
    """make verdicts-upstream: the backport against upstream, invariant by
    invariant; an invariant neither run checks is not "equal"."""

    def setUp(self):
        self.m = cases

        class Inv:
            def __init__(self, i):
                self.id, self.statement = i, f"statement of {i}"
        self.invs = [Inv("V1"), Inv("V2"), Inv("V3")]
        self.p = {"V1": {"rps": ("pass", ""), "norps": ("n/a", "")},
                  "V3": {"rps": ("pass", "")}}

    def test_unchecked_is_not_equal(self):
        u = {"V1": {"rps": ("pass", ""), "norps": ("n/a", "")},
             "V2": {"rps": ("n/a", "")},
             "V3": {"rps": ("pass", "")}}
        verdict, ev = self.m.compare(self.p, u, self.invs)
        self.assertEqual(verdict, "equal, invariant by invariant, in every "
                         "configuration (2 invariants checked, 1 not)")
        self.assertIn("equal in 2 of the 2 invariants both runs check "
                      "(V1, V3)", ev)
        self.assertIn("not checked by either run: V2", ev)

    def test_difference_named_with_its_reason(self):
        u = {"V1": {"rps": ("FAIL", "NAPI_STATE_SCHED set on backlog"),
                    "norps": ("n/a", "")},
             "V3": {"rps": ("pass", "")}}
        verdict, ev = self.m.compare(self.p, u, self.invs)
        self.assertEqual(verdict, "different in 1 invariant(s)")
        self.assertIn("V1 differs in rps (patched pass, upstream FAIL): "
                      "NAPI_STATE_SCHED set on backlog.", ev)

    def test_one_sided_is_not_counted_as_both_runs_check(self):
        # V3 checked by the patched run only (all n/a upstream): not one
        # of the invariants "both runs check", named apart
        u = {"V1": {"rps": ("pass", ""), "norps": ("n/a", "")},
             "V3": {"rps": ("n/a", "")}}
        verdict, ev = self.m.compare(self.p, u, self.invs)
        self.assertEqual(verdict, "different in 1 invariant(s)")
        self.assertIn("equal in 1 of the 1 invariants both runs check "
                      "(V1); checked by one run only: V3 (patched only: "
                      "rps pass)", ev)
        self.assertNotIn("of the 2 invariants", ev)


class RawKtap(unittest.TestCase):
    """napitest.kunit_run.raw_ktap(), the one reader of kunit/run's "raw
    KTAP:" line (tools/differential, kunit/headline, kunit/smp), over a
    recorded kunit/run output (make kunit-smp, PREEMPT_RT)."""

    def test_recorded_run(self):
        from napitest import kunit_run
        with open(os.path.join(HERE, "data", "kunit-run-rt.log")) as f:
            text = f.read()
        # the recorded run's build directory (in the cache), then the logs
        logs = kunit_run.raw_ktap(text)
        self.assertEqual([os.path.relpath(x, os.path.dirname(logs[0]))
                          for x in logs],
                         ["ktap.log", "ktap-threads-off.log"])
        self.assertTrue(logs[0].endswith("/kunit-build/x86_64-rt/build/"
                                         "ktap.log"), logs[0])
        # Only a line that starts with it; the last one counts.
        self.assertEqual(kunit_run.raw_ktap("x raw KTAP: /a\n"), [])
        self.assertEqual(kunit_run.raw_ktap(
            "raw KTAP: /a\nraw KTAP: /b /c \n"), ["/b", "/c"])

    def test_command(self):
        p = subprocess.run(
            ["python3", "-m", "napitest.kunit_run", "raw-ktap",
             os.path.join(HERE, "data", "kunit-run-rt.log")],
            cwd=os.path.join(TOP, "kunit"), capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([os.path.basename(x) for x in p.stdout.split()],
                         ["ktap.log", "ktap-threads-off.log"])
