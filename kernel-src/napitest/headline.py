# SPDX-License-Identifier: GPL-2.0
"""The real-kernel headline table, build/kunit-smp/headline.tsv, written by
kunit/headline and read by it and by make verdicts (hunk-matrix/verdicts.py),
and the two claims of the cover letter's Summary it decides
(headline_verdicts()).

One row per tree and kernel: "TREE<TAB>KERNEL<TAB>counter=value ...", each
preceded by "# TREE<TAB>KERNEL<TAB>COMMAND", the command that measured it.
"""

import os


def read(tsv):
    """({(tree, kernel): {counter: value}}, {(tree, kernel): command});
    both empty when the table does not exist."""
    rows, cmds = {}, {}
    if not os.path.exists(tsv):
        return rows, cmds
    with open(tsv) as f:
        for line in f:
            if line.startswith("#"):
                parts = line[1:].strip().split("\t", 2)
                if len(parts) == 3:
                    cmds[(parts[0], parts[1])] = parts[2]
                continue
            t, k, rest = line.rstrip("\n").split("\t", 2)
            rows[(t, k)] = dict(kv.split("=", 1) for kv in rest.split())
    return rows, cmds


def named(fails, want):
    """The failing tests whose name contains want, or "none of want"."""
    hit = sorted(f for f in fails if want in f)
    return ", ".join(hit) if hit else "none of " + want


def unfit_rows(rows):
    """Why a headline row cannot decide a claim: its run had another splat
    or a failing KUnit case, or it came from a tree other than the prepared
    base/patched one (kunit/headline LABEL=PATH, e.g. a mutant)."""
    why = []
    for t, v in rows:
        if v.get("other_splats") != "0":
            why.append(f"{t}: {v.get('other_splats', '?')} other splat(s)")
        if v.get("ktap") != "ok":
            why.append(f"{t}: KTAP {v.get('ktap', '?')}")
        if not os.path.basename(v.get("tree", "")).startswith(t + "-"):
            why.append(f"{t}: row from {v.get('tree', '?')}, not the "
                       f"prepared {t} tree")
    return why


def base_effects(v):
    """" (+N WARN at FILE:LINE under FUNC(), ...)" naming the base's own
    splats (6.1.192 + rt-base emulation, not 6.1-rt itself) that
    kunit/headline counted by name in a row (BASE_EFFECTS: a
    count "ROW" with its "ROW_at" = "file:line<frame(file)<..."), or ""."""
    seen = []
    for k, n in v.items():
        at = v.get(k + "_at", "-")
        if at == "-" or n == "0":
            continue
        loc, *frames = at.split("<")
        fn = frames[0].split("(")[0] if frames else "?"
        seen.append(f"+{n} WARN at {loc} under {fn}()")
    if not seen:
        return ""
    return (" (" + ", ".join(seen) + " on base (6.1.192 + rt-base "
            "emulation), counted by name in headline.md)")


def non_rt(hl):
    """"; non-RT PREEMPT: ..." with the counts of the non-RT rows, which
    decide no claim (the claims are about PREEMPT_RT): there the series
    keeps backlog threads off unless the command line has
    thread_backlog_napi (use_backlog_threads() is a static key only that
    parameter enables), and kunit/headline boots the kernel's default
    command line; the patched "preempt+threads" row, when there is one
    that counts, is the same kernel booted with thread_backlog_napi.  ""
    without both rows or when one cannot count (unfit_rows())."""
    b, p = hl.get(("base", "preempt")), hl.get(("patched", "preempt"))
    if not b or not p or unfit_rows((("base", b), ("patched", p))):
        return ""

    def side(v):
        return (f"{v['received_rps']} RPS csd runs, "
                f"{v['rps_call_ipis']}+{v['defer_call_ipis']} function-call "
                f"IPIs, threads {'on' if v.get('threads') == '1' else 'off'}")
    t = hl.get(("patched", "preempt+threads"))
    threads = ""
    if t and not unfit_rows((("patched", t),)):
        threads = (f"; patched booted with thread_backlog_napi: {side(t)}"
                   f" ({t.get('date', '?')}; function-call IPIs without an "
                   "RPS csd run are others, irq_call_count also counts the "
                   "scheduler's wakelist IPIs)")
    return (f"; non-RT PREEMPT, the kernel's default command line (no "
            f"thread_backlog_napi, without which the series uses no "
            f"backlog threads on non-RT): base {side(b)}; patched "
            f"{side(p)} ({p.get('kernel', '?')}, {p.get('date', '?')})"
            f"{threads}")


