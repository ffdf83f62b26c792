# SPDX-License-Identifier: GPL-2.0
"""Shared machinery of the hunk matrix and the mutation run
(hunk-matrix/matrix.py, mutants.py, verdicts.py, which import it as
hmlib: hunk-matrix/hmlib.py is this module under that name).

A *variant* is the patched tree with one edit (a hunk left out, or a mutant),
given as {relpath: text} for the few files the series touches.  A *worker*
owns one fixed tree path and one build directory, so the framework's build
(CMake + ninja, extraction by kernel-src/extract.py) only recompiles what the
edit changed; the worker rewrites only the files whose content differs.

Nothing here writes into the checkout except build/hunk-matrix/ (reports);
trees, build directories and ccache live under the scratch directory.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

import napitest.extract as EXTRACTOR
import napitest.kill_order
import napitest.manifest
from napitest import compiler
from napitest import cmocka_output
from napitest import verdict_cache

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
KSRC_DIR = os.path.join(ROOT, "kernel-src")
PATCHES = os.path.join(KSRC_DIR, "patches")
MANIFEST = os.path.join(KSRC_DIR, "manifest")
EXTRACT = os.path.join(KSRC_DIR, "extract.py")
SCRATCH = os.environ.get("HM_SCRATCH", "/var/tmp/napitest-hunks")
# The tree path the extraction a worker builds names (#line, present.h's
# EXTRACTED_TREE) whatever the worker's tree (Worker.prepare()): a name,
# its files empty (Worker.__init__()).
TREE_NAME = os.path.join(SCRATCH, "tree")
# Files a variant may differ in (the series touches the first three),
# and the other file the manifest reads in every tree.
TREE_FILES = ["Makefile", "include/linux/netdevice.h", "net/core/dev.c",
              "net/core/skbuff.c", "kernel/softirq.c", "kernel/smp.c",
              "kernel/smpboot.c", "include/linux/interrupt.h"]
# The manifest's file? entries: read when the tree has them (v6.9+).
OPTIONAL_TREE_FILES = ["include/linux/netdevice_xmit.h", "include/net/rps.h",
                       "include/net/hotdata.h", "net/core/hotdata.c"]
# rt-rps first: most invariants of the series are RT ones.
CONFIGS = ["rt-rps", "rps-threads", "rps", "norps-threads", "norps"]
# A wall-clock limit per suite binary is only a hang guard, far above a
# quiet run (the slowest binary, the explorer at -O0, takes about 1 s: 60 s
# is some 50 times that).  When it fires the result is "hang (wall-clock
# guard)": never a kill, a pass or an equivalence.  A variant that hangs
# the simulation is killed by the simulator's own watchdog, counted in
# preemption points (a BUG: a failing test), not by this guard.
HANG_GUARD = int(os.environ.get("HM_HANG_GUARD",
                                os.environ.get("HM_TEST_TIMEOUT", "60")))


class Hang(Exception):
    """A suite binary ran past the wall-clock hang guard."""

    def __init__(self, suite, cfg):
        super().__init__(f"hang (wall-clock guard): {suite}-{cfg} still "
                         f"running after {HANG_GUARD} s (HM_HANG_GUARD); "
                         "not a kill, not a pass")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# HM_TRACE=1: log every build and suite run of a worker with its wall
# clock and CPU time (user+sys of the command and its children, from
# wait4()'s rusage): a profile, never part of a verdict.
TRACE = os.environ.get("HM_TRACE") == "1"


def cpu():
    """CPU time (user+sys) of this process and its waited-for children
    so far: per phase, the figure a loaded machine does not change."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def traced(cmd, what, timeout=None, cwd=None, env=None):
    """Run cmd in its own session (process group), its output captured
    as text: a CompletedProcess whose returncode is the command's own
    (-N when a signal N killed it, whether or not HM_TRACE is on),
    logged (what(): what it is) with its wall and CPU time (wait4()'s
    rusage of the command) under HM_TRACE.  timeout: a hang guard only;
    when it fires the command's whole process group is killed (SIGKILL)
    and reaped, then subprocess.TimeoutExpired is raised."""
    import tempfile
    import time
    with tempfile.TemporaryFile("w+", errors="replace") as out, \
            tempfile.TemporaryFile("w+", errors="replace") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=cwd, env=env,
                             start_new_session=True)
        fired = threading.Event()
        lock = threading.Lock()
        reaped = [False]

        def guard():
            with lock:
                if not reaped[0]:
                    fired.set()
                    os.killpg(p.pid, 9)
        timer = threading.Timer(timeout, guard) if timeout else None
        if timer:
            timer.daemon = True
            timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            with lock:
                reaped[0] = True
            if timer:
                timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        if fired.is_set():
            # what the group left behind (a child of the binary) too
            try:
                os.killpg(p.pid, 9)
            except ProcessLookupError:
                pass
            raise subprocess.TimeoutExpired(cmd, timeout)
        if TRACE:
            log(f"    trace {what()}: {time.monotonic() - t0:.1f}s wall "
                f"{ru.ru_utime + ru.ru_stime:.1f}s CPU")
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(cmd, p.returncode, out.read(),
                                           err.read())


