# SPDX-License-Identifier: GPL-2.0
"""Make kunit/run's private copy of a kernel tree hold another tree.

usage: kunit/sync-copy [--db FILE] [--keep REL]... [--trust-shared] SRC COPY

Every kernel flavour (um, x86_64-rt, x86_64-preempt) builds its trees at
one fixed path, so that kbuild's -fmacro-prefix-map=<srctree>/= (part of
every compiler command line, hence of ccache's hash) is the same for base,
patched and a user's tree, and one O= build dir serves them all.  When the
copy switches trees, a file whose content differs must look newer than
every object built from the previous tree, or kbuild keeps the stale
object: such a file is written as a new file (mtime now), never through
the hard link.  A file with the same inode or the same content is left as
it is (kbuild rebuilds nothing for it); files and directories the new tree
lacks are removed.  SRC is only read.

The copy is also how kunit/run follows the same tree after an edit, by
content, not by mtime: a file given other content with an older mtime
(cp -a, rsync -a or tar x of a mutant) must not look older than the
objects built from its old content.  A file the user replaced is a new
inode, compared by content.  A file that shares its inode with the copy
(kunit/run's first copy of a tree is cp -al) shares its new content too,
so it cannot be compared with the copy: with --db FILE, the SHA-1 of
every file's content when last synced is kept with the stat of both
sides (device, inode, size, mtime, ctime; ctime is set by every write and
cannot be set back), and a shared file whose stat moved is hashed and
written as a new file if its content is not the one recorded.  A new hard
link elsewhere (another kernel flavour's cp -al of the same tree) moves
the ctime only: the content is the same, nothing is written.  A file
whose stats are both those recorded is not read at all.  Without FILE
(or a file FILE does not know yet, as just after the first cp -al), a
shared inode is trusted.

A link in SRC to a regular file outside SRC (a tree made of links to
another, cp -as or lndir, or one file linked in) is copied as that
file's content, compared by content as a file of SRC is: kbuild in the
copy would follow the link itself and take the target's mtime, so a
target given other content with an older mtime, or the link pointed at
an older file, would leave the objects built from the old content.  A
link whose target is in SRC stays a link (to the copy's file, which is
synced), as does one to a directory or to nothing.  Where the copy still
has the link itself (its cp -al), kbuild built from that file: the link
is replaced by a hard link to it (no space; trusted, as a shared inode
with no record is), falling back to a copy across file systems.

--trust-shared: SRC is a prepared tree, never written in place (its
files are replaced, never rewritten), so a shared inode holds its
content whatever its ctime says (the trees of the cache share their
inodes, and making or removing one moves every ctime).

--keep REL (a path relative to COPY, repeated): a file kunit/run writes
itself from SRC's (its hooks: dev.c with the suite included, net/Kconfig,
its own files), by content; the sync neither compares, replaces nor
removes it, so that an unchanged hook keeps its mtime.

Prints one line with the counts.  Exit status 0, or 2 on an error.
"""

import filecmp
import hashlib
import os
import shutil
import stat
import sys
import time

from . import jsonfile

# Not part of any tree: kept across switches (kunit/run's bookkeeping).
KEEP = {".napitest-copy-of", ".napitest-synced.json"}


def same(src, dst, st_src, st_dst):
    if (st_src.st_dev, st_src.st_ino) == (st_dst.st_dev, st_dst.st_ino):
        return True
    if stat.S_IFMT(st_src.st_mode) != stat.S_IFMT(st_dst.st_mode):
        return False
    if stat.S_ISLNK(st_src.st_mode):
        return os.readlink(src) == os.readlink(dst)
    if st_src.st_size != st_dst.st_size:
        return False
    if stat.S_IMODE(st_src.st_mode) != stat.S_IMODE(st_dst.st_mode):
        return False
    return filecmp.cmp(src, dst, shallow=False)


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def put(src, dst, st_src):
    """dst becomes a new file with src's content (mtime: now)."""
    if os.path.lexists(dst):
        remove(dst)
    if stat.S_ISLNK(st_src.st_mode):
        os.symlink(os.readlink(src), dst)
    else:
        shutil.copyfile(src, dst)
        os.chmod(dst, stat.S_IMODE(st_src.st_mode))


