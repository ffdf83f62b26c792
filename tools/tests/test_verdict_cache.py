# SPDX-License-Identifier: GPL-2.0
"""The hunk matrix's verdict cache (kernel-src/napitest/verdict_cache.py):
a verdict is reused only while every input it is a function of is
unchanged (a tree file, a repository file, a tool, the environment); a
verdict computed while the wall-clock hang guard fired is never stored;
HM_NO_CACHE=1 reads nothing.

Each input is changed alone, over a small fixture repository and a PATH
of fake tools.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

import pytest

from napitest import verdict_cache as VC

TREE = {"net/core/dev.c": "int a;\n", "Makefile": "VERSION = 6\n"}
# The tools a build or a run of the matrix calls, written out here: a
# tool left out of the module's TOOLS fails its test (parametrised over
# VC.TOOLS, it would lose its test instead).
TOOLS = ("cc", "gcc", "ninja", "cmake", "ccache", "objcopy", "ctags")


@pytest.fixture
def repo(tmp_path):
    """A repository (shims, a manifest, documentation, a build dir), a
    PATH of fake tools, an environment and a cache directory."""
    root = tmp_path / "repo"
    for rel, text in (("shims/dev.c", "int shim;\n"),
                      ("kernel-src/manifest", "dev.c: napi_schedule\n"),
                      ("hunk-matrix/matrix.py", "print(1)\n"),
                      ("README.md", "docs\n"),
                      ("hunk-matrix/guards.tsv", "hunk\n"),
                      ("build/x.o", "obj\n")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for tool in TOOLS:
        (bin_ / tool).write_text(f"#!/bin/sh\necho {tool} 1\n")
        (bin_ / tool).chmod(0o755)
    env = {"PATH": str(bin_), "CFLAGS": "-O2"}
    return root, bin_, env, tmp_path / "verdicts"


def cache(repo, env=None):
    root, _, env0, d = repo
    return VC.VerdictCache(str(d), str(root), env0 if env is None else env)


def stored_key(repo, tree=TREE):
    """A verdict stored for tree; its key."""
    c = cache(repo)
    k = c.key("variant", tree, "None", TREE)
    c.put(k, ["killed", ["a:rt-rps:t"], ""])
    assert cache(repo).get(k) == ["killed", ["a:rt-rps:t"], ""]
    return k


def misses(repo, k, env=None, tree=TREE):
    c = cache(repo, env)
    return c.key("variant", tree, "None", TREE) != k and \
        c.get(c.key("variant", tree, "None", TREE)) is None


def test_tree_file_change_misses(repo):
    k = stored_key(repo)
    changed = dict(TREE, **{"net/core/dev.c": "int b;\n"})
    assert misses(repo, k, tree=changed)
    # A file more (an optional tree file present) is a change too.
    assert misses(repo, k, tree=dict(TREE, **{"include/net/rps.h": ""}))


def test_reference_tree_change_misses(repo):
    c = cache(repo)
    k = c.key("variant", TREE, "None", TREE)
    ref = dict(TREE, **{"Makefile": "VERSION = 7\n"})
    assert c.key("variant", TREE, "None", ref) != k
    assert c.key("variant", TREE, "3", TREE) != k
    assert c.key("variant-full", TREE, "None", TREE) != k


@pytest.mark.parametrize("rel", ["shims/dev.c", "kernel-src/manifest",
                                 "hunk-matrix/matrix.py"])
def test_repo_file_change_misses(repo, rel):
    k = stored_key(repo)
    (repo[0] / rel).write_text("changed\n")
    assert misses(repo, k)


def test_a_table_outside_hunk_matrix_is_an_input(repo):
    # only the tables the matrix writes (hunk-matrix/*.tsv) are skipped
    (repo[0] / "kernel-src" / "guards.tsv").write_text("hunk\n")
    k = stored_key(repo)
    (repo[0] / "kernel-src" / "guards.tsv").write_text("other\n")
    assert misses(repo, k)


def test_the_installed_packages_and_libraries_are_inputs(repo, tmp_path,
                                                         monkeypatch):
    assert VC.SYSTEM_FILES == ("/var/lib/dpkg/status", "/etc/ld.so.cache")
    files = (tmp_path / "status", tmp_path / "ld.so.cache")
    for f in files:
        f.write_text("1\n")
    monkeypatch.setattr(VC, "SYSTEM_FILES", tuple(map(str, files)))
    for f in files:
        k = stored_key(repo)
        f.write_text(f.read_text() + "upgraded\n")
        assert misses(repo, k), f


def test_another_python_misses(repo, monkeypatch):
    k = stored_key(repo)
    monkeypatch.setattr(VC.sys, "version", VC.sys.version + " other")
    assert misses(repo, k)


def test_repo_file_added_misses(repo):
    k = stored_key(repo)
    (repo[0] / "unit").mkdir()
    (repo[0] / "unit" / "new_suite.c").write_text("\n")
    assert misses(repo, k)


def test_docs_and_reports_are_not_inputs(repo):
    k = stored_key(repo)
    (repo[0] / "README.md").write_text("other docs\n")
    (repo[0] / "hunk-matrix" / "guards.tsv").write_text("other\n")
    (repo[0] / "build" / "x.o").write_text("other\n")
    # pytest's record of its last run (the tooling's tests, run before
    # the matrix by make check, rewrite it)
    for d in (repo[0], repo[0] / "tools" / "tests"):
        (d / ".pytest_cache" / "v").mkdir(parents=True)
        (d / ".pytest_cache" / "v" / "lastfailed").write_text("{}\n")
    c = cache(repo)
    assert c.key("variant", TREE, "None", TREE) == k
    assert c.get(k) is not None


@pytest.mark.parametrize("tool", TOOLS)
def test_tool_change_misses(repo, tool):
    k = stored_key(repo)
    (repo[1] / tool).write_text(f"#!/bin/sh\necho {tool} 2\n")
    assert misses(repo, k)


def test_tool_elsewhere_misses(repo, tmp_path):
    k = stored_key(repo)
    other = tmp_path / "bin2"
    other.mkdir()
    (other / "cc").write_text("#!/bin/sh\necho cc 1\n")
    (other / "cc").chmod(0o755)
    env = dict(repo[2], PATH=f"{other}:{repo[1]}")
    assert misses(repo, k, env=env)


@pytest.mark.parametrize("var,val", [("CFLAGS", "-O0"), ("CC", "clang"),
                                     ("NAPITEST_SEED", "3"),
                                     ("LD_PRELOAD", "x.so"),
                                     ("CMOCKA_MESSAGE_OUTPUT", "xml")])
def test_environment_change_misses(repo, var, val):
    k = stored_key(repo)
    assert misses(repo, k, env=dict(repo[2], **{var: val}))


def hits(repo, k, env):
    """The key under env is k's, and finds its verdict."""
    c = cache(repo, env)
    key = c.key("variant", TREE, "None", TREE)
    return key == k and c.get(key) is not None


