# SPDX-License-Identifier: GPL-2.0
"""Tests of napitest.content_stamp: the stamp the build's extraction
depends on is rewritten when a tree file it read has other content, even
with an older mtime (the false green of a cp -a'd mutant), and only then.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import time
from unittest import mock

from napitest import content_stamp, extract

from .test_napitest import Fixture, write

OLD = 978307200  # 2001-01-01: older than any extraction here


class TestContentStamp(Fixture):
    def setUp(self):
        super().setUp()
        self.link = os.path.join(self.dir, "tree")
        os.symlink(self.tree, self.link)
        self.cache = os.path.join(self.dir, "cache")
        self.depfile = os.path.join(self.out, "extracted", "extract.d")
        self.record = os.path.join(self.cache, "extract.key")
        self.stamp = os.path.join(self.out, "tree-content.stamp")
        self.dev_c = os.path.join(self.tree, "net", "core", "dev.c")

    def extract(self):
        extract.SCANNED.clear()
        extract.TAGGED.clear()
        extract.generate(self.link, self.manifest, self.out,
                         cache=self.cache)

    def update(self):
        """The stamp's mtime after an update (None: not there)."""
        content_stamp.update(self.depfile, self.record, self.stamp)
        try:
            return os.stat(self.stamp).st_mtime_ns
        except FileNotFoundError:
            return None

    def stamped(self):
        """An extraction, then its first stamp: the build's state."""
        self.extract()
        first = self.update()
        self.assertIsNotNone(first)
        os.utime(self.stamp, ns=(first - 10**9, first - 10**9))
        return first - 10**9

    def test_no_extraction_yet_writes_the_stamp(self):
        self.assertIsNotNone(self.update())
        with open(self.stamp) as f:
            self.assertIn("no extraction recorded", f.read())

    def test_nothing_changed_leaves_the_stamp(self):
        before = self.stamped()
        self.assertEqual(self.update(), before)
        self.assertEqual(self.update(), before)

    def test_other_content_with_an_older_mtime_rewrites_the_stamp(self):
        # what cp -a of a mutant does: new bytes, the mtime of 2001
        before = self.stamped()
        with open(self.dev_c) as f:
            text = f.read()
        write(self.dev_c, text.replace("return quota;", "return 0;"))
        os.utime(self.dev_c, (OLD, OLD))
        self.assertNotEqual(self.update(), before)
        with open(self.stamp) as f:
            self.assertIn("net/core/dev.c differs from what the extraction "
                          "read", f.read())

    def test_the_same_mtime_and_size_is_not_trusted(self):
        # rewritten in place, same size, its old mtime put back: only the
        # ctime says it was written (the stat remembered first, past
        # RACY_NS; then a tick of the clock, coarse before Linux 6.13)
        before = self.stamped()
        with mock.patch.object(content_stamp, "RACY_NS", -10**18):
            self.update()
        self.assertIn(os.path.join(self.link, "net", "core", "dev.c"),
                      content_stamp.read_json(self.stamp + ".json"))
        time.sleep(0.05)
        st = os.stat(self.dev_c)
        with open(self.dev_c) as f:
            text = f.read()
        write(self.dev_c, text.replace("quota;", "0xff ;"))
        os.utime(self.dev_c, ns=(st.st_atime_ns, st.st_mtime_ns))
        self.assertEqual(os.stat(self.dev_c).st_size, st.st_size)
        self.assertNotEqual(self.update(), before)

    def test_the_same_content_rewritten_leaves_the_stamp(self):
        before = self.stamped()
        with open(self.dev_c) as f:
            text = f.read()
        write(self.dev_c, text)
        os.utime(self.dev_c, (OLD, OLD))
        self.assertEqual(self.update(), before)

    def test_the_makefile_is_an_input(self):
        # its version is in present.h
        before = self.stamped()
        with open(os.path.join(self.tree, "Makefile"), "a") as f:
            f.write("# edited\n")
        os.utime(os.path.join(self.tree, "Makefile"), (OLD, OLD))
        self.assertNotEqual(self.update(), before)

    def test_after_the_extraction_runs_again_the_stamp_stays(self):
        self.stamped()
        write(self.dev_c, "int x;\n" + open(self.dev_c).read())
        os.utime(self.dev_c, (OLD, OLD))
        self.update()
        self.extract()
        os.utime(self.stamp, ns=(10**18, 10**18))
        self.assertEqual(self.update(), 10**18)

    def test_an_unchanged_stat_is_not_read_again(self):
        self.stamped()
        with mock.patch.object(content_stamp, "RACY_NS", -10**18):
            self.update()
            with mock.patch.object(content_stamp, "digest") as digest:
                self.update()
        digest.assert_not_called()

    def test_a_file_just_written_is_read_again(self):
        # it may be written again within the same tick, its stat unchanged
        self.stamped()
        self.update()
        with mock.patch.object(content_stamp, "digest",
                               wraps=content_stamp.digest) as digest:
            self.update()
        self.assertTrue(digest.called)

    def test_an_optional_file_that_appears_is_a_change(self):
        # absent when extracted (file? in the manifest), not in the
        # depfile: it appears, dated 2001
        before = self.stamped()
        absent = os.path.join(self.tree, "net", "core", "absent.c")
        write(absent, "void nowhere(void) {}\n")
        os.utime(absent, (OLD, OLD))
        self.assertNotEqual(self.update(), before)

    def test_a_failed_extraction_extracts_again(self):
        self.stamped()
        os.unlink(self.record)  # what generate() does before it runs
        before = os.stat(self.stamp).st_mtime_ns
        self.assertNotEqual(self.update(), before)

    def test_bad_usage(self):
        self.assertEqual(content_stamp.main(["only-one"]), 2)
