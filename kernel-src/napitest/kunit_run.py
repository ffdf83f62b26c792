# SPDX-License-Identifier: GPL-2.0
"""kunit/run's output: the one reader of its "raw KTAP:" line.

kunit/run ends with "raw KTAP: PATH..." naming the console logs of its
boots (the boot with thread_backlog_napi first, then the one without;
with --headline one log).  tools/differential, kunit/headline and
kunit/smp read them through raw_ktap().

  python3 -m napitest.kunit_run raw-ktap LOG   the paths, one a line
"""

import argparse
import re
import sys

RAW_KTAP = re.compile(r"^raw KTAP: (.*\S)[ \t]*$", re.M)


def raw_ktap(text):
    """The paths of the last "raw KTAP:" line of kunit/run's output text,
    [] if it has none."""
    found = RAW_KTAP.findall(text)
    return found[-1].split() if found else []


def main(argv=None):
    ap = argparse.ArgumentParser(prog="napitest.kunit_run")
    ap.add_argument("--prog", default="napitest.kunit_run")
    ap.add_argument("cmd", choices=["raw-ktap"])
    ap.add_argument("log", help="kunit/run's output")
    a = ap.parse_args(argv)
    try:
        with open(a.log, errors="replace") as f:
            paths = raw_ktap(f.read())
    except OSError as e:
        print(f"{a.prog}: error: {a.log}: {e.strerror}", file=sys.stderr)
        return 2
    print("\n".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
