# SPDX-License-Identifier: GPL-2.0
"""A failed build's message in the tree's terms: the hunk matrix builds
an extraction whose #line directives name a fixed tree path
(hmlib.TREE_NAME, files created empty for ccache's direct mode) in a
worker's build dir under the scratch directory.  Its messages
(hunk-matrix/matrix.md's "build:" cells, mutants.md) must name the tree's
file:line wherever such a path appears, and no path of the worker's build
dir or of the scratch directory (napitest.compiler.tree_paths(),
hmlib.Worker.build()).

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

import pytest

from napitest import compiler


S = "/var/tmp/hm-x"
TREE = f"{S}/tree"
WTREE = f"{S}/w0/tree"
BDIR = f"{S}/build/w0"
PRE = f"{BDIR}/pre-gen/extracted"
DEFS = ("/* generated */\n"            # 1
        "struct a;\n"                  # 2
        f'#line 40 "{TREE}/include/linux/netdevice.h"\n'  # 3
        "struct softnet_data {\n"      # 4 -> netdevice.h:40
        "\tint x;\n"                   # 5 -> netdevice.h:41
        "};\n")                        # 6 -> netdevice.h:42


def paths(msg):
    return compiler.tree_paths(msg, [TREE, WTREE], [BDIR, S],
                               (PRE, lambda rel: DEFS))


def test_a_tree_path_anywhere_in_the_line():
    msg = (f"/usr/bin/ld: {BDIR}/CMakeFiles/kernel-rt-rps.dir/pre-gen/"
           f"extracted/all.c.o: in function `f': {TREE}/net/core/dev.c:6652:"
           " undefined reference to `kick_defer_list_purge'")
    assert paths(msg) == ("/usr/bin/ld: all.c.o: in function `f': "
                          "net/core/dev.c:6652: undefined reference to "
                          "`kick_defer_list_purge'")


def test_the_start_and_a_note_in_the_message():
    msg = (f"{TREE}/net/core/dev.c:224:39: error: conflicting types; see "
           f"{WTREE}/include/linux/netdevice.h:3246")
    assert paths(msg) == ("net/core/dev.c:224:39: error: conflicting types;"
                          " see include/linux/netdevice.h:3246")


def test_an_extraction_line_named_by_its_tree_line():
    assert paths(f"{PRE}/defs.h:5:2: error: x") == \
        "include/linux/netdevice.h:41: error: x"
    # No #line above it: the extraction's own line, no scratch path.
    assert paths(f"{PRE}/defs.h:2:1: error: y") == \
        "extracted/defs.h:2:1: error: y"


def test_no_build_dir_path_left():
    tail = (f"FAILED: suites-rt-rps\n: && {BDIR}/x/cc -o suites-rt-rps "
            f"CMakeFiles/suites-rt-rps.dir/suites/defer_list.c.o "
            f"{S}/ccache/tmp/y.o\nninja: build stopped")
    out = paths(tail)
    assert S not in out and "CMakeFiles/" not in out
    assert "defer_list.c.o" in out and "y.o" in out


def test_other_paths_kept():
    msg = "/usr/include/stdio.h:12:1: error: z"
    assert paths(msg) == msg


def test_line_origin():
    assert compiler.line_origin(DEFS, 4) == (
        f"{TREE}/include/linux/netdevice.h", 40)
    assert compiler.line_origin(DEFS, 6)[1] == 42
    assert compiler.line_origin(DEFS, 3) is None
    assert compiler.line_origin(DEFS, 1) is None
    assert compiler.line_origin(DEFS, 99) is None


@pytest.fixture
def worker(tmp_path, monkeypatch):
    """hmlib.Worker.build() with a fake ninja that fails as a build of
    the extraction does: its error at the fixed tree name, mid-line
    paths of the worker's build dir."""
    from napitest import hmlib as H
    scratch = tmp_path / "scratch"
    monkeypatch.setattr(H, "SCRATCH", str(scratch))
    monkeypatch.setattr(H, "TREE_NAME", str(scratch / "tree"))
    w = H.Worker.__new__(H.Worker)
    w.tree = str(scratch / "w0" / "tree")
    w.bdir = str(scratch / "build" / "w0")
    w.pre = os.path.join(w.bdir, "pre-gen")
    os.makedirs(os.path.join(w.tree, "net/core"))
    with open(os.path.join(w.tree, "net/core/dev.c"), "w") as fh:
        fh.write("a\n\tif (sd->defer_csd)\n")
    ext = os.path.join(w.pre, "extracted")
    os.makedirs(ext)
    with open(os.path.join(ext, "defs.h"), "w") as fh:
        fh.write(f'x\n#line 7 "{H.TREE_NAME}/net/core/dev.c"\ny\nz\n')
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    w.env = dict(os.environ, PATH=f"{bin_}:{os.environ['PATH']}")

    def ninja(out):
        (bin_ / "ninja").write_text("#!/bin/sh\ncat <<'EOF'\n" + out +
                                    "\nEOF\nexit 1\n")
        (bin_ / "ninja").chmod(0o755)
    return H, w, ninja


def test_worker_build_names_the_tree(worker):
    H, w, ninja = worker
    ninja(f"FAILED: {w.bdir}/CMakeFiles/kernel-rt-rps.dir/x.o\n"
          f"{H.TREE_NAME}/net/core/dev.c:2:9: error: 'struct softnet_data' "
          f"has no member named 'defer_csd' (see {H.TREE_NAME}/include/linux/"
          f"netdevice.h:12, {w.tree}/net/core/dev.c)")
    ok, msg = w.build(["t"])
    # The column as GCC prints it reading the file (a tab: 8 columns).
    assert not ok and msg == (
        "net/core/dev.c:2:16: error: 'struct softnet_data' has no member "
        "named 'defer_csd' (see include/linux/netdevice.h:12, "
        "net/core/dev.c)")


def test_worker_build_extraction_line(worker):
    H, w, ninja = worker
    ninja(f"{w.pre}/extracted/defs.h:4:1: error: unknown type name 'z'")
    assert w.build(["t"])[1] == \
        "net/core/dev.c:8: error: unknown type name 'z'"


def test_worker_build_no_error_line(worker):
    H, w, ninja = worker
    ninja(f"[1/2] Linking C executable suites-rt-rps\nFAILED: suites-rt-rps"
          f"\n{w.bdir}/suites-rt-rps: killed by signal 9")
    msg = w.build(["t"])[1]
    assert H.SCRATCH not in msg and "suites-rt-rps: killed" in msg
