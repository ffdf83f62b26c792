# SPDX-License-Identifier: GPL-2.0
"""kernel-src/trees.conf read by napitest.trees_conf: the same values
prepare-tree gets by sourcing it as shell, and what tree-info and
verify-series derive from them.

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import subprocess

import pytest

from napitest import Error, trees_conf


def sh_values(path, names):
    """{NAME: value} as sh sees them after sourcing path."""
    script = f'. "{path}"; ' + "; ".join(
        f'printf "%s\\0" "${n}"' for n in names)
    out = subprocess.run(["sh", "-c", script], capture_output=True,
                         check=True).stdout.decode()
    return dict(zip(names, out.split("\0")[:-1]))


def test_reads_what_the_shell_reads():
    conf = trees_conf.read()
    assert {"BASE_PKG", "BASE_VERSION", "SUBSET"} <= set(conf)
    assert conf == sh_values(trees_conf.PATH, sorted(conf))


def test_quoted_and_commented_values(tmp_path):
    p = tmp_path / "trees.conf"
    p.write_text("# c\n\nA=1.2.3-4\nB=\"x y  z\"\nC='q'  # note\nD=\n")
    assert trees_conf.read(str(p)) == sh_values(str(p), ["A", "B", "C",
                                                         "D"])


@pytest.mark.parametrize("line", ["export A=1", "A=x y", "A=\"x"])
def test_a_line_sh_would_read_otherwise_is_an_error(tmp_path, line):
    p = tmp_path / "trees.conf"
    p.write_text("B=1\n" + line + "\n")
    with pytest.raises(Error, match=r"trees.conf:2: "):
        trees_conf.read(str(p))


def test_base_line():
    conf = {"BASE_PKG": "linux-source-6.1", "BASE_VERSION": "6.1.192-3"}
    assert trees_conf.base_line(conf) == \
        "6.1.192, Debian linux-source-6.1 6.1.192-3"
    assert trees_conf.kernel_version("6.12.117-1~deb12u1") == (6, 12, 117)
    assert trees_conf.kernel_version("x") is None
