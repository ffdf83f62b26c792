# SPDX-License-Identifier: GPL-2.0
"""The cover letter's headline in a real kernel: base vs patched, PREEMPT_RT
and non-RT PREEMPT, under qemu-system-x86_64 -smp 2.

usage: kunit/headline [--out DIR] [--trees "base patched"] (a tree:
                      a prepared variant or LABEL=PATH, e.g.
                      patched=/var/tmp/mutant)
                      [--kernels "rt preempt preempt+threads"]
                      [--table-only]

For each tree (kernel-src/prepare-tree --full TREE) and kernel, boots the
net_backlog_napi_headline suite (kunit/run --arch=x86_64 --kernel=K
--headline: the kernel's default command line, so a non-RT patched kernel
keeps the old path, as upstream does without thread_backlog_napi).  A
kernel word K+threads boots kernel K, in K's build dir, with
thread_backlog_napi on the command line (the series' parameter that turns
the backlog threads on for non-RT: use_backlog_threads()).  The case
floods NAPITEST_FLOOD_N packets from CPU 0 to an idle CPU 1 and as many
skb_attempt_defer_free() calls, and prints CPU 1's counters as a
"napitest-headline" line.  The post-flush WARN
(do_softirq_post_smp_call_flush(), a WARN_ON_ONCE) is counted in the
console log of the boot.

Writes DIR/headline.tsv (read by make verdicts; rows of trees and kernels
not run this time are kept from earlier runs, each with the command,
tree, kernel version and date that measured it) and DIR/headline.md, and
prints the table.  The post-flush WARN is what the headline measures, so
it is counted by name, not failed as a splat; any other splat in a boot's
console (kunit/splats' rules) is named and fails the run.

Exit status: 0 when every KUnit case passed, the patched PREEMPT_RT kernel
(and a patched K+threads one) shows the threads on, 0 RPS csd runs
(received_rps), 0 NET_RX on CPU 1, every packet delivered and 0 WARN, a
patched non-RT kernel with the default command line keeps the old path
(threads off and at least one RPS csd run, as upstream), and each base
kernel shows at least one RPS csd run (so the flood exercises the path),
1 otherwise or when a boot failed, 2 on bad input or a build failure.
Function-call IPIs are shown, not checked: on 6.1 they also count the
scheduler's wakelist IPIs.
"""

import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
import time

from . import headline as headline_tsv
from .kunit_run import raw_ktap
from . import splats

# The directory of the kunit/headline command.
HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "kunit")
TOP = os.path.dirname(HERE)
LINE = re.compile(r"napitest-headline (.*\S)")
WARN = re.compile(r"WARNING: CPU: \d+ PID: \d+ at (\S+) "
                  r"do_softirq_post_smp_call_flush")
VERSION = re.compile(r"Linux version (\S+)")
# Base 6.1-rt's own splats, seen in the headline's base boots and gone with
# the series.  Each is counted by name on the base tree only (the prepared
# "base" variant), in a row of its own with the splat's file:line and the
# stack's frames in net/; on any other tree (patched, a LABEL=PATH mutant)
# the same splat is an "other splat" and fails the run.
# (row key, what, header (group 1: file:line), function the stack must have)
BASE_EFFECTS = [
    ("rps_raise_irqs_on_warn",
     "base 6.1-rt only: WARN in __raise_softirq_irqoff() "
     "(lockdep_assert_irqs_disabled()): enqueue_to_backlog() raises NET_RX "
     "for a remote CPU (napi_schedule_rps()) under rps_lock_irqsave(), a "
     "spin_lock_irqsave() that leaves IRQs on under PREEMPT_RT (simulator: "
     "V53); on any other tree it fails the run as an other splat",
     re.compile(r"WARNING: CPU: \d+ PID: \d+ at (?:\S*/)?"
                r"(kernel/softirq\.c:\d+) __raise_softirq_irqoff\+"),
     "enqueue_to_backlog"),
]
ROWS = [
    ("n", "packets flooded CPU 0 -> CPU 1 (and skbs deferred)"),
    ("delivered", "packets delivered on CPU 1"),
    ("received_rps", "RPS csd runs on CPU 1 (received_rps: NET_RX raised "
     "from SMP-call context)"),
    ("rps_call_ipis", "function-call IPIs CPU 1 received, RPS flood "
     "(irq_call_count; includes the scheduler's wakelist IPIs)"),
    ("rps_resched_ipis", "reschedule IPIs CPU 1 received, RPS flood"),
    ("rps_net_rx", "NET_RX softirqs on CPU 1, RPS flood"),
    ("defer_kicks", "skb_attempt_defer_free() kicks past defer_max/2"),
    ("defer_left", "skbs left below the threshold after the defer flood "
     "(flushed by the next kick)"),
    ("defer_call_ipis", "function-call IPIs CPU 1 received, defer flood"),
    ("defer_resched_ipis", "reschedule IPIs CPU 1 received, defer flood"),
    ("defer_net_rx", "NET_RX softirqs on CPU 1, defer flood"),
    ("post_flush_warn", "do_softirq_post_smp_call_flush() WARN in the "
     "boot's console log (PREEMPT_RT only: n/a on non-RT, where the "
     "function is an empty inline)"),
    *[(row, what) for row, what, _, _ in BASE_EFFECTS],
    *[(row + "_at", "where: the WARN's file:line < the stack's frames "
       "in net/ (base tree only)") for row, _, _, _ in BASE_EFFECTS],
    ("other_splats", "other splats in the boot's console log (kunit/splats; "
     "any fails the run)"),
    ("threads", "backlog NAPI threads in use (use_backlog_threads())"),
    ("secs", "wall time of the run (build + boot), s"),
]


