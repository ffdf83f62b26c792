# SPDX-License-Identifier: GPL-2.0
"""A failed build's output (ninja, the compiler, the linker): its first
error, the one parser of it (tools/build-report, the hunk matrix).

A ninja failure prints "FAILED: target", then the command (whose flags,
-Werror=implicit-function-declaration among them, say "error" too), then
the compiler's diagnostics.  The first error is the compiler's own
"file:line[:col]: [fatal ]error: message" line, else the linker's
"undefined reference to `name'".
"""

import os
import re

ERROR_RE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)? "
                      r"(?:fatal )?error: (?P<msg>.*)$")
UNDEF_RE = re.compile(r"(?:(?P<where>[^\s:]+):(?P<line>\d+): )?"
                      r"undefined reference to [‘'`](?P<name>\w+)[’']")
# A tool's own error line ("extract: error: ...", "cc1: fatal error: ...").
TOOL_ERROR_RE = re.compile(r"^[\w.+-]+: (?:fatal )?error: ")


def first_error(lines):
    """The first compiler error line, else the first undefined reference,
    else the first error line of a tool other than collect2 (its summary
    of the linker's errors); None when there is none."""
    lines = list(lines)
    for regex in (ERROR_RE, UNDEF_RE):
        for line in lines:
            if regex.search(line):
                return line.strip()
    for line in lines:
        if TOOL_ERROR_RE.match(line) and not line.startswith("collect2"):
            return line.strip()
    return None


# A path in a message: absolute, or a build directory's own relative path
# (the linker's "CMakeFiles/x.dir/y.o"), with its :line[:col] if any.
PATH_RE = re.compile(r"(?<![\w.+/-])(?P<path>/[^\s:'\"‘’`()]+|"
                     r"CMakeFiles/[^\s:'\"‘’`()]+)"
                     r"(?::(?P<line>\d+)(?::(?P<col>\d+))?)?")
LINE_DIRECTIVE_RE = re.compile(r'^#line (\d+) "([^"]*)"')


def line_origin(text, line):
    """(path, line) of line `line` of an extraction's file text, from the
    #line directive above it (None: no directive above it, or the line
    is a directive)."""
    lines = text.split("\n")
    if not 1 <= line <= len(lines) or LINE_DIRECTIVE_RE.match(lines[line - 1]):
        return None
    for k in range(line - 2, -1, -1):
        m = LINE_DIRECTIVE_RE.match(lines[k])
        if m:
            return m.group(2), int(m.group(1)) + (line - 2 - k)
    return None


def tree_paths(msg, trees, hidden=(), extracted=None):
    """A build's message (first_error()'s line, or the end of its output)
    in the tree's terms: a path under one of trees (directories, the tree
    the extraction names and the tree it was made from) written relative
    to it, "net/core/dev.c:LINE"; a path in the extraction (extracted:
    (directory, reader) with reader(relpath) -> its text) written as the
    tree file:line its #line directive names, else "extracted/FILE:LINE";
    any other path under one of hidden (scratch and build directories),
    and a build directory's CMakeFiles/ path, written as its file name
    only.  No path under hidden is left in the result."""
    trees = [os.path.join(t, "") for t in trees]
    hidden = [os.path.join(h, "") for h in hidden]

    def tree_rel(path):
        for t in trees:
            if path.startswith(t):
                return path[len(t):]
        return None

    def one(m):
        path, line, col = m.group("path", "line", "col")
        tail = (f":{line}" if line else "") + (f":{col}" if col else "")
        rel = tree_rel(path)
        if rel is not None:
            return rel + tail
        if extracted and path.startswith(os.path.join(extracted[0], "")):
            rel = path[len(os.path.join(extracted[0], "")):]
            origin = None
            if line:
                try:
                    origin = line_origin(extracted[1](rel), int(line))
                except OSError:
                    origin = None
            if origin and tree_rel(origin[0]) is not None:
                return f"{tree_rel(origin[0])}:{origin[1]}"
            return "extracted/" + rel + tail
        if path.startswith("CMakeFiles/") or \
                any(path.startswith(h) for h in hidden):
            return os.path.basename(path) + tail
        return m.group(0)
    return PATH_RE.sub(one, msg)