def headline_verdicts(hl, kb):
    """The two Summary claims the real PREEMPT_RT kernel decides."""
    b, p = hl.get(("base", "rt")), hl.get(("patched", "rt"))
    if not b or not p:
        miss = " and ".join(x for x, v in (("base", b), ("patched", p))
                            if not v)
        why = (f"not run (no {miss} PREEMPT_RT row in "
               "build/kunit-smp/headline.tsv: make kunit-headline)")
        return ((why, "in the simulation (RT+RPS): 0 post-flush WARN, 0 "
                 f"ksoftirqd wakeups on patched; base fails "
                 f"{named(kb, 'v16_')}"),
                (why, "in the simulation: V16 asserts 0 csd/IPI on RT; "
                 "the counts need the real kernel"))
    unfit = unfit_rows((("base", b), ("patched", p)))
    if unfit:
        why = ("not decided: the PREEMPT_RT run does not count ("
               + "; ".join(unfit) + "; build/kunit-smp/headline.md)")
        return ((why, "make kunit-headline"), (why, "make kunit-headline"))
    n = p["n"]

    def ipis(v):
        return int(v["rps_call_ipis"]) + int(v["defer_call_ipis"])

    def resched(v):
        return v.get("rps_resched_ipis", "?")
    zero = (p["received_rps"] == "0" and ipis(p) == 0
            and p["post_flush_warn"] == "0")
    warn_seen = b["post_flush_warn"] != "0"
    fired = int(b["received_rps"]) > 0 and ipis(b) > 0
    # the reschedule IPIs (RPS flood) are the backlog thread's wakeups on
    # idle CPU 1: the price of the threads, named, not hidden
    where = (f"{n} packets: function-call IPIs {ipis(b)} \u2192 {ipis(p)}; "
             f"reschedule IPIs {resched(b)} \u2192 {resched(p)} "
             "(backlog-thread wakeups); post-flush WARN "
             f"{b['post_flush_warn']} \u2192 {p['post_flush_warn']}"
             f"{base_effects(b)}")
    # the kernel run counts the WARN only: no count of wakeup_softirqd()
    # from IPI context, which only the simulator's V16 checks
    ksoftirqd = ("; the wakeup_softirqd() call from IPI context is not "
                 "counted by the kernel run: that half rests on the "
                 "simulator (V16)")
    prov = ", ".join(f"{t}: {os.path.basename(v.get('tree', '?'))}, "
                     f"{v.get('kernel', '?')}, {v.get('date', '?')}"
                     for t, v in (("base", b), ("patched", p)))
    ev = (f"make kunit-headline (build/kunit-smp/headline.md; {prov}): "
          f"CPU 0 floods idle CPU 1 with {n} paced remote enqueues and {n} "
          "skb_attempt_defer_free() calls under qemu-system-x86_64 -smp 2 "
          "(TCG); IPIs = function-call IPIs CPU 1 received (irq_call_count, "
          "incl. the scheduler's wakelist), RPS flood + defer flood: "
          f"base {b['rps_call_ipis']}+{b['defer_call_ipis']}, patched "
          f"{p['rps_call_ipis']}+{p['defer_call_ipis']}; reschedule IPIs, "
          "RPS flood + defer flood: base "
          f"{resched(b)}+{b.get('defer_resched_ipis', '?')}, patched "
          f"{resched(p)}+{p.get('defer_resched_ipis', '?')}; RPS csd runs "
          f"(received_rps): base {b['received_rps']}, patched "
          f"{p['received_rps']}; the WARN is a WARN_ON_ONCE, so at most 1 "
          "per boot; the cover letter's 2.1-2.4 M IPIs are a 20 s hardware "
          "flood, not comparable")
    ev += non_rt(hl)
    if zero and warn_seen and fired:
        warn = (f"holds for the WARN in a PREEMPT_RT kernel under QEMU "
                f"({where}){ksoftirqd}")
    elif zero and fired:
        warn = (f"patched side holds in a PREEMPT_RT kernel under QEMU; "
                f"the base WARN was not seen in this run ({where})"
                f"{ksoftirqd}")
    else:
        warn = f"does not hold in a PREEMPT_RT kernel under QEMU ({where})"
    ipi = (f"holds for the function-call IPIs in a PREEMPT_RT kernel "
           f"under QEMU ({where}): the cross-CPU RPS IPIs are gone; the "
           "reschedule IPIs that wake the backlog thread are the price, "
           "not removed"
           if zero and fired else
           f"does not hold in a PREEMPT_RT kernel under QEMU ({where})")
    return (warn, ev), (ipi, ev)
