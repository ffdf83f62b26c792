# SPDX-License-Identifier: GPL-2.0
"""The dead-code check of the hunk matrix (hunk-matrix/matrix.py,
Matrix.same_objects()): a variant's extracted code compiled at -O1 and
compared with its reference's, configuration by configuration, stopping
at the first that differs.

The reference's objects are compiled on first use one configuration at
a time, once per run: a variant that differs in rt-rps (nearly every
hunk tested at a prefix) costs the reference one compile, not five; the
verdict is the same (equal only when every configuration compiles to
the same object).

A fake worker: its objects per generated directory and configuration
are a table, and every compile is recorded.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

import pytest


class Cache:
    """The verdict cache, empty: every verdict is computed."""

    def key(self, *parts):
        return "k"

    def verdict(self, key, compute):
        return compute()[0]


def run(M, objs):
    """A matrix and a worker whose objects are objs[gen][cfg] (None: does
    not compile); the worker's compiles go to .compiled as (gen, cfg)."""
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    m.ref_objs, m.objs_memo, m.cache = H.Once(), H.Once(), Cache()
    m.reference = lambda prefix: ({}, f"ref{prefix}")
    m.ref_files = lambda prefix: {}
    w = H.Worker.__new__(H.Worker)
    w.idx, w.compiled = 0, []

    def objects_each(gen, tag, cfgs=None):
        for cfg in cfgs or H.CONFIGS:
            w.compiled.append((gen, cfg))
            yield cfg, objs[gen][cfg]
    w.objects_each = objects_each
    return m, w


class Hunk:
    def __init__(self, hid, prefix):
        self.id, self.prefix, self.gen, self.files = hid, prefix, hid, {}


def test_reference_compiled_only_up_to_the_first_difference(M):
    cfgs = M.H.CONFIGS
    ref = {c: b"ref-" + c.encode() for c in cfgs}
    m, w = run(M, {"ref4": ref, "a": dict(ref, **{cfgs[0]: b"other"})})
    assert m.same_objects(w, Hunk("a", 4)) is False
    assert w.compiled == [("a", cfgs[0]), ("ref4", cfgs[0])]


def test_equal_everywhere_is_dead_code_reference_compiled_once(M):
    cfgs = M.H.CONFIGS
    ref = {c: b"ref-" + c.encode() for c in cfgs}
    m, w = run(M, {"ref4": ref, "a": dict(ref), "b": dict(ref)})
    assert m.same_objects(w, Hunk("a", 4)) is True
    assert m.same_objects(w, Hunk("b", 4)) is True
    assert [c for g, c in w.compiled if g == "ref4"] == cfgs
    assert [c for g, c in w.compiled if g == "b"] == cfgs


def test_reference_not_compiling_in_a_configuration_is_not_dead(M):
    # The reference's last configuration does not compile: never equal,
    # as when its objects were compiled all at once.
    cfgs = M.H.CONFIGS
    ref = {c: b"ref-" + c.encode() for c in cfgs}
    m, w = run(M, {"ref4": dict(ref, **{cfgs[-1]: None}), "a": dict(ref)})
    assert m.same_objects(w, Hunk("a", 4)) is False


def extraction(d, files):
    """An extraction of the tree /T in d/extracted: files, and present.h
    naming the tree."""
    for rel, text in dict(files, **{
            "present.h": '#define EXTRACTED_TREE "/T"\n'}).items():
        p = d / "extracted" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return str(d)


REF = {"all.c": '#include "extracted/net/core/dev.c"\n',
       "defs.h": "struct softnet_data { int a; };\n",
       "net/core/dev.c": '#line 10 "/T/net/core/dev.c"\nint f(void) {}\n'}


@pytest.mark.parametrize("edit, checked", [
    # a function body of dev.c: only all.c's object can differ
    ({"net/core/dev.c": '#line 10 "/T/net/core/dev.c"\nint f(void) '
      '{ return 0; }\n'}, True),
    # lines moved: #line aside, the same
    ({"net/core/dev.c": '#line 12 "/T/net/core/dev.c"\nint f(void) {}\n'},
     True),
    # a declaration: the suites and the simulator compile it too
    ({"defs.h": "struct softnet_data { int a, b; };\n"}, False),
])
def test_dead_code_checked_before_the_explorer(M, tmp_path, edit, checked):
    # The extracted code is all.c and the .c files it includes; a variant
    # that differs from the patched tree there alone is checked for dead
    # code before the explorer's suites run.
    m = M.Matrix.__new__(M.Matrix)
    m.args = type("A", (), {"full": False})()
    ref = M.read_extraction(extraction(tmp_path / "ref", REF))
    m.reference = lambda prefix: (ref, None)
    h = Hunk("a", None)
    h.gen = extraction(tmp_path / "a", dict(REF, **edit))
    assert (m.dead_before_explorer(h) is not None) == checked