def test_unrelated_environment_hits(repo):
    k = stored_key(repo)
    assert hits(repo, k, dict(repo[2], CCACHE_DIR="/elsewhere", HOME="/x"))
    # where make was typed (the Makefile exports it): make hunk-matrix
    # and hunk-matrix/matrix.py share verdicts and kill-order.tsv's rows
    assert hits(repo, k, dict(repo[2], NAPITEST_INVOKED_FROM="/home/me",
                              NAPITEST_CHECK_RUN="r"))


def test_hang_guard_verdict_never_stored(repo):
    c = cache(repo)
    k = c.key("variant", TREE, "None", TREE)
    hang = ["hang", [], "hang (wall-clock guard): a-rt-rps still running"]
    assert c.verdict(k, lambda: (hang, True)) == hang
    assert cache(repo).get(k) is None
    # A kill found while another binary hung is not stored either: a
    # quieter run might have found that binary's kill first.
    kill = ["killed", ["a:rt-rps:t"], ""]
    assert c.verdict(k, lambda: (kill, True)) == kill
    assert cache(repo).get(k) is None
    # Without a hang it is stored, and read back without computing.
    assert c.verdict(k, lambda: (kill, False)) == kill

    def fail():
        raise AssertionError("computed again")
    assert cache(repo).verdict(k, fail) == kill


