#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hunk guard matrix: leave out each hunk of kernel-src/patches/series in
turn and show which unit test fails.

For each hunk H of patch P:
  tree(H) = base + series, with P applied without H (patch --fuzz=0; line
            offsets allowed, because leaving a hunk out shifts later lines).
  If a later patch no longer applies, H is *entangled*: tree(H) is then the
  patched tree with H alone reverse-applied.  If that fails too, H is
  entangled-unrevertible (listed, not run).
Then, mechanically:
  * extraction (kernel-src/extract.py, #line stripped) identical to the
    patched tree's -> equivalent (comment-only if the files are equal with
    comments/whitespace removed, else outside-extraction: the change is in
    code no suite compiles);
  * same definitions in another order -> equivalent (code motion);
  * equal after renaming the identifiers H renames -> equivalent (rename);
  * otherwise build + run the suites, config by config (rt-rps first), suite
    by suite (a fixed order: cheap suites first, the explorer last), the
    binary that killed the same variant on the same inputs, or its
    dead-code check, first (hunk-matrix/kill-order.tsv), stopping at the
    first failing test that passes on the patched tree (--full: run all,
    in the fixed order).
Equivalent hunks must be listed in hunk-matrix/equivalent.md and vice versa.

Every verdict is counted, never timed: a variant that hangs the simulation
fails by the simulator's step-counted watchdog.  A suite binary still
running after HM_HANG_GUARD seconds (default 60, some 50 times the slowest
quiet run) is a "hang (wall-clock guard)": not a kill, not a pass, not an
equivalence.

