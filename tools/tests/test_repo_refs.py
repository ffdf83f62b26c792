# SPDX-License-Identifier: GPL-2.0
"""The repository stands alone: every relative link of its Markdown
resolves, and no file points at material outside it (another checkout's
path, a shared folder, an issue tracker's numbers).

Run: pytest-3 tools/tests (CTest: tools-pytest, label tooling).
"""

import os
import re
import subprocess

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
# Kernel patches and recorded logs are quoted as they were.
QUOTED = ("kernel-src/patches/", "tools/tests/data/")
LINK = re.compile(r"\]\(([^)\s]+)\)")
OUTSIDE = re.compile(r"\.\./shared\b|(?<![\w.~])/work/|\bshared/[a-z]|"
                     r"\b[Ii]ssues? #?\d+\b")


def repo_files():
    """The repository's files, as git lists them, or by walking it."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others",
                              "--exclude-standard"], cwd=TOP, check=True,
                             capture_output=True, text=True).stdout
        return sorted(f for f in out.splitlines()
                      if os.path.isfile(os.path.join(TOP, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk(TOP):
            dirs[:] = [x for x in dirs
                       if x not in (".git", "build", "__pycache__")]
            found += [os.path.relpath(os.path.join(d, f), TOP)
                      for f in files]
        return sorted(found)


def text(rel):
    try:
        with open(os.path.join(TOP, rel), encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return ""


def dead_links(rel, body):
    """The relative links of Markdown file rel that name no file."""
    out = []
    for m in LINK.finditer(body):
        target = m.group(1).split("#", 1)[0]
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        path = os.path.normpath(os.path.join(TOP, os.path.dirname(rel),
                                             target))
        if not os.path.exists(path):
            out.append(f"{rel}: dead link ({m.group(1)})")
    return out


def outside_refs(rel, body):
    return [f"{rel}:{n}: refers outside the repository: {ln.strip()}"
            for n, ln in enumerate(body.splitlines(), 1)
            if OUTSIDE.search(ln)]


def test_markdown_links_resolve():
    bad = []
    for rel in repo_files():
        if rel.endswith(".md"):
            bad += dead_links(rel, text(rel))
    assert bad == []


def test_nothing_refers_outside_the_repository():
    bad = []
    for rel in repo_files():
        if rel.startswith(QUOTED) or rel == "tools/tests/test_repo_refs.py":
            continue
        bad += outside_refs(rel, text(rel))
    assert bad == []


def test_the_checks_see_what_they_look_for():
    assert dead_links("docs/x.md", "[a](../unit/README.md) [b](nowhere.md)"
                      " [c](https://example.org/) [d](#anchor)") == \
        ["docs/x.md: dead link (nowhere.md)"]
    for ln in ("see ../shared/catalogue.md", "at /work/main/unit",
               "since issue 12 (item 6)", "Issue #7 says"):
        assert outside_refs("f", ln), ln
    for ln in ("~/.cache/napi-backport-test", "an issue with the lock",
               "seed 20261130 of make mutants", "kernel-src/shared_x"):
        assert not outside_refs("f", ln), ln
