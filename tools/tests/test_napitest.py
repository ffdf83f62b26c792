# SPDX-License-Identifier: GPL-2.0
"""Tests of the tooling package (kernel-src/napitest/) over small fixture
trees: the extractor (#line directives, enclosing conditionals, static
dropped in place, missing and optional definitions, extract.d), the
manifest parser and the series parser.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re
import shutil
import tempfile
import types
import unittest
from unittest import mock

from napitest import Error, extract, manifest, series

DEV_C = """\
// SPDX-License-Identifier: GPL-2.0
#include <linux/netdevice.h>

#define BACKLOG_BUDGET 64

struct backlog {
    int state;
};

static DEFINE_PER_CPU(struct backlog, backlog_data);

static inline bool backlog_empty(struct backlog *b)
{
    return b->state == 0;
}

#ifdef CONFIG_RPS
static int rps_only(struct backlog *b)
{
    return b->state;
}
#else
static int rps_only(struct backlog *b)
{
    return 0;
}
#endif

int process_backlog(struct backlog *b, int quota)
{
    if (backlog_empty(b))
        return 0;
    return quota;
}
""".replace("    ", "\t")

MANIFEST = """\
# a comment line
file net/core/dev.c   # the file
    macro    BACKLOG_BUDGET
    struct    backlog
    member    backlog.state
    variable    backlog_data
    function    backlog_empty
    function    rps_only
    function    process_backlog
    function?    not_in_this_tree
file? net/core/absent.c
    function    nowhere
