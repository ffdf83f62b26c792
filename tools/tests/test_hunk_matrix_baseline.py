# SPDX-License-Identifier: GPL-2.0
"""The patched tree's baseline in the hunk matrix (hunk-matrix/matrix.py,
Matrix.start() and Matrix.patched_baseline()): its cheap suites are run
when the workers start; an explorer binary's failing tests only when a
variant's run of that binary failed (most variants never reach the
explorer), once per run, and kept in the verdict cache under a kind of
its own, so that the cheap suites' entry never stands for a complete
baseline.  The verdicts are those of a baseline run in full.

Fake workers: builds succeed, each binary's failing tests are a table.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import importlib
import os
import re
import sys
import types

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SUITES = ["defer", "explore_napi"]
CFG = "rt-rps"


@pytest.fixture
def M(monkeypatch, tmp_path):
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    monkeypatch.setenv("HM_NO_CACHE", "")
    monkeypatch.syspath_prepend(os.path.join(HERE, "..", "..", "hunk-matrix"))
    for m in ("napitest.hmlib", "hmlib", "matrix"):
        sys.modules.pop(m, None)
    return importlib.import_module("matrix")


def worker(H, fails, idx=0):
    """A worker whose binaries all build; fails[(suite, cfg)]: the
    failing tests' names of a run; .ran lists the runs."""
    w = H.Worker.__new__(H.Worker)
    w.idx, w.combined, w.ran = idx, set(), []
    w.hung, w.unstable, w.compiler_error = False, "", True
    w.prepare = lambda files, gen=None: (True, "")
    w.build = lambda targets: (True, "")
    w.suites = lambda: list(SUITES)
    # as CMakeLists.txt's kernel_of_CFG (napitest-kernel-objects.txt)
    w.kernel_of = {"rps-threads": "rps", "norps-threads": "norps"}.get
    w.kernel_of = (lambda get: lambda cfg: get(cfg, cfg))(w.kernel_of)

    def run(suite, cfg):
        w.ran.append((suite, cfg))
        return {f"{suite}:{cfg}:{t}" for t in fails.get((suite, cfg), ())}
    w.run = run
    return w


def test_worker_baseline_runs_only_the_suites_asked(M):
    H = M.H
    w = worker(H, {("explore_napi", CFG): ["t"]})
    got = w.baseline({}, share=(0, len(H.CONFIGS)), only=H.KillOrder.cheap)
    assert w.ran == [("defer", H.CONFIGS[0])]
    assert got == set()
    # without only: every suite, as mutants.py's baseline
    w = worker(H, {("explore_napi", H.CONFIGS[0]): ["t"]})
    got = w.baseline({}, share=(0, len(H.CONFIGS)))
    assert w.ran == [("defer", H.CONFIGS[0]), ("explore_napi", H.CONFIGS[0])]
    assert got == {f"explore_napi:{H.CONFIGS[0]}:t"}


def test_worker_baseline_shares_out_kernels_not_configurations(M):
    """rps-threads runs rps's binaries: the worker that builds them runs
    both, and the other worker neither."""
    H = M.H
    ran = []
    for i in (0, 1):
        w = worker(H, {}, idx=i)
        w.baseline({}, share=(i, 2), only=H.KillOrder.cheap)
        ran.append([cfg for _, cfg in w.ran])
    assert ran == [["rt-rps", "norps-threads", "norps"],
                   ["rps-threads", "rps"]]


def test_kernel_of_reads_the_build(M, tmp_path):
    H = M.H
    w = H.Worker.__new__(H.Worker)
    w.bdir = str(tmp_path)
    (tmp_path / "napitest-kernel-objects.txt").write_text(
        "kernel-rps rps\nsim-rps rps\nkernel-rps rps-threads\n"
        "suites-rps rps-threads\nkernel-norps norps-threads\n")
    assert [w.kernel_of(c) for c in H.CONFIGS] == \
        ["rt-rps", "rps", "rps", "norps", "norps"]