Exit status: 1 if a non-equivalent hunk survives (they are listed), 3 if a
hunk's result is a hang of the wall-clock guard, 2 if equivalent.md
disagrees with the mechanical check, 0 otherwise.
"""

import argparse
import concurrent.futures as cf
import os
import re
import shutil
import sys
import threading
import time

import hmlib as H
import napitest.extract
import napitest.hunks as HL
import napitest.invariants as INV
import napitest.kill_order as kill_order
import napitest.markdown as markdown
import napitest.matrix_tsv as matrix_tsv
import napitest.patches
import napitest.series
from napitest.patches import render

OUT = os.path.join(H.ROOT, "build", "hunk-matrix")
HERE = os.path.dirname(os.path.abspath(__file__))


class Hunk:
    def __init__(self, patch, pnum, idx, fidx, path, header, lines,
                 new_start):
        self.patch, self.pnum, self.idx = patch, pnum, idx
        self.fidx, self.path, self.header = fidx, path, header
        self.lines, self.new_start = lines, new_start
        self.id = f"{pnum}.{idx}"
        self.func = ""
        self.result = ""
        self.method = "omitted"
        self.killers = set()
        self.detail = ""
        self.seconds = 0.0

    def text(self):
        return self.header + "".join(self.lines)


def apply(tree, text, reverse=False):
    if not text:
        return True, ""
    # --fuzz=0, offsets allowed: later hunks move when one is left out.
    r = H.sh(napitest.patches.command(tree, reverse=reverse, exact=False),
             input=text)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def change_runs(lines):
    """[(removed, added)] per run of -/+ lines of a hunk body, stripped."""
    runs, cur = [], None
    for ln in lines:
        if ln[:1] in "-+":
            if cur is None:
                cur = ([], [])
                runs.append(cur)
            (cur[0] if ln[0] == "-" else cur[1]).append(ln[1:].strip())
        else:
            cur = None
    return runs


def replace_blocks(files, group):
    """The files with every change run of the group's hunks undone where
    its added lines occur exactly once (whitespace aside) in the file, or
    None.  Pure deletions cannot be located and are not undone."""
    out = dict(files)
    for h in group:
        text = out[h.path].split("\n")
        stripped = [t.strip() for t in text]
        for removed, added in change_runs(h.lines):
            if not added:
                return None
            n = len(added)
            at = [i for i in range(len(text) - n + 1)
                  if stripped[i:i + n] == added]
            if len(at) != 1:
                return None
            indent = re.match(r"\s*", text[at[0]]).group(0)
            text[at[0]:at[0] + n] = [indent + r for r in removed]
            stripped[at[0]:at[0] + n] = removed
        out[h.path] = "\n".join(text)
    return out


def irq_normal(ext):
    """The extraction with spin_lock_irqsave(l, f)/spin_unlock_irqrestore(l, f)
    written as spin_lock_irq(l)/spin_unlock_irq(l) and the flags variables
    dropped: equal results mean the two differ only in saving the IRQ state,
    which changes nothing for a caller that runs with IRQs enabled."""
    out = {}
    for k, v in ext.items():
        v = re.sub(r"\bspin_lock_irqsave\(([^,()]+),\s*\w+\)",
                   r"spin_lock_irq(\1)", v)
        v = re.sub(r"\bspin_unlock_irqrestore\(([^,()]+),\s*\w+\)",
                   r"spin_unlock_irq(\1)", v)
        out[k] = re.sub(r"^\s*unsigned long flags;\n", "", v, flags=re.M)
    return out


def copy_files(src, dst):
    for f in H.TREE_FILES:
        os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
        shutil.copyfile(os.path.join(src, f), os.path.join(dst, f))


def changed_lines(hunk):
    """New-side line numbers the hunk adds, or around which it deletes."""
    n, out = hunk.new_start, set()
    for ln in hunk.lines:
        if ln.startswith("+"):
            out.add(n)
            n += 1
        elif ln.startswith("-"):
            out |= {max(n - 1, 1), n}
        elif ln.startswith(" "):
            n += 1
    return out


def rename_map(hunk):
    """Identifier pairs old->new from -/+ line pairs that differ only in
    identifiers (empty if the hunk is not a pure rename)."""
    minus = [ln[1:] for ln in hunk.lines if ln.startswith("-")]
    plus = [ln[1:] for ln in hunk.lines if ln.startswith("+")]
    if not minus or len(minus) != len(plus):
        return {}
    tok = re.compile(r"[A-Za-z_]\w*|\S")
    m = {}
    for a, b in zip(minus, plus):
        ta, tb = tok.findall(a), tok.findall(b)
        if len(ta) != len(tb):
            return {}
        for x, y in zip(ta, tb):
            if x == y:
                continue
            if not (re.match(r"[A-Za-z_]", x) and re.match(r"[A-Za-z_]", y)):
                return {}
            if m.get(x, y) != y:
                return {}
            m[x] = y
    return m


def apply_map(ext, m):
    if not m:
        return ext
    rx = re.compile(r"\b(" + "|".join(map(re.escape, m)) + r")\b")
    return {k: rx.sub(lambda mo: m[mo.group(1)], v) for k, v in ext.items()}


def load_equivalent_md():
    """{hunk id: justification} from hunk-matrix/equivalent.md table rows."""
    p = os.path.join(HERE, "equivalent.md")
    out = {}
    if not os.path.exists(p):
        return out
    for line in open(p):
        m = re.match(r"\|\s*(\d+\.\d+)\s*\|([^|]*)\|([^|]*)\|(.*)\|\s*$", line)
        if m:
            out[m.group(1)] = (m.group(2).strip(), m.group(4).strip())
    return out


DEAD = ("dead code: compiled objects identical (-fkeep-static-functions, "
        f"__LINE__/__FILE__ neutralised) in the {len(H.CONFIGS)} "
        "configurations")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", "-j", type=int, default=2,
                    help="workers (each builds with ninja -j1)")
    ap.add_argument("--full", action="store_true",
                    help="run every configuration and suite for each hunk "
                         "(complete list of killing tests)")
    ap.add_argument("--no-groups", action="store_true",
                    help="do not look for a buildable group (neighbour hunk, "
                         "whole patch) for hunks whose omission does not build")
    ap.add_argument("--classify-only", action="store_true",
                    help="stop after the mechanical classification")
    ap.add_argument("--only", help="comma-separated hunk ids (e.g. 14.3)")
    ap.add_argument("--build-reports-only", action="store_true",
                    help="write the reports to build/hunk-matrix only, not "
                         "the committed hunk-matrix/matrix.md and guards.tsv "
                         "(as --only does; hunk-matrix/bench)")
    return ap.parse_args()


def equivalence(h, ext, pgen, files, reff, pre, patched_files):
    """(result, why) of a hunk's extraction ext against its reference's
    pgen: "equivalent" and the kind of equivalence, or "run" and ""."""
    m = rename_map(h)

    def wordin(w, fs):
        return any(re.search(r"\b%s\b" % re.escape(w), t)
                   for t in fs.values())
    # A rename: every old name is gone from the patched tree and every
    # new name did not exist before the patch.
    if m and (any(wordin(a, patched_files) for a in m) or
              any(wordin(b, pre) for b in m.values())):
        m = {}
    if H.nolines(ext) == H.nolines(pgen):
        same = all(H.strip_comments_ws(files[f]) ==
                   H.strip_comments_ws(reff[f]) for f in H.TREE_FILES)
        if same:
            return "equivalent", ("comment-only: the files are equal without "
                                  "comments and whitespace")
        if m:
            return "equivalent", ("rename (outside the extraction): " +
                                  ", ".join(f"{a}->{b}"
                                            for a, b in m.items()))
        return "equivalent", ("outside-extraction: extract.py output "
                              "identical (#line stripped); no suite compiles "
                              "the change")
    if H.extraction_chunks(ext) == H.extraction_chunks(pgen):
        return "equivalent", ("code-motion: the same definitions, in another "
                              "order")
    if m and H.extraction_chunks(apply_map(ext, m), ("present.h",), True) == \
            H.extraction_chunks(apply_map(pgen, m), ("present.h",), True):
        return "equivalent", ("rename: equal extraction after renaming " +
                              ", ".join(f"{a}->{b}" for a, b in m.items()))
    if H.extraction_chunks(irq_normal(ext), ("present.h",), True) == \
            H.extraction_chunks(irq_normal(pgen), ("present.h",), True):
        return "equivalent", ("irqsave-only: equal extraction once "
                              "spin_lock_irqsave/irqrestore are read as "
                              "spin_lock_irq/unlock_irq (the same when "
                              "entered with IRQs on)")
    return "run", ""


class Matrix:
    """One run of the matrix, in steps: parse() the series into its
    states and hunks, classify() every hunk (its tree, its extraction, the
    mechanical equivalences), start() the workers on the patched tree's
    baseline, run() the rest, then cross_check() and report()."""

    # say(): the lines of the hunk evaluate() evaluates in this thread
    lines = threading.local()

    def __init__(self, args):
        self.args = args
        self.t0 = time.time()
        self.timing = {}
        # CPU time per phase (hmlib.cpu(): user+sys of the run and its
        # children), logged beside the wall clock: the figure that
        # carries over to another load
        self.cpu = {}
        self.c0 = H.cpu()
        self.scratch = os.path.join(H.SCRATCH, "matrix")
        shutil.rmtree(self.scratch, ignore_errors=True)
        os.makedirs(self.scratch)
        os.makedirs(OUT, exist_ok=True)
        # extractions of the references (patched tree, prefixes)
        self.ref_gen = {}
        self.ref_lock = threading.Lock()
        # per-worker prefix trees, their baselines, evaluated variants,
        # the references' objects: each computed once (H.Once), even
        # when two workers need it at the same time
        self.refs = H.Once()
        self.ref_cache = H.Once()
        self.memo = H.Once()
        self.ref_objs = H.Once()
        self.objs_memo = H.Once()
        self.group_trees = H.Once()  # group_guard()
        # verdicts of earlier runs with the same inputs
        self.cache = H.verdicts()
        self.reused = self.n_run = 0
        # whether a verdict was not stored: it met the wall-clock guard,
        # or may not be a function of its inputs (Worker.unstable)
        self.hung = False
        self.workers = []
        self.early = self.early_result = None  # start_early()
        self.order = H.KillOrder(H.suites())
        # kill-order.tsv's rows: the binary that killed each variant, or
        # its dead-code check, and the digest of the inputs it was found
        # on; first on the same inputs (run_variant()); none with --full,
        # which runs every binary
        try:
            self.hints = {} if args.full else \
                kill_order.read(os.path.join(HERE, "kill-order.tsv"))
        except napitest.Error as e:
            raise SystemExit(f"hunk-matrix: error: {e} (make hunk-matrix "
                             "writes it again once it is removed)") from None

    # -- parse ------------------------------------------------------------

    def parse_inputs(self):
        """The trees (base and patched) and the series' names: with the
        repository, the system and the mode, every input of the run
        (run_key())."""
        self.base = H.prepare_tree("base")
        self.patched = H.prepare_tree("patched")
        self.base_files = H.read_files(self.base)
        self.patched_files = H.read_files(self.patched)
        self.series = napitest.series.names(os.path.join(H.PATCHES,
                                                         "series"))

    def parse(self):
        """The series' states after each prefix, the hunks (all, and
        those --only keeps)."""
        self.parsed = [napitest.patches.parse(os.path.join(H.PATCHES, p))
                       for p in self.series]
        self.apply_states()
        self.all_hunks = self.locate_hunks()
        self.hunks = self.all_hunks
        if self.args.only:
            want = set(self.args.only.split(","))
            self.hunks = [h for h in self.hunks if h.id in want]
        self.timing["parse"] = time.time() - self.t0
        self.cpu["parse"] = H.cpu() - self.c0

    def apply_states(self):
        """States after each prefix of the series: states[k] is base +
        the first k patches."""
        self.states = [os.path.join(self.scratch, "state", "00")]
        copy_files(self.base, self.states[0])
        for k, p in enumerate(self.series):
            d = os.path.join(self.scratch, "state", f"{k + 1:02d}")
            copy_files(self.states[-1], d)
            ok, err = apply(d, render(self.parsed[k]))
            if not ok:
                raise SystemExit(f"{p} does not apply in sequence: {err}")
            self.states.append(d)
        if H.read_files(self.states[-1]) != self.patched_files:
            raise SystemExit("base + series differs from prepare-tree patched")
        self.state_files = [H.read_files(d) for d in self.states]

    def locate_hunks(self):
        """Every hunk of the series, named after the definitions (ctags on
        the state its patch leaves) its changed lines fall in."""
        manifest = H.manifest_names()
        hunks = []
        for k, p in enumerate(self.series):
            pnum = p[:4].lstrip("0") or "0"
            idx = 0
            ctags_cache = {}
            for fi, (_, rel, hs) in enumerate(self.parsed[k]):
                for hi, (hdr, body, ns) in enumerate(hs):
                    idx += 1
                    h = Hunk(p, pnum, idx, (fi, hi), rel, hdr, body, ns)
                    h.k = k
                    if rel not in ctags_cache:
                        ctags_cache[rel] = H.ctags_defs(self.states[k + 1],
                                                        rel)
                    cl = changed_lines(h)
                    names = []
                    for name, kind, s, e in ctags_cache[rel]:
                        if kind == "prototype":
                            continue
                        if any(s <= x <= e for x in cl) and name not in names:
                            names.append(name)
                    h.func = ",".join(
                        n + ("" if n in manifest else "(not in manifest)")
                        for n in names) or "(top level)"
                    hunks.append(h)
        return hunks

    # -- trees + extraction -----------------------------------------------

    def make_tree(self, k, group, d):
        """Tree = base + series with the hunks of group (all of patch k) left
        out.  Returns (method, prefix, why): prefix is None when the tree is
        a variant of the patched tree, else the prefix it is a variant of;
        why is the first later patch's failure, when there was one."""
        skip = {g.fidx for g in group}
        shutil.rmtree(d, ignore_errors=True)
        copy_files(self.states[k], d)
        ok, err = apply(d, render(self.parsed[k], skip))
        for j in range(k + 1, len(self.series)):
            if not ok:
                break
            ok, err = apply(d, render(self.parsed[j]))
            if not ok:
                err = f"{self.series[j]}: {err.splitlines()[0] if err else ''}"
        if ok:
            return "omitted", None, ""
        why = err
        # 1. the hunks alone, reverse-applied exactly on the patched tree
        if self.reverse_applied(k, skip, d):
            return "entangled (reverse-applied on the patched tree)", None, why
        # 2. three-way merge of "prefix k+1 -> prefix k+1 without the hunks"
        #    onto the patched tree (diff3 -m, no conflict allowed)
        rev = d + ".rev"
        if self.merged(k, skip, d, rev):
            return "entangled (3-way merged onto the patched tree)", None, why
        # 3. its changed lines, found once each in the patched tree (later
        #    patches moved or re-indented them), put back as they were
        blocks = replace_blocks(self.patched_files, group)
        if blocks is not None:
            H.write_files(d, blocks, only_changed=False)
            return ("entangled (its added lines replaced in the patched "
                    "tree)", None, why)
        # 4. test at the longest prefix that still applies without the
        #    hunks (the next patch rewrites their lines)
        prefix = self.longest_prefix(k, rev)
        shutil.rmtree(d)
        shutil.copytree(rev, d)
        return (f"entangled (tested at prefix {prefix:02d}: "
                f"{self.series[prefix][:4] if prefix < len(self.series) else 'nothing'}"
                " rewrites its lines)", prefix, why)

    def reverse_applied(self, k, skip, d):
        """d := the patched tree with the hunks skip of patch k reverse-
        applied exactly; whether they applied."""
        copy_files(self.states[-1], d)
        parsed = self.parsed[k]
        one = "".join(
            "".join(parsed[fi][0]) +
            "".join(hdr + "".join(body)
                    for hi, (hdr, body, _) in enumerate(parsed[fi][2])
                    if (fi, hi) in skip)
            for fi in sorted({f for f, _ in skip}))
        ok, _ = apply(d, one, reverse=True)
        return ok

    def merged(self, k, skip, d, rev):
        """rev := prefix k + patch k without the hunks skip; d := the
        change from prefix k+1 to rev merged onto the patched tree, when
        diff3 merges every file without a conflict (returns whether)."""
        shutil.rmtree(rev, ignore_errors=True)
        copy_files(self.states[k], rev)
        apply(rev, render(self.parsed[k], skip))
        revf = H.read_files(rev)
        merged = {}
        for f in H.TREE_FILES:
            if revf[f] == self.state_files[k + 1][f]:
                merged[f] = self.patched_files[f]
                continue
            r = H.sh(["diff3", "-m", os.path.join(self.patched, f),
                      os.path.join(self.states[k + 1], f),
                      os.path.join(rev, f)])
            if r.returncode != 0:
                return False
            merged[f] = r.stdout
        H.write_files(d, merged, only_changed=False)
        return True

    def longest_prefix(self, k, rev):
        """Apply the patches after k to rev while they apply (each whole:
        patch(1) applies file by file, so try on a copy); the prefix
        reached."""
        prefix = k + 1
        while prefix < len(self.series):
            nxt = rev + ".next"
            shutil.rmtree(nxt, ignore_errors=True)
            shutil.copytree(rev, nxt)
            if not apply(nxt, render(self.parsed[prefix]))[0]:
                shutil.rmtree(nxt)
                break
            shutil.rmtree(rev)
            os.rename(nxt, rev)
            prefix += 1
        return prefix

    def reference(self, prefix):
        """(extraction, gen dir) of the patched tree or of a prefix."""
        key = prefix if prefix is not None else len(self.series)
        with self.ref_lock:
            if key not in self.ref_gen:
                gd = os.path.join(self.scratch, "ref-gen", f"{key:02d}")
                ext, err = H.extract(self.states[key] if prefix is not None
                                     else self.patched, gd)
                if ext is None:
                    raise SystemExit(f"extraction failed on {key}: {err}")
                self.ref_gen[key] = (ext, gd)
            return self.ref_gen[key]

    def classify_one(self, h, group=None, tag=None):
        """Make h's tree (or, with a tag, the tree without its group) and
        extract it.  Without a tag: set h's method, prefix, files, gen and
        result (equivalent, or run).  With a tag: return (files, prefix,
        whether the extraction is a code motion of the reference's, gen)."""
        group = group or [h]
        d = os.path.join(self.scratch, "hunk", tag or h.id, "tree")
        method, prefix, why = self.make_tree(h.k, group, d)
        if tag is None:
            h.method, h.prefix = method, prefix
            if why:
                h.detail = why
        files = H.read_files(d)
        pgen, _ = self.reference(prefix)
        reff = (self.patched_files if prefix is None
                else self.state_files[prefix])
        gdir = os.path.join(os.path.dirname(d), "gen")
        ext, err = H.extract(d, gdir)
        if tag is not None:
            motion = (ext is not None and H.nolines(ext) != H.nolines(pgen)
                      and H.extraction_chunks(ext) ==
                      H.extraction_chunks(pgen))
            return files, prefix, motion, gdir
        h.files, h.gen = files, gdir
        if ext is None:
            h.result = "run"
            return
        h.result, equiv = equivalence(h, ext, pgen, files, reff,
                                      self.state_files[h.k],
                                      self.patched_files)
        if h.result == "equivalent":
            h.equiv = equiv

    def classify(self):
        t, c = time.time(), H.cpu()
        with cf.ThreadPoolExecutor(max(2, self.args.jobs)) as ex:
            list(ex.map(self.classify_one, self.hunks))
        self.timing["trees+extraction"] = time.time() - t
        self.cpu["trees+extraction"] = H.cpu() - c

    def print_classification(self):
        for h in self.hunks:
            H.log(f"{h.id:6} {h.result:12} {h.method[:50]:50} "
                  f"{h.func[:30]:30} {getattr(h, 'equiv', '')[:50]}")

    # -- a whole run's record ---------------------------------------------

    # A hunk's attributes a report reads (not its files, not its gen dir).
    # (seconds_put_back: _evaluate() takes it; never in a record)
    RECORD_SKIP = ("files", "gen", "seconds_put_back")

    def run_key(self):
        """The key of the whole run's result: the base and patched trees'
        files, the mode (the repository, with the series' patches, and
        the system are in every key: napitest.verdict_cache)."""
        a = self.args
        return self.cache.key("run", self.base_files, self.patched_files,
                              f"full={a.full} no_groups={a.no_groups} "
                              f"only={a.only}",
                              "kill-order:" + repr(sorted(self.hints.items())))

    def replay_run(self):
        """Whether an earlier run with the same inputs left its result:
        its hunks, their verdicts and the baseline's failing tests are
        then read back (no tree made, nothing extracted, built or run)."""
        t, c = time.time(), H.cpu()
        rec = self.cache.get(self.run_key())
        if rec is None:
            return False
        self.hunks = []
        for d in rec["hunks"]:
            h = Hunk.__new__(Hunk)
            h.__dict__.update(d)
            h.fidx = tuple(h.fidx)
            for k in ("killers", "group_killers"):
                if k in d:
                    setattr(h, k, set(d[k]))
            self.hunks.append(h)
        self.all_hunks = self.hunks
        self.base_fail = set(rec["base_fail"])
        self.reused = self.n_run = rec["n_run"]
        self.timing["run reused"] = time.time() - t
        self.cpu["run reused"] = H.cpu() - c
        H.log(f"hunk-matrix: every verdict read back ({len(self.hunks)} "
              "hunks): an earlier run had the same inputs")
        return True

    def store_run(self):
        """Keep the run's result by its inputs (run_key()), unless a
        verdict met the wall-clock hang guard (not stored: a quieter run
        may give another)."""
        if self.hung or any(h.result == "hang" for h in self.hunks):
            return
        hunks = []
        for h in self.hunks:
            d = {k: v for k, v in h.__dict__.items()
                 if k not in self.RECORD_SKIP}
            for k in ("killers", "group_killers"):
                if k in d:
                    d[k] = sorted(d[k])
            hunks.append(d)
        self.cache.put(self.run_key(), {"hunks": hunks,
                                        "base_fail": sorted(self.base_fail),
                                        "n_run": self.n_run})

    # -- baseline ---------------------------------------------------------

    def start(self, todo):
        """Workers built on the patched tree and the failing tests of its
        cheap suites (KillOrder.cheap(): every suite but the explorer's),
        when some hunk needs them: from the verdict cache when an earlier
        run had the same inputs (the workers then build only what a
        variant needs).  The explorer's binaries are built but not run:
        a variant whose explorer run fails asks for the patched tree's
        (patched_baseline()), and most variants never run the explorer
        (killed by a cheap suite, or dead code)."""
        t, c = time.time(), H.cpu()
        key = self.baseline_key()
        if self.early is not None:
            # started beside classify() (start_early())
            self.early.join()
            self.early = None
            if isinstance(self.early_result, BaseException):
                raise self.early_result
            self.workers, self.base_fail = self.early_result
            self.cache.put(key, sorted(self.base_fail))
            self.timing["baseline build (after trees+extraction)"] = \
                time.time() - t
            return
        known = self.cache.get(key)
        if known is not None and not todo:
            self.base_fail = set(known)
            return
        self.workers, self.base_fail = H.start_workers(
            min(self.args.jobs, max(1, len(todo))), self.patched_files,
            base_fail=known, only=self.cheap())
        self.cache.put(key, sorted(self.base_fail))
        self.timing["baseline build"] = time.time() - t
        self.cpu["baseline build"] = H.cpu() - c

    def baseline_key(self):
        # Not "baseline": what that kind keeps is every suite's.
        return self.cache.key("baseline-cheap", self.patched_files)

    def start_early(self):
        """start()'s workers and baseline, in a thread beside parse() and
        classify() (both keep the CPUs only partly busy alone: the trees'
        patch runs and extractions, one ninja -j1 per worker), when no
        earlier run left the baseline (then there are variants to build
        and run: the whole run was not replayed).  The same workers and
        the same baseline as start() builds after classify(), -j of
        them; start() takes them.  The CPU time of both is counted in
        parse's and trees+extraction's."""
        if self.cache.get(self.baseline_key()) is not None:
            return
        n = self.args.jobs
        if self.args.only:  # no more workers than hunks asked for
            n = min(n, len(self.args.only.split(",")))

        def go():
            try:
                self.early_result = H.start_workers(
                    n, self.patched_files, only=self.cheap())
            except BaseException as e:  # start() raises it
                self.early_result = e
        # Not a daemon: a failure of classify() waits for its builds, as
        # start()'s own workers would, rather than leave ninja running in
        # the scratch build dirs after the run.
        self.early = threading.Thread(target=go)
        self.early.start()

    def ref_files(self, prefix):
        """The files of a hunk's reference: the patched tree's, or the
        prefix's it is tested at."""
        return (self.patched_files if prefix is None
                else self.state_files[prefix])

    def ref_worker(self, w, prefix):
        """The worker's own reference worker (w<10+i>), for a
        reference's binaries, so the worker's tree is not switched."""
        def make_ref():
            ref = H.Worker(10 + w.idx, self.ref_files(prefix))
            ref.configure()
            return ref
        return self.refs.get(w.idx, make_ref)

    def cheap(self):
        """The suites whose patched-tree baseline start() runs (the
        order's cheap ones, KillOrder.cheap()); None: every one (an
        order that does not say)."""
        return getattr(self.order, "cheap", None)

    def patched_baseline(self, w):
        """The patched tree's failing tests per binary, for a variant
        evaluated on w: the cheap suites' from start(); an explorer's
        binary's built and run on w's reference worker when a variant
        first asks for it (a run of that binary failed), once per run,
        and kept in the verdict cache by itself (kind "baseline-binary":
        start()'s entry never stands for it)."""
        cheap = self.cheap() or (lambda suite: True)

        def probe(suite, cfg):
            key = self.cache.key("baseline-binary", f"{suite}-{cfg}",
                                 self.patched_files)

            def compute():
                ref = self.ref_worker(w, None)
                ref.unstable = ""
                r = ref.probe(self.patched_files, suite, cfg,
                              self.reference(None)[1])
                if ref.unstable:  # not stored, nor the run's record
                    self.hung = True
                return sorted(r if r is not None
                              else {f"{suite}:{cfg}:(no build)"}), \
                    bool(ref.unstable)
            got = set(self.cache.verdict(key, compute))
            with self.ref_lock:
                self.base_fail = self.base_fail | got
            return got

        def base(suite, cfg):
            if cheap(suite):
                return self.base_fail
            return self.ref_cache.get((None, suite, cfg),
                                      lambda: probe(suite, cfg))
        return base

    def prefix_baseline(self, w, prefix):
        """Lazy per-binary baseline of a prefix, on the worker's own
        reference tree (w<10+i>), so the worker's tree is not switched."""
        ref = self.ref_worker(w, prefix)

        def probe(suite, cfg):
            r = ref.probe(self.state_files[prefix], suite, cfg,
                          self.reference(prefix)[1])
            return r if r is not None else {f"{suite}:{cfg}:(no build)"}

        def base(suite, cfg):
            return self.ref_cache.get((prefix, suite, cfg),
                                      lambda: probe(suite, cfg))
        return base

    # -- build + run ------------------------------------------------------

    def run_variant(self, w, files, prefix, gen=None, dead=None, hint=None):
        """(result, killers, detail, inputs) of one tree: inputs, a digest
        of everything its verdict depends on (the verdict cache's key:
        the tree's extraction, its reference, the repository and the
        system), which kill-order.tsv keeps with the binary that killed
        it.  hint: that file's row for this variant, (suite, cfg,
        inputs), or None: its binary is run first when inputs are the
        same (first= of Worker.evaluate()), so that the result is the one
        recorded, which the fixed order gave (or a run before it, on the
        same inputs); with other inputs the hint is stale and the fixed
        order decides.  The same tree comes back (every hunk of a patch
        tries the whole patch left out): evaluated once per first binary,
        by the first worker that needs it (another that needs it
        meanwhile waits for its result).  w None: from the verdict cache
        only (H.Miss when it lacks it)."""
        what, inputs, first = self.hint_for(files, prefix, gen, dead, hint)
        # (while another worker evaluates it, this one takes another hunk
        # when there is one: H.run_pool())
        return self.memo.get((prefix, what, dead is not None, first),
                             lambda: self.variant_verdict(
                                 w, files, prefix, gen, what, dead,
                                 first), defer=H.may_defer()) + (inputs,)

    def hint_for(self, files, prefix, gen, dead, hint):
        """(what, inputs, first) of a variant for run_variant(): what it
        builds (its extraction, or its files), the digest of its inputs,
        and the binary its hint names when the hint's inputs are those
        (None otherwise: no hint, or a stale one)."""
        what = extraction_digest(gen) or "files:" + H.files_digest(files)
        inputs = self.variant_key(what, prefix, dead)[:16]
        first = tuple(hint[:2]) if hint and hint[2] == inputs else None
        if hint:
            # kill_order_line(): each row looked at, by its inputs
            self.__dict__.setdefault("rows_seen", {})[inputs] = \
                first is not None
        return what, inputs, first

    def kill_order_line(self):
        """How many of kill-order.tsv's rows this run looked at were on
        their inputs (None: it looked at none: every verdict read back,
        or --full).  A stale row is not wrong, only slower: its variant
        runs in the fixed order."""
        seen = getattr(self, "rows_seen", {})
        if not seen:
            return None
        fresh = sum(seen.values())
        line = (f"kill-order.tsv: {fresh} of {len(seen)} rows looked at "
                "were written on these inputs")
        if fresh < len(seen):
            line += ("; the others' inputs changed (the repository or the "
                     "system's packages), and their variants ran in the "
                     "fixed order, slower (make hunk-matrix writes the "
                     "rows again)")
        return line

    def variant_key(self, what, prefix, dead, *more):
        """The verdict cache's key of a variant (variant_verdict())."""
        kind = "variant-full" if self.args.full else "variant"
        return self.cache.key(kind + ("-dead" if dead else ""), what,
                              str(prefix), self.ref_files(prefix), *more)

    def variant_verdict(self, w, files, prefix, gen, what, dead=None,
                        first=None):
        """run_variant()'s verdict: from the verdict cache, else built and
        run (and stored, unless a binary met the wall-clock guard).  By
        what is built (the extraction, which is all a build compiles of
        the tree: two trees whose extractions are byte for byte the same
        give the same binaries), else by the tree's files (no
        extraction: its error is the verdict)."""
        key = self.variant_key(what, prefix, dead, "first:" + repr(first))

        def compute():
            if w is None:
                raise H.Miss()
            bl = (self.patched_baseline(w) if prefix is None
                  else self.prefix_baseline(w, prefix))
            res, killers, detail = w.evaluate(files, bl, self.order,
                                              full=self.args.full, gen=gen,
                                              dead=dead and (lambda: dead(w)),
                                              first=first)
            # not stored: a hang, or a verdict that may not be a
            # function of its inputs (Worker.unstable)
            keep = not (w.hung or w.unstable)
            if not keep:
                self.hung = True
            return [res, sorted(killers), detail], not keep
        res, killers, detail = self.cache.verdict(key, compute)
        return res, set(killers), detail

    def dead_before_explorer(self, h):
        """run_variant()'s dead callback for h (None: none): its
        extraction differs from its reference's (the patched tree's) in
        the code all.c compiles alone (all.c and the extracted .c files
        it includes: extracted/net/core/dev.c, ...), #line directives
        aside, so that every suite binary compiles the reference's code
        but for all.c; then whether all.c compiles to the reference's
        objects (same_objects()).  Not with --full (every suite's list
        of killing tests)."""
        if self.args.full or h.prefix is not None or not h.gen:
            return None
        ext = read_extraction(h.gen)
        ref = self.reference(None)[0]
        if ext is None or H.nolines(headers(ext)) != H.nolines(headers(ref)):
            return None
        return lambda w: self.same_objects(w, h)

    def same_objects(self, w, h):
        """_same_objects(), once per hunk and run."""
        return self.objs_memo.get(h.id, lambda: self._same_objects(w, h))

    def _same_objects(self, w, h):
        """Whether h's extraction compiles to the objects of its
        reference's in every configuration: compared configuration by
        configuration, stopping at the first that differs; the
        reference's objects are compiled once per run.  From the verdict
        cache when an earlier run had the same inputs (w None: only
        from there)."""
        key = self.cache.key("objects", h.files, str(h.prefix),
                             self.ref_files(h.prefix))

        def compute():
            if w is None:
                raise H.Miss()
            for cfg, obj in w.objects_each(h.gen, h.id):
                if obj is None or obj != self.ref_objects(w, h.prefix, cfg):
                    return False, False
            return True, False
        return self.cache.verdict(key, compute)

    def ref_objects(self, w, prefix, cfg):
        """The reference's (patched tree's, or a prefix's) object in cfg
        (Worker.objects_each()), None when it does not compile; compiled
        on first use, configuration by configuration: a comparison stops
        at the first configuration that differs (rt-rps for nearly every
        hunk at a prefix), and the reference's other configurations are
        then never compiled."""
        def one():
            for _, obj in w.objects_each(self.reference(prefix)[1],
                                         f"ref-{prefix}", [cfg]):
                return obj
        # rps-threads compiles rps's kernel (Worker.kernel_of())
        return self.ref_objs.get((prefix, w.kernel_of(cfg)), one)

    def replay(self, todo):
        """The hunks whose every verdict the cache holds (an earlier run
        with the same inputs), evaluated from it without a worker; returns
        the others, to build and run."""
        t, c = time.time(), H.cpu()
        self.n_run = len(todo)
        left = []
        for h in todo:
            saved = dict(h.__dict__)
            try:
                self.evaluate(None, h)
            except H.Miss:
                h.__dict__.clear()
                h.__dict__.update(saved)
                left.append(h)
            else:
                self.reused += 1
        self.timing["verdicts reused"] = time.time() - t
        self.cpu["verdicts reused"] = H.cpu() - c
        return left

    def evaluate(self, w, h):
        """h's verdict (_evaluate()).  Put back (H.Busy: another worker
        is evaluating a tree it needs) it is as before, and it has logged
        nothing: evaluated again later, it logs its lines once."""
        saved = dict(h.__dict__)
        self.lines.said = []
        t = time.time()
        try:
            self._evaluate(w, h)
        except H.Busy:
            h.__dict__.clear()
            h.__dict__.update(saved)
            # its time so far, which h.seconds counts too
            h.seconds_put_back = time.time() - t
            raise
        finally:
            said, self.lines.said = self.lines.said, None
        for ln in said:
            H.log(ln)

    def say(self, line):
        """Log a line of the hunk evaluate() evaluates, once it is done."""
        if getattr(self.lines, "said", None) is None:
            H.log(line)
        else:
            self.lines.said.append(line)

    @staticmethod
    def started(h):
        """When h's evaluation started, for h.seconds: now, less the time
        it took before it was put back (evaluate())."""
        return time.time() - h.__dict__.pop("seconds_put_back", 0.0)

    def _evaluate(self, w, h):
        ts, cs = self.started(h), H.cpu()
        # At a prefix every suite is rebuilt against other declarations:
        # compare the compiled objects first, which is cheaper; not for a
        # variant kill-order.tsv has killed on the same inputs (its
        # objects differed then, and do now: same_objects() is a
        # function of those inputs)
        known = h.prefix is not None and h.gen and self.hint_for(
            h.files, h.prefix, h.gen, None, self.hints.get(h.id))[2]
        if h.prefix is not None and h.gen and not known and \
                self.same_objects(w, h):
            h.result, h.equiv = "equivalent", DEAD
            h.seconds = time.time() - ts
            self.say(f"  {h.id:6} {h.result:13} {h.seconds:5.1f}s"
                     + (" (reused)" if w is None else ""))
            return
        res, killers, detail, h.kill_inputs = self.run_variant(
            w, h.files, h.prefix, h.gen, self.dead_before_explorer(h),
            self.hints.get(h.id))
        h.result, h.killers = res, killers
        if detail:
            h.detail = detail
        if res == "survived" and h.prefix is None and self.same_objects(w, h):
            # Dead code: the same compiled objects (every static function
            # kept, __LINE__/__FILE__ neutralised) in every configuration.
            h.result, h.equiv = "equivalent", DEAD
        if res == "killed-build" and not self.args.no_groups:
            self.group_guard(w, h)
        h.seconds = time.time() - ts
        self.say(f"  {h.id:6} {h.result:13} {h.seconds:5.1f}s "
                 + ("(reused) " if w is None else "")
                 + f"{' '.join(sorted(killers))[:90]}"
                 + (f" | {h.group}: {h.group_result}"
                    if getattr(h, 'group', '') else ""))
        if H.TRACE:
            self.say(f"    trace {h.id}: {H.cpu() - cs:.1f}s CPU (every "
                     "worker's: the hunk's own with -j 1)")

    def group_guard(self, w, h):
        """Which tests guard a hunk whose omission does not build, once it
        builds: leave out a neighbour hunk of the same patch too, then the
        whole patch (sets h.group, group_result, group_killers)."""
        same = [g for g in self.all_hunks if g.k == h.k and g is not h]
        same.sort(key=lambda g: abs(g.idx - h.idx))
        groups = [[h, g] for g in same[:2]]
        if len(same) > 1:
            groups.append([h] + same)
        for grp in groups:
            tag = h.id + "+" + "+".join(g.id for g in grp[1:])
            if len(grp) > 2:
                tag = h.id + "+patch"
            tg, cg = time.time(), H.cpu()
            # one tree per set of hunks left out (1.1+patch is
            # 1.2+patch's), made and extracted once, from the set in patch
            # order: put back in another order, a group's lines can land
            # elsewhere (replace_blocks()), and which hunk's worker came
            # first would decide the tree
            canon = sorted(grp, key=lambda g: g.idx)
            files, prefix, motion, gdir = self.group_trees.get(
                frozenset(g.id for g in grp),
                lambda: self.classify_one(
                    canon[0], canon, "+".join(g.id for g in canon)))
            if H.TRACE:
                self.say(f"    trace group {tag}: tree and extraction "
                         f"{time.time() - tg:.1f}s, {H.cpu() - cg:.1f}s CPU")
            if motion:
                r2, k2 = "equivalent (code motion: same definitions)", set()
            else:
                r2, k2, _, inputs = self.run_variant(
                    w, files, prefix, gdir, hint=self.hints.get(tag))
            self.say(f"    group {tag}: {r2} ({time.time() - tg:.1f}s"
                     + (f", {H.cpu() - cg:.1f}s CPU" if H.TRACE else "")
                     + ")")
            if r2 != "killed-build":
                h.group = ("whole patch " + h.patch[:4]
                           if tag.endswith("+patch") else
                           "with " + ", ".join(g.id for g in grp[1:]))
                h.group_result, h.group_killers = r2, k2
                h.group_tag = tag
                if not motion:
                    h.group_inputs = inputs
                if prefix is not None:
                    h.group += f" (at prefix {prefix:02d})"
                break

    def run(self, todo):
        """Build and run the hunks left (prefix-tested hunks last, grouped
        by prefix)."""
        t, c = time.time(), H.cpu()
        todo.sort(key=lambda h: (h.prefix or 0, h.k))
        H.run_pool(todo, self.workers, self.evaluate)
        self.timing["build+run"] = time.time() - t
        self.cpu["build+run"] = H.cpu() - c
        self.timing["total"] = time.time() - self.t0

    # -- report -----------------------------------------------------------

    def cross_check(self):
        """hunk-matrix/equivalent.md against the mechanical check: its
        entries, and what disagrees (only on a whole run)."""
        listed = load_equivalent_md()
        eq = {h.id for h in self.hunks if h.result == "equivalent"}
        hangs = {h.id for h in self.hunks if h.result == "hang"}
        problems = []
        if not self.args.only:
            for i in sorted(eq - set(listed)):
                problems.append(f"{i}: mechanically equivalent, not listed in "
                                "hunk-matrix/equivalent.md")
            # A hang says nothing either way: reported as such below.
            for i in sorted(set(listed) - eq - hangs):
                problems.append(f"{i}: listed in hunk-matrix/equivalent.md "
                                "but not mechanically equivalent")
        return listed, problems

    def report(self, listed, problems):
        """Write matrix.tsv, matrix.md and guards.tsv, log what needs a
        look; the exit status."""
        hunks = self.hunks
        write_reports(hunks, self.timing, self.base_fail, listed, problems,
                      self.args, (self.reused, self.n_run))
        write_guards(hunks, self.patched, self.args)
        write_kill_order(hunks, self.args)
        survivors = [h for h in hunks if h.result == "survived"]
        hangs = [h for h in hunks if h.result == "hang"]
        for p in problems:
            H.log("equivalent.md: " + p)
        self.cpu["total"] = H.cpu() - self.c0
        H.log("timings: " + ", ".join(f"{k} {v:.1f}s"
                                      for k, v in self.timing.items())
              + "; CPU: " + ", ".join(f"{k} {v:.1f}s"
                                      for k, v in self.cpu.items()))
        if self.kill_order_line():
            H.log(self.kill_order_line())
        if survivors:
            H.log("SURVIVED (no test fails without the hunk):")
            for h in survivors:
                H.log(f"  {h.id} {h.patch} {h.func}")
            return 1
        if hangs:
            H.log("HANG (wall-clock guard; no verdict: rerun on a quieter "
                  "machine or raise HM_HANG_GUARD):")
            for h in hangs:
                H.log(f"  {h.id} {h.patch} {h.func}: {h.detail}")
            return 3
        return 2 if problems else 0