""".replace("    ", "\t")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class Fixture(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="napitest-test-")
        self.tree = os.path.join(self.dir, "linux")
        write(os.path.join(self.tree, "Makefile"),
              "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\nEXTRAVERSION =\n")
        os.makedirs(os.path.join(self.tree, "include", "linux"))
        write(os.path.join(self.tree, "net", "core", "dev.c"), DEV_C)
        self.manifest = os.path.join(self.dir, "manifest")
        write(self.manifest, MANIFEST)
        self.out = os.path.join(self.dir, "gen")
        extract.SCANNED.clear()
        extract.TAGGED.clear()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def read(self, rel):
        with open(os.path.join(self.out, "extracted", rel)) as f:
            return f.read()


class TestManifest(Fixture):
    def test_sections_entries_and_comments(self):
        files = manifest.parse_manifest(self.manifest)
        self.assertEqual([f[0] for f in files],
                         ["net/core/dev.c", "net/core/absent.c"])
        self.assertEqual([f.optional for f in files], [False, True])
        entries = files[0][1]
        self.assertEqual([(e.kind, e.name) for e in entries[:3]],
                         [("macro", "BACKLOG_BUDGET"), ("struct", "backlog"),
                          ("member", "backlog.state")])
        last = entries[-1]
        self.assertEqual((last.kind, last.name, last.optional, last.lineno),
                         ("function", "not_in_this_tree", True, 10))
        self.assertFalse(entries[0].optional)

    def test_names_and_functions(self):
        self.assertEqual(manifest.functions(self.manifest),
                         ["backlog_empty", "rps_only", "process_backlog",
                          "not_in_this_tree", "nowhere"])
        self.assertIn("backlog.state", manifest.names(self.manifest))
        self.assertNotIn("net/core/dev.c", manifest.names(self.manifest))
        self.assertEqual(manifest.required_files(self.manifest),
                         ["net/core/dev.c"])

    def test_command_files_and_sections(self):
        """What prepare-tree, resolve-tree and ksrc-build-id read."""
        import contextlib
        import io
        for what, want in (("files", "net/core/dev.c\n"),
                           ("sections", "file net/core/dev.c\n"
                                        "file? net/core/absent.c\n")):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(manifest.main([what, self.manifest]), 0)
            self.assertEqual(out.getvalue(), want)

    def test_errors_name_the_line(self):
        write(self.manifest, "file a.c\n\tfunction f\n\tfuntcion g\n")
        with self.assertRaisesRegex(Error, r"manifest:3: unknown kind "
                                    r"'funtcion'"):
            manifest.parse_manifest(self.manifest)
        write(self.manifest, "# no file yet\nfunction f\n")
        with self.assertRaisesRegex(Error, r"manifest:2: expected 'file "
                                    r"PATH' or 'KIND NAME'"):
            manifest.parse_manifest(self.manifest)

    def test_real_manifests_parse(self):
        here = os.path.dirname(os.path.abspath(__file__))
        ks = os.path.join(here, "..", "..", "kernel-src")
        for name in ("manifest", "manifest.seed-netpoll",
                     "manifest.seed-rt-softirq"):
            files = manifest.parse_manifest(os.path.join(ks, name))
            self.assertTrue(files and all(f[1] for f in files), name)
        files = manifest.parse_manifest(os.path.join(ks, "manifest"))
        self.assertIn("net/core/dev.c", [f[0] for f in files])


class TestExtractor(Fixture):
    def generate(self):
        extract.generate(self.tree, self.manifest, self.out)
        return self.read("net/core/dev.c")

    def test_line_directives_name_the_tree_line(self):
        text = self.generate()
        src = os.path.join(self.tree, "net/core/dev.c")
        # Each emitted definition starts at its own line of the tree, and
        # the lines after a #line directive are the tree's, in order.
        tree_lines = DEV_C.split("\n")
        lines = text.split("\n")
        seen = 0
        for i, ln in enumerate(lines):
            m = re.match(r'#line (\d+) "(.*)"$', ln)
            if not m:
                continue
            self.assertEqual(m.group(2), src)
            n = int(m.group(1))
            k = i + 1
            # (the #endif closing a wrapped definition is the extractor's)
            while k < len(lines) and lines[k] not in ("", "#endif") and \
                    not lines[k].startswith("#line"):
                want = re.sub(r"\b(static|inline) ", "", tree_lines[n - 1])
                self.assertEqual(lines[k], want, f"tree line {n}")
                n, k, seen = n + 1, k + 1, seen + 1
        self.assertGreater(seen, 15)
        self.assertIn(f'#line 29 "{src}"\nint process_backlog', text)

    def test_static_and_inline_dropped_in_place(self):
        text = self.generate()
        self.assertIn("\nbool backlog_empty(struct backlog *b)\n", text)
        self.assertIn("\nDEFINE_PER_CPU(struct backlog, backlog_data);\n",
                      text)
        self.assertNotRegex(text, r"\bstatic\b|\binline\b")
        defs = self.read("defs.h")
        self.assertIn("bool backlog_empty(struct backlog *b);", defs)
        self.assertIn("DECLARE_PER_CPU(struct backlog, backlog_data);", defs)

    def test_list_head_and_mutex_variables(self):
        # kernel/smpboot.c's LIST_HEAD() and DEFINE_MUTEX() definitions:
        # tagged as variables, declared extern with their type.
        write(os.path.join(self.tree, "kernel", "smpboot.c"),
              "static LIST_HEAD(hotplug_threads);\n"
              "static DEFINE_MUTEX(smpboot_threads_lock);\n")
        write(self.manifest, "file kernel/smpboot.c\n"
              "\tvariable hotplug_threads\n"
              "\tvariable smpboot_threads_lock\n")
        extract.generate(self.tree, self.manifest, self.out)
        text = self.read("kernel/smpboot.c")
        self.assertIn("\nLIST_HEAD(hotplug_threads);\n", text)
        self.assertIn("\nDEFINE_MUTEX(smpboot_threads_lock);\n", text)
        defs = self.read("defs.h")
        self.assertIn("extern struct list_head hotplug_threads;", defs)
        self.assertIn("extern struct mutex smpboot_threads_lock;", defs)

    def test_static_dropped_from_a_head_before_the_name_line(self):
        """The kernel's style "static __latent_entropy void\nname(...)":
        the keywords go from the lines before the name's, in place."""
        write(os.path.join(self.tree, "net", "core", "dev.c"),
              DEV_C + "\nstatic inline __attribute__((unused)) int\n"
              "two_line_head(struct backlog *b)\n{\n\treturn 0;\n}\n")
        write(self.manifest, MANIFEST.replace(
            "\tfunction\tprocess_backlog\n",
            "\tfunction\tprocess_backlog\n\tfunction\ttwo_line_head\n"))
        text = self.generate()
        self.assertIn("\n__attribute__((unused)) int\n"
                      "two_line_head(struct backlog *b)\n", text)
        self.assertNotRegex(text, r"\bstatic\b|\binline\b")

    def test_conditionals_kept(self):
        text = self.generate()
        # Both definitions of rps_only, each inside its own branch.
        self.assertEqual(text.count("int rps_only(struct backlog *b)"), 2)
        first = text.index("int rps_only")
        self.assertTrue(text[:first].endswith(
            f'#line 17 "{self.tree}/net/core/dev.c"\n#ifdef CONFIG_RPS\n'
            f'#line 18 "{self.tree}/net/core/dev.c"\n'), text[:first])
        second = text.index("int rps_only", first + 1)
        between = text[first:second]
        self.assertIn("#ifdef CONFIG_RPS", between)
        self.assertIn("#else", between)
        self.assertEqual(text.count("#endif"), 2)
        self.assertEqual(text.count("#ifdef CONFIG_RPS"), 2)

    def test_headers_and_present(self):
        self.generate()
        defs = self.read("defs.h")
        self.assertIn("#define BACKLOG_BUDGET 64", defs)
        self.assertIn("struct backlog {", defs)
        present = self.read("present.h")
        for name, have in (("process_backlog", 1), ("backlog_state", 1),
                           ("not_in_this_tree", 0), ("nowhere", 0)):
            self.assertIn(f"#define EXTRACTED_HAVE_{name} {have}\n", present)
        self.assertIn("#define EXTRACTED_LINUX_VERSION_CODE 393571\n",
                      present)
        # Its readers (kunit/run, tools/build-report; the hunk matrix).
        path = os.path.join(self.out, "extracted", "present.h")
        have = extract.read_present(path)
        self.assertEqual((have["process_backlog"], have["nowhere"]),
                         (True, False))
        self.assertEqual(extract.present_tree(path), self.tree)
        self.assertIn(f'#define EXTRACTED_TREE "{self.tree}"\n', present)
        # An optional file the tree lacks: an empty extraction.
        self.assertIn("Not in this tree", self.read("net/core/absent.c"))
        allc = self.read("all.c")
        self.assertIn('#include "extracted/net/core/dev.c"', allc)
        # With EXTRACTED_TABLES_ONLY (the build's tables unit), all.c
        # includes no .c file, and its tables stay.
        tables = re.sub(r"#ifndef EXTRACTED_TABLES_ONLY\n.*?"
                        r"#endif /\* EXTRACTED_TABLES_ONLY \*/\n", "", allc,
                        flags=re.S)
        self.assertNotIn('#include "extracted/', tables)
        self.assertIn("const struct extracted_site extracted_sites[]", tables)
        self.assertIn("void extracted_restore_globals(void)", tables)

    def test_sites_name_each_function_at_its_line(self):
        self.generate()
        allc = self.read("all.c")
        src = os.path.join(self.tree, "net/core/dev.c")
        self.assertIn(f'#line 29 "{src}"\n'
                      '\t{ "process_backlog", __FILE__, __LINE__ },\n', allc)
        # Each variant of rps_only inside its own branch.
        self.assertIn(f'#line 17 "{src}"\n#ifdef CONFIG_RPS\n'
                      f'#line 22 "{src}"\n#else\n'
                      f'#line 23 "{src}"\n'
                      '\t{ "rps_only", __FILE__, __LINE__ },\n#endif\n', allc)
        self.assertIn("extern const struct extracted_site extracted_sites[];",
                      self.read("defs.h"))

    def test_depfile_names_the_inputs(self):
        # the tree's Makefile too: its version is in present.h
        self.generate()
        dep = self.read("extract.d")
        target, _, deps = dep.partition(": ")
        self.assertEqual(deps.split(),
                         [os.path.join(self.tree, "net/core/dev.c"),
                          os.path.join(self.tree, "Makefile"),
                          os.path.abspath(self.manifest)])
        self.assertEqual(target,
                         os.path.join(self.out, "extracted", "all.c"))
        # The build's target (CMake's DEPFILE: the extraction's stamp).
        stamp = os.path.join(self.out, "extract.stamp")
        extract.generate(self.tree, self.manifest, self.out, stamp)
        self.assertTrue(self.read("extract.d").startswith(stamp + ": "))

    def test_outputs_are_what_generate_writes(self):
        self.generate()
        written = sorted(
            os.path.relpath(os.path.join(d, f), self.out)
            for d, _, fs in os.walk(self.out) for f in fs
            if not f.endswith(".d"))
        self.assertEqual(sorted(extract.outputs([self.manifest])), written)

    def test_missing_definition_is_one_error(self):
        write(self.manifest, MANIFEST.replace(
            "function?\tnot_in_this_tree", "function\tnot_in_this_tree")
            .replace("member\tbacklog.state", "member\tbacklog.gone"))
        with self.assertRaises(Error) as cm:
            self.generate()
        msg = str(cm.exception)
        self.assertIn("the manifest names definitions the tree lacks", msg)
        self.assertIn("function 'not_in_this_tree' not found in "
                      "net/core/dev.c", msg)
        self.assertIn("(manifest line 10)", msg)
        self.assertIn("member 'backlog.gone' not found", msg)
        self.assertFalse(os.path.exists(os.path.join(self.out, "extracted")))

    def test_tags_in_sort_order_whatever_the_locale(self):
        # ctags runs with --sort=no (its sort is sh -c "sort -u", two
        # processes a file); the tags come in sort -u's C-locale order,
        # which decides the first of two tags of one name (locate())
        path = os.path.join(self.tree, "net", "core", "order.c")
        write(path, "int b(void) { return 0; }\nint a(void) { return 0; }\n"
              "int b2(void) { return 0; }\n")
        names = [t["name"] for t in extract.run_ctags(self.tree,
                                                      "net/core/order.c")
                 if t["kind"] == "function"]
        self.assertEqual(names, ["a", "b", "b2"])
        self.assertIn("--sort=no", extract.ctags_command("net/core/order.c"))

    def test_missing_file_and_not_a_tree(self):
        os.unlink(os.path.join(self.tree, "net/core/dev.c"))
        with self.assertRaisesRegex(Error, "net/core/dev.c is missing from "
                                    "kernel tree"):
            self.generate()
        shutil.rmtree(os.path.join(self.tree, "include"))
        with self.assertRaisesRegex(Error, "is not a kernel tree"):
            self.generate()


