# SPDX-License-Identifier: GPL-2.0
"""A failed build's output (ninja, the compiler, the linker): its first
error, the one parser of it (tools/build-report, the hunk matrix).

A ninja failure prints "FAILED: target", then the command (whose flags,
-Werror=implicit-function-declaration among them, say "error" too), then
the compiler's diagnostics.  The first error is the compiler's own
"file:line[:col]: [fatal ]error: message" line, else the linker's
"undefined reference to `name'".
"""

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