def stat_key(st):
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
            st.st_ctime_ns]


def digest(path):
    """SHA-1 of the content, as git names a blob: a change detector (not
    against a crafted collision), and four times as fast as SHA-256 here,
    which counts when a new hard link elsewhere moved every ctime of a
    kernel tree."""
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verified(s, d, st_s, st_d, rec, trust_shared=False):
    """(does the copy's file d hold what src's s holds, as far as a build
    from d is concerned; s's content digest or None if not read), rec
    being what the last sync recorded of them (None: nothing)."""
    if rec and rec[0] == stat_key(st_s) and rec[1] == stat_key(st_d):
        return True, rec[2]
    if stat.S_ISLNK(st_s.st_mode):
        return same(s, d, st_s, st_d), None
    if not stat.S_ISREG(st_s.st_mode):
        # a FIFO or a device: no content, never opened (a FIFO would
        # block); put() refuses to copy one (an error, not a hang)
        return stat.S_IFMT(st_s.st_mode) == stat.S_IFMT(st_d.st_mode), None
    if (st_s.st_dev, st_s.st_ino) == (st_d.st_dev, st_d.st_ino):
        if rec is None or trust_shared:
            return True, None  # not known yet: trusted (see above)
        if rec[2] is None:
            return False, None  # its content when built is not known
        sha = digest(s)
        return sha == rec[2], sha
    if stat.S_IFMT(st_s.st_mode) != stat.S_IFMT(st_d.st_mode) or \
            st_s.st_size != st_d.st_size or \
            stat.S_IMODE(st_s.st_mode) != stat.S_IMODE(st_d.st_mode):
        return False, None
    # each side read once: the digests compare them and one is recorded
    sha = digest(s)
    return sha == digest(d), sha


# A file written less than this long ago may be written again within the
# same tick of the clock its ctime comes from, its stat unchanged: its
# stat is not recorded (git's "racily clean" entries), only its digest.
RACY_NS = 2 * 10**9


def record(st_s, st_d, sha):
    now = time.time_ns()
    if now - max(st_s.st_ctime_ns, st_d.st_ctime_ns) < RACY_NS:
        return [None, None, sha]
    return [stat_key(st_s), stat_key(st_d), sha]


def source_stat(root, s):
    """lstat() of SRC's file s, or, for a link to a regular file outside
    root (SRC's real path), the stat of that file: the copy holds its
    content (see above)."""
    st = os.lstat(s)
    if not stat.S_ISLNK(st.st_mode):
        return st
    target = os.path.realpath(s)
    if target == root or target.startswith(root + os.sep):
        return st
    try:
        followed = os.stat(s)
    except OSError:
        return st  # dangling: copied as the link it is
    return followed if stat.S_ISREG(followed.st_mode) else st


def adopt(s, d, st_s, st_d, rec):
    """The copy's d is the link SRC's s is (cp -al), to a file outside
    SRC that kbuild followed: d becomes a hard link to that file, as a
    shared inode of cp -al is; returns its stat, or None where that is
    not the case or not possible (then d is compared and written as any
    file)."""
    if rec is not None or not stat.S_ISREG(st_s.st_mode) or \
            not stat.S_ISLNK(st_d.st_mode) or not os.path.islink(s) or \
            os.readlink(s) != os.readlink(d):
        return None
    tmp = f"{d}.napitest-adopt"
    try:
        os.link(os.path.realpath(s), tmp)
    except OSError:
        return None
    os.replace(tmp, d)
    return os.lstat(d)


def walk_error(e):
    """An unreadable directory of the source is an error, not a
    directory whose old files the copy keeps."""
    raise e


