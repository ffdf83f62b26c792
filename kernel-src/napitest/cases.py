# SPDX-License-Identifier: GPL-2.0
"""Each case of a make check, from CTest's JUnit file and the cmocka output
in it: its status in each configuration and the first reason it gave, in
the tree's terms (file:line and the function there).  tools/verdict's
summary and hunk-matrix/verdicts.py read results with it."""

import os
import re

from . import cmocka_output
from . import testresults as TR

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CONFIGS = ["rt-rps", "rps", "rps-threads", "norps-threads", "norps"]


# A case a suite's source lists: cmocka's cmocka_unit_test*() (unit/) or
# KUnit's KUNIT_CASE() (kunit/), the name possibly on the next line.
CASE_RE = re.compile(r"\b(?:cmocka_unit_test[a-z_]*|KUNIT_CASE)\(\s*(\w+)")


def source_cases(path):
    """The case names a suite's source lists, in order (the one reader of
    them: suite_cases(), tools/check-invariant-map)."""
    with open(path, encoding="utf-8") as fh:
        return CASE_RE.findall(fh.read())


def suite_cases(root=ROOT):
    """{suite: [case names]} from the suites' sources, for binaries that
    stopped before running all their cases or never started."""
    out = {}
    for dirpath, _, files in os.walk(os.path.join(root, "unit")):
        for f in files:
            if f.endswith(".c"):
                out[f[:-2]] = source_cases(os.path.join(dirpath, f))
    return out


class Result:
    """One test case in one configuration."""

    def __init__(self, test, cfg, status, reason="", suite=""):
        self.test, self.cfg, self.status, self.reason = test, cfg, status, \
            reason
        self.suite = suite

    def key(self):
        return f"{self.suite}:{self.cfg} {self.test}"


def case_reason(c):
    """The first thing the case said about its failure."""
    lines = [m for m in c.messages if m and not m.startswith("Failure!")]
    # fail_msg() text ("ERROR: ..."), e.g. require_definition()'s in a
    # setup that failed (cmocka then says only "Test setup failed").
    lines += [ln.split("ERROR: ", 1)[1].strip() for ln in c.output
              if "ERROR: " in ln]
    text = lines[0] if lines else ""
    if not text:
        bug = [ln for ln in c.output if "BUG" in ln or "WARN" in ln]
        text = bug[0].strip() if bug else ""
    if not text:
        text = "failed"
    if c.where and not re.search(r"\.[ch]:\d+", text):
        text += f" (at {c.where})"
    return text


# A case that does not apply to the tree says so and why before its skip
# (unit/explore_napi.c: "  NAME: not applicable on this tree (TREE): WHY").
NOT_APPLICABLE = re.compile(r"^\s*\S+: not applicable on this tree "
                            r"\([^)]*\): (.*)$")


# A case the user's environment left out says which variable did it
# (shims/sim/explore/search.c: "  NAME: skipped (NAPITEST_X WHY)").
ENV_SKIP = re.compile(r"^\s*\S+: skipped \((NAPITEST_\w+) (.*)\)$")


def not_applicable(c):
    """Of a skipped case: "not applicable on this tree: WHY", "skipped by
    NAPITEST_X=VALUE (WHY)" (the value from this process's environment,
    which make passes on), or ""."""
    if c.status != "skipped":
        return ""
    for ln in c.output:
        m = NOT_APPLICABLE.match(ln)
        if m:
            return f"not applicable on this tree: {m.group(1)}"
        m = ENV_SKIP.match(ln)
        if m:
            var = m.group(1)
            return (f"skipped by {var}={os.environ.get(var, '')} "
                    f"({m.group(2)})")
    return ""


