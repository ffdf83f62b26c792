#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise an lcov tracefile of the extracted kernel code.

Prints line, function and branch coverage of the tree's files, the same
per file, a table of the manifest's functions, and the coverage of the lines the backport series
adds (the lines of the patched tree that differ from base), then checks the
figures against coverage/thresholds.
"""

import argparse
import difflib
import os
import sys

import napitest.manifest


def parse_info(path):
    """{file: {"lines": {n: hits}, "branches": {(n, b, k): taken},
    "funcs": {name: (line, hits)}}}"""
    data, cur = {}, None
    fn_line = {}
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            tag, _, val = line.partition(":")
            if tag == "SF":
                cur = data.setdefault(val, {"lines": {}, "branches": {},
                                            "funcs": {}})
                fn_line = {}
            elif tag == "DA" and cur is not None:
                n, hits = val.split(",")[:2]
                n = int(n)
                cur["lines"][n] = cur["lines"].get(n, 0) + int(hits)
            elif tag == "BRDA" and cur is not None:
                n, blk, br, taken = val.split(",")
                key = (int(n), blk, br)
                t = 0 if taken == "-" else int(taken)
                cur["branches"][key] = cur["branches"].get(key, 0) + t
            elif tag == "FN" and cur is not None:
                n, name = val.split(",", 1)
                fn_line[name] = int(n)
            elif tag == "FNDA" and cur is not None:
                hits, name = val.split(",", 1)
                old = cur["funcs"].get(name, (fn_line.get(name, 0), 0))
                cur["funcs"][name] = (fn_line.get(name, old[0]),
                                      old[1] + int(hits))
    return data


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def manifest_functions(path):
    return napitest.manifest.functions(path)


def added_lines(base, tree, rel):
    """Line numbers of tree/rel that are not in base/rel (the series' +)."""
    try:
        with open(os.path.join(base, rel)) as f:
            a = f.read().split("\n")
        with open(os.path.join(tree, rel)) as f:
            b = f.read().split("\n")
    except OSError:
        return set()
    out = set()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag in ("replace", "insert"):
            out.update(range(j1 + 1, j2 + 1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("info")
    ap.add_argument("--tree", required=True)
    ap.add_argument("--base", help="base tree, for the series' added lines")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--thresholds")
    ap.add_argument("--summary-out")
    a = ap.parse_args()

    data = parse_info(a.info)
    tree = os.path.abspath(a.tree)
    out = []
    lh = lf = bh = bf = fh = ff = 0
    for path, d in sorted(data.items()):
        lf += len(d["lines"])
        lh += sum(1 for v in d["lines"].values() if v)
        bf += len(d["branches"])
        bh += sum(1 for v in d["branches"].values() if v)
        ff += len(d["funcs"])
        fh += sum(1 for v in d["funcs"].values() if v[1])
    figures = {"lines": pct(lh, lf), "functions": pct(fh, ff),
               "branches": pct(bh, bf)}
    out.append(f"Coverage of the extracted definitions of {tree}")
    out.append(f"  lines:     {figures['lines']:5.1f}% ({lh} of {lf})")
    out.append(f"  functions: {figures['functions']:5.1f}% ({fh} of {ff})")
    out.append(f"  branches:  {figures['branches']:5.1f}% ({bh} of {bf})")

    # Per file: thresholds name these FILE:lines and FILE:branches.
    out.append("")
    out.append(f"  {'file':34} {'lines':>20} {'branches':>20}")
    for path, d in sorted(data.items()):
        rel = os.path.relpath(path, tree)
        n_l, n_b = len(d["lines"]), len(d["branches"])
        h_l = sum(1 for v in d["lines"].values() if v)
        h_b = sum(1 for v in d["branches"].values() if v)
        figures[f"{rel}:lines"] = pct(h_l, n_l)
        figures[f"{rel}:branches"] = pct(h_b, n_b)
        out.append(f"  {rel:34} {pct(h_l, n_l):6.1f}% ({h_l:3} of {n_l:3})"
                   f" {pct(h_b, n_b):6.1f}% ({h_b:3} of {n_b:3})")

    out.append("")
    out.append(f"  {'function':34} {'file:line':28} {'calls':>8} "
               f"{'lines':>7} {'branches':>9}")
    for name in manifest_functions(a.manifest):
        for path, d in sorted(data.items()):
            if name not in d["funcs"]:
                continue
            start, calls = d["funcs"][name]
            # The function's lines: from its start to the next function.
            nexts = sorted(ln for ln, _ in d["funcs"].values() if ln > start)
            end = nexts[0] if nexts else 1 << 30
            ls = [v for n, v in d["lines"].items() if start <= n < end]
            bs = [v for (n, _, _), v in d["branches"].items()
                  if start <= n < end]
            rel = os.path.relpath(path, tree)
            lc = f"{pct(sum(1 for v in ls if v), len(ls)):5.1f}%"
            bc = (f"{pct(sum(1 for v in bs if v), len(bs)):5.1f}%"
                  if bs else "     -")
            out.append(f"  {name:34} {rel + ':' + str(start):28} {calls:8} "
                       f"{lc:>7} {bc:>9}")

    if a.base:
        total = hit = 0
        missed = []
        for path, d in sorted(data.items()):
            rel = os.path.relpath(path, tree)
            for n in sorted(added_lines(a.base, tree, rel)):
                if n in d["lines"]:
                    total += 1
                    if d["lines"][n]:
                        hit += 1
                    else:
                        missed.append(f"{rel}:{n}")
        figures["series_added_lines"] = pct(hit, total)
        out.append("")
        out.append(f"  lines the series adds or changes (executable, in "
                   f"extracted definitions): {pct(hit, total):5.1f}% "
                   f"({hit} of {total})")
        for m in missed:
            out.append(f"    never executed: {m}")

    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if a.summary_out:
        with open(a.summary_out, "w") as f:
            f.write(text)

    failed = []
    if a.thresholds:
        with open(a.thresholds) as f:
            for raw in f:
                words = raw.split("#", 1)[0].split()
                if len(words) != 2 or words[0] not in figures:
                    continue
                need = float(words[1])
                if figures[words[0]] + 1e-9 < need:
                    failed.append(f"{words[0]} {figures[words[0]]:.1f}% "
                                  f"is below the threshold {need}%")
    for msg in failed:
        print(f"coverage: error: {msg} (coverage/thresholds)",
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
