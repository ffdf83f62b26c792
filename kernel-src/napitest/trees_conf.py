# SPDX-License-Identifier: GPL-2.0
"""kernel-src/trees.conf, the one place the Debian packages and versions
of the kernel trees are pinned (prepare-tree sources it as shell): its
NAME=value lines, and what follows from them for the Python tools
(kernel-src/tree-info, napitest.verify_series)."""

import os
import re
import shlex

from . import Error

PATH = os.path.join(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))), "trees.conf")


def read(path=PATH):
    """{NAME: value} of trees.conf's assignments, the value as sh reads
    it (quotes removed).  Error on a line that is neither a comment, blank
    nor NAME=value."""
    conf = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"^([A-Za-z_]\w*)=(.*)$", s)
            if not m:
                raise Error(f"{path}:{n}: not NAME=value: {s}")
            try:
                v = shlex.split(m.group(2), comments=True)
            except ValueError as e:
                raise Error(f"{path}:{n}: {e}") from None
            if len(v) > 1:
                raise Error(f"{path}:{n}: {m.group(1)}: more than one word "
                            "(quote it)")
            conf[m.group(1)] = v[0] if v else ""
    return conf


def kernel_version(deb):
    """(VERSION, PATCHLEVEL, SUBLEVEL) of a Debian package version
    (6.1.192-3 is Linux 6.1.192), or None."""
    m = re.match(r"^(\d+)\.(\d+)\.(\d+)", deb)
    return tuple(int(x) for x in m.groups()) if m else None


def base_line(conf=None):
    """The base tree as verify_series names it: "6.1.192, Debian
    linux-source-6.1 6.1.192-3"."""
    conf = read() if conf is None else conf
    v = kernel_version(conf["BASE_VERSION"])
    return (f"{'.'.join(map(str, v))}, Debian {conf['BASE_PKG']} "
            f"{conf['BASE_VERSION']}")