def main():
    m = Matrix(parse_args())
    m.parse_inputs()
    if m.args.classify_only or not m.replay_run():
        if not m.args.classify_only:
            m.start_early()
        m.parse()
        m.classify()
        if m.args.classify_only:
            m.print_classification()
            return 0
        todo = m.replay([h for h in m.hunks if h.result == "run"])
        m.start(todo)
        m.run(todo)
        m.store_run()
    m.timing["total"] = time.time() - m.t0
    listed, problems = m.cross_check()
    return m.report(listed, problems)


def headers(ext):
    """The extraction's files but its .c files (all.c and the extracted
    .c files all.c includes, the code the kernel-CFG object alone
    compiles): what the simulator, the support code and the suites
    include (defs.h, present.h)."""
    return {k: v for k, v in ext.items() if not k.endswith(".c")}


def read_extraction(gen):
    """{relpath: text} of gen/extracted/ (its depfile aside) with the
    tree it names written as TREE (hmlib.extract()'s form); None when
    there is none."""
    src = os.path.join(gen or "", "extracted")
    try:
        treep = napitest.extract.present_tree(os.path.join(src,
                                                           "present.h"))
    except OSError:
        return None
    if treep is None:
        return None
    texts = {}
    for d, _, fs in os.walk(src):
        for f in fs:
            if not f.endswith(".d"):
                p = os.path.join(d, f)
                with open(p, encoding="utf-8",
                          errors="surrogateescape") as fh:
                    texts[os.path.relpath(p, src)] = \
                        fh.read().replace(treep, "TREE")
    return texts