class TestExtractionCache(Fixture):
    """extract --cache: the same tree content behind the build's link
    (a copy at a new path) is not extracted again, a file's content is
    tagged once, and any change of an input's content extracts again."""

    def setUp(self):
        super().setUp()
        self.link = os.path.join(self.dir, "tree")
        os.symlink(self.tree, self.link)
        self.cache = os.path.join(self.dir, "cache")
        self.ctags_runs = []
        real = extract.run_ctags

        def counting(tree, rel):
            self.ctags_runs.append(rel)
            return real(tree, rel)
        extract.run_ctags = counting
        self.addCleanup(setattr, extract, "run_ctags", real)

    def generate(self):
        # (a new process each time: no tags kept in memory)
        extract.SCANNED.clear()
        extract.TAGGED.clear()
        extract.generate(self.link, self.manifest, self.out,
                         cache=self.cache)
        return self.read("net/core/dev.c")

    def move_to_a_copy(self, name):
        copy = os.path.join(self.dir, name)
        shutil.copytree(self.tree, copy)
        os.unlink(self.link)
        os.symlink(copy, self.link)
        return copy

    def test_a_copy_at_a_new_path_is_not_extracted_again(self):
        first = self.generate()
        self.assertEqual(self.ctags_runs, ["net/core/dev.c"])
        path = os.path.join(self.out, "extracted", "net/core/dev.c")
        mtime = os.stat(path).st_mtime_ns
        self.move_to_a_copy("copy")
        self.assertEqual(self.generate(), first)
        self.assertEqual(self.ctags_runs, ["net/core/dev.c"])
        self.assertEqual(os.stat(path).st_mtime_ns, mtime)

    def test_an_edit_is_extracted_and_tagged_again(self):
        self.generate()
        copy = self.move_to_a_copy("copy")
        dev = os.path.join(copy, "net/core/dev.c")
        st = os.stat(dev)
        # The same size and times: only the content says it changed.
        write(dev, DEV_C.replace("return quota;", "return QUOTA;"))
        os.utime(dev, ns=(st.st_atime_ns, st.st_mtime_ns))
        self.assertEqual(os.stat(dev).st_size, st.st_size)
        self.assertIn("return QUOTA;", self.generate())
        self.assertEqual(self.ctags_runs, ["net/core/dev.c"] * 2)
        # Back to the first content: its tags are reused.
        write(dev, DEV_C)
        self.assertIn("return quota;", self.generate())
        self.assertEqual(len(self.ctags_runs), 2)
        # A line added: the tags of the new content place the function.
        write(dev, DEV_C.replace("int process_backlog",
                                 "/* edited */\nint process_backlog"))
        self.assertIn(f'#line 30 "{self.link}/net/core/dev.c"\n'
                      "int process_backlog", self.generate())
        self.assertEqual(len(self.ctags_runs), 3)

    def test_the_manifest_and_the_version_are_inputs(self):
        self.generate()
        write(self.manifest, MANIFEST.replace("\tfunction\trps_only\n", ""))
        self.assertNotIn("rps_only", self.generate())
        write(os.path.join(self.tree, "Makefile"),
              "VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 1\nEXTRAVERSION =\n")
        self.generate()
        self.assertIn("#define EXTRACTED_LINUX_VERSION_CODE 394753\n",
                      self.read("present.h"))

    def test_a_changed_output_is_written_again(self):
        first = self.generate()
        write(os.path.join(self.out, "extracted", "net/core/dev.c"), "x\n")
        self.assertEqual(self.generate(), first)

    def test_another_tree_path_is_extracted_again(self):
        # the #line directives name the tree's path: the same content
        # given by another path (not the build's link) is another output
        self.generate()
        copy = os.path.join(self.dir, "copy")
        shutil.copytree(self.tree, copy)
        extract.generate(copy, self.manifest, self.out, cache=self.cache)
        self.assertIn(f'"{copy}/net/core/dev.c"', self.read("net/core/dev.c"))
        self.assertNotIn(f'"{self.link}/', self.read("net/core/dev.c"))

    def test_another_ctags_is_extracted_and_tagged_again(self):
        self.generate()
        with mock.patch.object(extract, "ctags_identity",
                               lambda: "/usr/bin/ctags 1 2"):
            self.generate()
        self.assertEqual(self.ctags_runs, ["net/core/dev.c"] * 2)

    def key(self):
        return extract.input_key(self.link, self.manifest, self.out, None)[0]

    def test_the_extractor_s_code_is_an_input(self):
        # an edit of the extractor must not replay its old output: each
        # module generate() runs is part of the key, by content
        here = os.path.dirname(os.path.abspath(extract.__file__))
        code = os.path.join(self.dir, "napitest")
        os.makedirs(code)
        for m in ("__init__.py", "extract.py", "manifest.py", "depfile.py"):
            shutil.copy(os.path.join(here, m), code)
        with mock.patch.object(extract, "__file__",
                               os.path.join(code, "extract.py")):
            keys = {self.key()}
            for m in ("__init__.py", "extract.py", "manifest.py",
                      "depfile.py"):
                with open(os.path.join(code, m), "a") as f:
                    f.write("# edited\n")
                keys.add(self.key())
                self.assertEqual(len(keys), 2, m)
                keys = {self.key()}

    def test_an_absent_optional_file_is_not_an_empty_one(self):
        absent = os.path.join(self.tree, "net/core/absent.c")
        self.assertFalse(os.path.exists(absent))
        key = self.key()
        write(absent, "")
        self.assertNotEqual(self.key(), key)

    def test_tags_are_kept_by_file_name_and_command(self):
        cache = extract.TagCache(self.cache)
        src = types.SimpleNamespace(rel="net/core/dev.c", digest="0" * 64)
        same = cache.path(src)
        self.assertEqual(cache.path(types.SimpleNamespace(
            rel="net/core/dev.c", digest="0" * 64)), same)
        # the same content under another name: tags name their file
        self.assertNotEqual(cache.path(types.SimpleNamespace(
            rel="net/core/other.c", digest="0" * 64)), same)
        with mock.patch.object(extract, "CTAGS_MACROS",
                               extract.CTAGS_MACROS + ["__new_macro"]):
            self.assertNotEqual(cache.path(src), same)
        cache.ident = "another ctags"
        self.assertNotEqual(cache.path(src), same)


