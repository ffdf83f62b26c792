# SPDX-License-Identifier: GPL-2.0
"""A stamp file that is rewritten when, and only when, a tree file an
extraction read no longer has the content that extraction read.

ninja decides by mtimes: an extraction is rerun when one of its inputs
(extracted/extract.d) is newer than its output.  A tree file replaced by
other content with an older mtime (cp -a, rsync -a, tar x, an editor or a
script that keeps mtimes) leaves every input older than the output, and
the old extraction, the old binaries and their old results would stand: a
false green.  The build runs this on every ninja run (CMakeLists.txt,
napitest_content_stamp()); the extraction depends on the stamp.

The extractor records the SHA-256 of every input it read (extract.key's
"inputs", napitest.extract.input_key()); the files are compared with it by
content.  A file whose (device, inode, size, mtime, ctime) is what it was
when last hashed here is not read again (STAMP.json): ctime is set by the
kernel on every write and cannot be set back, so an unchanged stat is an
unchanged file, unless it was written within a tick of the clock the
stat came from: a file changed in the last RACY_NS is not remembered.

usage: python -m napitest.content_stamp DEPFILE RECORD STAMP

DEPFILE is the extraction's depfile (its inputs), RECORD its extract.key.
Without DEPFILE or RECORD (no extraction yet, or one that failed) the
stamp is written: the extraction must run.  Prints nothing unless the
stamp is written, then the first input that differs.  Exit 0; 2 on bad
usage.
"""

import hashlib
import os
import sys
import time

from . import depfile, jsonfile

PROG = "content-stamp"


def stat_key(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
            st.st_ctime_ns]


def digest(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


read_json, write_json = jsonfile.read_dict, jsonfile.write


def inputs_of(depfile_path):
    """The depfile's prerequisites, or None without a depfile."""
    try:
        with open(depfile_path) as f:
            rules = depfile.parse(f.read())
    except OSError:
        return None
    return sorted({p for _, prereqs in rules for p in prereqs})


# A file changed less than this long ago may change again within the same
# tick of the file system's clock, its stat unchanged: it is hashed again
# next time (git's "racily clean" entries).
RACY_NS = 2 * 10**9


def first_change(inputs, read, seen):
    """The first input whose content is not read[input] (None: all are),
    updating seen ({path: [stat key, digest]}) with what was hashed.  The
    inputs are the depfile's and every file the extraction recorded, the
    optional ones it found absent among them: one that appears is a
    change too."""
    changed = None
    now = time.time_ns()
    for path in sorted(set(inputs) | set(read)):
        key = stat_key(path)
        old = seen.get(path)
        if key is None:		# absent (or unreadable)
            sha = None
            seen.pop(path, None)
        elif old and old[0] == key:
            sha = old[1]
        else:
            sha = digest(path)
            if now - key[4] < RACY_NS:
                seen.pop(path, None)
            else:
                seen[path] = [key, sha]
        if changed is None and sha != read.get(path, "(not read)"):
            changed = path
    return changed


def update(depfile_path, record, stamp):
    """Write stamp if the extraction must run; returns why, or None."""
    inputs = inputs_of(depfile_path)
    read = read_json(record).get("inputs")
    cache = stamp + ".json"
    seen = read_json(cache)
    if inputs is None or not isinstance(read, dict):
        why = "no extraction recorded"
    elif not os.path.exists(stamp):
        why = "no stamp yet"
    else:
        before = dict(seen)
        why = first_change(inputs, read, seen)
        if seen != before:
            write_json(cache, seen)
        if why:
            why = f"{why} differs from what the extraction read"
    if why:
        os.makedirs(os.path.dirname(os.path.abspath(stamp)), exist_ok=True)
        with open(stamp, "w") as f:
            f.write(why + "\n")
    return why


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3:
        print(f"usage: {PROG} DEPFILE RECORD STAMP", file=sys.stderr)
        return 2
    why = update(*argv)
    if why and os.path.exists(argv[0]):
        print(f"{PROG}: extracting again: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