def tree_path(spec):
    """(label, path) of a --trees word: a prepared variant, or LABEL=PATH
    (a KSRC, e.g. a mutant of the patched tree, shown as LABEL)."""
    if "=" in spec:
        label, path = spec.split("=", 1)
        if not os.path.isfile(os.path.join(path, "net", "core", "dev.c")):
            print(f"kunit/headline: error: {path} is not a kernel tree "
                  "(no net/core/dev.c)", file=sys.stderr)
            return label, None
        return label, os.path.abspath(path)
    r = subprocess.run([os.path.join(TOP, "kernel-src", "prepare-tree"),
                        "--full", spec], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"kunit/headline: error: prepare-tree --full {spec} failed:\n"
              + r.stderr, file=sys.stderr)
        return spec, None
    return spec, r.stdout.strip()


def is_base(spec):
    """Whether a --trees word is the prepared base variant, the one tree
    whose BASE_EFFECTS are counted by name: not "patched", and not a
    LABEL=PATH (even "base=PATH": a mutant is never excused)."""
    return spec == "base"


THREADS = "+threads"


def flavour(kernel):
    """The kernel kunit/run builds for a --kernels word: K of K+threads."""
    return kernel[:-len(THREADS)] if kernel.endswith(THREADS) else kernel


def boot_args(kernel):
    """kunit.py arguments after kunit/run's "--" for a --kernels word:
    K+threads boots with thread_backlog_napi, K with the default command
    line."""
    return (["--", "--kernel_args=thread_backlog_napi"]
            if kernel.endswith(THREADS) else [])


def bad_kernels(kernels):
    """The --kernels words that are no kernel (K or K+threads, K of
    KERNELS)."""
    return [k for k in kernels if flavour(k) not in KERNELS]


def run_one(spec, kernel, out):
    tree, path = tree_path(spec)
    base = is_base(spec)
    if path is None:
        return None, 2
    log = os.path.join(out, f"headline-{tree}-{kernel}.log")
    t0 = time.time()
    with open(log, "w") as f:
        r = subprocess.run([os.path.join(HERE, "run"), "--arch=x86_64",
                            f"--kernel={flavour(kernel)}", "--headline",
                            "KSRC=" + path] + boot_args(kernel),
                           stdout=f, stderr=subprocess.STDOUT)
    secs = time.time() - t0
    with open(log, errors="replace") as f:
        text = f.read()
    sys.stdout.write(text)
    if r.returncode == 2:
        return None, 2
    logs = raw_ktap(text)
    if not logs or not os.path.exists(logs[0]):
        return None, 1
    with open(logs[0], errors="replace") as f:
        console = f.read()
    # each run keeps its own console: the build dir's is the last boot's
    with open(os.path.join(out, f"headline-{tree}-{kernel}.console.log"),
              "w") as f:
        f.write(console)
    found = LINE.search(console)
    if not found:
        print(f"kunit/headline: error: no napitest-headline line in "
              f"{logs[0]} ({tree}, {kernel})", file=sys.stderr)
        return None, 1
    v = dict(kv.split("=", 1) for kv in found.group(1).split())
    warn, effects, other = count_splats(console, os.path.dirname(logs[0]),
                                        base)
    v["post_flush_warn"] = warn_cell(kernel, warn)
    for row, (n, where) in effects.items():
        v[row] = str(n)
        v[row + "_at"] = where or "-"
        if n:
            print(f"kunit/headline: base effect ({tree} {kernel}): {row} "
                  f"x{n} at {where}")
    v["other_splats"] = str(len(other))
    for h in other:
        print(f"kunit/headline: SPLAT ({tree} {kernel}): {h}")
    v["secs"] = f"{secs:.0f}"
    v["ktap"] = "ok" if r.returncode == 0 else "FAIL"
    ver = VERSION.search(console)
    v["kernel"] = ver.group(1) if ver else "?"
    v["tree"] = path
    v["date"] = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    return v, 0