def sync(src, dst, db=None, keep=(), trust_shared=False):
    """db: {path relative to dst: [stat key of src's file, of dst's,
    content digest]} of the last sync, updated in place (None: shared
    inodes are trusted and nothing is recorded); keep: paths relative to
    dst left as they are; trust_shared: src is never written in place
    (a prepared tree), a shared inode is its content."""
    keep = {os.path.normpath(k) for k in keep}
    real = os.path.realpath(src)
    n = {"same": 0, "replaced": 0, "removed": 0}
    seen = {}
    for root, dirs, files in os.walk(src, onerror=walk_error):
        rel = os.path.relpath(root, src)
        droot = os.path.normpath(os.path.join(dst, rel))
        # (a link to a directory is removed, never followed: its target
        # may be in a tree the copy must not write to)
        if os.path.islink(droot) or \
                os.path.lexists(droot) and not os.path.isdir(droot):
            remove(droot)
        os.makedirs(droot, exist_ok=True)
        have = set(os.listdir(droot))
        want = set(dirs) | set(files)
        for name in sorted(have - want):
            if rel == "." and name in KEEP or \
                    os.path.normpath(os.path.join(rel, name)) in keep:
                continue
            remove(os.path.join(droot, name))
            n["removed"] += 1
        for name in files:
            s, d = os.path.join(root, name), os.path.join(droot, name)
            frel = os.path.normpath(os.path.join(rel, name))
            if frel in keep or rel == "." and name in KEEP:
                continue
            st_s = source_stat(real, s)
            try:
                st_d = os.lstat(d)
            except FileNotFoundError:
                st_d = None
            if st_d is not None:
                st_d = adopt(s, d, st_s, st_d,
                             (db or {}).get(frel)) or st_d
            ok, sha = (False, None) if st_d is None else \
                verified(s, d, st_s, st_d, (db or {}).get(frel),
                         trust_shared)
            if ok:
                n["same"] += 1
            else:
                put(s, d, st_s)
                n["replaced"] += 1
                st_d = os.lstat(d)
            if db is not None and stat.S_ISREG(st_s.st_mode):
                rec = db.get(frel)
                if sha is None and rec and ok and trust_shared:
                    sha = rec[2]  # the same inode: the same content
                seen[frel] = record(st_s, st_d, sha or digest(d))
        # Symlinks to directories: os.walk lists them in dirs, unfollowed.
        for name in list(dirs):
            s = os.path.join(root, name)
            if os.path.islink(s):
                d = os.path.join(droot, name)
                st_s = os.lstat(s)
                if not (os.path.lexists(d) and os.path.islink(d) and
                        os.readlink(d) == os.readlink(s)):
                    put(s, d, st_s)
                    n["replaced"] += 1
                dirs.remove(name)
    if db is not None and db != seen:
        db.clear()
        db.update(seen)
        n["recorded"] = True
    return n


# The record's format and digest: a record of another (an older
# sync-copy's) is not read, as if there were none, so that its digests
# are never taken for content that changed.
DB_VERSION = "sync-copy 1, sha1"


def load_db(path):
    """{path: [stat of src's file, of the copy's, digest]}, or {}.  Of a
    record of another format only the stats are kept: a file whose stats
    did not move is trusted, one whose stats moved is written again."""
    db = jsonfile.read_dict(path)
    # (the first format, of 2bb1488 and before, was the files alone)
    files = db.get("files") if "version" in db else db
    if not isinstance(files, dict):
        return {}
    if db.get("version") != DB_VERSION:
        return {rel: [rec[0], rec[1], None] for rel, rec in files.items()
                if isinstance(rec, list) and len(rec) == 3}
    return files


def save_db(path, files):
    jsonfile.write(path, {"version": DB_VERSION, "files": files})


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    path, keep, trust = None, [], False
    while args[:1] in (["--db"], ["--keep"], ["--trust-shared"]):
        if args[0] == "--trust-shared":
            trust, args = True, args[1:]
            continue
        if len(args) < 2:
            break
        if args[0] == "--db":
            path = args[1]
        else:
            keep.append(args[1])
        args = args[2:]
    if len(args) != 2:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    src, dst = args
    if not os.path.isdir(src):
        print(f"kunit/sync-copy: error: no directory {src}", file=sys.stderr)
        return 2
    try:
        db = load_db(path) if path else None
        n = sync(src, dst, db, keep, trust)
        if path and n.get("recorded"):
            save_db(path, db)
    except OSError as e:
        print(f"kunit/sync-copy: error: {e}", file=sys.stderr)
        return 2
    print(f"kunit/sync-copy: {n['same']} files unchanged, "
          f"{n['replaced']} replaced, {n['removed']} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
