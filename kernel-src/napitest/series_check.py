# SPDX-License-Identifier: GPL-2.0
"""series-check: check every prefix of patches/series and series.as-posted.

For each prefix N (0 = base, N = base + the first N patches of the order):

  applies     the patch applies exactly (patch -p1 --fuzz=0, no offset, no
              fuzz: the same rule as prepare-tree --prefix N)
  dev.o       net/core/dev.o and net/core/skbuff.o built by the tree's own
  skbuff.o    kbuild (x86_64 defconfig + CONFIG_RPS=y, CC="ccache gcc")
  RT dev/skb  the same two files compiled once more with -DCONFIG_PREEMPT_RT
              added to kbuild's own command line: a COMPILE-ONLY forced-RT
              view (Kconfig stays non-RT, nothing is linked)
  failing     `make check KSRC=<prefix tree> LABEL=unit`: the tests that
              fail, by invariant ID (v20_... -> V20), read from CTest's
              JUnit file and the cmocka output in it (napitest.testresults,
              napitest.cmocka_output)

Work is incremental: one full tree per order (a hard-link copy of the cached
`prepare-tree --full base`, never written through: patch(1) replaces files),
patch N applied on top of prefix N-1, one kbuild output dir per order
(O=<tree>/_kbuild, so kbuild uses relative paths and ccache hits across
orders) and one userspace build dir per order.  Leading patches that are
byte-identical in both orders are built once; the later order forks from the
first at the last common prefix and its shared rows say so.

Output: a table on stdout, build/series-check/table.{md,tsv} and logs, and
kernel-src/series-check.md (the documented copy).

Exit status: 0 when the check ran (whatever the table shows: a prefix that
does not build or re-opens invariants is a finding, not a tool failure),
1 on a tooling failure (no tree, kbuild could not be configured, the unit
build failed for a reason other than the tree, ...).
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

from . import Error, cmocka_output, patches, series, testresults
from .kbuild import (OBJS, RT_ARGS, ToolError, first_lines, kbuild,
                     kbuild_setup, kbuild_setup_rt, run)

PROG = "series-check"
# The directory of the kernel-src/series-check command.
HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "kernel-src")
REPO = os.path.dirname(HERE)
PATCHES = os.path.join(HERE, "patches")


def log(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


def series_list(name):
    try:
        return series.paths(os.path.join(PATCHES, name))
    except Error as e:
        raise ToolError(str(e))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def prepare(variant, full=True):
    cmd = [os.path.join(HERE, "prepare-tree")] + (["--full"] if full else [])
    p = subprocess.run(cmd + [variant], text=True, stdout=subprocess.PIPE)
    if p.returncode != 0 or not p.stdout.strip():
        raise ToolError(f"prepare-tree {' '.join(cmd[1:])} {variant} failed")
    return p.stdout.strip().splitlines()[-1]


def stamp_ok(tree):
    """The cached tree still verifies (we never wrote through its links)."""
    return subprocess.run(
        ["sha256sum", "--quiet", "--strict", "-c", ".napitest-stamp"],
        cwd=tree, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0


def apply_patch(tree, patch, logf):
    """Apply exactly (no fuzz, no offset).  Dry run first, so a patch that
    does not apply leaves the tree as it was.  Returns None or an error."""
    return patches.apply(tree, patch, run=lambda argv: run(argv, logf=logf))


def unit(tree, builddir, logf, jobs, timeout):
    """make check KSRC=tree LABEL=unit; return (status, {test: [cfg]})."""
    # Each suite linked on its own: a suite that does not compile at a
    # prefix leaves the others running (the fallback below).
    cmd = ["make", "-C", REPO, "check", f"KSRC={tree}", "LABEL=unit",
           f"BUILD={builddir}", f"JOBS={jobs}", "LINK_EACH_SUITE=1",
           f"CTEST_ARGS=--timeout {timeout}"]
    # The suites are globbed at configure time: re-configure an existing
    # build dir so that suites or simulator files added since are built.
    if os.path.isdir(builddir):
        for x in sorted(os.listdir(builddir)):
            d = os.path.join(builddir, x)
            if x.startswith("ksrc-") and \
                    os.path.isfile(os.path.join(d, "CMakeCache.txt")):
                run(["cmake", "-S", REPO, "-B", d,
                     "-DNAPITEST_LINK_EACH_SUITE=ON"], logf=logf)
                # No stale suite binary of the previous prefix may run
                # for this one if its suite no longer builds.
                for f in os.listdir(d):
                    fp = os.path.join(d, f)
                    if os.path.isfile(fp) and os.access(fp, os.X_OK) and \
                            not f.endswith((".sh", ".a")):
                        os.unlink(fp)
    start = time.time()
    rc, out = run(cmd, env=dict(os.environ, NAPITEST_NO_CACHE="1"),
                  logf=logf)
    dirs = [d for d in (os.path.join(builddir, x) for x in
                        sorted(os.listdir(builddir)) if x.startswith("ksrc-"))
            if os.path.isfile(os.path.join(d, "CTestTestfile.cmake"))] \
        if os.path.isdir(builddir) else []
    d = max(dirs, key=os.path.getmtime) if dirs else None
    junit = os.path.join(d, "ctest-junit.xml") if d else None
    if junit and os.path.isfile(junit) and \
            os.path.getmtime(junit) >= start:
        return unit_results(junit)
    errs = [ln for ln in out.splitlines() if ": error:" in ln]
    if not d:
        return ("BUILD FAIL: " + (first_lines(errs, 2) or f"exit {rc}"), {})
    # CTest did not run: build what builds (-k 0) and run that: a suite
    # that does not compile on this tree shows as Not Run, the others
    # still report.
    run(["cmake", "--build", d, f"-j{jobs}", "--", "-k", "0"], logf=logf)
    run(["ctest", "--output-on-failure", f"-j{jobs}", "-L", "unit",
         "--timeout", str(timeout), "--output-junit", "ctest-junit.xml"],
        cwd=d, logf=logf)
    summary, failed = unit_results(junit)
    return (summary + "; some suites do not build: " +
            (first_lines(sorted(set(errs)), 2) or "see log"), failed)


def unit_results(junit):
    """("T tests, F failed", {test: [cfg]}) from CTest's JUnit file and the
    cmocka output in it.  A test is a cmocka case that failed or did not
    finish, or "<suite:cfg> (why)" for a suite binary that did not run
    ("Not Run"), stopped before its last case ("stopped", or "hang
    (CPU-time guard)" when run-suite's guard stopped it) or failed with
    no failing case ("Failed").  CTest's JUnit file does not tell its
    own wall-clock timeout from a crash: both are "stopped" (the log
    has CTest's line)."""
    failed, bad = {}, 0
    for t in testresults.parse_ctest_junit(junit):
        cfg = t.name.split(":")[-1]
        if t.passed or t.status == "skipped":
            continue
        bad += 1
        if t.status == "notrun":
            failed.setdefault(f"{t.name} (Not Run)", []).append(cfg)
            continue
        suite = cmocka_output.parse_text(t.output)
        cases = [c.name for c in suite.cases if c.failed]
        for name in cases:
            cfgs = failed.setdefault(name, [])
            if cfg not in cfgs:
                cfgs.append(cfg)
        why = None
        if "run-suite: hang (CPU-time guard)" in t.output:
            why = "hang (CPU-time guard)"
        elif suite.cases and not any(cmocka_output.DONE.match(ln)
                                     for ln in suite.post):
            why = "stopped"
        elif not cases:
            why = "Failed"
        if why:
            failed.setdefault(f"{t.name} ({why})", []).append(cfg)
    return (f"{len(testresults.parse_ctest_junit(junit))} tests, "
            f"{bad} failed", failed)


def inv_ids(failed):
    ids, other = set(), {}
    for t in failed:
        m = re.match(r"v(\d+)_", t)
        if m:
            ids.add(int(m.group(1)))
            continue
        m = re.match(r"^([\w-]+):[\w-]+ \((.*)\)$", t)
        if m:  # a suite that did not run / crashed / timed out
            other.setdefault(f"{m.group(1)} {m.group(2)}", 0)
            other[f"{m.group(1)} {m.group(2)}"] += 1
        else:
            other[t] = 1
    return ", ".join([f"V{i}" for i in sorted(ids)] +
                     [f"[{k}]" for k in sorted(other)]) or "none"


def parse_args():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--orders", default="series,series.as-posted",
                    help="comma-separated series files (default: both)")
    ap.add_argument("--work", default=os.environ.get(
        "SERIES_CHECK_WORK", "/var/tmp/napitest-series"),
        help="scratch dir for the trees and kbuild dirs")
    ap.add_argument("--out", default=os.path.join(REPO, "build",
                                                  "series-check"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-unit", action="store_true",
                    help="skip the userspace suites")
    ap.add_argument("--no-rt", action="store_true",
                    help="skip the forced-RT compile")
    ap.add_argument("--rt-prefixes", default="all",
                    help="prefixes to compile in the forced-RT view: 'all' "
                         "(default) or e.g. 0,1,12,13,14,15")
    ap.add_argument("--timeout", type=int, default=60,
                    help="per-test CTest timeout in seconds, a hang guard "
                         "only (default 60; a suite binary takes < 1 s)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work trees and their kbuild dirs under "
                         "--work (default: deleted at the end; every run "
                         "starts from fresh copies anyway, ccache keeps it "
                         "fast)")
    ap.add_argument("--no-doc", action="store_true",
                    help="do not update kernel-src/series-check.md")
    return ap.parse_args()


def fork_points(orders, lists):
    """Where each later order forks off an earlier one: {order: (earlier
    order, last common prefix) or None}, and {(order, prefix): [the later
    orders forking there]}."""
    dig = {o: [digest(p) for p in lists[o]] for o in orders}
    fork = {}
    for i, o in enumerate(orders):
        best = (None, 0)
        for prev in orders[:i]:
            n = 0
            while (n < len(dig[o]) and n < len(dig[prev])
                   and dig[o][n] == dig[prev][n]):
                n += 1
            if n > best[1] or best[0] is None:
                best = (prev, n)
        fork[o] = best if best[0] is not None else None
    snap_at = {}
    for o, f in fork.items():
        if f:
            snap_at.setdefault(f, []).append(o)
    return fork, snap_at


def order_tag(order):
    return re.sub(r"[^A-Za-z0-9]+", "-", order)


class Order:
    """An order's work tree, its kbuild dirs, its unit build dir, its
    log."""

    def __init__(self, a, logdir, o):
        tag = order_tag(o)
        self.name = o
        self.wt = os.path.join(a.work, "trees", tag)
        self.kb = os.path.join(self.wt, "_kbuild")
        self.kb_rt = os.path.join(self.wt, "_kbuild-rt")
        self.ubuild = os.path.join(a.out, f"unit-{tag}")
        self.logf = os.path.join(logdir, f"{tag}.log")


class SeriesCheck:
    """One run, in steps: setup() (the orders, the output dirs, the tools,
    the base tree, the fork points), then per order start() (a fresh copy
    of the base, or the rows shared with the order it forks off) and per
    prefix check_prefix() (apply, kbuild, forced-RT, unit, the later
    orders' fork), then finish() (the tables)."""

    def __init__(self, a):
        self.a = a
        self.t0 = time.time()
        self.rt_set = None if a.rt_prefixes == "all" else \
            {int(x) for x in a.rt_prefixes.split(",") if x.strip()}
        self.orders = [o for o in a.orders.split(",") if o]
        self.rows = {o: [] for o in self.orders}
        self.details = []

    def setup(self):
        a = self.a
        self.lists = {o: series_list(o) for o in self.orders}
        os.makedirs(a.out, exist_ok=True)
        os.makedirs(a.work, exist_ok=True)
        self.logdir = os.path.join(a.out, "logs")
        os.makedirs(self.logdir, exist_ok=True)
        for f in os.listdir(self.logdir):
            os.unlink(os.path.join(self.logdir, f))
        for tool in ("ccache", "gcc", "make", "patch", "flex", "bison",
                     "bc"):
            if not shutil.which(tool):
                raise ToolError(f"{tool} is not installed (apt-get install "
                                "ccache flex bison bc libelf-dev)")
        log("preparing the full base tree (prepare-tree --full base)")
        self.base = prepare("base")
        if not stamp_ok(self.base):
            raise ToolError(f"cached base tree {self.base} does not verify")
        self.env = {"MAKEARGS": ["CC=ccache gcc", "HOSTCC=ccache gcc"]}
        os.environ.setdefault("CCACHE_BASEDIR", a.work)
        self.fork, self.snap_at = fork_points(self.orders, self.lists)

    def check_order(self, o):
        t = Order(self.a, self.logdir, o)
        dead = None
        for n in range(self.start(t), len(self.lists[o]) + 1):
            dead = self.check_prefix(t, n, dead)
        if not stamp_ok(self.base):
            raise ToolError(f"the cached base tree {self.base} no longer "
                            "verifies: something wrote through a hard link")

    def start(self, t):
        """The first prefix to check: after the rows shared with the order
        t forks off (its tree is the fork's copy), else 0 on a fresh copy
        of the base."""
        o = t.name
        if self.fork[o] and self.fork[o][1] > 0:
            prev, n = self.fork[o]
            if not os.path.isdir(t.wt):
                raise ToolError(f"fork of {o} from {prev} at prefix {n} "
                                "is missing")
            for r in self.rows[prev][:n + 1]:
                self.rows[o].append(dict(r, shared=f"= {prev} "
                                                   f"p{r['prefix']}"))
            return n + 1
        if os.path.isdir(t.wt):
            shutil.rmtree(t.wt)
        os.makedirs(os.path.dirname(t.wt), exist_ok=True)
        # Hard links: cheap; patch(1) replaces files, never writes
        # through them (checked at the end with the cache's stamp).
        subprocess.run(["cp", "-al", self.base, t.wt], check=True)
        return 0

    def check_prefix(self, t, n, dead):
        """Prefix n of order t, its row; the patch that did not apply
        (then and after it nothing is checked), or None."""
        o = t.name
        patch = self.lists[o][n - 1] if n else None
        name = os.path.basename(patch) if patch else "(base)"
        row = {"prefix": n, "patch": name, "shared": ""}
        self.rows[o].append(row)
        if dead:
            row.update(applies="not reached", dev="-", skb="-",
                       rtdev="-", rtskb="-", unit="-", failed={})
            return dead
        log(f"{o} prefix {n}: {name}")
        if patch:
            err = apply_patch(t.wt, patch, t.logf)
            if err:
                row.update(applies="NO", dev="-", skb="-", rtdev="-",
                           rtskb="-", unit="-", failed={})
                self.details.append(f"{o} p{n}: patch {name} does not "
                                    f"apply: {err}")
                log(f"error: patch {name} does not apply exactly to "
                    f"{o} prefix {n - 1}: {err}")
                return name
        row["applies"] = "yes" if patch else "(base)"
        where = f"{o} p{n} ({name})"
        self.build(t, n, row, where)
        self.build_rt(t, n, row, where)
        self.run_unit(t, row, where)
        for o2 in self.snap_at.get((o, n), []):
            self.fork_off(t, n, o2)
        return None

    def build(self, t, n, row, where):
        """dev.o and skbuff.o by the tree's kbuild."""
        kbuild_setup(t.wt, t.kb, self.env, t.logf)
        res = kbuild(t.wt, t.kb, self.env, t.logf, self.a.jobs)
        row["dev"], row["skb"] = res[OBJS[0]][0], res[OBJS[1]][0]
        for o2, (st, det) in res.items():
            if st == "FAIL":
                self.details.append(f"{where}: {o2} does not compile: {det}")
                log(f"{t.name} p{n}: {o2[:-2]}.c does not compile: {det}")
            elif "warning" in st:
                self.details.append(f"{where}: {o2}: {det}")

    def build_rt(self, t, n, row, where):
        """The same two in the forced-RT view, if asked for at n."""
        if self.a.no_rt or (self.rt_set is not None and
                            n not in self.rt_set):
            row["rtdev"] = row["rtskb"] = "not run"
            return
        kbuild_setup_rt(t.wt, t.kb, t.kb_rt, self.env, t.logf)
        res = kbuild(t.wt, t.kb_rt, self.env, t.logf, self.a.jobs, RT_ARGS,
                     strict=False)
        row["rtdev"], row["rtskb"] = res[OBJS[0]][0], res[OBJS[1]][0]
        for o2, (st, det) in res.items():
            if not st.startswith("ok"):
                self.details.append(f"{where}: forced-RT {o2}: {st}: {det}")
            elif "warning" in st:
                self.details.append(f"{where}: forced-RT {o2}: {det}")

    def run_unit(self, t, row, where):
        """The userspace suites on the prefix tree."""
        if self.a.no_unit:
            row["unit"], row["failed"] = "skipped", {}
            return
        st, failed = unit(t.wt, t.ubuild, t.logf, self.a.jobs,
                          self.a.timeout)
        row["unit"], row["failed"] = st, failed
        if st.startswith("BUILD FAIL"):
            self.details.append(f"{where}: unit suites: {st}")

    def fork_off(self, t, n, o2):
        """Order o2's tree: a copy of t's at prefix n."""
        ft = os.path.join(self.a.work, "trees", order_tag(o2))
        if os.path.isdir(ft):
            shutil.rmtree(ft)
        log(f"forking {o2} from {t.name} at prefix {n}")
        # Sources: hard links (patch replaces files); kbuild dir: a real
        # copy (compilers may write in place).
        subprocess.run(["cp", "-al", t.wt, ft], check=True)
        for k in (t.kb, t.kb_rt):
            kk = os.path.join(ft, os.path.basename(k))
            shutil.rmtree(kk, ignore_errors=True)
            if os.path.isdir(k):
                subprocess.run(["cp", "-a", k, kk], check=True)

    def finish(self):
        elapsed = time.time() - self.t0
        write_tables(self.a, self.orders, self.rows, self.details, elapsed)
        if not self.a.keep:
            shutil.rmtree(os.path.join(self.a.work, "trees"),
                          ignore_errors=True)
        log(f"done in {elapsed:.0f} s")


def main():
    sc = SeriesCheck(parse_args())
    sc.setup()
    for o in sc.orders:
        sc.check_order(o)
    sc.finish()
    return 0


COLS = ("order", "prefix", "last patch", "applies", "dev.o", "skbuff.o",
        "RT-forced dev.o", "RT-forced skbuff.o", "unit", "failing invariants")


def write_tables(a, orders, rows, details, elapsed):
    tsv = ["\t".join(COLS + ("failing tests",))]
    md = ["# series-check: every prefix of `series` and `series.as-posted`",
          "",
          "Generated by `make series-check` (kernel-src/series-check). "
          "Prefix N = `base` (6.1.192 + rt-base emulation) + the first N "
          "patches of the order. Build: the tree's own kbuild, "
          "x86_64_defconfig + CONFIG_RPS=y, `make net/core/dev.o "
          "net/core/skbuff.o` with ccache. **RT-forced** columns: the same "
          "kbuild command line + `-DCONFIG_PREEMPT_RT`, compile-only "
          "(Kconfig stays non-RT; not a PREEMPT_RT build). Failing "
          "invariants: `make check KSRC=<prefix tree> LABEL=unit` (every "
          "configuration), invariant IDs from the failing test names. "
          "\"= series pN\": identical patch list, built once.",
          "", f"Run time: {elapsed:.0f} s.", ""]
    for o in orders:
        md += [f"## `{o}`", "",
               "| prefix | last patch | applies | dev.o | skbuff.o | "
               "RT-forced dev.o | RT-forced skbuff.o | unit | "
               "failing invariants |",
               "|---|---|---|---|---|---|---|---|---|"]
        for r in rows[o]:
            inv = inv_ids(r["failed"]) if r["unit"] not in ("-", "skipped") \
                and not r["unit"].startswith("BUILD") else "-"
            unitst = r["unit"] + (f" ({r['shared']})" if r["shared"] else "")
            md.append(f"| {r['prefix']} | {r['patch']} | {r['applies']} | "
                      f"{r['dev']} | {r['skb']} | {r['rtdev']} | "
                      f"{r['rtskb']} | {unitst} | {inv} |")
            tests = "; ".join(f"{t}[{','.join(c)}]"
                              for t, c in sorted(r["failed"].items()))
            tsv.append("\t".join(str(x) for x in (
                o, r["prefix"], r["patch"], r["applies"], r["dev"], r["skb"],
                r["rtdev"], r["rtskb"], unitst, inv, tests)))
        md.append("")
        md += ["### Failing tests per prefix", ""]
        prev = None
        for r in rows[o]:
            if r["unit"] in ("-", "skipped"):
                continue
            cur = sorted(r["failed"].items())
            if cur == prev:
                md.append(f"* p{r['prefix']}: same as above")
                continue
            prev = cur
            md.append(f"* p{r['prefix']} ({r['patch']}): " +
                      ("none" if not cur else ", ".join(
                          f"`{t}` [{','.join(c)}]" for t, c in cur)))
        md.append("")
    if details:
        md += ["## Build and apply details", ""] + \
              [f"* {d}" for d in details] + [""]
    text = "\n".join(md)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "table.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    if not a.no_doc:
        with open(os.path.join(HERE, "series-check.md"), "w") as f:
            f.write(text)
    # The short table on stdout.
    w = "{:<18} {:>3} {:<58} {:<7} {:<16} {:<16} {:<8} {:<8} {}"
    print(w.format("order", "N", "last patch", "applies", "dev.o",
                   "skbuff.o", "RT dev", "RT skb", "failing invariants"))
    for o in orders:
        for r in rows[o]:
            inv = inv_ids(r["failed"]) if r["unit"] not in ("-", "skipped") \
                and not r["unit"].startswith("BUILD") else r["unit"]
            print(w.format(o, r["prefix"], r["patch"][:58], r["applies"],
                           r["dev"], r["skb"], r["rtdev"], r["rtskb"], inv))
    print(f"\nwritten: {a.out}/table.md, {a.out}/table.tsv"
          + ("" if a.no_doc else f", {HERE}/series-check.md"))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ToolError as e:
        log(f"error: {e}")
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