def results(junit, cases_of):
    """[Result] for every case of every suite binary CTest ran."""
    out = []
    for t in TR.parse_ctest_junit(junit):
        if ":" not in t.name:
            continue
        suite, cfg = t.name.split(":", 1)
        if suite not in cases_of:
            continue		# self-tests: bad-input, expected-failures
        seen = cmocka_output.parse_text(t.output).cases
        names = {c.name for c in seen}
        stopped = None
        for c in seen:
            if c.status == "crashed":
                stopped = c.name
                crash = [ln.strip() for ln in c.output if ln.strip()]
                why = next((ln for ln in crash if "BUG" in ln), None) or \
                    (crash[-1] if crash else f"{t.name} stopped")
                out.append(Result(c.name, cfg, "failed",
                                  f"{why} ({suite}-{cfg} stopped here)",
                                  suite))
            elif c.status == "failed":
                out.append(Result(c.name, cfg, "failed", case_reason(c),
                                  suite))
            else:
                out.append(Result(c.name, cfg, "passed" if c.status == "ok"
                                  else c.status, not_applicable(c), suite))
        if t.passed and not stopped:
            continue
        if seen and not stopped and re.search(
                r"^\[=+\] \d+ test\(s\) run\.$", t.output, re.M):
            # It ran to the end: the cases it did not run are not built
            # in this configuration (an #if of the suite).
            continue
        # Cases never reached: the binary did not start, or stopped.
        why = (f"not run: {t.name} stopped in {stopped}" if stopped else
               f"not run: {t.name} {t.status}"
               + (f" ({t.message})" if t.message else ""))
        if not seen and not t.passed and t.output.strip():
            why += ": " + t.output.strip().splitlines()[-1][:160]
        for n in cases_of[suite]:
            if n not in names:
                out.append(Result(n, cfg, "failed", why, suite))
    return out


def other_failures(junit, cases_of):
    """[(CTest name, first error line)] of the failed tests that are not
    suite binaries: kbuild:<config> (the tree's own kbuild), the
    framework's checks; of a cmocka binary, "case: message (at
    file:line)"."""
    out = []
    for t in TR.parse_ctest_junit(junit):
        if t.passed or t.status == "skipped" or \
                t.name.split(":", 1)[0] in cases_of:
            continue
        # A cmocka binary (the simulator's self-tests): its first failing
        # case, cmocka's message and the file:line of its LINE tag.
        bad = [c for c in cmocka_output.parse_text(t.output).cases
               if c.failed]
        lines = [ln.strip() for ln in t.output.splitlines() if ln.strip()]
        err = f"{bad[0].name}: {case_reason(bad[0])}" if bad else \
            next((ln for ln in lines if "error" in ln.lower()), None) or \
            (lines[-1] if lines else t.message or t.status)
        out.append((t.name, clip(err)))
    return out


def clip(text, width=300):
    """text cut to about width characters in its middle: a trailing
    "(at file:line)", which says where, is kept whole."""
    if len(text) <= width:
        return text
    m = re.search(r" \(at [^()]+:\d+\)$", text)
    tail = m.group(0) if m else ""
    return text[:max(width - len(tail) - 4, 60)] + " ..." + tail


def func_at(path, line, cache={}):
    """The C function around path:line (a definition's name at column 0)."""
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    text = cache[path]
    for i in range(min(line, len(text)) - 1, -1, -1):
        t = text[i]
        if i < line - 1 and t.startswith("}"):
            return ""
        m = re.match(r"^[A-Za-z_][\w \t\*]*?\b(\w+)\(", t)
        if m and not t.rstrip().endswith(";") and m.group(1) not in (
                "if", "for", "while", "switch", "return"):
            return m.group(1)
    return ""


