# SPDX-License-Identifier: GPL-2.0
"""The hunk matrix's workers (hunk-matrix/hmlib.py, run_pool() and Once)
and a hunk put back (hunk-matrix/matrix.py, Matrix.evaluate()).

Two hunks of one patch taken side by side both try the whole patch left
out: one variant, evaluated once (Once).  The second worker waited idle
for the first's build (4.8 s of a cold run, hunks 1.1 and 1.2).  It now
puts its hunk back at the end of the queue and takes the next one; the
hunk, evaluated again later, finds the variant's verdict and logs its
lines once.  With nothing else to take it waits, as before.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import threading

import pytest


def test_once_defer_raises_busy_while_another_computes(M):
    H = M.H
    once, started, release = H.Once(), threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(10)
        return 42
    t = threading.Thread(target=once.get, args=("k", slow))
    t.start()
    started.wait(10)
    with pytest.raises(H.Busy):
        once.get("k", lambda: 0, defer=True)
    release.set()
    t.join(10)
    # done: the value, deferred or not; computed once
    assert once.get("k", lambda: 0, defer=True) == 42
    assert once.get("k", lambda: 0) == 42


def test_run_pool_puts_a_busy_item_back_and_runs_it_last(M):
    H = M.H
    ran, tries = [], {}

    def fn(w, it):
        tries[it] = tries.get(it, 0) + 1
        # "a" would wait for another worker the first time, when other
        # items are left to take
        if it == "a" and tries[it] == 1:
            assert H.may_defer()
            raise H.Busy(it)
        ran.append(it)
        return it.upper()
    assert H.run_pool(["a", "b", "c"], [object()], fn) == ["A", "B", "C"]
    assert ran == ["b", "c", "a"] and tries == {"a": 2, "b": 1, "c": 1}


def test_run_pool_last_item_may_not_be_deferred(M):
    H = M.H
    seen = []
    H.run_pool(["a", "b"], [object()],
               lambda w, it: seen.append((it, H.may_defer())))
    # the last item has nothing to give way to: it waits
    assert seen == [("a", True), ("b", False)]
    assert not H.may_defer()  # nor outside the pool


def test_evaluate_put_back_restores_the_hunk_and_logs_nothing(M, capsys):
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    h = M.Hunk("0001-x.patch", 1, 1, (0, 0), "net/core/dev.c", "", [], 1)
    calls = []

    def busy(w, hunk):
        calls.append(1)
        hunk.result, hunk.group = "killed-build", "half done"
        m.say("    group 1.1+1.2: killed-build (0.0s)")
        raise H.Busy("k")
    m._evaluate = busy
    with pytest.raises(H.Busy):
        m.evaluate(object(), h)
    assert h.result == "" and not hasattr(h, "group")
    assert capsys.readouterr().err == ""

    def done(w, hunk):
        hunk.result = "killed"
        m.say("  1.1 killed")
    m._evaluate = done
    m.evaluate(object(), h)
    assert h.result == "killed"
    assert capsys.readouterr().err == "  1.1 killed\n"


def test_run_variant_gives_way_to_the_worker_evaluating_it(M):
    # the variant another worker builds: Busy, with other hunks to take
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    m.memo = H.Once()
    m.hint_for = lambda files, prefix, gen, dead, hint: ("w", "i", None)
    started, release = threading.Event(), threading.Event()

    def slow():
        started.set()
        release.wait(10)
        return ("killed", set(), "")
    t = threading.Thread(target=m.memo.get,
                         args=((None, "w", False, None), slow))
    t.start()
    started.wait(10)
    out = []

    def fn(w, it):
        out.append(it)
        if it == "x":
            try:
                m.run_variant(w, {}, None)
            finally:
                release.set()
    H.run_pool(["x", "y"], [object()], fn)
    t.join(10)
    assert out == ["x", "y", "x"]


def test_run_pool_puts_an_item_back_once(M):
    # every hunk left waits for one variant another worker builds: each
    # is put back once, then waits (not a busy loop of put-backs)
    H = M.H
    tries = {}

    def fn(w, it):
        tries[it] = tries.get(it, 0) + 1
        if tries[it] > 2:
            return  # put back again: the assertion below fails
        if H.may_defer():
            raise H.Busy(it)
    H.run_pool(["a", "b", "c"], [object()], fn)
    assert tries == {"a": 2, "b": 2, "c": 2}


def test_evaluate_put_back_counts_its_time_before(M, monkeypatch):
    # h.seconds of a hunk put back: both evaluations' time
    H = M.H
    m = M.Matrix.__new__(M.Matrix)
    h = M.Hunk("0001-x.patch", 1, 1, (0, 0), "net/core/dev.c", "", [], 1)
    clock = iter([100.0, 103.0, 110.0, 110.0, 110.5])
    monkeypatch.setattr(M.time, "time", lambda: next(clock))

    def busy(w, hunk):
        raise H.Busy("k")
    m._evaluate = busy
    with pytest.raises(H.Busy):
        m.evaluate(object(), h)  # 3 s, then put back

    def done(w, hunk):
        ts = m.started(hunk)
        hunk.seconds = M.time.time() - ts
    m._evaluate = done
    m.evaluate(object(), h)
    assert h.seconds == 3.5 and not hasattr(h, "seconds_put_back")


def test_evaluate_starts_from_before_the_put_back(M):
    # Matrix._evaluate() itself takes its start from started() (its time
    # before a put-back), first thing
    m = M.Matrix.__new__(M.Matrix)
    h = M.Hunk("0001-x.patch", 1, 1, (0, 0), "net/core/dev.c", "", [], 1)

    class Started(Exception):
        pass

    def started(hunk):
        raise Started()
    m.started = started
    with pytest.raises(Started):
        M.Matrix._evaluate(m, object(), h)