def warn_cell(kernel, warn):
    """The post-flush WARN's cell: the WARN exists only under PREEMPT_RT
    (kernel/softirq.c), so none seen on another kernel is "n/a"."""
    return str(warn) if flavour(kernel) == "rt" or warn else "n/a"


def count_splats(console, build, base=False):
    """(post-flush WARNs, {row: (count, where)} of BASE_EFFECTS when base,
    [header and stack of each other splat that is not known]) of a boot's
    console log.  The post-flush WARN is what the headline measures
    (expected on base RT), so it is counted by name, not failed here;
    on the base tree, so are BASE_EFFECTS (where: "file:line<frame(file)
    <..." of its first match); every other splat is named and fails the
    run (kunit/splats' rules: known only by exact signature, never one
    touching net/ or kernel/softirq.c)."""
    defined = splats.defined_in(build)
    protected = None if defined is None else set(defined)
    warn, other = 0, []
    effects = {row: [0, None] for row, _, _, _ in BASE_EFFECTS} \
        if base else {}
    for s in splats.splats(console.splitlines(True)):
        h, st = splats.header(s), splats.stack(s)
        if WARN.search(h):
            warn += 1
            continue
        effect = base_effect(h, st) if base else None
        if effect:
            row, where = effect
            effects[row][0] += 1
            if effects[row][1] is None:
                effects[row][1] = where + net_frames(st, defined)
        elif splats.classify(s, protected)[0] is None:
            other.append(f"line {s[0]}: {h}" +
                         (f"\n  stack: {' < '.join(st[:12])}" if st else ""))
    return warn, {r: tuple(x) for r, x in effects.items()}, other


def base_effect(h, st):
    """(row, file:line) of the BASE_EFFECTS entry a splat is, or None."""
    for row, _, rx, needed in BASE_EFFECTS:
        m = rx.search(h)
        if m and needed in st:
            return row, m.group(1)
    return None


def net_frames(st, defined):
    """"<frame(file)..." of a stack's frames defined in net/."""
    if defined is None:
        return "<net/-frames-unknown(no-build-objects)"
    return "".join(f"<{f}({defined[f]})" for f in dict.fromkeys(st)
                   if defined.get(f, "").startswith("net/"))


def table(res, cols):
    head = ["counter"] + [f"{t} {k}" for t, k in cols]
    lines = ["| " + " | ".join(head) + " |",
             "|" + "---|" * len(head)]
    for key, what in ROWS:
        cells = [res.get(c, {}).get(key, "-") for c in cols]
        if key.endswith("_at"):
            cells = [f"`{x.replace('<', ' < ')}`" if x != "-" else x
                     for x in cells]
        lines.append(f"| {what} | " + " | ".join(cells) + " |")
    lines.append("| KUnit case | " + " | ".join(
        res.get(c, {}).get("ktap", "-") for c in cols) + " |")
    lines.append("| command | " + " | ".join(
        CMDS.get(c, "-") for c in cols) + " |")
    for key, what in (("kernel", "kernel (uname -r)"),
                      ("date", "measured (UTC)"), ("tree", "tree")):
        lines.append(f"| {what} | " + " | ".join(
            os.path.basename(res.get(c, {}).get(key, "-")) for c in cols)
            + " |")
    return lines + ["", DIFFERS]


DIFFERS = """How this differs from the cover letter's figures: qemu-system-x86_64
-smp 2 under TCG (emulated CPUs, no hardware), not a 20 s line-rate flood:
NAPITEST_FLOOD_N paced packets, each sent after CPU 1 delivered the previous
one (CPU 1 idles in between, the worst case for IPIs), and as many deferred
frees.  The cover letter counts 2.1-2.4 M IPIs per 20 s of hardware load;
here the counts are per packet to an idle CPU, so base's IPIs are about one
per packet, not per second of load.  The post-flush WARN is a WARN_ON_ONCE:
at most 1 per boot here (the cover letter reports 2 -> 0).
No CPU-time or latency figure is derived from a TCG run."""


