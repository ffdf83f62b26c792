# SPDX-License-Identifier: GPL-2.0
"""unit/expected-failures-base.txt: the userspace tests that fail on the
unpatched base tree, one "<suite>:<config> <test>" a line ('#' comments
and blank lines aside), in the format of the failures.txt tools/results
writes (cmocka_output.Suite.failures()).  tools/expected-failures compares
the two.

  python3 -m napitest.expected_failures count LIST
  python3 -m napitest.expected_failures compare LIST FAILURES
      exit 0 when FAILURES fails exactly the tests LIST names; else the
      difference (- expected but passed, + failed but not expected), exit 1
"""

import argparse
import re
import sys

from . import Error

ENTRY = re.compile(r"^\S+:\S+ \S+$")


def parse(text, name):
    """The entries of a list, sorted; a line of another shape is an Error
    naming name:line."""
    out = set()
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if not ENTRY.match(line):
            raise Error(f"{name}:{n}: not '<suite>:<config> <test>': "
                        f"{line!r}")
        out.add(line)
    return sorted(out)


def read(path):
    try:
        with open(path) as f:
            return parse(f.read(), path)
    except OSError as e:
        raise Error(f"{path}: {e.strerror}") from None


def difference(expected, got):
    """(expected but passed, failed but not expected), each sorted."""
    e, g = set(expected), set(got)
    return sorted(e - g), sorted(g - e)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.expected_failures")
    ap.add_argument("--prog", default="expected-failures")
    ap.add_argument("cmd", choices=["count", "compare"])
    ap.add_argument("list", help="unit/expected-failures-base.txt")
    ap.add_argument("failures", nargs="?", help="tools/results' "
                    "failures.txt (compare)")
    a = ap.parse_args(argv)
    try:
        expected = read(a.list)
        if a.cmd == "count":
            print(len(expected))
            return 0
        if not a.failures:
            ap.error("compare needs FAILURES")
        got = read(a.failures)
    except Error as e:
        print(f"{a.prog}: error: {e}", file=sys.stderr)
        return 2
    passed, new = difference(expected, got)
    if not passed and not new:
        print(f"base fails exactly the {len(expected)} expected cases")
        return 0
    print(f"{a.prog}: error: the failures on base differ from {a.list}:",
          file=sys.stderr)
    print("  (- expected but passed, + failed but not expected)",
          file=sys.stderr)
    for t in passed:
        print(f"-{t}", file=sys.stderr)
    for t in new:
        print(f"+{t}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
