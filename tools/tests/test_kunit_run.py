# SPDX-License-Identifier: GPL-2.0
"""Tests of what kunit/run asks the tooling package (napitest.kunit_run,
napitest.ktap, napitest.extract.read_present): what a tree has, through the
extractor with kunit/manifest over a fixture tree; the tree's Kconfig
facts; and kunit.py's and the console's output, over recorded logs.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from napitest import extract, ktap, kunit_run, manifest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(HERE, "data")
KUNIT = os.path.join(TOP, "kunit")

# A tree with the series' softnet_data fields and two of its three
# functions: kick_defer_list_purge() is missing.
NETDEVICE_H = """\
struct softnet_data {
    struct list_head poll_list;
    bool in_net_rx_action;
    bool in_napi_threaded_poll;
};
""".replace("    ", "\t")
DEV_C = """\
static bool use_backlog_threads(void)
{
    return true;
}

static inline void backlog_lock_irq_save(struct softnet_data *sd,
                     unsigned long *flags)
{
    local_irq_save(*flags);
}
""".replace("    ", "\t")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def run(*args, cwd=KUNIT):
    return subprocess.run([sys.executable, "-m", *args], cwd=cwd,
                          capture_output=True, text=True)


class TreeH(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="napitest-kunit-run-")
        self.tree = os.path.join(self.dir, "linux")
        write(os.path.join(self.tree, "Makefile"),
              "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n")
        write(os.path.join(self.tree, "include/linux/netdevice.h"),
              NETDEVICE_H)
        write(os.path.join(self.tree, "net/core/dev.c"), DEV_C)
        self.out = os.path.join(self.dir, "gen")
        extract.SCANNED.clear()
        extract.TAGGED.clear()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def present_h(self):
        extract.generate(self.tree, os.path.join(KUNIT, "manifest"),
                         self.out)
        return os.path.join(self.out, "extracted", "present.h")

    def test_what_the_tree_has(self):
        present = extract.read_present(self.present_h())
        self.assertEqual(present, {
            "softnet_data_in_net_rx_action": True,
            "softnet_data_in_napi_threaded_poll": True,
            "use_backlog_threads": True,
            "backlog_lock_irq_save": True,
            "kick_defer_list_purge": False})
        text = kunit_run.tree_h(present, self.tree)
        self.assertIn("#define NAPITEST_HAS_BACKLOG_THREADS 1\n", text)
        self.assertIn("#define NAPITEST_HAS_BACKLOG_LOCK 1\n", text)
        self.assertIn("#define NAPITEST_HAS_KICK_DEFER_LIST_PURGE 0\n", text)
        self.assertIn("#define NAPITEST_HAS_IN_NET_RX_ACTION 1\n", text)

    def test_a_tree_without_the_series(self):
        write(os.path.join(self.tree, "include/linux/netdevice.h"),
              "struct softnet_data {\n\tstruct list_head poll_list;\n};\n")
        write(os.path.join(self.tree, "net/core/dev.c"),
              "static void rps_lock_irq_save(void)\n{\n}\n")
        p = run("napitest.kunit_run", "tree-h", self.present_h(), self.tree)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(re.findall(r"NAPITEST_HAS_\w+ (\d)", p.stdout),
                         ["0"] * 5)

    def test_an_entry_present_h_lacks_is_one_error(self):
        path = self.present_h()
        write(path, read(path).replace("EXTRACTED_HAVE_use_backlog_threads",
                                       "EXTRACTED_HAVE_other"))
        p = run("napitest.kunit_run", "--prog", "kunit/run", "tree-h", path,
                self.tree)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr, "kunit/run: error: present.h names no "
                         "use_backlog_threads (kunit/manifest lacks it?)\n")

    def test_every_switch_is_the_kunit_codes_and_the_manifests(self):
        """tree_h()'s table against kunit/manifest and the #if lines of
        dev_backlog_kunit.c: a switch renamed on one side only is caught."""
        names = {extract.present_macro(n) for n in
                 manifest.names(os.path.join(KUNIT, "manifest"))}
        self.assertEqual({n for _, n in kunit_run.TREE_H}, names)
        used = set(re.findall(r"\bNAPITEST_HAS_\w+", read(
            os.path.join(KUNIT, "dev_backlog_kunit.c"))))
        self.assertLessEqual(used, {m for m, _ in kunit_run.TREE_H})


class CheckTree(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="napitest-kunit-run-")
        write(os.path.join(self.dir, "net/Kconfig"), 'menu "Networking"\n')
        write(os.path.join(self.dir, "arch/x86/Kconfig"),
              "config X86_64\n\tselect ARCH_SUPPORTS_INT128\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def check(self, *args):
        return run("napitest.kunit_run", "--prog", "kunit/run",
                   "check-tree", self.dir, *args)

    def test_rt_needs_the_select(self):
        self.assertEqual(self.check("--kernel", "preempt").returncode, 0)
        p = self.check("--kernel", "rt")
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot enable PREEMPT_RT on x86_64: arch/x86/Kconfig "
                      "has no line\n\tselect ARCH_SUPPORTS_RT\n", p.stderr)
        write(os.path.join(self.dir, "arch/x86/Kconfig"),
              "config X86_64\n\tselect ARCH_SUPPORTS_RT\n")
        self.assertEqual(self.check("--kernel", "rt").returncode, 0)

    def test_a_tree_hooked_already(self):
        write(os.path.join(self.dir, "net/Kconfig"),
              'source "net/core/Kconfig.backlog_kunit"\n')
        p = self.check()
        self.assertEqual(p.returncode, 2)
        self.assertIn("already sources Kconfig.backlog_kunit", p.stderr)

    def test_the_prepared_trees_rt_base_patch_adds_the_select(self):
        patch = read(os.path.join(
            TOP, "kernel-src/patches/rt-base/"
            "0002-x86-Allow-to-enable-RT.patch"))
        added = "\n".join(ln[1:] for ln in patch.splitlines()
                          if ln.startswith("+") and not
                          ln.startswith("+++"))
        self.assertRegex(added, kunit_run.SELECT_RT)


class RecordedOutput(unittest.TestCase):
    """kunit.py's output and the console logs of recorded runs."""

    def test_kunit_py_output(self):
        log = os.path.join(DATA, "kunit-run-rt.log")
        self.assertEqual(run("napitest.kunit_run", "kernel-started",
                             log).returncode, 0)
        self.assertEqual(run("napitest.kunit_run", "timed-out",
                             log).returncode, 1)
        self.assertTrue(kunit_run.TIMED_OUT.search(
            "[12:00:00] Timed out\n[ERROR] timed out after 300 seconds"))

    def test_copy_build_line(self):
        """kunit/run's "copy: ... build: ..." note, which bench/loop reads
        through copy-build; the last such line counts."""
        log = os.path.join(DATA, "kunit-run-rt.log")
        r = run("napitest.kunit_run", "copy-build", log)
        k = "/root/.cache/napi-backport-test/kunit-build/x86_64-rt/"
        self.assertEqual((r.returncode, r.stdout),
                         (0, f"{k}src {k}build\n"))
        text = ("kunit/run: copy: /a/src  build: /a/build\n"
                "kunit/run: tree: /t\n"
                "kunit/run: copy: /b/src  build: /b/build\n")
        self.assertEqual(kunit_run.copy_build(text), ("/b/src", "/b/build"))
        self.assertIsNone(kunit_run.copy_build("copy: /a  build: /b\n"))
        r = run("napitest.kunit_run", "copy-build",
                os.path.join(DATA, "kunit-ktap-rt.log"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("has no 'kunit/run: copy: ... build: ...' line",
                      r.stderr)

    def test_console_started_and_booted(self):
        for name in ("kunit-ktap-rt.log", "kunit-ktap-um-threads-off.log",
                     "kunit-console-rt-headline-base.log"):
            text = read(os.path.join(DATA, name))
            self.assertTrue(ktap.booted(text), name)
        boot = read(os.path.join(DATA, "kunit-console-rt-boot.log"))
        self.assertEqual((ktap.started(boot), ktap.booted(boot)),
                         (False, False))
        # With printk timestamps; a header without any result.
        self.assertTrue(ktap.booted("[    1.0] KTAP version 1\n"
                                    "[    2.5] ok 1 net_backlog_napi\n"))
        self.assertTrue(ktap.started("[    1.0] TAP version 14\n"))
        self.assertFalse(ktap.booted("[    1.0] KTAP version 1\n"
                                     "[    2.5] # Subtest: x\n"))

    def test_commands(self):
        ok = os.path.join(DATA, "kunit-ktap-rt.log")
        boot = os.path.join(DATA, "kunit-console-rt-boot.log")
        self.assertEqual(run("napitest.ktap", "booted", ok).returncode, 0)
        self.assertEqual(run("napitest.ktap", "booted", ok,
                             boot).returncode, 1)
        self.assertEqual(run("napitest.ktap", "started",
                             os.path.join(DATA, "absent.log")).returncode, 1)
