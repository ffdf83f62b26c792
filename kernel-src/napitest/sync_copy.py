# SPDX-License-Identifier: GPL-2.0
"""Make kunit/run's private copy of a kernel tree hold another tree.

usage: kunit/sync-copy [--stamp FILE] SRC COPY

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

The copy is also how kunit/run follows the same tree after an edit: a file
the user replaced is a new inode, compared by content; but a file rewritten
in place with an older mtime (cp -a or rsync -a onto it) is still the
copy's own inode, shares its new content, and looks older than the objects
built from its old content.  With --stamp FILE, a file whose ctime (set by
every write, never set back) is not older than FILE's mtime, the start of
the previous sync, is written as a new file too; FILE is then dated the
start of this sync.  Without FILE yet, no ctime is trusted: the files that
share an inode with SRC are kept (kunit/run writes FILE right after its
first cp -al, whose links set every ctime).

Prints one line with the counts.  Exit status 0, or 2 on an error.
"""

import filecmp
import os
import shutil
import stat
import sys

# Not part of any tree: kept across switches (kunit/run's bookkeeping).
KEEP = {".napitest-copy-of", ".napitest-synced", ".napitest-synced.new"}


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


def touched_since(st_src, st_dst, since_ns):
    """A file shared by inode that was written at or after since_ns."""
    return (since_ns is not None and
            (st_src.st_dev, st_src.st_ino) == (st_dst.st_dev, st_dst.st_ino)
            and not stat.S_ISLNK(st_src.st_mode)
            and st_src.st_ctime_ns >= since_ns)


def sync(src, dst, since_ns=None):
    n = {"same": 0, "replaced": 0, "removed": 0}
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        droot = os.path.normpath(os.path.join(dst, rel))
        if os.path.lexists(droot) and not os.path.isdir(droot):
            remove(droot)
        os.makedirs(droot, exist_ok=True)
        have = set(os.listdir(droot))
        want = set(dirs) | set(files)
        for name in sorted(have - want):
            if rel == "." and name in KEEP:
                continue
            remove(os.path.join(droot, name))
            n["removed"] += 1
        for name in files:
            s, d = os.path.join(root, name), os.path.join(droot, name)
            st_s = os.lstat(s)
            try:
                st_d = os.lstat(d)
            except FileNotFoundError:
                st_d = None
            if st_d is not None and same(s, d, st_s, st_d) and \
                    not touched_since(st_s, st_d, since_ns):
                n["same"] += 1
                continue
            put(s, d, st_s)
            n["replaced"] += 1
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
    return n


def stamp_time(path):
    try:
        return os.stat(path).st_mtime_ns
    except FileNotFoundError:
        return None


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    stamp = None
    if args[:1] == ["--stamp"] and len(args) > 1:
        stamp, args = args[1], args[2:]
    if len(args) != 2:
        print(__doc__.split("\n")[2], file=sys.stderr)
        return 2
    src, dst = args
    if not os.path.isdir(src):
        print(f"kunit/sync-copy: error: no directory {src}", file=sys.stderr)
        return 2
    try:
        # the start, by the file system's clock (the one ctimes use)
        os.makedirs(dst, exist_ok=True)
        probe = os.path.join(dst, ".napitest-synced.new")
        with open(probe, "w"):
            pass
        start = os.stat(probe).st_mtime_ns
        n = sync(src, dst, stamp_time(stamp) if stamp else None)
        if stamp:
            os.utime(probe, ns=(start, start))
            os.replace(probe, stamp)
        else:
            os.unlink(probe)
    except OSError as e:
        print(f"kunit/sync-copy: error: {e}", file=sys.stderr)
        return 2
    print(f"kunit/sync-copy: {n['same']} files unchanged, "
          f"{n['replaced']} replaced, {n['removed']} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
