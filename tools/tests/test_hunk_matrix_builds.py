# SPDX-License-Identifier: GPL-2.0
"""What a hunk-matrix worker builds for a variant (hunk-matrix/hmlib.py,
Worker.evaluate()): the same verdict with fewer builds.

Every suite binary of a configuration links the extracted code
(extracted/all.c, CMake's kernel-CFG).  A variant whose all.c does not
compile there is killed-build on its first binary whose reference builds,
with all.c's error, after one compile of all.c: no suite binary, no
simulator, no support code built for it.  A variant whose all.c compiles
is built and run as before.

A fake worker: ninja's outcome per target is a table, builds are
recorded.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import importlib
import os
import sys

import pytest

ERR = "net/core/dev.c:11681:9: error: implicit declaration of function 'f'"


@pytest.fixture
def H(monkeypatch, tmp_path):
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    sys.modules.pop("napitest.hmlib", None)
    return importlib.import_module("napitest.hmlib")


def fake(H, broken=(), fails=()):
    """A worker whose all.c does not compile in the configurations
    broken, whose targets fails do not build, and every built binary
    passes; .built lists the ninja runs."""
    w = H.Worker.__new__(H.Worker)
    w.idx, w.combined, w.built = 0, set(), []
    w.hung, w.unstable, w.compiler_error = False, "", True
    w.prepare = lambda files, gen: (True, "")

    def build(targets):
        w.built.append(targets)
        bad = [t for t in targets
               if t in fails or any(t.endswith("-" + c) for c in broken)]
        if bad:
            w.compiler_error = True
            return False, ERR if bad[0].startswith("kernel-") else \
                f"unit/x.c:1:1: error: {bad[0]}"
        return True, ""
    w.build = build
    w.run = lambda suite, cfg: set()
    return w


def order():
    return ["a", "b"]


def test_all_c_failing_is_one_compile(H):
    w = fake(H, broken=H.CONFIGS)
    res, killers, err = w.evaluate({}, set(), order)
    assert (res, killers, err) == ("killed-build", set(), ERR)
    assert w.built == [["kernel-rt-rps"]]


def test_reference_without_the_binary_skips_it_without_building(H):
    # At a prefix: suite a does not build on the reference in rt-rps
    # either; b does.  The variant's binaries are not built at all.
    w = fake(H, broken=H.CONFIGS)
    probed = []

    def base(suite, cfg):
        probed.append((suite, cfg))
        return {f"{suite}:{cfg}:(no build)"} if suite == "a" else set()
    res, _, err = w.evaluate({}, base, order)
    assert (res, err) == ("killed-build", ERR)
    assert probed == [("a", "rt-rps"), ("b", "rt-rps")]
    assert w.built == [["kernel-rt-rps"]]


def test_no_reference_binary_builds_untestable(H):
    w = fake(H, broken=H.CONFIGS)
    res, _, err = w.evaluate({}, lambda s, c: {f"{s}:{c}:(no build)"}, order)
    assert res == "untestable"
    assert w.built == [[f"kernel-{c}"] for c in H.CONFIGS]


def test_all_c_compiling_builds_the_binaries(H):
    # all.c compiles in rt-rps, the binary does not (a suite needs a
    # declaration the variant lacks): the binary's own error.
    w = fake(H, fails=("a-rt-rps",))
    res, _, err = w.evaluate({}, set(), order)
    assert (res, err) == ("killed-build", "unit/x.c:1:1: error: a-rt-rps")
    assert w.built == [["kernel-rt-rps"], ["a-rt-rps"]]


def test_one_configuration_broken_another_runs(H):
    # rt-rps's all.c fails and its reference builds nothing there; the
    # next configuration builds and runs.
    w = fake(H, broken=("rt-rps",))
    res, _, _ = w.evaluate(
        {}, lambda s, c: {f"{s}:{c}:(no build)"} if c == "rt-rps" else set(),
        order)
    assert res == "survived"
    assert w.built[0] == ["kernel-rt-rps"]
    assert ["a-rt-rps"] not in w.built and ["a-rps-threads"] in w.built


def test_no_compiler_error_is_not_a_broken_all_c(H):
    # An OOM kill of cc1 on all.c: the binaries' builds say what they
    # say (and the verdict is not stored: Worker.unstable).
    w = fake(H)

    def build(targets):
        w.built.append(targets)
        w.compiler_error = False
        return False, "gcc: fatal error: Killed signal terminated program"
    w.build = build
    res, _, _ = w.evaluate({}, set(), order)
    assert res == "killed-build" and w.unstable
    assert w.built[:2] == [["kernel-rt-rps"], ["a-rt-rps"]]


def test_matrix_build_compiles_everything_at_O0(H, tmp_path):
    # The matrix's build dir (Worker.configure(), a real CMake run):
    # the simulator, the support code and the suites, rebuilt for every
    # prefix and every variant whose declarations differ, at -O0 like
    # the extracted code; the dead-code check compiles all.c at -O1
    # itself (Worker.objects_each()).
    import json
    w = H.Worker(0, {})
    w.configure()
    with open(os.path.join(w.bdir, "compile_commands.json")) as f:
        cc = json.load(f)
    levels = {}
    for e in cc:
        if "/tools/" in e["file"]:
            continue  # napitest-run-suite: -O2, not the matrix's
        opt = {x for x in e["command"].split() if x.startswith("-O")}
        levels.setdefault(e["file"].split("/")[-2], set()).update(opt)
    assert {"sim", "support", "unit", "extracted"} <= set(levels), levels
    assert all(o == {"-O0"} for o in levels.values()), levels
    # and FindPython3 given the matrix's interpreter, not left to search
    # PATH (through a version manager's shim, most of a configure)
    # (run, not searched for: FindPython3 asks even the given one for
    # its version and paths, 0.5 s of a 1.3 s configure)
    with open(os.path.join(w.bdir, "CMakeCache.txt")) as f:
        cache = f.read()
    assert f"NAPITEST_PYTHON3:INTERNAL={sys.executable}\n" in cache
    assert "_Python3_EXECUTABLE:INTERNAL=" not in cache
    # no debug information (its verdicts are test names and compiler
    # errors), and no glob check at each of its ninja runs (configured
    # at the start of each one)
    assert not [e["file"] for e in cc if "-g" in e["command"].split()]
    with open(os.path.join(w.bdir, "build.ninja")) as f:
        ninja = f.read()
    assert "verify_globs" not in ninja
    # the simulator's one unit linked as an object, not archived (ar
    # and ranlib took 0.16 s a build)
    assert "C_STATIC_LIBRARY_LINKER" not in ninja


def test_default_build_has_debug_info_and_checks_globs(H, monkeypatch):
    # make check's build (the options' defaults: the matrix's configure
    # with its two options left out): -g (a failure names the tree's
    # line of a code address, through addr2line) and the globbed
    # sources checked at every build (a new suite is built without a
    # cmake run)
    import json
    sh = H.sh

    def defaults(args, **kw):
        return sh([a for a in args if not a.startswith(
            ("-DNAPITEST_DEBUG_INFO=", "-DNAPITEST_GLOBS_CHECKED="))], **kw)
    monkeypatch.setattr(H, "sh", defaults)
    w = H.Worker(0, {})
    w.configure()
    with open(os.path.join(w.bdir, "compile_commands.json")) as f:
        cc = json.load(f)
    assert all("-g" in e["command"].split() for e in cc
               if "/tools/" not in e["file"])
    with open(os.path.join(w.bdir, "build.ninja")) as f:
        ninja = f.read()
    assert "verify_globs" in ninja


def test_worker_builds_in_ccache_depend_mode(H, monkeypatch):
    # a miss keyed by the compiler's -MD list, not a second preprocessor
    # run; CCACHE_NODEPEND in the environment says otherwise
    monkeypatch.delenv("CCACHE_NODEPEND", raising=False)
    monkeypatch.delenv("CCACHE_DEPEND", raising=False)
    assert H.Worker(0, {}).env["CCACHE_DEPEND"] == "1"
    monkeypatch.setenv("CCACHE_NODEPEND", "1")
    assert "CCACHE_DEPEND" not in H.Worker(1, {}).env


def test_pairs_first_moves_to_the_front_of_its_kind(H):
    cheap = (lambda s: s != "x")
    pairs = H.Worker.pairs(["a", "b", "x"], cheap, ("b", "norps"))
    assert pairs[0] == ("norps", "b")
    assert pairs.count(("norps", "b")) == 1
    # the explorer's kind after every cheap pair, first moved inside it
    pairs = H.Worker.pairs(["a", "b", "x"], cheap, ("x", "rps"))
    n = 2 * len(H.CONFIGS)
    assert all(s != "x" for _, s in pairs[:n])
    assert pairs[n] == ("rps", "x")
    # not a pair of this run (a suite since removed): the fixed order
    assert H.Worker.pairs(["a"], cheap, ("gone", "rps")) == \
        H.Worker.pairs(["a"], cheap)


def killing(H, cfg, suite):
    """fake() whose binary suite-cfg fails test t."""
    w = fake(H)
    w.ran = []

    def run(s, c):
        w.ran.append((s, c))
        return {f"{s}:{c}:t"} if (s, c) == (suite, cfg) else set()
    w.run = run
    return w


def test_first_runs_the_known_killer_first(H):
    # kill-order.tsv names b in norps: it is built and run first, and the
    # variant is killed by it without a binary of rt-rps built.
    w = killing(H, "norps", "b")
    res, killers, _ = w.evaluate({}, set(), order, first=("b", "norps"))
    assert (res, killers) == ("killed", {"b:norps:t"})
    assert w.ran == [("b", "norps")]
    assert w.built == [["kernel-norps"], ["b-norps"]]
    # without it: the fixed order, the same verdict after every binary
    # before it
    w = killing(H, "norps", "b")
    assert w.evaluate({}, set(), order)[:2] == ("killed", {"b:norps:t"})
    assert w.ran[-1] == ("b", "norps") and len(w.ran) == 2 * len(H.CONFIGS)


def test_first_that_no_longer_kills_falls_back_to_the_fixed_order(H):
    w = killing(H, "rps", "a")
    res, killers, _ = w.evaluate({}, set(), order, first=("b", "norps"))
    assert (res, killers) == ("killed", {"a:rps:t"})
    assert w.ran[0] == ("b", "norps") and w.ran[-1] == ("a", "rps")


def test_full_ignores_first(H):
    w = killing(H, "norps", "b")
    res, killers, _ = w.evaluate({}, set(), order, full=True,
                                 first=("b", "norps"))
    assert (res, killers) == ("killed", {"b:norps:t"})
    assert w.ran[0] == ("a", "rt-rps")


def test_dead_code_first_builds_nothing(H):
    # kill-order.tsv: the variant was dead code on these inputs; its dead
    # check goes first and, saying so again, nothing is built or run.
    import napitest.kill_order as KO
    w = killing(H, "norps", "b")
    asked = []
    res, _, _ = w.evaluate({}, set(), order, first=KO.DEAD_CODE,
                           dead=lambda: asked.append(1) or True)
    assert (res, asked, w.built, w.ran) == ("survived", [1], [], [])
    # the check says otherwise: the fixed order, and the check, which
    # the fixed order asks before the first expensive suite (x, killing
    # here), not asked again

    def order_x():
        return ["a", "x"]
    order_x.cheap = lambda s: s != "x"
    w = killing(H, "norps", "x")
    asked = []
    res, killers, _ = w.evaluate({}, set(), order_x, first=KO.DEAD_CODE,
                                 dead=lambda: asked.append(1) or False)
    assert (res, killers, asked) == ("killed", {"x:norps:t"}, [1])
    assert w.ran[0] == ("a", "rt-rps")
    # without the row: asked once, before the first expensive suite
    w = killing(H, "norps", "x")
    asked = []
    w.evaluate({}, set(), order_x, dead=lambda: asked.append(1) or False)
    assert asked == [1] and w.ran.index(("x", "rt-rps")) == len(H.CONFIGS)
