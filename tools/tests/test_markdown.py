# SPDX-License-Identifier: GPL-2.0
"""Markdown tables the tooling writes (napitest.markdown): a cell's text
never ends its row or its table, and no committed table is broken.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os

from napitest import markdown

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def test_cell_flattens_line_breaks():
    # An extraction error as the hunk matrix records it (hunk 1.2).
    err = ("extract: error: the manifest names definitions the tree "
           "lacks:\n  function 'trigger_rx_softirq' not found\r\n")
    assert markdown.cell(err) == (
        "extract: error: the manifest names definitions the tree lacks: "
        "function 'trigger_rx_softirq' not found ")


def test_cell_keeps_its_column():
    assert markdown.cell("a|b") == "a/b"
    assert markdown.row(["1.2", "x|y", "two\nlines"]) == \
        "| 1.2 | x/y | two lines |"


def test_a_row_of_any_text_is_one_table_line():
    text = "\n".join(["| a | b |", "|---|---|",
                      markdown.row(["1", "first\n\nsecond\n"]), ""])
    assert markdown.broken_tables(text) == []
    assert text.count("\n") == 3


def test_broken_table_is_found():
    text = "| a |\n|---|\n| x\n  y |\n\nprose\n"
    assert markdown.broken_tables(text) == [(4, "  y |")]


def test_committed_tables_are_whole():
    files = []
    for d, dirs, names in os.walk(TOP):
        # not build output, nor .git
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        files += [os.path.relpath(os.path.join(d, n), TOP)
                  for n in names if n.endswith(".md")]
    assert files, "no Markdown file found"
    bad = []
    for f in files:
        with open(os.path.join(TOP, f), encoding="utf-8") as fh:
            bad += [f"{f}:{n}: {line[:60]}"
                    for n, line in markdown.broken_tables(fh.read())]
    assert bad == []
