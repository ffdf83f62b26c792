# SPDX-License-Identifier: GPL-2.0
"""Markdown tables as the tooling writes them (hunk-matrix/matrix.md):
one line per row, whatever the text put in a cell."""

import re


def cell(text):
    """text as one table cell: each line break, with the blanks around it,
    becomes one space (a line break would end the row and the table), and
    a '|' becomes '/' (it would end the cell)."""
    return re.sub(r"[ \t]*[\r\n]+[ \t]*", " ", str(text)).replace("|", "/")


def row(cells):
    """One table row of cells."""
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def broken_tables(text):
    """[(line number, line)] of the lines that break a table: a line that
    follows a table row and is neither a row nor blank."""
    out, in_table = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("|"):
            in_table = True
        elif in_table and line.strip():
            out.append((n, line))
        else:
            in_table = False
    return out