def sh(cmd, **kw):
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


def prepare_tree(variant):
    # its Python commands with this interpreter (PYTHON), not a version
    # manager's shim that python3 on PATH may be
    r = sh([os.path.join(KSRC_DIR, "prepare-tree"), variant],
           env=dict(os.environ, PYTHON=sys.executable))
    if r.returncode:
        raise SystemExit(f"prepare-tree {variant} failed:\n{r.stderr}")
    return r.stdout.strip()


def read_files(tree):
    out = {}
    for f in TREE_FILES + OPTIONAL_TREE_FILES:
        if f in OPTIONAL_TREE_FILES and \
                not os.path.exists(os.path.join(tree, f)):
            continue
        with open(os.path.join(tree, f), encoding="utf-8",
                  errors="surrogateescape") as fh:
            out[f] = fh.read()
    return out


def write_files(tree, files, only_changed=True):
    for f, text in files.items():
        p = os.path.join(tree, f)
        if only_changed and os.path.exists(p):
            with open(p, encoding="utf-8", errors="surrogateescape") as fh:
                if fh.read() == text:
                    continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", errors="surrogateescape") as fh:
            fh.write(text)


# --------------------------------------------------------------- extraction

LINE_RE = re.compile(r"^#line .*\n", re.M)


def extract(tree, out):
    """Run the framework's extractor; return ({genfile: text}, error) with
    the tree's path replaced by TREE (#line directives kept)."""
    try:
        EXTRACTOR.generate(tree, MANIFEST, out)
    except EXTRACTOR.Error as e:
        return None, f"extract: error: {e}"
    res = {}
    gen = os.path.join(out, "extracted")
    for d, _, fs in os.walk(gen):
        for f in fs:
            if f.endswith(".d"):
                continue
            p = os.path.join(d, f)
            with open(p, encoding="utf-8", errors="surrogateescape") as fh:
                res[os.path.relpath(p, gen)] = fh.read().replace(tree, "TREE")
    return res, ""


def nolines(ext):
    """The extraction with #line directives stripped."""
    return {k: LINE_RE.sub("", v) for k, v in ext.items()}


def extraction_chunks(ext, skip=(), ws=False):
    """The extraction as a sorted multiset of blocks, split at #line
    directives and at the "from FILE" markers of the declarations in defs.h
    (each definition and each declaration is one block), the
    directives themselves dropped; ws=True also collapses whitespace.
    Equal multisets with unequal texts = the same code in another order."""
    chunks = []
    for k in sorted(ext):
        if k in skip:
            continue
        for c in re.split(r"^(?:#line .*|/\* from \S+ \*/)\n", ext[k],
                          flags=re.M):
            c = re.sub(r"\s+", " ", c).strip() if ws else c.strip()
            if c:
                chunks.append(c)
    return sorted(chunks)


# ---------------------------------------------------------------- C helpers

# A comment (to its end, or the text's), or a string or character
# literal (escapes skipped, to its closing quote or the text's end).
C_TOKEN_RE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|"(?:\\[\s\S]|[^"\\])*"?'
                        r"|'(?:\\[\s\S]|[^'\\])*'?", re.S)


def strip_comments_ws(text):
    """C text with comments removed and whitespace collapsed (strings kept).
    One regular expression over the text, some ten times faster than
    the loop over its characters it replaces (the same output on every
    file version of a run)."""
    def token(m):
        t = m.group(0)
        if t.startswith("/*"):
            return " "
        return "" if t.startswith("//") else t
    return re.sub(r"\s+", " ", C_TOKEN_RE.sub(token, text)).strip()


def ctags_defs(tree, rel):
    """[(name, kind, start, end)] of the definitions of one file."""
    r = sh(["ctags", "--output-format=json", "--fields=+neKZ",
            "--language-force=C", "-D", "DEFINE_PER_CPU(t,n)=t n",
            "-D", "DEFINE_STATIC_KEY_FALSE(n)=struct static_key_false n",
            "-D", "__init=", "-D", "__cold=", "-D", "__latent_entropy=",
            "-f", "-", rel], cwd=tree)
    defs = []
    for line in r.stdout.splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") != "tag" or t.get("scope"):
            continue
        if t.get("kind") in ("function", "variable", "struct", "macro",
                             "enum", "union", "typedef", "prototype"):
            defs.append((t["name"], t["kind"], t["line"],
                         t.get("end", t["line"])))
    return defs


def manifest_names():
    return napitest.manifest.names(MANIFEST)


