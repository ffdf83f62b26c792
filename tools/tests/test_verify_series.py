# SPDX-License-Identifier: GPL-2.0
"""kernel-src/verify-series (napitest.verify_series) over a small fixture
(data/verify-series: a tree with a Makefile and demo.c, an rt-base, two
orders of a two-patch series that end in the same tree, a seed and a seed
whose file the tree lacks).  Its output is the recorded one
(data/verify-series/stdout); a tree where a patch would apply only with an
offset, orders that end differently and a series that lists a missing
patch each fail, naming the patch; the tree is never written to.
Regenerate the recorded output after an intended change:
NAPITEST_RECORD=1 pytest-3 tools/tests.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import shutil

from napitest import verify_series

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "verify-series")
TREE = os.path.join(DATA, "tree")
PATCHES = os.path.join(DATA, "patches")


def run(tree, pdir, work):
    lines = []
    rc = verify_series.verify(tree, str(work), pdir, out=lines.append)
    text = "\n".join(lines) + "\n"
    for path, name in ((str(work), "WORK"), (tree, "TREE"),
                       (pdir, "PATCHES")):
        text = text.replace(path, name)
    return rc, text


def snapshot(tree):
    out = {}
    for d, _, files in os.walk(tree):
        for f in files:
            with open(os.path.join(d, f), "rb") as fh:
                out[os.path.relpath(os.path.join(d, f), tree)] = fh.read()
    return out


def test_recorded_output(tmp_path):
    before = snapshot(TREE)
    rc, text = run(TREE, PATCHES, tmp_path / "work")
    path = os.path.join(DATA, "stdout")
    if os.environ.get("NAPITEST_RECORD"):
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        assert text == f.read(), f"differs from {path}"
    assert rc == 0
    assert "SKIP  [seed-absent] not present in the given tree: absent.c" \
        in text
    assert snapshot(TREE) == before, "verify-series wrote to the tree"
    with open(tmp_path / "work" / "seed-demo" / "demo.c") as f:
        seeded = f.read()
    assert "FLAG_KEEP | FLAG_SCHED" in seeded and "t = NULL;" in seeded


def test_offset_fails(tmp_path):
    """One line more above teardown(): 0001's second hunk would apply
    only with an offset, which is not exact."""
    tree = str(tmp_path / "tree")
    shutil.copytree(TREE, tree)
    with open(os.path.join(tree, "demo.c")) as f:
        lines = f.readlines()
    lines.insert(11, "\n")
    with open(os.path.join(tree, "demo.c"), "w") as f:
        f.writelines(lines)
    rc, text = run(tree, PATCHES, tmp_path / "work")
    assert rc == 1
    assert "ok    [rt-base] 0001-demo-rt-base.patch  (demo.c)" in text
    assert "FAIL  [series] 0001-demo-keep-flag.patch\n" in text
    assert "offset" in text
    assert "SKIP  seed directories" in text
    assert text.endswith("verify: FAILED\n")


def test_orders_differ(tmp_path):
    pdir = str(tmp_path / "patches")
    shutil.copytree(PATCHES, pdir)
    with open(os.path.join(pdir, "series.as-posted"), "w") as f:
        f.write("0002-demo-sched-flag.patch\n")
    rc, text = run(TREE, pdir, tmp_path / "work")
    assert rc == 1
    assert ("FAIL  final trees of series and series.as-posted differ: "
            "demo.c\n") in text
    assert "verify: 5 patch application(s) ok, 1 failure(s)" in text


def test_missing_patch(tmp_path, capsys):
    pdir = str(tmp_path / "patches")
    shutil.copytree(PATCHES, pdir)
    with open(os.path.join(pdir, "seed-demo", "series"), "a") as f:
        f.write("0002-not-there.patch\n")
    rc = verify_series.main(["--patches", pdir, TREE])
    assert rc == 1
    assert ("seed-demo/series:3 lists '0002-not-there.patch', but there is "
            "no such file") in capsys.readouterr().err


def test_keep_dir_must_not_exist(tmp_path, capsys):
    rc = verify_series.main(["-k", str(tmp_path), "--patches", PATCHES,
                             TREE])
    assert rc == 2
    assert "already exists" in capsys.readouterr().err