def extraction_digest(gen):
    """Digest of the extraction in gen as a worker builds it (the tree
    it names written as one name: hmlib.Worker.prepare()); None when
    there is none."""
    ext = read_extraction(gen)
    return None if ext is None else "extraction:" + H.files_digest(ext)


def write_guards(hunks, patched, args):
    """guards.tsv: per hunk, its patch's subject, where the locator finds
    it on the patched tree, and the invariants whose tests fail without it
    (the hunk's own kills, or its group's when it alone does not build).
    make check reads the copy in hunk-matrix/ (tools/verdict)."""
    invs = INV.load()
    located = HL.locate(patched)
    subjects = {h.id: h.subject for h in HL.series_hunks()}
    rows = []
    for h in hunks:
        killers = set(h.killers) | set(getattr(h, "group_killers", ()) or ())
        tests = sorted({k.split(":", 2)[2] for k in killers
                        if k.count(":") >= 2 and not k.split(":", 2)[2]
                        .startswith("(")})
        ids = sorted({INV.invariant_of(t, invs) for t in tests} - {None},
                     key=lambda i: int(i[1:]))
        rows.append([h.id, h.patch[:4], subjects.get(h.id, ""),
                     h.path, h.func, h.result, located.get(h.id, "missing"),
                     " ".join(ids) or "-", " ".join(tests) or "-"])
    text = INV.guards_text(rows)
    with open(os.path.join(OUT, "guards.tsv"), "w") as f:
        f.write(text)
    if not args.only and not args.build_reports_only:
        with open(os.path.join(HERE, "guards.tsv"), "w") as f:
            f.write(text)


