#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdicts on the cover letter's "Backport Adjustments" and "Summary".

For each claim: the command that checks it, the verdict (holds / does not
hold / not decidable here) and the evidence.  Behavioural claims are checked
by building the patched tree with one targeted edit (same machinery as the
hunk matrix, worker w4) and running the suite that holds the claim's
invariant test in every configuration; textual claims by grep/extraction on
the patched and upstream (6.12) trees; the rest cites the hunk matrix
(build/hunk-matrix/matrix.tsv), kernel-src/identity-check.md and
kernel-src/series-check.md when present.

Output: hunk-matrix/verdicts.md (and build/hunk-matrix/verdicts.md).
--upstream: only the row of the backport against upstream (two builds and
runs of the suites), in the committed hunk-matrix/verdicts.md.
--headline: only the two Summary rows the real PREEMPT_RT kernel decides,
from build/kunit-smp/headline.tsv (make kunit-headline), in the committed
hunk-matrix/verdicts.md.
"""

import os
import re
import sys
import time

import hmlib as H
import napitest.cases as cases
import napitest.headline as headline_tsv
from napitest.headline import headline_verdicts
import napitest.invariants as INV
import napitest.matrix_tsv as matrix_tsv
import napitest.verdicts_md as verdicts_md
from napitest import Error

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(H.ROOT, "build", "hunk-matrix")


def edit(files, path, func_line_rx, new, count=1):
    """files with the first line matching func_line_rx replaced by new
    (indentation kept); raises if absent."""
    lines = files[path].split("\n")
    for i, ln in enumerate(lines):
        if re.search(func_line_rx, ln):
            ind = ln[:len(ln) - len(ln.lstrip())]
            lines[i] = ind + new if new is not None else ln
            f = dict(files)
            f[path] = "\n".join(lines)
            return f, i + 1, ln.strip()
    raise SystemExit(f"verdicts: no line matches {func_line_rx} in {path}")


def probe(w, files, suite):
    """Failing tests of one suite in every configuration for this variant."""
    ok, err = w.prepare(files)
    if not ok:
        return {f"(extract: {err[:80]})"}
    fails = set()
    for cfg in H.CONFIGS:
        ok, err = w.build([f"{suite}-{cfg}"])
        if not ok:
            return {f"(build: {err[:80]})"}
        fails |= w.run(suite, cfg)
    return fails


def tsv_rows():
    try:
        return matrix_tsv.read(os.path.join(OUT, "matrix.tsv"))
    except Error as e:
        sys.exit(f"verdicts: error: {e}")


def row(rows, hid):
    """A placeholder, filled from build/hunk-matrix/matrix.tsv when the
    report is written (so --render can refresh it after a newer matrix)."""
    return "{{row:%s}}" % hid


def row_text(rows, hid):
    r = rows.get(hid)
    if not r:
        return f"hunk {hid}: not in build/hunk-matrix/matrix.tsv (run make hunk-matrix)"
    kt = r["killing_tests"] or r["detail"]
    return f"hunk matrix {hid} ({r['function']}): **{r['result']}** {kt[:200]}"


def suite_statuses(variant):
    """{invariant: {config: (pass|FAIL|n/a, first failure reason)}} of the
    userspace suites on a prepared variant (make build TREE=variant, then
    CTest without kbuild, the seeds, the self-tests and the expensive
    checks), and the first lines of the build when it failed."""
    r = H.sh(["make", "-s", "-C", H.ROOT, "build", f"TREE={variant}"])
    bdir = os.path.join(H.ROOT, "build", variant)
    junit = os.path.join(bdir, "verdicts-junit.xml")
    if r.returncode != 0 or not os.path.isdir(bdir):
        return None, (r.stdout + r.stderr).strip()[-300:]
    H.sh(["ctest", "-j2", "-LE", "expensive|self|kbuild|seed",
          "--test-output-size-passed", "65536",
          "--output-junit", junit], cwd=bdir)
    invs = INV.load()
    out = {}
    for res in cases.results(junit, cases.suite_cases()):
        i = INV.invariant_of(res.test, invs)
        if i:
            out.setdefault(i, {}).setdefault(res.cfg, []).append(res)
    tree = cases.cache_value(bdir, "KSRC")
    table = {}
    for i, cfgs in out.items():
        table[i] = {}
        for c, rs in cfgs.items():
            why = next((cases.kernel_terms(x.reason, tree) for x in rs
                        if x.status == "failed"), "")
            table[i][c] = (cases.status_of(rs), why)
    return table, ""


def against_upstream():
    """The backport (patched) against upstream (linux-source-6.12),
    invariant by invariant: equal, or different and why."""
    pt, perr = suite_statuses("patched")
    ut, uerr = suite_statuses("upstream")
    if pt is None or ut is None:
        return "not decidable here", ("the suites did not build: "
                                      + (perr or uerr))
    return cases.compare(pt, ut, INV.load(), H.CONFIGS)


fmt = headline_tsv.named


HEADLINE = os.path.join(H.ROOT, "build", "kunit-smp", "headline.tsv")


def headline():
    """The real-kernel table of make kunit-headline (kunit/headline):
    {(tree, kernel): {counter: value}}, or {} when it has not run."""
    return headline_tsv.read(HEADLINE)[0]


def main():
    t0 = time.time()
    base = H.prepare_tree("base")
    patched = H.prepare_tree("patched")
    upstream = H.prepare_tree("upstream")
    pf = H.read_files(patched)
    bf = H.read_files(base)
    w = H.Worker(4, pf)
    w.configure()
    rows = tsv_rows()
    V = []  # (claim, command, verdict, evidence)

    # 1. apply cleanly in sequence
    sc = os.path.join(H.KSRC_DIR, "series-check.md")
    r = H.sh([sys.executable, os.path.join(H.KSRC_DIR, "verify-series"),
              H.prepare_tree("vanilla")])
    ev = (f"`verify-series` exit {r.returncode}: "
          + " ".join((r.stdout + r.stderr).strip().splitlines()[-2:])[:300])
    ev += ("; the as-posted order (01..12,13,14) applies but its prefix 13 "
           "does not build (use_backlog_threads undeclared), see "
           "kernel-src/patches/README.md")
    if os.path.exists(sc):
        ev += "; prefix table: kernel-src/series-check.md (appended below)"
    V.append(("All 15 patches apply cleanly in sequence",
              "kernel-src/verify-series $(kernel-src/prepare-tree vanilla)"
              "; kernel-src/series-check",
              "holds (applies, no fuzz/offset, on the emulated 6.1.192 base; "
              "6271c130c6e5 itself is not available here)"
              if r.returncode == 0 else "does not hold", ev))

    # Baseline of the suites we probe.
    pb = {s: probe(w, pf, s) for s in ("net_rx_action", "backlog_rps",
                                       "backlog_threads")}

    # 2. patch 06 raise_softirq_irqoff (V8)
    f, ln, old = edit(pf, "net/core/dev.c",
                      r"^\t\traise_softirq_irqoff\(NET_RX_SOFTIRQ\);",
                      "__raise_softirq_irqoff(NET_RX_SOFTIRQ);")
    k = probe(w, f, "net_rx_action") - pb["net_rx_action"]
    V.append(("Patch 06 keeps raise_softirq_irqoff() in ____napi_schedule(); "
              "this matters (V8)",
              f"edit dev.c:{ln} `{old}` -> `__raise_softirq_irqoff(...)`, "
              "run unit/net_rx_action.c in every configuration",
              "holds" if any("v8_" in x for x in k) else "does not hold",
              "failing: " + fmt(k, "v8_") + "; " + row(rows, "6.1")))

    # 3. five re-anchored hunks; 5. loop identical
    ic = os.path.join(H.KSRC_DIR, "identity-check.md")
    icv = ""
    if os.path.exists(ic):
        icv = " ".join(ln.strip() for ln in open(ic)
                       if re.match(r"\| C\d:", ln))
    V.append(("Patch 13/14 (dad6b9770263): the five re-anchored hunks change "
              "no behaviour",
              "kernel-src/identity-check (a, c, d, e); grep (b); "
              "make hunk-matrix rows of patch 14",
              "holds for a, c, d, e against 6.12 (modulo later upstream "
              "changes); b see below" if icv else "not decidable here",
              (icv or "kernel-src/identity-check.md absent") + "; " +
              "; ".join(row(rows, h) for h in
                        ("14.3", "14.4", "14.9", "14.12", "14.13"))))

    # 4. list_owner
    r = H.sh(["grep", "-rn", r"list_owner", "net", "include"], cwd=upstream)
    readers = [ln for ln in r.stdout.splitlines()
               if "READ_ONCE" in ln or "==" in ln or "!=" in ln]
    in61 = "list_owner" in pf["include/linux/netdevice.h"]
    V.append(("Dropping WRITE_ONCE(napi->list_owner, ...) changes nothing on "
              "the backlog path",
              "grep -rn list_owner net include (upstream 6.12 and patched)",
              "holds" if not in61 and all(
                  "page_pool" in ln or "dev.h" in ln for ln in readers)
              else "not decidable here",
              f"6.1 napi_struct has list_owner: {in61}. Upstream readers: "
              + "; ".join(re.sub(r"^\S*?/", "", ln).strip()[:90]
                          for ln in readers)
              + ". page_pool_napi_local() (page-pool direct recycling) and a "
                "WARN in net/core/dev.h: neither is reached by the backlog "
                "NAPI, which has no page pool. The userspace suites cannot "
                "observe a member that 6.1 does not have."))

    V.append(("The extracted napi_threaded_poll_loop() is byte-identical to "
              "upstream dad6b9770263",
              "kernel-src/identity-check (vs 6.12; dad6b9770263 itself is "
              "not available here)",
              "not decidable here vs dad6b9770263; vs 6.12: differs only by "
              "later upstream changes" if icv else "not decidable here",
              (icv[:400] or "kernel-src/identity-check.md absent") + "; "
              + row(rows, "14.9")))

    # 6. INIT_LIST_HEAD (V20)
    f, ln, old = edit(pf, "net/core/dev.c",
                      r"INIT_LIST_HEAD\(&sd->backlog\.poll_list\);", ";")
    k = probe(w, f, "backlog_threads") - pb["backlog_threads"]
    V.append(("INIT_LIST_HEAD(&sd->backlog.poll_list) in net_dev_init() is "
              "load-bearing (V20)",
              f"edit dev.c:{ln} `{old}` -> `;`, run unit/backlog_threads.c",
              "holds" if any("v20_" in x for x in k) else "does not hold",
              "failing: " + fmt(k, "v20_") + "; " + row(rows, "14.13")))

    # 7. V16 on patched vs base; and the use_backlog_threads branch
    kb = probe(w, bf, "backlog_rps")
    f, ln, old = edit(pf, "net/core/dev.c",
                      r"^\t\tif \(use_backlog_threads\(\)\) \{$", "if (0) {")
    k = probe(w, f, "backlog_rps") - pb["backlog_rps"]
    ok = not any("v16_" in x for x in pb["backlog_rps"])
    V.append(("RT remote enqueue sends no IPI and raises no softirq from "
              "SMP-call context (V16)",
              "make check LABEL=backlog_rps (patched, base); edit "
              f"dev.c:{ln} `{old}` -> `if (0) {{`",
              "holds (in the simulation)" if ok and any("v16_" in x for x in k)
              else "does not hold",
              f"patched: v16 {'passes' if ok else 'FAILS'} in every config; "
              f"base fails: {fmt(kb, 'v16_')}; without the "
              f"use_backlog_threads() branch: {fmt(k, 'v16_')}; "
              + row(rows, "14.5")))

    # 8. V17 same-CPU fast path
    f, ln, old = edit(pf, "net/core/dev.c", r"^\t+goto use_local_napi;", ";")
    k = probe(w, f, "backlog_rps") - pb["backlog_rps"]
    ok = not any("v17_" in x for x in pb["backlog_rps"])
    V.append(("The same-CPU path keeps the inlined fast path (use_local_napi) "
              "(V17)",
              f"edit dev.c:{ln} `{old}` -> `;`, run unit/backlog_rps.c",
              "holds" if ok and any("v17_" in x for x in k)
              else "does not hold",
              f"patched: v17 {'passes' if ok else 'FAILS'}; without the goto: "
              + fmt(k, "v17_") + "; " + row(rows, "14.4")))

    # The backport against upstream, invariant by invariant.
    uv, uev = against_upstream()
    V.append((UPSTREAM_CLAIM, UPSTREAM_CMD, uv, uev))

    # Summary claims that are not checkable here.
    hl = headline()
    hl_warn, hl_ipi = headline_verdicts(hl, kb)
    if any((t, "rt") not in hl for t in ("base", "patched")):
        hl_warn, hl_ipi = kept_headline_rows(hl_warn, hl_ipi)
    V += [
        (WARN_CLAIM, HEADLINE_CMD, hl_warn[0], hl_warn[1]),
        (IPI_CLAIM, HEADLINE_CMD, hl_ipi[0], hl_ipi[1]),
        ("Summary: ~1 s of CPU per 20 s of load, 4.6-4.8% -> 0.2%, "
         "400-430 ns per IPI", "-", "not decidable here",
         "needs the QEMU/KVM measurement; no hardware timing in userspace"),
        ("Summary: patch 02 saves ~14 cycles per lock; 05/06 avoid redundant "
         "raises; 08 relaxes defer_lock to BH-only", "make hunk-matrix",
         "cycles: not decidable here; raises and BH-only: see rows",
         "; ".join(row(rows, h) for h in ("2.1", "5.2", "6.1", "8.2",
                                          "8.3"))),
        ("Summary: no regression in RT wakeup latency", "-",
         "not decidable here", "needs a cyclictest-style measurement on a "
         "real RT kernel"),
    ]
    write(V, sc, time.time() - t0)
    return 0


def write(V, sc, secs):
    import json
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "verdicts.json"), "w") as f:
        json.dump({"V": V, "secs": secs}, f)
    rows = tsv_rows()
    V = [[re.sub(r"\{\{row:([\d.]+)\}\}", lambda m: row_text(rows, m.group(1)),
                 x) for x in v] for v in V]
    md = ["# Verdicts on the cover letter's claims", "",
          "Generated by `make verdicts` (hunk-matrix/verdicts.py) in "
          f"{secs:.0f} s. Behavioural checks are run on the patched tree "
          "with one edit each, in every configuration; 'holds' for a "
          "behaviour means: the invariant test passes on the patched tree "
          "and fails with the edit.", "",
          "| # | claim | command | verdict | evidence |", "|---|---|---|---|---|"]
    for i, (c, cmd, v, e) in enumerate(V, 1):
        md.append(f"| {i} | {c} | `{cmd}` | **{v}** | "
                  f"{e.replace('|', '/')} |")
    if os.path.exists(sc):
        md += ["", "## Prefix table (kernel-src/series-check.md)", ""]
        md += [ln.rstrip("\n") for ln in open(sc)]
    text = "\n".join(md) + "\n"
    os.makedirs(OUT, exist_ok=True)
    for p in (os.path.join(OUT, "verdicts.md"),
              os.path.join(HERE, "verdicts.md")):
        with open(p, "w") as f:
            f.write(text)
    print(f"verdicts: {len(V)} claims; hunk-matrix/verdicts.md")


UPSTREAM_CLAIM = ("The backport behaves as upstream (linux-source-6.12), "
                  "invariant by invariant")
UPSTREAM_CMD = ("make check TREE=patched and TREE=upstream (the userspace "
                "suites, every configuration): each invariant's status per "
                "configuration compared")


WARN_CLAIM = ("Summary: eliminates the do_softirq_post_smp_call_flush WARN "
              "(2 -> 0) and the wakeup_softirqd() call from IPI context")
IPI_CLAIM = "Summary: removes 100% of cross-CPU RPS IPIs (2.1-2.4M -> 0)"
HEADLINE_CMD = "make kunit-headline; see V16 above"


def claims_table(lines, path):
    """The line indexes of the claims table's rows: the first run of
    "| N | " rows (the prefix table further down has rows of the same
    shape)."""
    rows = []
    for i, ln in enumerate(lines):
        if re.match(r"^\| \d+ \| ", ln):
            if rows and i != rows[-1] + 1:
                break
            rows.append(i)
    if not rows:
        raise SystemExit(f"verdicts: {path}: no table (run make verdicts)")
    return rows


def kept_headline_rows(warn, ipi):
    """Without make kunit-headline's table, the two real-kernel rows of
    the committed verdicts.md are kept as they are (a run that lacks the
    measurement does not overwrite it with "not run"); said on stderr."""
    path = os.path.join(HERE, "verdicts.md")
    try:
        with open(path) as f:
            old = verdicts_md.claims(f.read())
    except OSError:
        return warn, ipi
    got = [old.get(c) for c in (WARN_CLAIM, IPI_CLAIM)]
    if not all(got):
        return warn, ipi
    print(f"verdicts: note: {HEADLINE} has no base and patched PREEMPT_RT "
          "rows: the two real-kernel rows are kept from "
          "hunk-matrix/verdicts.md (make kunit-headline, then make "
          "verdicts-headline, recomputes them)", file=sys.stderr)
    return tuple((v, e) for _, v, e in got)


def cell(text):
    return text.replace("|", "/")


def headline_only():
    """Only the two Summary rows the real PREEMPT_RT kernel decides, in the
    committed hunk-matrix/verdicts.md, from build/kunit-smp/headline.tsv
    (make kunit-headline); the other rows are left as they are.  Refused,
    changing nothing, when the table lacks a base or patched PREEMPT_RT
    row."""
    hl = headline()
    miss = [t for t in ("base", "patched") if (t, "rt") not in hl]
    if miss:
        print(f"verdicts: error: {HEADLINE} has no "
              f"{' and no '.join(miss)} PREEMPT_RT row: run make "
              "kunit-headline first; hunk-matrix/verdicts.md is unchanged",
              file=sys.stderr)
        return 1
    path = os.path.join(HERE, "verdicts.md")
    with open(path) as f:
        lines = f.read().split("\n")
    rows = claims_table(lines, path)
    warn, ipi = headline_verdicts(hl, set())
    done = []
    for claim, (v, e) in ((WARN_CLAIM, warn), (IPI_CLAIM, ipi)):
        at = [i for i in rows if f"| {claim} |" in lines[i]]
        if len(at) != 1:
            raise SystemExit(f"verdicts: {path}: no single row of the "
                             f"claim {claim!r} (run make verdicts)")
        n = re.match(r"^\| (\d+) \|", lines[at[0]]).group(1)
        lines[at[0]] = (f"| {n} | {claim} | `{HEADLINE_CMD}` | **{v}** | "
                        f"{cell(e)} |")
        done.append(v)
    with open(path, "w") as f:
        f.write("\n".join(lines))
    for v in done:
        print(f"verdicts: headline row of {path}: {v}")
    return 0


def upstream_only():
    """Only the row of the backport against upstream, in the committed
    hunk-matrix/verdicts.md (its other rows need the hunk matrix's and the
    KUnit runs' results, which this leaves as they are)."""
    t0 = time.time()
    uv, uev = against_upstream()
    path = os.path.join(HERE, "verdicts.md")
    with open(path) as f:
        lines = f.read().split("\n")
    rows = claims_table(lines, path)
    new = (f"| 0 | {UPSTREAM_CLAIM} | `{UPSTREAM_CMD}` | **{uv}** | "
           f"{uev.replace('|', '/')} |")
    body = [lines[i] for i in rows if UPSTREAM_CLAIM not in lines[i]]
    at = next((k for k, ln in enumerate(body) if "| Summary: " in ln),
              len(body))
    body.insert(at, new)
    body = [re.sub(r"^\| \d+ \|", f"| {k} |", ln)
            for k, ln in enumerate(body, 1)]
    lines[rows[0]:rows[-1] + 1] = body
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print(f"verdicts: the upstream row of {path} ({time.time() - t0:.0f} s): "
          f"{uv}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--upstream"]:
        sys.exit(upstream_only())
    if sys.argv[1:] == ["--headline"]:
        sys.exit(headline_only())
    if sys.argv[1:] == ["--render"]:
        import json
        d = json.load(open(os.path.join(OUT, "verdicts.json")))
        write(d["V"], os.path.join(H.KSRC_DIR, "series-check.md"), d["secs"])
        sys.exit(0)
    sys.exit(main())