class TestSeries(Fixture):
    def test_comments_blanks_and_order(self):
        d = os.path.join(self.dir, "patches")
        write(os.path.join(d, "series"),
              "# the order\n0002-b.patch\n\n  0001-a.patch  # first\n"
              "#0003-c.patch\n")
        write(os.path.join(d, "0001-a.patch"), "")
        write(os.path.join(d, "0002-b.patch"), "")
        s = os.path.join(d, "series")
        self.assertEqual(series.names(s), ["0002-b.patch", "0001-a.patch"])
        self.assertEqual(series.entries(s),
                         [(2, "0002-b.patch"), (4, "0001-a.patch")])
        self.assertEqual(series.paths(s),
                         [os.path.join(d, "0002-b.patch"),
                          os.path.join(d, "0001-a.patch")])
        self.assertEqual(series.unlisted(d), [])

    def test_errors(self):
        d = os.path.join(self.dir, "patches")
        s = os.path.join(d, "series")
        with self.assertRaisesRegex(Error, "series does not exist"):
            series.names(s)
        write(s, "0001-a.patch\n0009-missing.patch\n")
        write(os.path.join(d, "0001-a.patch"), "")
        with self.assertRaisesRegex(Error, r"series:2 lists "
                                    r"'0009-missing.patch', but there is "
                                    "no such file"):
            series.paths(s)
        write(os.path.join(d, "0007-stray.patch"), "")
        write(os.path.join(d, "series.other"), "0008-listed.patch\n")
        write(os.path.join(d, "0008-listed.patch"), "")
        self.assertEqual(series.unlisted(d),
                         [os.path.join(d, "0007-stray.patch")])

    def test_real_series(self):
        here = os.path.dirname(os.path.abspath(__file__))
        d = os.path.join(here, "..", "..", "kernel-src", "patches")
        for name in ("series", "series.as-posted"):
            self.assertEqual(len(series.paths(os.path.join(d, name))), 15)
        self.assertEqual(series.unlisted(d), [])


