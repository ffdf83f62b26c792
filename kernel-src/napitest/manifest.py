# SPDX-License-Identifier: GPL-2.0
"""The manifest (kernel-src/manifest, manifest.<seed>): which definitions of
which files of a kernel tree the framework extracts.  The one parser; the
extractor, tree-info, merge-manifests, identity-check, the hunk matrix,
coverage and the build (through extract.d) read it through this module.

  # comment (also after an entry)
  file PATH            a file every tree has
  file? PATH           a file only some trees have
  KIND NAME            a definition of the file above; KIND? when only
                       some trees have it (KINDS lists the kinds)

  python3 -m napitest.manifest [--prog P] files MANIFEST
      the files every tree must have (file, not file?), one a line
  python3 -m napitest.manifest [--prog P] sections MANIFEST
      every file section, "file PATH" or "file? PATH", one a line
"""

import argparse
import sys

from napitest import Error

KINDS = ("function", "variable", "macro", "struct", "union", "enum",
         "enum-of", "typedef", "member")


class ManifestFile(tuple):
    """(rel, entries) of one 'file' section; .optional for 'file?'."""

    def __new__(cls, rel, entries, optional=False):
        self = super().__new__(cls, (rel, entries))
        self.optional = optional
        return self


class Entry:
    def __init__(self, kind, name, optional, lineno):
        self.kind, self.name, self.optional = kind, name, optional
        self.lineno = lineno


def parse_manifest(path):
    """Return [ManifestFile(file, [Entry])] in manifest order."""
    files, cur = [], None
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] in ("file", "file?") and len(words) == 2:
                cur = ManifestFile(words[1], [], words[0] == "file?")
                files.append(cur)
                continue
            if cur is None or len(words) != 2:
                raise Error(f"{path}:{n}: expected 'file PATH' or 'KIND NAME'")
            kind, name = words
            optional = kind.endswith("?")
            kind = kind.rstrip("?")
            if kind not in KINDS:
                raise Error(f"{path}:{n}: unknown kind '{kind}' "
                            f"(one of {', '.join(KINDS)})")
            cur[1].append(Entry(kind, name, optional, n))
    return files


def names(path):
    """Every name the manifest gives, of any kind."""
    return {e.name for _, entries in parse_manifest(path) for e in entries}


def functions(path):
    """The names of the manifest's functions, in manifest order."""
    return [e.name for _, entries in parse_manifest(path) for e in entries
            if e.kind == "function"]


def required_files(path):
    """The files of the manifest's 'file' sections (not 'file?')."""
    return [f[0] for f in parse_manifest(path) if not f.optional]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="manifest")
    ap.add_argument("--prog", default="manifest",
                    help="name for the error messages")
    ap.add_argument("what", choices=("files", "sections"))
    ap.add_argument("path")
    a = ap.parse_args(argv)
    try:
        if a.what == "sections":
            for f in parse_manifest(a.path):
                print(f"file{'?' if f.optional else ''} {f[0]}")
        else:
            for f in required_files(a.path):
                print(f)
    except (Error, OSError) as e:
        print(f"{a.prog}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