class Cache:
    """A verdict cache in memory: .keys the kinds asked for."""

    def __init__(self):
        self.d, self.kinds = {}, []

    def key(self, kind, *parts):
        self.kinds.append(kind)
        return repr((kind,) + parts)

    def get(self, key):
        return self.d.get(key)

    def put(self, key, val):
        self.d[key] = val

    def verdict(self, key, compute):
        if key in self.d:
            return self.d[key]
        val, hung = compute()
        if not hung:
            self.d[key] = val
        return val


def matrix(M, patched_fails, cache=None):
    """A matrix whose patched tree fails patched_fails; its reference
    workers' runs go to m.ref_runs."""
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    m.order = H.KillOrder(SUITES)
    m.refs, m.ref_cache, m.memo = H.Once(), H.Once(), H.Once()
    m.ref_lock = __import__("threading").Lock()
    m.cache = cache or Cache()
    m.patched_files = {"net/core/dev.c": "patched"}
    m.ref_files = lambda prefix: m.patched_files
    m.reference = lambda prefix: ({}, "gen")
    m.hung = False
    m.early = m.early_result = None  # start_early()
    m.hints = {}  # kill-order.tsv
    m.base_fail = set()
    m.ref_runs = []

    def ref_worker(w, prefix):
        def make():
            r = worker(H, patched_fails, 10 + w.idx)
            m.ref_runs.append(r.ran)
            return r
        return m.refs.get(w.idx, make)
    m.ref_worker = ref_worker
    return m


def evaluate(M, m, variant_fails):
    w = worker(M.H, variant_fails)
    return w.evaluate({}, m.patched_baseline(w), m.order)


def test_start_runs_the_cheap_suites_under_their_own_key(M, monkeypatch):
    m = matrix(M, {})
    m.args = type("A", (), {"jobs": 2})()
    m.timing, m.cpu = {}, {}
    asked = {}

    def start_workers(n, files, base_fail=None, only=None):
        asked["only"] = only
        return [], {"defer:rt-rps:x"}
    monkeypatch.setattr(M.H, "start_workers", start_workers)
    m.start(["a hunk"])
    assert not asked["only"]("explore_napi") and asked["only"]("defer")
    # never the kind a complete baseline was kept under
    assert "baseline" not in m.cache.kinds
    assert m.base_fail == {"defer:rt-rps:x"}


def test_start_early_builds_the_baseline_start_then_takes(M, monkeypatch):
    """start_early(): the workers and the baseline in a thread beside the
    classification, when no earlier run kept the baseline; start() takes
    them, or raises what the thread raised; --only starts no more workers
    than hunks asked for."""
    asked = []

    def start_workers(n, files, base_fail=None, only=None):
        asked.append(n)
        if n == 1:
            raise SystemExit("the patched tree does not build: x")
        return ["w0", "w1"], {"defer:rt-rps:x"}
    monkeypatch.setattr(M.H, "start_workers", start_workers)

    def started(only, cache=None):
        m = matrix(M, {}, cache)
        m.args = type("A", (), {"jobs": 2, "only": only})()
        m.timing, m.cpu = {}, {}
        m.start_early()
        return m
    m = started(None)
    m.start(["a hunk"])
    assert asked == [2] and m.early is None
    assert (m.workers, m.base_fail) == (["w0", "w1"], {"defer:rt-rps:x"})
    assert m.cache.get(m.baseline_key()) == ["defer:rt-rps:x"]
    # an earlier run kept it: no thread
    assert started(None, m.cache).early is None and asked == [2]
    with pytest.raises(SystemExit, match="does not build"):
        started("1.1").start(["a hunk"])
    assert asked == [2, 1]


def test_explorer_baseline_not_run_when_no_variant_fails_it(M):
    m = matrix(M, {("explore_napi", CFG): ["t"]})
    # killed by a cheap suite: the explorer never runs
    assert evaluate(M, m, {("defer", CFG): ["k"]})[0] == "killed"
    # reaches the explorer, which passes: nothing to subtract
    assert evaluate(M, m, {})[0] == "survived"
    assert m.ref_runs == []


