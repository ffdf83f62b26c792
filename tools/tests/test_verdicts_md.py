# SPDX-License-Identifier: GPL-2.0
"""napitest.verdicts_md: the claims table of hunk-matrix/verdicts.md, which
make verdicts reads back to keep the real-kernel rows when
build/kunit-smp/headline.tsv is absent."""
import importlib
import os
import sys

import pytest

from napitest import verdicts_md

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

TEXT = """# Verdicts

| # | claim | command | verdict | evidence |
|---|---|---|---|---|
| 1 | A claim | `make x` | **holds** | it did / so |
| 2 | Summary: removes 100% of IPIs | `make kunit-headline` | **holds for the IPIs** | 0 csd |

## Prefix table

| 1 | p1 | `c` | **other** | e |
"""


def test_claims_of_the_first_table():
    got = verdicts_md.claims(TEXT)
    assert got == {"A claim": ("make x", "holds", "it did / so"),
                   "Summary: removes 100% of IPIs":
                   ("make kunit-headline", "holds for the IPIs", "0 csd")}


def test_committed_report_has_the_headline_rows():
    """The committed report parses, and with it the two rows make
    verdicts keeps."""
    with open(os.path.join(ROOT, "hunk-matrix", "verdicts.md")) as f:
        got = verdicts_md.claims(f.read())
    assert sum(k.startswith("Summary: ") for k in got) >= 2
    assert all(v for _, v, _ in got.values())


@pytest.fixture
def V(monkeypatch, tmp_path):
    """hunk-matrix/verdicts.py, imported as the hunk matrix's tests do."""
    monkeypatch.setenv("HM_SCRATCH", str(tmp_path / "scratch"))
    monkeypatch.syspath_prepend(os.path.join(ROOT, "hunk-matrix"))
    for m in ("napitest.hmlib", "hmlib", "verdicts"):
        sys.modules.pop(m, None)
    return importlib.import_module("verdicts")


def test_no_headline_table_keeps_the_committed_rows(V, capsys):
    """make verdicts without make kunit-headline's table: the committed
    real-kernel rows stay, not "not run", and it says so."""
    warn, ipi = V.headline_verdicts({}, set())
    assert warn[0].startswith("not run")
    kept = V.kept_headline_rows(warn, ipi)
    with open(os.path.join(ROOT, "hunk-matrix", "verdicts.md")) as f:
        old = verdicts_md.claims(f.read())
    assert kept == (old[V.WARN_CLAIM][1:], old[V.IPI_CLAIM][1:])
    assert not kept[0][0].startswith("not run")
    assert "kept from hunk-matrix/verdicts.md" in capsys.readouterr().err