def write_kill_order(hunks, args):
    """kill-order.tsv (napitest.kill_order): the binary that killed each
    variant first, hunk by hunk and group by group, or DEAD_CODE for a
    hunk of the patched tree found dead code, with the digest of the
    inputs it was found on, which the next run puts first on the same
    inputs (run_variant()).  Not with --full (its killers are every
    binary's)."""
    if args.full:
        return
    rows = []
    for h in hunks:
        for variant, res, killers, inputs in (
                (h.id, h.result, h.killers, getattr(h, "kill_inputs", "")),
                (getattr(h, "group_tag", ""), getattr(h, "group_result", ""),
                 getattr(h, "group_killers", ()),
                 getattr(h, "group_inputs", ""))):
            by = kill_order.killed_by(killers or ())
            if variant == h.id and res == "equivalent" and \
                    getattr(h, "equiv", "") == DEAD and h.prefix is None:
                by = kill_order.DEAD_CODE  # the dead check first
            elif res != "killed":
                by = None
            if variant and inputs and by:
                rows.append((variant,) + by + (inputs,))
    for d in (OUT,) + (() if args.only or args.build_reports_only
                       else (HERE,)):
        with open(os.path.join(d, "kill-order.tsv"), "w") as f:
            kill_order.write(f, rows)


