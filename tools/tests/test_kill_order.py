# SPDX-License-Identifier: GPL-2.0
"""hunk-matrix/kill-order.tsv (napitest.kill_order): the binary that
killed each variant first, written by one run of the hunk matrix and read
by the next.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import io
import os

import pytest

from napitest import Error
from napitest import kill_order

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def test_round_trip(tmp_path):
    rows = [("4.3", "net_rx_action", "rt-rps", "0123456789abcdef"),
            ("11.1+patch", "threaded_rps", "rps-threads", "fedcba9876543210")]
    p = tmp_path / "k.tsv"
    with open(p, "w") as f:
        kill_order.write(f, rows)
    assert kill_order.read(str(p)) == {r[0]: r[1:] for r in rows}


def test_no_file_is_no_order(tmp_path):
    assert kill_order.read(str(tmp_path / "none.tsv")) == {}


def test_other_header_is_an_error(tmp_path):
    p = tmp_path / "k.tsv"
    p.write_text("hunk\tresult\n")
    with pytest.raises(Error, match=r"k\.tsv:1: not a kill order"):
        kill_order.read(str(p))


def test_short_row_is_an_error_at_its_line(tmp_path):
    p = tmp_path / "k.tsv"
    p.write_text("variant\tsuite\tconfig\tinputs\n4.3\tnet_rx_action\trps\n")
    with pytest.raises(Error, match=r"k\.tsv:2: want 4 cells"):
        kill_order.read(str(p))


def test_killed_by_one_binary():
    assert kill_order.killed_by({"a:rps:t", "a:rps:u"}) == ("a", "rps")
    # no killer, a build failure, or two binaries (--full): none
    assert kill_order.killed_by(set()) is None
    assert kill_order.killed_by({"(build)"}) is None
    assert kill_order.killed_by({"a:rps:t", "b:rps:t"}) is None


def test_committed_file_parses():
    got = kill_order.read(os.path.join(ROOT, "hunk-matrix",
                                       "kill-order.tsv"))
    assert got, "hunk-matrix/kill-order.tsv: no rows (make hunk-matrix)"
    assert all((c in ("rt-rps", "rps", "rps-threads", "norps-threads",
                      "norps") or (s, c) == kill_order.DEAD_CODE) and
               len(i) == 16 for s, c, i in got.values())


def test_write_is_tab_separated():
    f = io.StringIO()
    kill_order.write(f, [("1.1", "s", "rps", "d")])
    assert f.getvalue() == "variant\tsuite\tconfig\tinputs\n1.1\ts\trps\td\n"


def test_kill_order_line_counts_the_rows_on_their_inputs(M):
    # a stale row is not wrong, only slower: the run says how many
    m = M.Matrix.__new__(M.Matrix)
    assert m.kill_order_line() is None  # none looked at
    m.variant_key = lambda what, prefix, dead: "abcd" * 8
    m.hint_for({}, None, None, None, ("s", "rt-rps", "abcd" * 4))
    assert m.kill_order_line() == \
        "kill-order.tsv: 1 of 1 rows looked at were written on these inputs"
    m.variant_key = lambda what, prefix, dead: "ef01" * 8
    m.hint_for({}, None, None, None, ("s", "rt-rps", "abcd" * 4))
    assert m.kill_order_line().startswith(
        "kill-order.tsv: 1 of 2 rows looked at were written on these "
        "inputs; the others' inputs changed")