# ------------------------------------------------------------------ workers

def suites():
    """The suites (unit/*.c), by name."""
    return sorted(os.path.splitext(f)[0]
                  for f in os.listdir(os.path.join(ROOT, "unit"))
                  if f.endswith(".c"))


# What shims/sim/sim.c's sim_bug() prints to stderr just before its
# abort(): a kernel BUG() the simulation reached, a function of the
# binary and its inputs like any failing test.
SIM_BUG_RE = re.compile(r"^kernel BUG at \S+:\d+: ", re.M)


def sim_bug(r):
    """Whether a suite binary's run r (a CompletedProcess, stderr
    captured) ended in the simulator's own abort() after a kernel BUG:
    SIGABRT with sim_bug()'s line on stderr.  Any other signal (SIGKILL
    of the OOM killer, a SIGABRT without that line) may come from
    outside, and its verdict is not stored."""
    return r.returncode == -signal.SIGABRT and \
        bool(SIM_BUG_RE.search(r.stderr or ""))


class Worker:
    """One fixed tree path + one build dir of the framework's CMake build."""

    def __init__(self, idx, base_files):
        self.idx = idx
        self.tree = os.path.join(SCRATCH, f"w{idx}", "tree")
        self.bdir = os.path.join(SCRATCH, "build", f"w{idx}")
        os.makedirs(self.tree, exist_ok=True)
        write_files(self.tree, base_files)
        # The extraction the build compiles: the matrix extracts every
        # variant anyway (to classify it), so the build takes that copy
        # (CMake NAPITEST_EXTRACTED) instead of extracting again.
        self.pre = os.path.join(self.bdir, "pre-gen")
        self.combined = set()  # build_combined()
        self.hung = False  # whether the last evaluate() met a Hang
        # Why the last evaluate()'s verdict may not be a function of its
        # inputs ("": it is): a build that failed with no compiler error
        # (an OOM kill, a full disk, another run in HM_SCRATCH) or a
        # binary killed by a signal.  Like a hang: never stored.
        self.unstable = ""
        # whether the last failed build() failed on an error in a file
        self.compiler_error = True
        self.env = dict(os.environ)
        self.env.setdefault("CCACHE_DIR", os.path.join(SCRATCH, "ccache"))
        self.env.setdefault("CCACHE_MAXSIZE", "1G")
        # One cache for every worker: paths under the scratch directory
        # (the build dir's pre-gen/) are hashed relative to the build
        # dir, the build dir itself (-g's compilation directory) not at
        # all, and the extraction names one tree path (prepare()), so
        # what one worker compiled is a hit for the others, and for any
        # worker in the next run.
        self.env.setdefault("CCACHE_BASEDIR", SCRATCH)
        self.env.setdefault("CCACHE_NOHASHDIR", "1")
        # ccache's direct mode (no preprocessor run for a hit): it hashes
        # every file a compilation's manifest names: without depend mode
        # (below) every file the preprocessor's output names, TREE_NAME's
        # too (#line), which must then exist (empty: GCC reads no line
        # from them either way); in depend mode the files the compiler's
        # -MD list names.  prepare() writes the extraction just before the
        # build, which ccache would find too new.  Nothing writes either
        # while ninja runs.
        self.env.setdefault("CCACHE_SLOPPINESS",
                            "include_file_mtime,include_file_ctime")
        # ccache's depend mode: on a miss the compiler's own dependency
        # list (-MD, which CMake gives) keys the result, not a second run
        # of the preprocessor; a cold run of the matrix misses for nearly
        # every compile (all.c at -O0: 0.42 s of CPU a miss against 0.51)
        if "CCACHE_NODEPEND" not in self.env:
            self.env.setdefault("CCACHE_DEPEND", "1")
        for f in TREE_FILES + OPTIONAL_TREE_FILES:
            p = os.path.join(TREE_NAME, f)
            if not os.path.exists(p):
                os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, "w").close()

    def configure(self):
        """(Re)run CMake so suites added to unit/ since last time are seen.
        A build dir made for another checkout (another clone) is remade."""
        cache = os.path.join(self.bdir, "CMakeCache.txt")
        if os.path.exists(cache):
            with open(cache, errors="replace") as fh:
                m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$",
                              fh.read(), re.M)
            if not m or os.path.realpath(m.group(1)) != \
                    os.path.realpath(ROOT):
                shutil.rmtree(self.bdir)
        # The interpreter, not found again (FindPython3 asks every
        # python3 on PATH; through a version manager's shim that was 3.9
        # of a configure's 5.1 s, and the matrix configures four dirs)
        args = ["cmake", "-S", ROOT, "-B", self.bdir, "-G", "Ninja",
                f"-DPython3_EXECUTABLE={sys.executable}",
                f"-DKSRC={self.tree}", "-DNAPITEST_VARIANT=patched",
                f"-DNAPITEST_EXTRACTED={self.pre}", "-DNAPITEST_OPTIMIZE=-O0",
                "-DNAPITEST_FRAMEWORK_OPTIMIZE=-O0",
                "-DNAPITEST_SUITES_BINARY=ON",
                "-DNAPITEST_LINK_EACH_SUITE=ON",
                "-DNAPITEST_SIM_UNITY=ON",
                "-DNAPITEST_SANITIZE=OFF", "-DNAPITEST_COVERAGE=OFF",
                # verdicts are test names and compiler errors: no
                # message needs the debug information's lines
                "-DNAPITEST_DEBUG_INFO=OFF",
                # configured at the start of every run: the globbed
                # sources are not checked again at each of its ninja runs
                "-DNAPITEST_GLOBS_CHECKED=OFF"]
        if shutil.which("ccache"):
            args.append("-DCMAKE_C_COMPILER_LAUNCHER=ccache")
        r = sh(args, env=self.env)
        if r.returncode:
            raise SystemExit(f"cmake configure failed:\n{r.stdout}{r.stderr}")

    def prepare(self, files, gen=None):
        """Put files in the worker's tree and their extraction (gen, made
        from the same files, or extracted here) where the build reads it;
        unchanged files keep their timestamps, so ninja rebuilds only what
        changed."""
        # The binaries built for the previous files are stale.
        self.combined = set()
        write_files(self.tree, files)
        if gen is None or not os.path.isdir(os.path.join(gen, "extracted")):
            gen = os.path.join(self.bdir, "extract-tmp")
            shutil.rmtree(gen, ignore_errors=True)
            ext, err = extract(self.tree, gen)
            if ext is None:
                return False, self.message(err)
        src = os.path.join(gen, "extracted")
        dst = os.path.join(self.pre, "extracted")
        # The extraction names its tree (present.h, #line): name one
        # fixed path instead (TREE_NAME, the same for every worker), or
        # every suite would recompile, and no worker could use what
        # another compiled.  Only names: nothing reads the tree's files
        # at run time, and the suites compare __FILE__ with
        # EXTRACTED_TREE, which agree.
        their = EXTRACTOR.present_tree(os.path.join(src, "present.h"))
        texts = {}
        for d, _, fs in os.walk(src):
            for f in fs:
                if not f.endswith(".d"):
                    rel = os.path.relpath(os.path.join(d, f), src)
                    with open(os.path.join(src, rel), encoding="utf-8",
                              errors="surrogateescape") as fh:
                        texts[rel] = fh.read().replace(their, TREE_NAME)
        write_files(dst, texts)
        for d, _, fs in os.walk(dst):
            for f in fs:
                if os.path.relpath(os.path.join(d, f), dst) not in texts:
                    os.unlink(os.path.join(d, f))
        return True, ""

    def suites(self):
        return suites()

    def build(self, targets):
        r = traced(["ninja", "-C", self.bdir, "-j1"] + targets,
                   lambda: f"w{self.idx} build {' '.join(targets)[:60]}",
                   env=self.env)
        if TRACE:
            log(f"    trace w{self.idx} build: "
                + ("ok" if r.returncode == 0 else "FAILED"))
        if r.returncode == 0:
            return True, ""
        # The compiler's or the linker's own line: not the command (its
        # -Werror= flags), not collect2's summary.
        err = compiler.first_error((r.stdout + r.stderr).splitlines())
        # a compiler's or linker's error in a file; not a tool's own line
        # ("gcc: fatal error: Killed signal terminated program cc1",
        # "cc1: fatal error: ...: No space left on device")
        self.compiler_error = bool(err) and \
            not compiler.TOOL_ERROR_RE.match(err)
        at_tree = err and err.startswith(os.path.join(TREE_NAME, ""))
        msg = self.message(err or r.stdout[-300:].strip())
        return False, self.display_column(msg) if at_tree else msg

    def message(self, msg):
        """A build's or an extraction's message in the tree's terms
        (napitest.compiler.tree_paths()): the tree's file:line wherever
        the extraction's fixed tree name (TREE_NAME, whose files are
        empty), the worker's tree or a line of the extraction appears,
        and no path of the worker's build dir or the scratch directory."""
        pre = os.path.join(self.pre, "extracted")

        def read(rel):
            with open(os.path.join(pre, rel), encoding="utf-8",
                      errors="surrogateescape") as fh:
                return fh.read()
        return compiler.tree_paths(msg, [TREE_NAME, self.tree],
                                   [self.bdir, SCRATCH], (pre, read))

    def display_column(self, err):
        """err ("FILE:LINE:COL: ...", FILE in the tree) with COL as GCC
        prints it when it can read FILE: in display columns, tabs to the
        next multiple of 8.  The extraction names TREE_NAME, which GCC
        cannot read, so it printed bytes; the worker's tree holds the
        same file."""
        m = re.match(r"([^:\s]+):(\d+):(\d+):", err)
        if not m:
            return err
        try:
            with open(os.path.join(self.tree, m.group(1)), "rb") as fh:
                line = fh.read().split(b"\n")[int(m.group(2)) - 1]
        except (OSError, IndexError):
            return err
        width = 0
        for ch in line[:int(m.group(3)) - 1].decode("utf-8", "replace"):
            width = (width // 8 + 1) * 8 if ch == "\t" else width + 1
        return f"{m.group(1)}:{m.group(2)}:{width + 1}:" + err[m.end():]

    def kernel_of(self, cfg):
        """The configuration whose kernel objects (CMake's kernel-KCFG)
        and binaries cfg runs: rps for rps-threads, which differs by the
        boot parameter thread_backlog_napi alone (CMakeLists.txt,
        kernel_of_CFG; napitest-kernel-objects.txt lists it)."""
        if not hasattr(self, "_kernel_of"):
            self._kernel_of = {}
            lines = []
            try:
                if getattr(self, "bdir", None):
                    with open(os.path.join(self.bdir, "napitest-kernel-"
                                           "objects.txt")) as fh:
                        lines = fh.read().splitlines()
            except OSError:  # not configured: each its own
                pass
            for line in lines:
                t, _, c = line.strip().partition(" ")
                if t.startswith("kernel-"):
                    self._kernel_of[c] = t[len("kernel-"):]
        return self._kernel_of.get(cfg, cfg)

    def kernel_error(self, cfg):
        """The error of the extracted code (extracted/all.c, CMake's
        kernel-CFG) when it does not compile in cfg, else "".  Every
        suite binary of cfg links it, and ninja compiles it after the
        simulator's 25 files and the support code: compiled alone first,
        a variant whose all.c fails costs one compile, not the
        simulator's, and it is the error a binary's build stops at.  A
        failure with no compiler error (an OOM kill, a full disk) is
        not one: "" (the binaries' builds then say what they say)."""
        ok, err = self.build([f"kernel-{self.kernel_of(cfg)}"])
        return "" if ok or not self.compiler_error else err

    def build_combined(self, cfg):
        """suites-CFG (CMake NAPITEST_SUITES_BINARY): every suite of cfg
        in one binary, one link instead of one per suite; run() uses it
        for cfg until the next prepare().  False if it does not build (one
        suite that does not compile): the per-suite binaries then say
        which."""
        ok = self.build([f"suites-{cfg}"])[0]
        if ok:
            self.combined.add(cfg)
        return ok

    def run(self, suite, cfg):
        """Set of failing test ids 'suite:cfg:test' (crash included);
        raises Hang when the binary runs past the wall-clock guard."""
        if cfg in self.combined:
            cmd = [os.path.join(self.bdir, f"suites-{cfg}"), suite]
        else:
            cmd = [os.path.join(self.bdir, f"{suite}-{cfg}")]
        try:
            r = traced(cmd, lambda: f"w{self.idx} run {suite}-{cfg}",
                       timeout=HANG_GUARD, cwd=self.bdir)
        except subprocess.TimeoutExpired:
            raise Hang(suite, cfg) from None
        # A case that started and never ended is where the binary
        # stopped (a kernel BUG, an abort): it is the one that failed.
        failed = {f"{suite}:{cfg}:{c.name}"
                  for c in cmocka_output.parse_text(r.stdout).cases
                  if c.status in ("failed", "crashed")}
        if r.returncode < 0 and not sim_bug(r):
            # a signal from outside (the OOM killer, a user), or one the
            # binary raised that is not known to be the simulator's BUG
            self.unstable = (f"{suite}-{cfg} killed by signal "
                             f"{-r.returncode}")
        if r.returncode and not failed:
            failed.add(f"{suite}:{cfg}:(exit {r.returncode})")
        return failed

    def evaluate(self, files, baseline_fail, order, full=False, gen=None,
                 dead=None, first=None):
        """baseline_fail: set of test ids failing on the reference tree, or
        a callable (suite, cfg) -> that set for one binary.  dead: None,
        or a callable called once when the cheap suites of every
        configuration killed nothing, before the expensive ones (the
        explorer's) run: when it says the variant compiles to the
        reference's code (its dead-code check), the result is "survived"
        without them (the caller then reports it as equivalent, which a
        run of the explorer on the same code could not change).  first:
        None, or (suite, cfg), the binary run first of its kind (cheap or
        expensive; not with full): the one that killed this variant
        before (the matrix's kill-order.tsv), so that a variant killed
        again is built and run once, not after every binary the fixed
        order puts before it (KillOrder); or kill_order.DEAD_CODE: the
        variant was dead code, dead is called first (if it says so
        again, nothing is built)."""
        base = baseline_fail if callable(baseline_fail) else \
            (lambda s, c: baseline_fail)
        return self._evaluate(files, base, order, full, gen, dead, first)

    @staticmethod
    def pairs(suites, cheap, first=None):
        """The (configuration, suite) pairs in the order a variant runs
        them: the cheap suites in every configuration before the expensive
        ones in any, configuration by configuration, each in the order's
        order; first (a pair's suite and configuration), if it is one,
        moved to the front of its kind."""
        lists = ([(c, s) for c in CONFIGS for s in suites if cheap(s)],
                 [(c, s) for c in CONFIGS for s in suites if not cheap(s)])
        if first is not None:
            pair = (first[1], first[0])
            for lst in lists:
                if pair in lst:
                    lst.remove(pair)
                    lst.insert(0, pair)
        return lists[0] + lists[1]

    def _evaluate(self, files, base, order, full, gen, dead=None,
                  first=None):
        self.hung = False
        self.unstable = ""
        ok, err = self.prepare(files, gen)
        if not ok:
            return "killed-build", set(), err
        if first == napitest.kill_order.DEAD_CODE:
            # the answer the fixed order's dead check gave, after cheap
            # suites that killed nothing; not asked again if it differs
            first = None
            if dead and not full:
                if dead():
                    return "survived", set(), ""
                dead = None
        killers = set()
        built = False
        skipped = []
        hangs = []
        # The cheap suites in every configuration before the expensive
        # ones (the explorer) in any; inside that, configuration by
        # configuration, the suite likeliest to kill first (pairs(): the
        # binary first names, first of its kind).  A configuration's
        # first binary is built alone (with the extracted code, one
        # translation unit), and when a second one is needed, every
        # suite of it in one binary (build_combined(): one link); if that
        # does not build, the rest in one ninja run, per binary when
        # something does not build, to tell which.
        suites = order()
        cheap = getattr(order, "cheap", lambda s: True)
        pairs = self.pairs(suites, cheap, None if full else first)
        touched, together, tried = set(), set(), set()
        # configuration -> the error of the variant's extracted code
        # (all.c), which every suite binary of it links, when it does
        # not compile there (kernel_error())
        broken = {}
        for cfg, suite in pairs:
            if dead and not killers and not hangs and not cheap(suite):
                if dead():
                    return "survived", set(), ""
                dead = None
            if cfg not in touched:
                err = self.kernel_error(cfg)
                if err:
                    broken[cfg] = err
            if cfg in broken:
                # No binary of cfg builds: the reference's says whether
                # that is this edit's doing (as below), without building
                # the simulator, the support code and each suite first.
                touched.add(cfg)
                if any(x.endswith(":(no build)") for x in base(suite, cfg)):
                    skipped.append(f"{suite}-{cfg}")
                    continue
                return "killed-build", set(), broken[cfg]
            ok = cfg in together
            if not ok and cfg in touched and cfg not in tried:
                tried.add(cfg)
                if self.build_combined(cfg):
                    together.add(cfg)
                    ok = True
            if not ok and cfg in touched:
                rest = [f"{x}-{cfg}" for x in suites if x != suite]
                if self.build([f"{suite}-{cfg}"] + rest)[0]:
                    together.add(cfg)
                    ok = True
            touched.add(cfg)
            err = ""
            if not ok:
                ok, err = self.build([f"{suite}-{cfg}"])
            if not ok:
                # A binary that does not build on the reference tree
                # either (a suite needing a later patch, at a prefix)
                # says nothing about this edit.
                if any(x.endswith(":(no build)") for x in base(suite, cfg)):
                    skipped.append(f"{suite}-{cfg}")
                    continue
                if not self.compiler_error:
                    self.unstable = (f"{suite}-{cfg} did not build, with "
                                     "no compiler error")
                return "killed-build", set(), err
            built = True
            try:
                k = self.run(suite, cfg)
                if k:
                    k -= base(suite, cfg)
            except Hang as e:
                # Neither a kill nor a pass: another binary may still
                # kill deterministically; if none does, the result is
                # the hang.
                hangs.append(str(e))
                self.hung = True
                continue
            if k:
                killers |= k
                if not full:
                    return "killed", killers, ""
        if not built:
            return ("untestable", set(),
                    "no suite binary builds on the reference tree")
        if hangs and not killers:
            return "hang", set(), "; ".join(hangs)
        note = (f"{len(skipped)} suite binaries do not build on the "
                f"reference tree either: {' '.join(skipped)}" if skipped else "")
        return ("killed" if killers else "survived"), killers, note

    def probe(self, files, suite, cfg, gen=None):
        """Failing tests of one binary on these files (None: no build)."""
        ok = self.prepare(files, gen)[0] and \
            self.build([f"{suite}-{cfg}"])[0]
        return self.run(suite, cfg) if ok else None

    def objects(self, gen, tag):
        """Compile the extracted code (gen/extracted/all.c) in every
        configuration with every static function kept and __LINE__/__FILE__
        neutralised; return {cfg: stripped object bytes}, or None if one
        does not compile."""
        out = {}
        for cfg, obj in self.objects_each(gen, tag):
            if obj is None:
                return None
            out[cfg] = obj
        return out

    def objects_each(self, gen, tag, cfgs=None):
        """objects(), one configuration at a time (CONFIGS' order, or
        cfgs'): yields (cfg, stripped object bytes, or None if it does
        not compile), so that a comparison can stop at the first
        configuration that differs."""
        import json
        import shlex
        cc = json.load(open(os.path.join(self.bdir,
                                         "compile_commands.json")))
        # A copy of the extraction with the tree path in #line made equal.
        tag = f"w{self.idx}-{tag}"  # two workers may compile one tag
        norm = os.path.join(SCRATCH, "obj", tag, "gen")
        shutil.rmtree(norm, ignore_errors=True)
        treep = EXTRACTOR.present_tree(os.path.join(gen, "extracted",
                                                    "present.h"))
        for d, _, fs in os.walk(gen):
            for f in fs:
                src = os.path.join(d, f)
                dst = os.path.join(norm, os.path.relpath(src, gen))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with open(src, encoding="utf-8",
                          errors="surrogateescape") as fh:
                    t = re.sub(r'^(#line \d+ )"[^"]*?/((?:net|include|kernel)/'
                               r'[^"]*)"', r'\1"/T/\2"', fh.read(), flags=re.M)
                    t = re.sub(r"^(/\* Generated by .*? of ).*$", r"\1T",
                               t, flags=re.M)
                    if treep:
                        t = t.replace(treep, "/T")
                with open(dst, "w", encoding="utf-8",
                          errors="surrogateescape") as fh:
                    fh.write(t)
        gen = norm
        done = {}  # kernel configuration -> its object
        for cfg in cfgs or CONFIGS:
            kcfg = self.kernel_of(cfg)
            if kcfg in done:  # rps-threads: rps's object
                yield cfg, done[kcfg]
                continue
            e = [e for e in cc if e["file"].endswith("/extracted/all.c") and
                 f"/kernel-{kcfg}.dir/" in e["command"]][0]
            a = [x for x in shlex.split(e["command"]) if x != "ccache"]
            o = os.path.join(SCRATCH, "obj", f"{tag}-{cfg}.o")
            os.makedirs(os.path.dirname(o), exist_ok=True)
            a[a.index("-o") + 1] = o
            a = ["-I" + gen if re.match(r"^-I\S*/(pre-)?gen$", x) else x
                 for x in a if x != "-g"]
            if "-I" + gen not in a:
                yield cfg, None  # would compile the build's extraction
                return
            # Dead code is dead once optimized (the build may use -O0).
            a = ["-O1" if re.match(r"^-O\w*$", x) else x for x in a]

            a[-1] = os.path.join(gen, "extracted", "all.c")
            a += ["-g0", "-fkeep-static-functions", "-D__LINE__=0",
                  '-D__FILE__="f"', "-Wno-builtin-macro-redefined", "-w"]
            r = sh(a, cwd=e["directory"])
            if r.returncode:
                yield cfg, None
                return
            sh(["objcopy", "--strip-debug", "-R", ".comment", o])
            with open(o, "rb") as fh:
                done[kcfg] = fh.read()
            yield cfg, done[kcfg]

    def baseline(self, files, gen=None, share=(0, 1), only=None):
        """Failing tests of the unmodified patched tree (excluded as kills).
        share (i, n): this worker builds and runs every n-th kernel
        configuration from the i-th (kernel_of(): with the configurations
        that run its binaries), the other workers the rest: each binary is built
        and run once (the suites are deterministic: one run of each binary
        is its result), not once per worker.  A worker builds another
        configuration when a variant first needs it, from the shared
        ccache.  only: None (every suite), or a predicate on a suite's
        name: the suites run (every binary is built either way); the
        caller then finds the others' failing tests when it needs them
        (the matrix: the explorer's, Matrix.patched_baseline())."""
        ok, err = self.prepare(files, gen)
        if not ok:
            raise SystemExit(f"the patched tree does not extract: {err}")
        # Shared out by kernel: rps-threads runs rps's binaries
        # (kernel_of()), which one worker builds for both.
        groups = {}
        for c in CONFIGS:
            groups.setdefault(self.kernel_of(c), []).append(c)
        cfgs = [c for g in list(groups.values())[share[0]::share[1]]
                for c in g]
        # One binary per configuration (build_combined()); every suite
        # binary only if one of those does not build, to say which.
        if not all([self.build_combined(c) for c in cfgs]):
            targets = [f"{s}-{c}" for c in cfgs for s in self.suites()]
            ok, err = self.build(targets)
            if not ok:
                raise SystemExit(f"the patched tree does not build: {err}")
        fail = set()
        for c in cfgs:
            for s in self.suites():
                if only is not None and not only(s):
                    continue
                try:
                    fail |= self.run(s, c)
                except Hang as e:
                    raise SystemExit(f"the patched tree: {e}") from None
        return fail


class KillOrder:
    """The order in which a variant's suites run: the cheap suites first,
    the explorer's (hundreds of milliseconds per binary) after them, by
    name within each.  Fixed: the same inputs give the same order, so the
    same first killing test, at any load and whatever order the workers
    finish in (the order once learnt from kill counts and run times, which
    made the reported killer depend on timing)."""

    def __init__(self, suites):
        self.order = sorted(suites, key=lambda s: (not self.cheap(s), s))

    def __call__(self):
        return list(self.order)

    @staticmethod
    def cheap(suite):
        """Every suite but the explorer's runs in milliseconds."""
        return not suite.startswith("explore_")


def start_workers(n, base_files, first=0, base_fail=None, only=None):
    """n configured workers (w<first>..), each built on the patched tree;
    returns (workers, baseline failing tests).  The baseline's binaries
    are shared out among the workers: each is run once, not once per
    worker.  With base_fail (the baseline's failing tests, known from an
    earlier run with the same inputs) the workers are only configured:
    each builds what a variant needs when it needs it.  only: the suites
    whose baseline is run (Worker.baseline())."""
    workers = [Worker(first + i, base_files) for i in range(n)]
    fails = [None] * n

    errors = []

    def go(i):
        try:
            workers[i].configure()
            fails[i] = set(base_fail) if base_fail is not None else \
                workers[i].baseline(base_files, share=(i, n), only=only)
        except SystemExit as e:  # not reported from a thread otherwise
            errors.append(str(e))

    ths = [threading.Thread(target=go, args=(i,)) for i in range(n)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    if errors or any(f is None for f in fails):
        raise SystemExit("a worker failed to build the patched tree: " +
                         "; ".join(errors))
    return workers, set().union(*fails)


class Busy(Exception):
    """Once.get(defer=True): another thread is computing that value."""


# run_pool()'s item of this thread: whether it may be put back (Busy)
_pool = threading.local()


def may_defer():
    """Whether the item run_pool() runs in this thread may be put back
    when it would wait for a value another worker computes (Busy): there
    are other items to take meanwhile."""
    return getattr(_pool, "defer", False)


def run_pool(items, workers, fn):
    """Run fn(worker, item) over items, one thread per worker.  An item
    whose fn raises Busy (it would wait for another worker, may_defer())
    goes to the end of the queue, and its worker takes the next one: two
    hunks of a patch evaluated side by side both try the whole patch
    left out, and the second waited idle for the first's build.  Once:
    taken again, it waits (hunks that all wait for one variant would
    otherwise be put back in turn, a busy loop)."""
    lock = threading.Lock()
    queue = list(items)
    results = {}
    put_back = set()

    def loop(w):
        while True:
            with lock:
                if not queue:
                    return
                it = queue.pop(0)
                _pool.defer = bool(queue) and id(it) not in put_back
            try:
                results[id(it)] = fn(w, it)
            except Busy:
                with lock:
                    put_back.add(id(it))
                    queue.append(it)
            finally:
                _pool.defer = False

    ths = [threading.Thread(target=loop, args=(w,)) for w in workers]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    return [results[id(it)] for it in items]


class Once:
    """A value per key, computed once: a thread that asks for a key
    another is computing waits for that value (two workers that need one
    variant build and run it once).  A computation that raises leaves
    nothing: the next caller computes it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.slots = {}

    def get(self, key, fn, defer=False):
        """The value of key: fn()'s, computed by this thread or another.
        defer: raise Busy instead of waiting while another computes it."""
        while True:
            with self.lock:
                slot = self.slots.get(key)
                mine = slot is None
                if mine:
                    # [done, value, whether computed]
                    slot = self.slots[key] = [threading.Event(), None, False]
            if not mine:
                if defer and not slot[0].is_set():
                    raise Busy(key)
                slot[0].wait()
                if slot[2]:
                    return slot[1]
                continue
            try:
                slot[1] = fn()
                slot[2] = True
            except BaseException:
                with self.lock:
                    del self.slots[key]
                raise
            finally:
                slot[0].set()
            return slot[1]


sha = verdict_cache.sha
files_digest = verdict_cache.files_digest
Miss = verdict_cache.Miss


def verdicts():
    """The verdict cache of this scratch directory and checkout
    (napitest.verdict_cache)."""
    return verdict_cache.VerdictCache(os.path.join(SCRATCH, "verdicts"),
                                      ROOT)