def test_explorer_failing_on_the_patched_tree_too_is_no_kill(M):
    patched = {("explore_napi", CFG): ["t"]}
    m = matrix(M, patched)
    assert evaluate(M, m, {("explore_napi", CFG): ["t"]})[0] == "survived"
    # another failure of the same binary is a kill
    res, killers, _ = evaluate(M, m, {("explore_napi", CFG): ["t", "u"]})
    assert (res, killers) == ("killed", {f"explore_napi:{CFG}:u"})
    # the patched tree's binary was run once, on the reference worker
    assert m.ref_runs == [[("explore_napi", CFG)]]
    assert m.base_fail == {f"explore_napi:{CFG}:t"}
    # the same verdicts as with the whole baseline known beforehand
    H = M.H
    for fails in ({("explore_napi", CFG): ["t"]},
                  {("explore_napi", CFG): ["t", "u"]}):
        w = worker(H, fails)
        assert w.evaluate({}, {f"explore_napi:{CFG}:t"}, m.order)[0] == \
            evaluate(M, m, fails)[0]


def test_explorer_baseline_kept_per_binary(M):
    cache = Cache()
    patched = {("explore_napi", CFG): ["t"]}
    evaluate(M, matrix(M, patched, cache), {("explore_napi", CFG): ["t"]})
    assert cache.kinds.count("baseline-binary") == 1
    # a later run with the same inputs reads it back: nothing run
    m = matrix(M, patched, cache)
    assert evaluate(M, m, {("explore_napi", CFG): ["t"]})[0] == "survived"
    assert m.ref_runs == []


@pytest.mark.parametrize("bench", [False, True])
def test_reports_committed_unless_build_reports_only(M, tmp_path,
                                                     monkeypatch, bench):
    """hunk-matrix/bench passes --build-reports-only: a timing run leaves
    the committed matrix.md and guards.tsv as they are."""
    here, out = tmp_path / "here", tmp_path / "out"
    here.mkdir()
    out.mkdir()
    monkeypatch.setattr(M, "HERE", str(here))
    monkeypatch.setattr(M, "OUT", str(out))
    monkeypatch.setattr(M.HL, "locate", lambda patched: {})
    monkeypatch.setattr(M.HL, "series_hunks", lambda: [])
    args = types.SimpleNamespace(only=None, full=False,
                                 build_reports_only=bench)
    M.write_guards([], {}, args)
    M.write_reports([], {}, set(), [], [], args)
    assert sorted(os.listdir(out)) == ["guards.tsv", "matrix.md",
                                       "matrix.tsv"]
    assert sorted(os.listdir(here)) == \
        ([] if bench else ["guards.tsv", "matrix.md"])


@pytest.mark.parametrize("bench", [False, True])
def test_mutants_report_committed_unless_build_reports_only(
        M, tmp_path, monkeypatch, bench):
    """The same for mutants.py (hunk-matrix/bench --mutants)."""
    mut = importlib.import_module("mutants")
    here, out = tmp_path / "here", tmp_path / "out"
    here.mkdir()
    monkeypatch.setattr(mut, "HERE", str(here))
    monkeypatch.setattr(mut, "OUT", str(out))
    args = types.SimpleNamespace(build_reports_only=bench, per_function=2,
                                 functions=None)
    mut.write_report([], {}, 1, args, 0.0)
    assert "mutants.md" in os.listdir(out)
    assert os.listdir(here) == ([] if bench else ["mutants.md"])


def test_bench_passes_build_reports_only(M, monkeypatch):
    """Each run hunk-matrix/bench starts asks for it, and matrix.py takes
    it from its command line."""
    with open(os.path.join(HERE, "..", "..", "hunk-matrix", "bench")) as f:
        runs = [line for line in f if re.search(r"(matrix|mutants)\.py\"",
                                                line)]
    assert len(runs) == 4
    assert all("--build-reports-only" in line for line in runs)
    monkeypatch.setattr(sys, "argv", ["matrix.py", "--build-reports-only"])
    assert M.parse_args().build_reports_only
