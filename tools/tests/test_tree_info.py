# SPDX-License-Identifier: GPL-2.0
"""kernel-src/tree-info keeps the path prepare-tree gave for a variant, by
what names that path: a new content of a tree (an edit) compares it with
the variants without running prepare-tree for each again, and a changed
recipe, a changed prepare-tree or an entry gone runs it again.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import importlib.machinery
import importlib.util
import os
import sys
import types

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
KSRC_TOOLS = os.path.join(TOP, "kernel-src")


@pytest.fixture
def ti(tmp_path, monkeypatch):
    """tree-info as a module, its cache in tmp_path, prepare-tree faked:
    it prints tmp_path/trees/NAME (with a stamp) and counts its runs."""
    monkeypatch.syspath_prepend(KSRC_TOOLS)
    path = os.path.join(KSRC_TOOLS, "tree-info")
    loader = importlib.machinery.SourceFileLoader("tree_info_mod", path)
    spec = importlib.util.spec_from_loader("tree_info_mod", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    monkeypatch.setenv("NAPITEST_CACHE", str(tmp_path / "cache"))
    os.makedirs(tmp_path / "cache")
    runs = []

    def run(cmd, **kw):
        assert cmd[0] == os.path.join(KSRC_TOOLS, "prepare-tree")
        runs.append(cmd[1])
        d = tmp_path / "trees" / cmd[1]
        os.makedirs(d, exist_ok=True)
        (d / ".napitest-stamp").write_text("x\n")
        return types.SimpleNamespace(returncode=0, stdout=f"{d}\n")

    monkeypatch.setattr(mod.subprocess, "run", run)
    mod.runs = runs
    mod.trees = tmp_path / "trees"
    yield mod
    sys.modules.pop("tree_info_mod", None)


def test_a_known_variant_path_runs_no_prepare_tree(ti):
    first = ti.variant_tree("base")
    assert first == str(ti.trees / "base") and ti.runs == ["base"]
    assert ti.variant_tree("base") == first
    assert ti.variant_tree("patched") == str(ti.trees / "patched")
    assert ti.variant_tree("base") == first
    assert ti.runs == ["base", "patched"]


def test_an_entry_without_its_stamp_runs_prepare_tree(ti):
    ti.variant_tree("base")
    os.unlink(ti.trees / "base" / ".napitest-stamp")
    assert ti.variant_tree("base") == str(ti.trees / "base")
    assert ti.runs == ["base", "base"]


def test_a_changed_recipe_or_prepare_tree_runs_it(ti, monkeypatch):
    ti.variant_tree("base")
    ti.recipe_digest.cache_clear()
    monkeypatch.setattr(ti, "recipe_digest", lambda: "another recipe")
    ti.variant_tree("base")
    monkeypatch.setattr(ti, "prepare_tree_digest", lambda: "another script")
    ti.variant_tree("base")
    ti.variant_tree("base")
    assert ti.runs == ["base", "base", "base"]


def test_a_failing_prepare_tree_is_not_kept(ti, monkeypatch):
    def fail(cmd, **kw):
        ti.runs.append(cmd[1])
        return types.SimpleNamespace(returncode=1, stdout="")

    monkeypatch.setattr(ti.subprocess, "run", fail)
    assert ti.variant_tree("upstream") is None
    assert ti.variant_tree("upstream") is None
    assert ti.runs == ["upstream", "upstream"]


def test_another_checkouts_recipe_leaves_this_ones_entry(ti, monkeypatch):
    """The cache directory is shared by every checkout: a run with
    another recipe keeps this recipe's entry (it evicted it, and each
    checkout ran prepare-tree again after the other's run)."""
    real = ti.recipe_digest
    ti.variant_tree("base")
    monkeypatch.setattr(ti, "recipe_digest", lambda: "another checkout's")
    ti.variant_tree("base")
    monkeypatch.setattr(ti, "recipe_digest", real)
    ti.variant_tree("base")
    assert ti.runs == ["base", "base"]


def test_the_recipe_is_named_by_content_not_where_it_is(ti, tmp_path,
                                                        monkeypatch):
    import shutil
    here = tmp_path / "elsewhere" / "kernel-src"
    os.makedirs(here)
    shutil.copy(os.path.join(KSRC_TOOLS, "trees.conf"), here)
    shutil.copytree(os.path.join(KSRC_TOOLS, "patches"), here / "patches")
    ti.recipe_digest.cache_clear()
    mine = ti.recipe_digest()
    ti.recipe_digest.cache_clear()
    monkeypatch.setattr(ti, "HERE", str(here))
    assert ti.recipe_digest() == mine
    ti.recipe_digest.cache_clear()
    with open(here / "trees.conf", "a") as f:
        f.write("# another recipe\n")
    assert ti.recipe_digest() != mine