def test_no_cache_bypasses(repo):
    k = stored_key(repo)
    env = dict(repo[2], HM_NO_CACHE="1")
    c = cache(repo, env)
    assert c.key("variant", TREE, "None", TREE) == k
    assert c.get(k) is None
    calls = []

    def compute():
        calls.append(1)
        return ["survived", [], ""], False
    assert c.verdict(k, compute) == ["survived", [], ""]
    assert calls == [1]
    # Still stored: the next run without HM_NO_CACHE reads the new one.
    assert cache(repo).get(k) == ["survived", [], ""]
    assert cache(repo, dict(repo[2], HM_NO_CACHE="0")).get(k) is not None


def test_miss_from_compute_leaves_nothing(repo):
    c = cache(repo)
    k = c.key("objects", TREE, "None", TREE)

    def miss():
        raise VC.Miss()
    with pytest.raises(VC.Miss):
        c.verdict(k, miss)
    assert not os.path.exists(c.dir) or c.get(k) is None


# -- what the hunk matrix stores (hunk-matrix/hmlib.py, matrix.py) --------

def hunk_matrix(monkeypatch, tmp_path):
    """hunk-matrix's hmlib and matrix modules, HM_SCRATCH under tmp_path."""
    import importlib
    import sys
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    here = os.path.dirname(os.path.abspath(__file__))
    monkeypatch.syspath_prepend(os.path.join(here, "..", "..",
                                             "hunk-matrix"))
    for m in ("napitest.hmlib", "hmlib", "matrix"):
        sys.modules.pop(m, None)
    return importlib.import_module("hmlib"), importlib.import_module("matrix")


class Ran:
    def __init__(self, returncode, stdout="", stderr=""):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def worker(H, monkeypatch, tmp_path, build_out, run_rc, run_out="",
           run_err=""):
    """A Worker whose tree is prepared, whose ninja prints build_out
    (exit 1; None: builds) and whose binaries exit run_rc, printing
    run_out and, on stderr, run_err."""
    w = H.Worker.__new__(H.Worker)
    w.tree, w.bdir, w.env, w.combined = "/t", "/b", {}, set()
    w.pre = str(tmp_path / "pre-gen")
    w.hung, w.unstable, w.compiler_error = False, "", True
    w.prepare = lambda files, gen: (True, "")
    monkeypatch.setattr(H, "traced", lambda cmd, what, **kw: Ran(
        0 if build_out is None else 1, build_out or "", "")
        if cmd[0] == "ninja" else Ran(run_rc, run_out, run_err))
    return w


def order():
    return ["a"]


@pytest.mark.parametrize("out,stored", [
    ("net/core/dev.c:3:4: error: expected ';'\n", True),
    ("dev.c:(.text+0x1): undefined reference to `napi_x'\n", True),
    ("gcc: fatal error: Killed signal terminated program cc1\n", False),
    ("cc1: fatal error: x.o: No space left on device\n", False),
    ("ninja: build stopped: interrupted by user.\n", False),
    ("", False)])
def test_build_failure_without_a_compiler_error_is_not_stored(
        monkeypatch, tmp_path, out, stored):
    H, _ = hunk_matrix(monkeypatch, tmp_path)
    w = worker(H, monkeypatch, tmp_path, out, 0)
    res, killers, _ = w.evaluate({}, set(), order)
    assert res == "killed-build"
    assert (w.unstable == "") == stored, w.unstable


@pytest.mark.parametrize("rc,out,stored", [
    (-9, "", False),
    (-6, "[ RUN      ] t\n", False),
    (1, "[ RUN      ] t\n[  FAILED  ] t\n", True),
    (2, "", True)])
def test_binary_killed_by_a_signal_is_not_stored(monkeypatch, tmp_path,
                                                 rc, out, stored):
    H, _ = hunk_matrix(monkeypatch, tmp_path)
    w = worker(H, monkeypatch, tmp_path, None, rc, out)
    res, killers, _ = w.evaluate({}, set(), order)
    assert res == "killed" and killers
    assert (w.unstable == "") == stored, w.unstable
    # the next verdict is judged on its own
    w2 = worker(H, monkeypatch, tmp_path, None, 0)
    w2.unstable = w.unstable
    assert w2.evaluate({}, set(), order)[0] == "survived"
    assert w2.unstable == ""