if __name__ == "__main__":
    unittest.main()


class TestResultsAndPatches(Fixture):
    def test_cmocka_suite_lines_before_and_after(self):
        from napitest import cmocka_output
        lines = ["boot: 2 CPUs", "[==========] tests: Running 1 test(s).",
                 "[ RUN      ] v1_a", "[       OK ] v1_a",
                 "teardown: all CPUs parked",
                 "[==========] tests: 1 test(s) run.",
                 "[  PASSED  ] 1 test(s)."]
        s = cmocka_output.parse([(float(i), ln) for i, ln in enumerate(lines)])
        self.assertEqual(s.planned, 1)
        self.assertEqual([(c.name, c.status) for c in s.cases],
                         [("v1_a", "ok")])
        self.assertEqual(s.pre, ["boot: 2 CPUs"])
        self.assertEqual(s.post[0], "teardown: all CPUs parked")

    def test_patch_with_an_empty_context_line(self):
        from napitest import hunks
        p = os.path.join(self.dir, "0001-x.patch")
        write(p, "From x\nSubject: [PATCH 1/2] net: a\n\n---\n"
              "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
              "@@ -1,3 +1,3 @@\n a;\n\n-b;\n+c;\n"
              "@@ -10,2 +10,2 @@\n-d;\n+e;\n f;\n")
        hs = hunks.parse_patch(p)
        self.assertEqual([h.id for h in hs], ["1.1", "1.2"])
        self.assertEqual(hs[0].body, [" a;", " ", "-b;", "+c;"])
        self.assertEqual(hs[0].subject, "net: a")
        self.assertEqual(hs[1].old_start, 10)

    def test_patch_files_and_hunks_render_back(self):
        from napitest import patches
        p = os.path.join(self.dir, "0002-y.patch")
        body = ("diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
                "@@ -1,3 +1,3 @@\n a;\n\n-b;\n+c;\n"
                "@@ -10,2 +10,2 @@\n-d;\n+e;\n f;\n"
                "diff --git a/g.c b/g.c\n--- a/g.c\n+++ b/g.c\n"
                "@@ -5 +5 @@\n-x\n\\ No newline at end of file\n+y\n"
                "\\ No newline at end of file\n")
        write(p, "From y\nSubject: [PATCH] y\n\n---\n" + body +
              "-- \n2.39.2\n")
        files = patches.parse(p)
        self.assertEqual([(rel, [(h[0].strip(), h[2]) for h in hs])
                          for _, rel, hs in files],
                         [("f.c", [("@@ -1,3 +1,3 @@", 1),
                                   ("@@ -10,2 +10,2 @@", 10)]),
                          ("g.c", [("@@ -5 +5 @@", 5)])])
        # the blank line is context: the first hunk ends at +c;
        self.assertEqual(files[0][2][0][1], [" a;\n", "\n", "-b;\n",
                                             "+c;\n"])
        self.assertEqual(files[1][2][0][1][-1],
                         "\\ No newline at end of file\n")
        self.assertEqual(patches.render(files), body)
        # without f.c's second hunk; without g.c's only one, g.c goes
        self.assertNotIn("@@ -10,2", patches.render(files, {(0, 1)}))
        self.assertNotIn("g.c", patches.render(files, {(1, 0)}))

    def test_apply_exactly_or_not_at_all(self):
        """patches.apply(): prepare-tree's and series-check's "apply with
        no fuzz".  An offset is refused as firmly as fuzz or a failed
        hunk, and a patch refused leaves the tree as it was."""
        from napitest import patches
        f = os.path.join(self.tree, "f.c")
        lines = [f"line {i};\n" for i in range(1, 21)]
        p = os.path.join(self.dir, "0001-f.patch")
        write(p, "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
              "@@ -9,3 +9,3 @@\n line 9;\n-line 10;\n+LINE 10;\n line 11;\n")

        def check(text, error):
            write(f, text)
            got = patches.apply(self.tree, p)
            with open(f) as fh:
                after = fh.read()
            if error is None:
                self.assertIsNone(got)
                self.assertIn("LINE 10;", after)
            else:
                self.assertRegex(got or "", error)
                self.assertEqual(after, text)

        check("".join(lines), None)
        # the same lines two further down: patch would apply it at 11
        check("extra 1;\nextra 2;\n" + "".join(lines), r"offset")
        # a context line changed: patch with --fuzz=0 refuses the hunk
        check("".join(lines).replace("line 9;", "line nine;"), r"FAILED")
        # applied already
        check("".join(lines).replace("line 10;", "LINE 10;"), r"FAILED|"
              r"[Rr]eversed|previously applied")
        # taken out again exactly (series-prefixes walks the series back)
        write(f, "".join(lines).replace("line 10;", "LINE 10;"))
        self.assertIsNone(patches.apply(self.tree, p, reverse=True))
        with open(f) as fh:
            self.assertEqual(fh.read(), "".join(lines))
        # not taken out when it would need an offset
        moved = "extra;\n" + "".join(lines).replace("line 10;", "LINE 10;")
        write(f, moved)
        self.assertRegex(patches.apply(self.tree, p, reverse=True) or "",
                         r"offset")
        with open(f) as fh:
            self.assertEqual(fh.read(), moved)

    def test_patch_files_the_tree_paths_written(self):
        """make check's key takes the series' files from files()."""
        from napitest import patches
        a = os.path.join(self.dir, "0001-a.patch")
        b = os.path.join(self.dir, "0002-b.patch")
        write(a, "Subject: a\n\n+++ b/not-a-diff.c\n---\n"
              "diff --git a/net/x.c b/net/x.c\n--- a/net/x.c\n+++ b/net/x.c\n"
              "@@ -1 +1 @@\n-a\n+b\n"
              "diff --git a/old.c b/old.c\ndeleted file mode 100644\n"
              "--- a/old.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n")
        write(b, "diff --git a/net/x.c b/net/x.c\n--- a/net/x.c\n"
              "+++ b/net/x.c\n@@ -1 +1 @@\n-b\n+c\n"
              "diff --git a/include/y.h b/include/y.h\nnew file mode 100644\n"
              "--- /dev/null\n+++ b/include/y.h\n@@ -0,0 +1 @@\n+y\n")
        self.assertEqual(patches.files([a, b]), ["include/y.h", "net/x.c"])


