# SPDX-License-Identifier: GPL-2.0
"""Make-style dependency files ("TARGET: PREREQ..."), as the extractor
writes extracted/extract.d (CMake's DEPFILE: ninja reads it) and make
check's key reads it back (check_inputs).  A space, '#' or '\\' in a path
is escaped with a backslash, '$' doubled, as GNU make and ninja read them;
a backslash-newline continues the line.
"""

import re


def escape(path):
    return re.sub(r"([ #\\])", r"\\\1", path).replace("$", "$$")


def text(target, prereqs):
    """The depfile of one target, on one line."""
    return (f"{escape(target)}:" +
            "".join(" " + escape(p) for p in prereqs) + "\n")


def words(s):
    """s split at unescaped blanks, each word unescaped."""
    out, cur, i = [], [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] in " #\\":
            cur.append(s[i + 1])
            i += 2
            continue
        if c == "$" and s[i + 1:i + 2] == "$":
            cur.append("$")
            i += 2
            continue
        if c in " \t":
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        out.append("".join(cur))
    return out


def parse(s):
    """[(target, [prereq...])] of a depfile's text."""
    s = re.sub(r"\\\r?\n", " ", s)
    rules = []
    for line in s.splitlines():
        w = words(line)
        colon = next((i for i, x in enumerate(w) if x.endswith(":")), None)
        if colon is None:
            continue
        targets = w[:colon] + [w[colon][:-1]]
        for t in filter(None, targets):
            rules.append((t, w[colon + 1:]))
    return rules


def prerequisites(s):
    """Every prerequisite a depfile names, each once, in order."""
    return list(dict.fromkeys(p for _, ps in parse(s) for p in ps))