def verdict(res):
    """Problems with the expected effect (empty: as expected)."""
    bad = []
    for (t, k), v in sorted(res.items()):
        if v.get("other_splats", "0") != "0":
            bad.append(f"{t} {k}: {v['other_splats']} splat(s) other than "
                       "the post-flush WARN (named above)")
        if v.get("ktap") != "ok":
            bad.append(f"{t} {k}: KUnit case {v.get('ktap', 'not run')} "
                       "(kunit/run's exit status; its log is above)")
    for k in ["rt"] + [k + THREADS for k in KERNELS]:
        p = res.get(("patched", k))
        if not p:
            continue
        # backlog threads: always on RT, by thread_backlog_napi on non-RT
        for key in ("received_rps", "post_flush_warn", "rps_net_rx",
                    "defer_net_rx"):
            if p[key] not in ("0", "n/a"):
                bad.append(f"patched {k}: {key}={p[key]}, expected 0")
        if p["delivered"] != p["n"]:
            bad.append(f"patched {k}: delivered {p['delivered']} of "
                       f"{p['n']}")
        if p.get("threads") != "1":
            bad.append(f"patched {k}: backlog threads "
                       f"{'off' if p.get('threads') == '0' else 'unknown'}"
                       " (use_backlog_threads() false)")
    for k in KERNELS:
        p = res.get(("patched", k))
        if not p or k == "rt":
            continue
        # non-RT, default command line: use_backlog_threads() is off
        # without thread_backlog_napi (net/core/dev.c), so the csd path
        if p.get("threads") != "0":
            bad.append(f"patched {k}: backlog threads "
                       f"{'on' if p.get('threads') == '1' else 'unknown'} "
                       "with the default command line (upstream: on "
                       "non-RT only with thread_backlog_napi)")
        # At least one csd run, not a share of N: how many packets one
        # csd covers depends on whether CPU 1's backlog NAPI is still
        # scheduled when the next one comes (napi_schedule_rps()), which
        # is timing under TCG (878 and 1686 of 2048 seen on one machine)
        if int(p["received_rps"]) < 1:
            bad.append(f"patched {k}: received_rps={p['received_rps']} for "
                       f"n={p['n']}: the default command line must keep "
                       "the RPS csd path (threads off)")
    for k in sorted({k for _, k in res}):
        b = res.get(("base", k))
        if b and int(b["received_rps"]) < 1:
            bad.append(f"base {k}: received_rps={b['received_rps']} for "
                       f"n={b['n']}: the flood does not exercise the RPS "
                       "IPI")
    return bad


KERNELS = ["rt", "preempt"]
CMDS = {}


def column_order(col):
    """The table's order: RT, then PREEMPT, then PREEMPT+threads; base
    before patched."""
    t, k = col
    f = flavour(k)
    return (KERNELS.index(f) if f in KERNELS else 9, k != f, k, t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(TOP, "build", "kunit-smp"))
    ap.add_argument("--trees", default="base patched")
    ap.add_argument("--kernels", default="rt preempt")
    ap.add_argument("--table-only", action="store_true",
                    help="rebuild the table from DIR/headline.tsv")
    a = ap.parse_args()
    bad = bad_kernels(a.kernels.split())
    if bad:
        print(f"kunit/headline: error: unknown kernel(s) {' '.join(bad)} "
              f"in --kernels (one of {', '.join(KERNELS)}, each may be "
              f"followed by {THREADS})", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    tsv = os.path.join(a.out, "headline.tsv")
    # by build dir (the kernel's flavour), then tree: each build dir
    # switches trees once; K and K+threads share K's build
    cols = [(t, k) for f in dict.fromkeys(map(flavour, a.kernels.split()))
            for t in a.trees.split()
            for k in a.kernels.split() if flavour(k) == f]
    labels = {c: (c[0].split("=", 1)[0], c[1]) for c in cols}
    res, cmds = headline_tsv.read(tsv)
    rc = 0
    if a.table_only:
        cols = sorted(res, key=column_order)
    else:
        cmd = " ".join(shlex.quote(x) for x in
                       ["kunit/headline"] + sys.argv[1:])
        for t, k in cols:
            v, r = run_one(t, k, a.out)
            if r == 2:
                return 2
            if v is None:
                rc = 1
                res.pop(labels[(t, k)], None)
                continue
            res[labels[(t, k)]] = v
            cmds[labels[(t, k)]] = cmd
        # Rows of other trees and kernels are kept from earlier runs,
        # each with the command that measured it.
        with open(tsv + ".tmp", "w") as f:
            for (t, k), v in res.items():
                f.write(f"# {t}\t{k}\t{cmds.get((t, k), '?')}\n")
                f.write(f"{t}\t{k}\t" + " ".join(f"{x}={y}" for x, y in
                                                 v.items()) + "\n")
        os.replace(tsv + ".tmp", tsv)
        cols = sorted(res, key=column_order)
    CMDS.update(cmds)
    md = table(res, cols)
    bad = verdict(res)
    with open(os.path.join(a.out, "headline.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("---- headline: CPU 0 floods idle CPU 1 (qemu -smp 2, TCG) ----")
    print("\n".join(md))
    for x in bad:
        print(f"kunit/headline: NOT AS EXPECTED: {x}")
    if bad or rc:
        print("kunit/headline: FAIL")
        return 1
    print("kunit/headline: PASS (patched rt: 0 RPS csd runs, 0 WARN)"
          if ("patched", "rt") in res else "kunit/headline: done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