def kernel_terms(text, tree, link=""):
    """Tree paths relative (with KSRC: the user's), each tree file:line
    with its function.  link: with KSRC, the build reaches the tree through
    the link BUILD_DIR/tree (build directories are keyed by content); its
    files are then named by the user's path, the link's target, in full."""
    if link:
        text = text.replace(link + "/", tree + "/")

    def rel(m):
        path, line = m.group(1), int(m.group(2))
        full = path if os.path.isabs(path) else os.path.join(tree, path)
        name = path[len(tree) + 1:] if tree and path.startswith(tree + "/") \
            else path
        if name.startswith(ROOT + "/"):
            return f"{name[len(ROOT) + 1:]}:{line}"
        fn = func_at(full, line) if os.path.exists(full) else ""
        if link and os.path.exists(full) and full.startswith(tree + "/"):
            name = full
        col = m.group(3) or ""
        return f"{name}:{line}{col}" + (f" ({fn}())" if fn and f"{fn}()"
                                        not in text else "")
    return re.sub(r"(/?[\w./+-]+\.[ch]):(\d+)(:\d+(?=:))?", rel, text)


def status_of(rs):
    """An invariant's cell: FAIL, pass or n/a (no case ran)."""
    if any(r.status == "failed" for r in rs):
        return "FAIL"
    if any(r.status == "passed" for r in rs):
        return "pass"
    return "n/a"


def cache_value(build, key):
    """A value of the build directory's CMakeCache.txt, or ""."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return ""


def checked(table):
    """Does an invariant's {config: (status, why)} hold a pass or a FAIL?"""
    return any(st in ("pass", "FAIL") for st, _ in table.values())


def compare(pt, ut, invs, configs=CONFIGS):
    """The verdict and evidence of the backport (pt) against upstream (ut),
    {invariant: {config: (status, why)}} each: equal, or different and
    why.  An invariant neither run checks (no test of it ran, or all
    skipped) is said to be so, never counted as equal; one only one run
    checks is a difference, named apart from those both runs check.
    configs: the
    order the differing configurations are named in (make verdicts':
    hunk-matrix/hmlib.py's)."""
    notes = {i.id: i.statement for i in invs}
    same, diff, unchecked, one = [], [], [], []
    for inv in invs:
        p, u = pt.get(inv.id, {}), ut.get(inv.id, {})
        if not checked(p) and not checked(u):
            unchecked.append(inv.id)
            continue
        if checked(p) != checked(u):
            who, t = ("patched", p) if checked(p) else ("upstream", u)
            one.append(f"{inv.id} ({who} only: " + ", ".join(
                f"{c} {t[c][0]}" for c in configs
                if t.get(c, ("-",))[0] in ("pass", "FAIL")) + ")")
            continue
        if {c: s for c, (s, _) in p.items()} == \
                {c: s for c, (s, _) in u.items()}:
            same.append(inv.id)
            continue
        cfgs = [c for c in configs if p.get(c, ("-",))[0] !=
                u.get(c, ("-",))[0]]
        why = next((u.get(c, ("", ""))[1] or p.get(c, ("", ""))[1]
                    for c in cfgs if u.get(c, ("", ""))[1] or
                    p.get(c, ("", ""))[1]), "")
        diff.append(f"{inv.id} differs in " + ", ".join(
            f"{c} (patched {p.get(c, ('-',))[0]}, upstream "
            f"{u.get(c, ('-',))[0]})" for c in cfgs)
            + (f": {why[:200]}" if why else "") + ".")
    follow = [i for i, st in notes.items()
              if re.search(r"later trees|since v6\.\d+", st)]
    n = len(same) + len(diff)
    ev = (f"equal in {len(same)} of the {n} invariants both runs check"
          + (f" ({', '.join(same)})" if not diff else "")
          + (": " + " ".join(diff) if diff else "")
          + (f"; checked by one run only: {', '.join(one)}" if one else "")
          + (f"; not checked by either run: {', '.join(unchecked)} (no "
             "test of it in the userspace suites of TREE=patched and "
             "TREE=upstream: a series or seed-tree invariant)"
             if unchecked else "")
          + ("; " + ", ".join(follow) + " expect each tree's own "
             "behaviour where upstream changed it outside the series "
             "(docs/invariants.md)" if follow else ""))
    verdict = (f"equal, invariant by invariant, in every configuration "
               f"({n} invariants checked, {len(unchecked)} not)"
               if not diff and not one
               else f"different in {len(diff) + len(one)} invariant(s)")
    return verdict, ev
