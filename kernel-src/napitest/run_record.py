# SPDX-License-Identifier: GPL-2.0
"""The record of one run of a suite binary (tools/run-suite.c writes it).

A record holds the merged stdout+stderr lines with their arrival times, the
exit status and the key of the run: the SHA-256 of the binary, its
arguments, and the environment variables that change what a suite does
(NAPITEST_*, CMOCKA_*, the sanitizers' options).  A record is reused (by
tools/results, by the series-prefix verdict) only when the key computed now
is the same: a rebuilt binary, another seed or another schedule is a
different run.  The suites are deterministic, so the same key means the
same result.
"""

import hashlib
import json
import os
import re

VERSION = 1
ENV_RX = re.compile(r"^(NAPITEST_|CMOCKA_|ASAN_OPTIONS$|UBSAN_OPTIONS$)")
# Set by run-suite for the binary; whether to reuse a result; where make
# was typed (the Makefile's, for a relative KSRC); the make check's run
# (kbuild-check's kept failures).
NOT_KEYED = ("CMOCKA_MESSAGE_OUTPUT", "NAPITEST_NO_CACHE",
             "NAPITEST_INVOKED_FROM", "NAPITEST_CHECK_RUN")


def record_dir(build):
    return os.path.join(build, "results", "runs")


def record_path(build, name):
    return os.path.join(record_dir(build),
                        re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".json")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def key(argv, env=None):
    env = os.environ if env is None else env
    return {"version": VERSION,
            "binary": sha256(argv[0]) if os.path.isfile(argv[0]) else None,
            "argv": [os.path.basename(argv[0])] + list(argv[1:]),
            "env": {k: v for k, v in sorted(env.items())
                    if ENV_RX.match(k) and k not in NOT_KEYED}}


def write(build, name, argv, rkey, status, elapsed, lines):
    """status: exit code, or -signal; lines: [(seconds, text)]."""
    path = record_path(build, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rec = {"name": name, "key": rkey, "status": status,
           "elapsed": round(elapsed, 6),
           "lines": [[round(t, 6), text] for t, text in lines]}
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(rec, f)
    os.replace(tmp, path)


def load(build, name):
    try:
        with open(record_path(build, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fresh(build, name, argv, env=None):
    """The record of name if its key matches a run of argv now, else None."""
    rec = load(build, name)
    if rec and rec.get("key") == key(argv, env) and \
            rec["key"]["binary"] is not None:
        return rec
    return None


def suite_argv(command):
    """The suite binary's argv from a CTest command that runs it through
    tools/run-suite.c (... run-suite BUILD NAME -- BINARY ARGS)."""
    if "--" in command:
        return command[command.index("--") + 1:]
    return command
