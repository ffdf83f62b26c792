# SPDX-License-Identifier: GPL-2.0
"""The hunk matrix's verdict cache: verdicts of earlier runs, kept by
their inputs.

A key (VerdictCache.key()) covers what a verdict is a function of:

  - the trees it was computed on ({relpath: text}: the variant's files
    and its reference's, the tree whose failing tests are not kills;
    the extraction the build compiles is made from them);
  - every file of the repository that extracts, builds, runs and judges
    them (framework_digest(): the extractor, the manifest, the shims,
    the suites, CMakeLists.txt, the hunk matrix's code), documentation
    and the tables the runs write excepted;
  - the compiler and the tools the build runs, by content, the installed
    packages and the dynamic linker's cache, the Python that extracts,
    and the environment that can change a build or a run
    (system_digest());
  - the kind of verdict and its mode.

Nothing in a stored verdict is timed: a verdict during which a suite
binary met the wall-clock hang guard is never stored (verdict()), so the
same key gives the same verdict at any load.  Nor is one that may not be
a function of the key (hunk-matrix's Worker.unstable): a build that
failed with no compiler error in a file (an OOM kill, a full disk,
another run in HM_SCRATCH), a suite binary killed by a signal.  HM_NO_CACHE=1 reads nothing
(every verdict is computed, and still stored): tools/determinism-check
and a proof run.
"""

import hashlib
import json
import os
import shutil
import sys
import threading

# Under the repository root: written by the runs themselves, or not an
# input of any verdict (.pytest_cache: pytest's own record of its last
# run, which each run of the tooling's tests rewrites).
SKIP_DIRS = {".git", "build", "__pycache__", ".pytest_cache"}
# The environment a build or a run reads (ccache's settings change no
# object; PATH is taken as the tools it finds, by content).
ENV_NAMES = ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "CPATH",
             "C_INCLUDE_PATH", "LIBRARY_PATH")
ENV_PREFIXES = ("NAPITEST_", "CMOCKA_", "LD_", "ASAN_", "UBSAN_")
# Of those, set by whoever started the run and read by nothing a verdict
# depends on: where make was typed (the Makefile exports it, for a
# relative KSRC; make hunk-matrix and hunk-matrix/matrix.py started
# directly must share verdicts), whether a make check reuses results.
ENV_NOT_INPUTS = ("NAPITEST_INVOKED_FROM", "NAPITEST_NO_CACHE",
                  "NAPITEST_CHECK_RUN")
# The tools a build or a run of the matrix calls (ctags: the extractor).
TOOLS = ("cc", "gcc", "ninja", "cmake", "ccache", "objcopy", "ctags")
# The system's lists of what is installed.
SYSTEM_FILES = ("/var/lib/dpkg/status", "/etc/ld.so.cache")


class Miss(Exception):
    """A verdict the cache does not hold: it needs a worker to build and
    run it (raised by the compute function of a lookup that must not
    compute, e.g. replaying a run without workers)."""


def sha(text):
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def files_digest(files):
    """Digest of a tree's files {relpath: text} (None: no tree)."""
    if files is None:
        return "-"
    return sha("".join(f"{k}\0{v}\0" for k, v in sorted(files.items())))


def framework_digest(root):
    """Digest of every file under root (path and content) but
    documentation (*.md), compiled Python, the tables the matrix writes
    (hunk-matrix/*.tsv) and SKIP_DIRS and root's build* directories."""
    h = hashlib.sha256()
    for d, dirs, fs in os.walk(root):
        dirs[:] = sorted(x for x in dirs
                         if x not in SKIP_DIRS and
                         not (d == root and x.startswith("build")))
        rel = os.path.relpath(d, root)
        for f in sorted(fs):
            if f.endswith((".md", ".pyc")) or \
                    (rel == "hunk-matrix" and f.endswith(".tsv")):
                continue
            p = os.path.join(d, f)
            h.update(os.path.normpath(os.path.join(rel, f)).encode() + b"\0")
            if os.path.islink(p):
                h.update(b"link:" + os.readlink(p).encode())
            elif os.path.isfile(p):
                with open(p, "rb") as fh:
                    h.update(fh.read())
            h.update(b"\0")
    return h.hexdigest()


def _file_digest(path):
    try:
        with open(path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except OSError:
        return "-"


def system_digest(env=None):
    """Digest of the Python that runs, SYSTEM_FILES, the TOOLS found on
    env's PATH (where, and their content), and env's ENV_NAMES and
    ENV_PREFIXES variables."""
    env = os.environ if env is None else env
    h = hashlib.sha256(sys.version.encode() + b"\0")
    for p in SYSTEM_FILES:
        h.update(_file_digest(p).encode() + b"\0")
    for tool in TOOLS:
        path = shutil.which(tool, path=env.get("PATH", os.defpath))
        real = os.path.realpath(path) if path else "-"
        h.update(f"{tool}={real}:{_file_digest(real)}\0".encode())
    for k in sorted(env):
        if (k in ENV_NAMES or k.startswith(ENV_PREFIXES)) and \
                k not in ENV_NOT_INPUTS:
            h.update(f"{k}={env[k]}\0".encode())
    return h.hexdigest()


class VerdictCache:
    """Verdicts by key under directory (one JSON file per key).  root: the
    repository whose files are inputs of every verdict; env: the
    environment (os.environ), whose HM_NO_CACHE=1 makes every lookup
    miss."""

    def __init__(self, directory, root, env=None):
        env = os.environ if env is None else env
        self.dir = directory
        self.read = env.get("HM_NO_CACHE", "") in ("", "0")
        self.base = sha(framework_digest(root) + "\0" + system_digest(env))
        self.hits = 0
        self.lock = threading.Lock()

    def key(self, kind, *parts):
        """The key of a verdict of this kind (and mode) on these trees
        ({relpath: text}, or None for none) and strings."""
        return sha("\0".join((self.base, kind) + tuple(
            p if isinstance(p, str) else files_digest(p) for p in parts)))

    def _path(self, key):
        return os.path.join(self.dir, key[:2], key)

    def get(self, key):
        """The stored verdict (None: none, or HM_NO_CACHE=1)."""
        if not self.read:
            return None
        try:
            with open(self._path(key)) as fh:
                val = json.load(fh)
        except (OSError, ValueError):
            return None
        with self.lock:
            self.hits += 1
        return val

    def put(self, key, val):
        d = os.path.dirname(self._path(key))
        os.makedirs(d, exist_ok=True)
        tmp = os.path.join(d, f".{key}.{os.getpid()}.{threading.get_ident()}")
        with open(tmp, "w") as fh:
            json.dump(val, fh)
        os.replace(tmp, self._path(key))

    def verdict(self, key, compute):
        """The verdict of key: stored, else compute() -> (verdict, hung),
        stored unless hung (a suite binary met the wall-clock hang guard
        while it was computed: what it would have found is unknown, and a
        run at another load may find more).  Verdicts are JSON values:
        lists, not tuples or sets."""
        got = self.get(key)
        if got is not None:
            return got
        val, hung = compute()
        if not hung:
            self.put(key, val)
        return val