def short(killers):
    tests = {}
    for k in sorted(killers):
        s, c, t = k.split(":", 2)
        tests.setdefault(t, []).append(c)
    return "; ".join(f"{t} [{','.join(c)}]" for t, c in sorted(tests.items()))


def tsv_row(h):
    """h's row of matrix.tsv (napitest.matrix_tsv)."""
    grp = ""
    if getattr(h, "group", ""):
        grp = (f"; {h.group} also left out: {h.group_result} " +
               " ".join(sorted(h.group_killers)))
    return {"hunk": h.id, "patch": h.patch, "file": h.path,
            "function": h.func, "result": h.result, "method": h.method,
            "killing_tests": " ".join(sorted(h.killers)) + grp,
            "detail": getattr(h, "equiv", "") or h.detail,
            "seconds": f"{h.seconds:.1f}"}


def write_reports(hunks, timing, base_fail, listed, problems, args,
                  reused=(0, 0)):
    counts = {}
    for h in hunks:
        counts[h.result] = counts.get(h.result, 0) + 1
    ent = sum(1 for h in hunks if h.method.startswith("entangled"))
    with open(os.path.join(OUT, "matrix.tsv"), "w") as f:
        matrix_tsv.write(f, map(tsv_row, hunks))
    md = ["# Hunk guard matrix", "",
          "Generated by `make hunk-matrix` (hunk-matrix/matrix.py): every hunk "
          "of `kernel-src/patches/series` left out in turn, the unit suites "
          "run against the result. Do not edit by hand.", "",
          "Mode: " + ("full (every configuration and suite)" if args.full
                      else "first kill (on the inputs kill-order.tsv has a "
                      "row for, its binary or dead-code check first, then "
                      "rt-rps first; stops at the first suite binary with "
                      "a failing test)") + ".",
          "",
          "| result | hunks |", "|---|---|"]
    for r in ("killed", "killed-build", "survived", "equivalent",
              "untestable", "entangled-unrevertible", "hang"):
        md.append(f"| {r} | {counts.get(r, 0)} |")
    md.append(f"| (of which entangled: later patches need the hunk) | {ent} |")
    md.append(f"| total | {len(hunks)} |")
    md += ["", "Timings (s): " + ", ".join(f"{k} {v:.1f}"
                                           for k, v in timing.items()), ""]
    md += [f"Verdicts reused from an earlier run with the same inputs "
           f"(the verdict cache; `HM_NO_CACHE=1` reuses none): {reused[0]} "
           f"of the {reused[1]} hunks to build and run.", ""]
    if base_fail:
        md += ["Tests already failing on the patched tree (never counted as "
               "kills; the explorer's suites are run on it only for a "
               "variant whose run of them failed): " +
               ", ".join(sorted(base_fail)), ""]
    md += ["| hunk | patch | function | result | killing tests |",
           "|---|---|---|---|---|"]
    for h in hunks:
        res = h.result
        if h.method.startswith("entangled"):
            res += " (entangled" + (f", at prefix {h.prefix:02d}"
                                    if getattr(h, "prefix", None) else "") + ")"
        kill = short(h.killers)
        if h.result == "equivalent":
            kill = getattr(h, "equiv", "")
        elif h.result == "hang":
            kill = h.detail
        elif h.result == "killed-build":
            kill = "build: " + h.detail[:100]
            if getattr(h, "group", ""):
                kill += (f"; {h.group} also left out: {h.group_result} "
                         + short(h.group_killers))
        md.append(markdown.row([h.id, f"{h.patch[:4]} {h.path}", h.func,
                                res, kill]))
    surv = [h for h in hunks if h.result in ("survived", "untestable",
                                             "entangled-unrevertible",
                                             "hang")]
    if surv:
        md += ["", "## Hunks no test guards", ""]
        for h in surv:
            md += [f"### {h.id} ({h.patch}, {h.func}): {h.result}", "",
                   "```diff", h.text().rstrip("\n"), "```", ""]
    if problems:
        md += ["", "## equivalent.md disagrees with the mechanical check", ""]
        md += [f"- {p}" for p in problems]
    text = "\n".join(md) + "\n"
    with open(os.path.join(OUT, "matrix.md"), "w") as f:
        f.write(text)
    if not args.only and not args.build_reports_only:
        shutil.copyfile(os.path.join(OUT, "matrix.md"),
                        os.path.join(HERE, "matrix.md"))


if __name__ == "__main__":
    sys.exit(main())