BUG = ("kernel BUG at net/core/dev.c:4524: "
       "!list_empty(&sd->poll_list) (CPU 1, seed 0)\n")


@pytest.mark.parametrize("rc,err,stored", [
    (-6, BUG, True),
    (-6, "", False),
    (-6, "a kernel BUG at x.c:1: y\n", False),
    (-9, BUG, False),
    (-11, BUG, False)])
def test_the_simulators_own_bug_abort_is_stored(monkeypatch, tmp_path,
                                                rc, err, stored):
    # sim_bug() prints its line, then abort()s: as deterministic as a
    # failing test (a kill by a BUG() is kept, and the warm run reads
    # the run's record back); any other signal may come from outside.
    H, _ = hunk_matrix(monkeypatch, tmp_path)
    w = worker(H, monkeypatch, tmp_path, None, rc, "[ RUN      ] t\n", err)
    res, killers, _ = w.evaluate({}, set(), order)
    assert res == "killed" and killers == {"a:rt-rps:t"}
    assert (w.unstable == "") == stored, w.unstable


@pytest.mark.parametrize("unstable,hung,stored", [
    ("", False, True), ("a-rt-rps killed by signal 9", False, False),
    ("", True, False)])
def test_matrix_stores_only_a_stable_verdict(monkeypatch, tmp_path, repo,
                                             unstable, hung, stored):
    import types
    _, M = hunk_matrix(monkeypatch, tmp_path)
    m = M.Matrix.__new__(M.Matrix)
    m.args = types.SimpleNamespace(full=False)
    m.cache, m.base_fail, m.order, m.hung = cache(repo), set(), order, False
    m.ref_files = lambda prefix: TREE
    w = types.SimpleNamespace(
        hung=hung, unstable=unstable,
        evaluate=lambda *a, **kw: ("killed", {"a:rt-rps:(exit -9)"}, ""))
    assert m.variant_verdict(w, TREE, None, None, "x")[0] == "killed"
    key = m.cache.key("variant", "x", "None", TREE, "first:None")
    assert (cache(repo).get(key) is not None) == stored
    # nor the whole run's record
    assert m.hung == (not stored)


def hinted_matrix(monkeypatch, tmp_path, repo):
    """A matrix whose variant evaluations are recorded (their first=)."""
    import types
    H, M = hunk_matrix(monkeypatch, tmp_path)
    m = M.Matrix.__new__(M.Matrix)
    m.args = types.SimpleNamespace(full=False)
    # every lookup misses (HM_NO_CACHE=1): each call evaluates
    m.cache = cache(repo, dict(repo[2], HM_NO_CACHE="1"))
    m.base_fail, m.order, m.hung = set(), order, False
    m.memo = H.Once()
    m.ref_files = lambda prefix: TREE
    m.patched_baseline = lambda w: set()
    m.firsts = []

    def evaluate(*a, first=None, **kw):
        m.firsts.append(first)
        return "killed", {"b:norps:t"}, ""
    w = types.SimpleNamespace(hung=False, unstable="", evaluate=evaluate)
    return m, w


def test_kill_order_hint_applies_to_the_inputs_it_was_recorded_on(
        monkeypatch, tmp_path, repo):
    # kill-order.tsv's row names the binary and the inputs' digest that
    # run_variant() gave when it recorded it: on the same inputs the
    # binary goes first; on others (a changed tree, repository or
    # system) the row is stale and the fixed order decides, so a stale
    # row can never make the result other than the fixed order's.
    m, w = hinted_matrix(monkeypatch, tmp_path, repo)
    res, killers, _, inputs = m.run_variant(w, TREE, None)
    assert (res, killers, m.firsts) == ("killed", {"b:norps:t"}, [None])
    assert len(inputs) == 16
    m.memo = type(m.memo)()
    m.run_variant(w, TREE, None, hint=("b", "norps", inputs))
    assert m.firsts[-1] == ("b", "norps")
    m.memo = type(m.memo)()
    m.run_variant(w, TREE, None, hint=("b", "norps", "0" * 16))
    assert m.firsts[-1] is None
    # another tree: other inputs
    other = dict(TREE, **{"net/core/dev.c": "int b;\n"})
    assert m.run_variant(w, other, None)[3] != inputs
