# SPDX-License-Identifier: GPL-2.0
"""Tests of make kunit-smp's tooling that need no kernel build: the splat
classifier (kunit/splats) over a recorded PREEMPT_RT console log, and
kunit/run's bad-input checks (QEMU missing, a tree whose arch/x86 cannot
enable PREEMPT_RT), which must fail before anything is written.

Run: pytest-3 tools/tests (CTest: tools-pytest).
"""

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
RUN = os.path.join(TOP, "kunit", "run")
LOG = os.path.join(HERE, "data", "kunit-console-rt.log")


def load_splats():
    path = os.path.join(TOP, "kunit", "splats")
    loader = importlib.machinery.SourceFileLoader("kunit_splats", path)
    spec = importlib.util.spec_from_loader("kunit_splats", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class SplatsTest(unittest.TestCase):
    def setUp(self):
        self.m = load_splats()
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
        for d in ("net/core", "tools/testing/kunit", "arch/um", "arch/x86"):
            os.makedirs(os.path.join(t, d))
        for f in ("Makefile", "net/core/dev.c", "net/Kconfig",
                  "tools/testing/kunit/kunit.py"):
            open(os.path.join(t, f), "w").close()
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
        r = self.run_kunit(["--arch=x86_64", "--kernel=rt"], path=bin_dir)
        if "missing build tool" in r.stderr:
            self.skipTest("build tools not installed: " + r.stderr)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("qemu-system-x86_64", r.stderr)
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

    def test_rt_needs_x86_64(self):
        r = self.run_kunit(["--kernel=rt"])
        self.assertEqual(r.returncode, 2)
        self.assertIn("needs --arch=x86_64", r.stderr)
        self.assertEqual(os.listdir(self.cache), [])
