#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Textual mutation testing of the manifest's functions in the patched tree.

No C mutation tool is packaged for Debian 12 (`apt-cache search mutation`
finds none; Mull and dextool are not packaged), so the operators are a small
textual set, each a one-line edit that keeps the line count (so #line and
every diagnostic still name the right line):

  stmt-drop     a single-line statement becomes the empty statement `;`
  negate-if     `if (C)` -> `if (!(C))` (condition on one line)
  swap-raise    raise_softirq_irqoff <-> __raise_softirq_irqoff
  swap-lock     spin_lock_bh <-> spin_lock, spin_lock_irqsave(l, f) ->
                spin_lock(l), spin_lock_irq -> spin_lock (and the unlocks)
  drop-bit      a set_bit/clear_bit (also __ forms) statement -> `;`
  list-noop     a list_add_tail statement -> `;`

Functions: those the manifest names in net/core/dev.c and net/core/skbuff.c.
At most --per-function mutants are drawn per function (seeded; the seed is
printed and written to the report); each is built and run like a hunk of the
hunk matrix (first failing test wins).  A mutant that does not build is
"stillborn" and left out of the score.  A surviving mutant whose extracted
code compiles to the same objects as the patched tree's in every
configuration (`-fkeep-static-functions`, `__LINE__`/`__FILE__`
neutralised: the matrix's dead-code check) is "equivalent", by that check
alone, and left out of the score too.
Score = killed / (killed + survived).

--edits FILE runs hand-written mutants instead (docs/invariants.md records
them): one edit per line, `name<TAB>path<TAB>old<TAB>new`, where old is a
whole line of the patched tree (whitespace collapsed), found exactly once
in path, or in path@function, or its N-th match with path@function#N
(several lines with one name make one mutant); every suite binary in
every configuration runs (--full), and the report lists each mutant's
failing tests by configuration (build/hunk-matrix/edits.{tsv,md}).
"""

import argparse
import os
import random
import re
import sys
import time

import hmlib as H

OUT = os.path.join(H.ROOT, "build", "hunk-matrix")
HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["net/core/dev.c", "net/core/skbuff.c"]

DECL = re.compile(r"^\s*(struct|union|enum|unsigned|signed|int|long|short|"
                  r"bool|char|u8|u16|u32|u64|s32|s64|const|static|void|"
                  r"LIST_HEAD|DEFINE_|__be|size_t|ktime_t|unsigned)\b")
SWAPS = [
    ("swap-raise", r"\b__raise_softirq_irqoff\(", "raise_softirq_irqoff("),
    ("swap-raise", r"(?<!_)\braise_softirq_irqoff\(", "__raise_softirq_irqoff("),
    ("swap-lock", r"\bspin_lock_bh\(", "spin_lock("),
    ("swap-lock", r"\bspin_unlock_bh\(", "spin_unlock("),
    ("swap-lock", r"\bspin_lock\(", "spin_lock_bh("),
    ("swap-lock", r"\bspin_unlock\(", "spin_unlock_bh("),
    ("swap-lock", r"\bspin_lock_irq\(", "spin_lock("),
    ("swap-lock", r"\bspin_unlock_irq\(", "spin_unlock("),
    ("swap-lock", r"\bspin_lock_irqsave\(([^,()]+(?:\([^()]*\))?[^,()]*),"
                  r"[^;]*\);", r"spin_lock(\1);"),
    ("swap-lock", r"\bspin_unlock_irqrestore\(([^,()]+(?:\([^()]*\))?[^,()]*),"
                  r"[^;]*\);", r"spin_unlock(\1);"),
]


def balanced(s):
    d = 0
    for c in s:
        d += c == "("
        d -= c == ")"
        if d < 0:
            return False
    return d == 0


class Mutant:
    def __init__(self, func, path, line, op, old, new):
        self.func, self.path, self.line = func, path, line
        self.op, self.old, self.new = op, old, new
        self.result, self.killers, self.detail = "", set(), ""

    def files(self, base):
        lines = base[self.path].split("\n")
        assert lines[self.line - 1] == self.old
        lines[self.line - 1] = self.new
        f = dict(base)
        f[self.path] = "\n".join(lines)
        return f


class Edit(Mutant):
    """A hand-written mutant (--edits): one or more whole-line edits."""

    def __init__(self, name, edits):
        super().__init__(name, edits[0][0], edits[0][1], "edit",
                         edits[0][2], edits[0][3])
        self.edits = edits

    def files(self, base):
        f = dict(base)
        for path, line, old, new in self.edits:
            lines = f[path].split("\n")
            assert lines[line - 1] == old
            lines[line - 1] = new
            f[path] = "\n".join(lines)
        return f


def read_edits(fname, tree, files):
    """Edit mutants from fname (see the module doc): `path@function#N`
    narrows old to a function's lines and to its N-th match; old is
    compared with runs of whitespace collapsed.  Exits on a bad line."""
    by_name = {}
    with open(fname) as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip() or raw.startswith("#"):
                continue
            parts = raw.rstrip("\n").split("\t")
            if len(parts) != 4:
                sys.exit(f"{fname}:{n}: expected name, path, old, new "
                         "separated by tabs")
            name, where, old, new = parts
            m = re.match(r"^([^@#]+)(?:@(\w+))?(?:#(\d+))?$", where)
            path, func, nth = m.groups() if m else (where, None, None)
            if path not in files:
                sys.exit(f"{fname}:{n}: {path} is not a file the variants "
                         f"may change ({', '.join(sorted(files))})")
            lines = files[path].split("\n")
            lo, hi = 1, len(lines)
            if func:
                defs = [(s, e) for nm, k, s, e in H.ctags_defs(tree, path)
                        if nm == func and k in ("function", "macro")]
                if not defs:
                    sys.exit(f"{fname}:{n}: no {func}() in {path}")
                lo, hi = defs[0]
            want = " ".join(old.split())
            hits = [i for i in range(lo - 1, hi)
                    if " ".join(lines[i].split()) == want]
            if nth:
                hits = hits[int(nth) - 1:int(nth)]
            if len(hits) != 1:
                sys.exit(f"{fname}:{n}: `{old}` found {len(hits)} times in "
                         f"{where}, expected once (path@function#N narrows "
                         "it)")
            line = lines[hits[0]]
            ind = line[:len(line) - len(line.lstrip())]
            by_name.setdefault(name, []).append((path, hits[0] + 1, line,
                                                 ind + new))
    return [Edit(k, v) for k, v in by_name.items()]


def write_edits_report(chosen, elapsed, unit_only=False):
    os.makedirs(OUT, exist_ok=True)
    what = "every unit suite (no explorer)" if unit_only else "every suite"
    md = ["# Hand-written mutants (`hunk-matrix/mutants.py --edits`)", "",
          f"{len(chosen)} mutants, {what} in every configuration, "
          f"{elapsed:.0f} s.", "",
          "| mutant | edit | result | failing tests by configuration |",
          "|---|---|---|---|"]
    with open(os.path.join(OUT, "edits.tsv"), "w") as f:
        f.write("mutant\tresult\tconfig\tfailing_tests\tedit\n")
        for m in chosen:
            edit = "; ".join(f"{p}:{ln}: `{o.strip()}` -> `{n.strip()}`"
                             for p, ln, o, n in m.edits)
            by_cfg = {}
            for k in m.killers:
                suite, cfg, test = k.split(":", 2)
                by_cfg.setdefault(cfg, set()).add(test)
            cells = "; ".join(f"**{c}**: " + ", ".join(sorted(by_cfg[c]))
                              for c in H.CONFIGS if c in by_cfg)
            md.append(f"| {m.func} | {edit.replace('|', '/')} | "
                      f"{m.result} | {cells or m.detail} |")
            for c in H.CONFIGS:
                f.write(f"{m.func}\t{m.result}\t{c}\t"
                        f"{' '.join(sorted(by_cfg.get(c, ())))}\t{edit}\n")
    with open(os.path.join(OUT, "edits.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def candidates(func, path, lines, start, end):
    out = []
    prev = ""
    body = False
    in_comment = False
    for n in range(start, end + 1):
        ln = lines[n - 1]
        s = ln.strip()
        # Never mutate inside a comment.
        if in_comment:
            if "*/" in s:
                in_comment = False
            continue
        if s.startswith("/*") and "*/" not in s:
            in_comment = True
            continue
        if s.startswith(("*", "//", "/*")):
            continue
        if not body:
            if "{" in ln:
                body = True
            prev = s
            continue
        ind = ln[:len(ln) - len(ln.lstrip())]
        simple = (s.endswith(";") and balanced(s) and
                  (prev.endswith((";", "{", "}", ")", "*/", ":")) or
                   prev == "" or prev.startswith("#")))
        if simple and not DECL.match(s) and not s.startswith(("return",
                                                              "}", "{")):
            if re.match(r"(__)?(set|clear)_bit\(", s):
                out.append(Mutant(func, path, n, "drop-bit", ln, ind + ";"))
            elif re.match(r"list_add_tail\(", s):
                out.append(Mutant(func, path, n, "list-noop", ln, ind + ";"))
            elif s != ";":
                out.append(Mutant(func, path, n, "stmt-drop", ln, ind + ";"))
        m = re.match(r"^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*\{?\s*)$", ln)
        if m and balanced(m.group(2)):
            out.append(Mutant(func, path, n, "negate-if", ln,
                              f"{m.group(1)}(!({m.group(2)})){m.group(3)}"))
        for op, rx, rep in SWAPS:
            if re.search(rx, ln):
                out.append(Mutant(func, path, n, op, ln,
                                  re.sub(rx, rep, ln, count=1)))
        if s and not s.startswith(("/*", "*", "//")):
            prev = s
    return out


def all_candidates(patched):
    names = H.manifest_names()
    files = H.read_files(patched)
    by_func = {}
    for path in FILES:
        lines = files[path].split("\n")
        for name, kind, s, e in H.ctags_defs(patched, path):
            if kind == "function" and name in names:
                by_func.setdefault(name, []).extend(
                    candidates(name, path, lines, s, e))
    return files, by_func


DEAD = ("dead code: compiled objects identical (-fkeep-static-functions, "
        f"__LINE__/__FILE__ neutralised) in the {len(H.CONFIGS)} "
        "configurations")


def evaluate(mutants, jobs, first_worker, base_files, log=True, full=False,
             unit_only=False):
    workers, base_fail = H.start_workers(jobs, base_files, first_worker)
    order = H.KillOrder(workers[0].suites())
    if unit_only:  # the direct unit tests alone, without the explorer
        order = H.KillOrder([x for x in order() if order.cheap(x)])
    # Each worker's build holds the patched tree's extraction now: its
    # objects are the reference of the dead-code check.
    ref = {w.idx: w.objects(w.pre, "ref") for w in workers}

    def ev(w, m):
        t = time.time()
        res, killers, detail = w.evaluate(m.files(base_files), base_fail,
                                          order, full=full)
        m.result = "stillborn" if res == "killed-build" else res
        m.killers, m.detail = killers, detail
        if res == "survived":
            objs = w.objects(w.pre, "mut")
            if objs is not None and objs == ref[w.idx]:
                m.result, m.detail = "equivalent", DEAD
        if log:
            H.log(f"  {m.func:28} {m.path}:{m.line:<5} {m.op:10} "
                  f"{m.result:9} {time.time() - t:4.1f}s "
                  f"{' '.join(sorted(killers))[:60]}")

    H.run_pool(mutants, workers, ev)
    return base_fail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("SEED", "0")) or None)
    ap.add_argument("--per-function", type=int,
                    default=int(os.environ.get("PER_FUNCTION", "2")))
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--functions", help="comma-separated function names")
    ap.add_argument("--edits", help="hand-written mutants (module doc)")
    ap.add_argument("--build-reports-only", action="store_true",
                    help="write mutants.md to build/hunk-matrix only, not "
                         "the committed hunk-matrix/mutants.md "
                         "(hunk-matrix/bench)")
    ap.add_argument("--unit-only", action="store_true",
                    help="with --edits: the unit suites only, no explorer")
    args = ap.parse_args()
    if args.edits:
        t0 = time.time()
        patched = H.prepare_tree("patched")
        files = H.read_files(patched)
        chosen = read_edits(args.edits, patched, files)
        evaluate(chosen, args.jobs, 2, files, full=True,
                 unit_only=args.unit_only)
        write_edits_report(chosen, time.time() - t0, args.unit_only)
        print(f"mutants: {len(chosen)} edits; report "
              "build/hunk-matrix/edits.md")
        return 0
    seed = args.seed if args.seed is not None else random.randrange(1, 1 << 31)
    print(f"mutants: seed {seed} (SEED={seed} to repeat), "
          f"{args.per_function} per function", flush=True)
    t0 = time.time()
    patched = H.prepare_tree("patched")
    files, by_func = all_candidates(patched)
    rnd = random.Random(seed)
    chosen = []
    for f in sorted(by_func):
        if args.functions and f not in args.functions.split(","):
            continue
        c = by_func[f]
        chosen += sorted(rnd.sample(c, min(args.per_function, len(c))),
                         key=lambda m: m.line)
    H.log(f"{len(chosen)} mutants of {sum(map(len, by_func.values()))} "
          f"candidates in {len(by_func)} functions")
    evaluate(chosen, args.jobs, 2, files)
    elapsed = time.time() - t0
    write_report(chosen, by_func, seed, args, elapsed)
    surv = [m for m in chosen if m.result == "survived"]
    print(f"mutants: {len(chosen)} run, "
          f"{sum(m.result == 'killed' for m in chosen)} killed, "
          f"{len(surv)} survived, "
          f"{sum(m.result == 'stillborn' for m in chosen)} stillborn, "
          f"{sum(m.result == 'equivalent' for m in chosen)} equivalent, "
          f"{sum(m.result == 'hang' for m in chosen)} hang (wall-clock "
          "guard; not scored), "
          f"{elapsed:.0f} s; report hunk-matrix/mutants.md")
    return 0


def mutant_list(chosen, result, title, detail=False):
    """The report's section listing the mutants with that result."""
    ms = [m for m in chosen if m.result == result]
    md = ["", f"## {title}", ""]
    if not ms:
        md.append("None.")
    for m in ms:
        md.append(f"- `{m.func}` {m.path}:{m.line} ({m.op}): "
                  f"`{m.old.strip()}` -> `{m.new.strip()}`"
                  + (f": {m.detail}" if detail else ""))
    return md


def write_report(chosen, by_func, seed, args, elapsed):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "mutants.tsv"), "w") as f:
        f.write("function\tfile\tline\top\tresult\tkilling_tests\told\tnew\n")
        for m in chosen:
            f.write("\t".join([m.func, m.path, str(m.line), m.op, m.result,
                               " ".join(sorted(m.killers)), m.old.strip(),
                               m.new.strip()]) + "\n")
    tot = {"killed": 0, "survived": 0, "stillborn": 0, "equivalent": 0}
    rows = []
    for fn in sorted({m.func for m in chosen}):
        ms = [m for m in chosen if m.func == fn]
        k = sum(m.result == "killed" for m in ms)
        s = sum(m.result == "survived" for m in ms)
        b = sum(m.result == "stillborn" for m in ms)
        e = sum(m.result == "equivalent" for m in ms)
        tot["killed"] += k
        tot["survived"] += s
        tot["stillborn"] += b
        tot["equivalent"] += e
        score = f"{100 * k / (k + s):.0f}%" if k + s else "-"
        rows.append(f"| {fn} | {len(by_func[fn])} | {len(ms)} | {k} | {s} | "
                    f"{b} | {e} | {score} |")
    k, s = tot["killed"], tot["survived"]
    nh = sum(m.result == "hang" for m in chosen)
    md = ["# Mutation score of the manifest's functions", "",
          "Generated by `make mutants` (hunk-matrix/mutants.py). Operators: "
          "stmt-drop, negate-if, swap-raise, swap-lock, drop-bit, list-noop "
          "(see the script). No C mutation tool is packaged for Debian 12, "
          "so they are textual.", "",
          f"Seed **{seed}**, at most {args.per_function} mutants per function "
          f"(repeat with `make mutants SEED={seed}`); {len(chosen)} mutants, "
          f"{elapsed:.0f} s.", "",
          f"Overall: {k} killed, {s} survived, {tot['stillborn']} stillborn "
          f"(do not build; not scored), "
          f"{sum(m.result == 'hang' for m in chosen)} hang (the wall-clock "
          "guard fired; not scored), "
          f"{tot['equivalent']} equivalent "
          "(the dead-code check: the same compiled objects as the patched "
          "tree in every configuration; not scored): score "
          f"{(100 * k / (k + s)) if k + s else 0:.0f}% of the "
          f"{k + s} scored mutants ({k} of {k + s + nh} non-equivalent, "
          f"{(100 * k / (k + s + nh)) if k + s + nh else 0:.0f}%, "
          "if each hang counted as a survivor).", "",
          "| function | candidates | run | killed | survived | stillborn | "
          "equivalent | score |", "|---|---|---|---|---|---|---|---|"] + rows
    md += mutant_list(chosen, "survived", "Surviving mutants")
    md += mutant_list(chosen, "hang",
                      "Hangs (the wall-clock guard fired; not scored)")
    md += mutant_list(chosen, "equivalent", "Equivalent mutants",
                      detail=True)
    md += ["", "## Killed mutants", "",
           "| function | line | op | mutated line | first killing tests |",
           "|---|---|---|---|---|"]
    for m in chosen:
        if m.result == "killed":
            kt = ", ".join(sorted({k.split(':', 2)[2] + " [" +
                                   k.split(':')[1] + "]"
                                   for k in m.killers}))
            md.append(f"| {m.func} | {m.line} | {m.op} | "
                      f"`{m.new.strip().replace('|', '/')}` | {kt} |")
    text = "\n".join(md) + "\n"
    with open(os.path.join(OUT, "mutants.md"), "w") as f:
        f.write(text)
    if not args.build_reports_only:
        with open(os.path.join(HERE, "mutants.md"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