class TestCompilerOutput(unittest.TestCase):
    """napitest.compiler over a failed ninja build's recorded output."""

    CMD = ("ccache /usr/bin/cc -DCONFIG_DEBUG_NET=1 -DCONFIG_PREEMPT_RT=1 "
           "-DCONFIG_RPS=1 -DCONFIG_SMP=1 -Igen/extracted -O0 "
           "-Werror=implicit-function-declaration -MD -MT "
           "CMakeFiles/kernel-rt-rps.dir/gen/extracted/all.c.o -c "
           "gen/extracted/all.c")

    def test_the_compiler_error_not_the_command(self):
        from napitest import compiler
        out = ["[1/3] Building C object CMakeFiles/sim-rt-rps.dir/sim.c.o",
               "FAILED: CMakeFiles/kernel-rt-rps.dir/gen/extracted/all.c.o ",
               self.CMD,
               "/T/net/core/dev.c: In function 'net_rx_action':",
               "/T/net/core/dev.c:6652:9: error: 'struct softnet_data' has "
               "no member named 'in_net_rx_action'",
               "/T/net/core/dev.c:6700:2: error: later",
               "ninja: build stopped: subcommand failed."]
        self.assertEqual(compiler.first_error(out), out[4])

    def test_the_linker_error_not_collect2(self):
        from napitest import compiler
        out = ["FAILED: backlog_rps-rps ", self.CMD,
               "/usr/bin/ld: libkernel-rps.a(all.c.o): in function "
               "`net_rx_action':",
               "/T/net/core/dev.c:6652: undefined reference to "
               "`kick_defer_list_purge'",
               "collect2: error: ld returned 1 exit status"]
        self.assertEqual(compiler.first_error(out), out[3])
        self.assertEqual(compiler.first_error(out[:2] + out[4:]), None)

    def test_a_tool_error(self):
        from napitest import compiler
        out = ["FAILED: gen/extracted/all.c", "cd /b && python3 -S extract.py"
               " -Werror", "extract: error: the manifest names definitions "
               "the tree lacks:"]
        self.assertEqual(compiler.first_error(out), out[2])


class HeadlineTsvTest(unittest.TestCase):
    """napitest.headline: the one reader of build/kunit-smp/headline.tsv."""

    def test_rows_and_their_commands(self):
        from napitest import headline
        with tempfile.TemporaryDirectory() as d:
            tsv = os.path.join(d, "headline.tsv")
            self.assertEqual(headline.read(tsv), ({}, {}))
            with open(tsv, "w") as f:
                f.write("# base\trt\tkunit/headline --kernels rt\n"
                        "base\trt\tn=2048 post_flush_warn=1 ktap=ok\n"
                        "patched\trt\tn=2048 post_flush_warn=0\n")
            rows, cmds = headline.read(tsv)
        self.assertEqual(rows[("base", "rt")],
                         {"n": "2048", "post_flush_warn": "1", "ktap": "ok"})
        self.assertEqual(rows[("patched", "rt")]["post_flush_warn"], "0")
        self.assertEqual(cmds, {("base", "rt"): "kunit/headline --kernels rt"})