def test_prefix_variant_killed_on_the_same_inputs_skips_the_objects(M):
    # A hunk tested at a prefix compares its objects first, unless
    # kill-order.tsv has it killed on the same inputs: its objects
    # differed then, and do now.  A stale row (other inputs) does not
    # skip them.
    cfgs = M.H.CONFIGS
    ref = {c: b"ref-" + c.encode() for c in cfgs}
    m, w = run(M, {"ref4": ref, "a": dict(ref, **{cfgs[0]: b"other"})})
    m.args = type("A", (), {"full": False, "no_groups": True})()
    m.dead_before_explorer = lambda h: None
    m.run_variant = lambda w, files, prefix, gen, dead, hint: (
        "killed", {"s:rps:t"}, "", "k")
    inputs = m.hint_for({}, 4, "a", None, None)[1]
    for row, compiled in ((("s", "rps", inputs), []),
                          (("s", "rps", "0" * 16),
                           [("a", cfgs[0]), ("ref4", cfgs[0])])):
        m.hints = {"a": row}
        m.objs_memo, m.ref_objs = M.H.Once(), M.H.Once()
        w.compiled = []
        h = Hunk("a", 4)
        m.evaluate(w, h)
        assert h.result == "killed" and w.compiled == compiled


def test_kill_order_rows_written(M, tmp_path, monkeypatch):
    # write_kill_order(): a row for each variant killed by one binary
    # (a hunk, or the group that first built), one for a hunk of the
    # patched tree found dead code, each with its inputs' digest; none
    # for the rest, and none at all with --full.
    import napitest.kill_order as KO
    monkeypatch.setattr(M, "OUT", str(tmp_path))

    def hunk(hid, result, killers=(), prefix=None, inputs="d" * 16, **kw):
        h = Hunk(hid, prefix)
        h.result, h.killers, h.kill_inputs = result, set(killers), inputs
        h.__dict__.update(kw)
        return h
    hunks = [
        hunk("4.3", "killed", {"net_rx_action:rt-rps:v5_a",
                               "net_rx_action:rt-rps:v5_b"}),
        hunk("12.2", "equivalent", equiv=M.DEAD),
        hunk("3.1", "equivalent", prefix=4, equiv=M.DEAD),
        hunk("9.1", "equivalent", equiv="rename"),
        hunk("1.1", "killed-build", group_tag="1.1+patch",
             group_result="killed", group_killers={"defer_list:rt-rps:v1"},
             group_inputs="e" * 16),
        hunk("14.2", "killed-build", group_tag="14.2+patch",
             group_result="killed-build", group_killers=set(),
             group_inputs="f" * 16),
        hunk("5.2", "killed", {"a:rps:t"}, inputs=""),
        hunk("6.1", "killed", {"a:rps:t", "b:rps:t"})]
    args = type("A", (), {"full": False, "only": None,
                          "build_reports_only": True})()
    M.write_kill_order(hunks, args)
    assert KO.read(str(tmp_path / "kill-order.tsv")) == {
        "4.3": ("net_rx_action", "rt-rps", "d" * 16),
        "12.2": KO.DEAD_CODE + ("d" * 16,),
        "1.1+patch": ("defer_list", "rt-rps", "e" * 16)}
    os.unlink(tmp_path / "kill-order.tsv")
    args.full = True
    M.write_kill_order(hunks, args)
    assert not os.path.exists(tmp_path / "kill-order.tsv")


def test_group_tree_made_once_from_the_set_in_patch_order(M):
    # group_guard(): 1.1+1.2 and 1.2+1.1, 1.1+patch and 1.2+patch are one
    # tree each, made from the hunks in patch order whichever hunk asks
    # first (put back in another order, lines can land elsewhere).
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    m.args = type("A", (), {"full": False, "no_groups": False})()
    m.group_trees, m.hints = H.Once(), {}
    made = []

    def classify_one(h, grp, tag):
        made.append((h.id, [g.id for g in grp], tag))
        return {}, None, False, tag
    m.classify_one = classify_one
    m.run_variant = lambda w, files, prefix, gen, hint=None: (
        ("killed", {"a:rps:t"}, "", "d") if gen.count("+") == 2 else
        ("killed-build", set(), "", "d"))
    hs = []
    for i in (1, 2, 3):
        h = Hunk(f"1.{i}", None)
        h.k, h.idx, h.patch = 1, i, "0001-x.patch"
        hs.append(h)
    m.all_hunks = hs
    m.group_guard(None, hs[1])
    m.group_guard(None, hs[0])
    assert made == [("1.1", ["1.1", "1.2"], "1.1+1.2"),
                    ("1.2", ["1.2", "1.3"], "1.2+1.3"),
                    ("1.1", ["1.1", "1.2", "1.3"], "1.1+1.2+1.3"),
                    ("1.1", ["1.1", "1.3"], "1.1+1.3")]
    assert hs[0].group_tag == "1.1+patch" and hs[1].group_tag == "1.2+patch"
    assert hs[0].group_result == "killed"
