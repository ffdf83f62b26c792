# SPDX-License-Identifier: GPL-2.0
"""The tree's own kbuild, for a few objects, in a scratch O= directory.

Shared by series-check (every prefix of the series) and kbuild-check (the
tree under `make check`).  The tree is only read: kbuild writes its .config,
generated headers, host tools and objects under O=, outside the tree.

Configurations:
  kbuild_setup()     x86_64_defconfig plus a fragment (CONFIG_RPS=y by
                     default), made consistent by olddefconfig
  kbuild_setup_rt()  the forced-RT view: the same .config, every kernel C
                     file (the generated bounds.h/asm-offsets.h too)
                     compiled with -DCONFIG_PREEMPT_RT (RT_ARGS).  6.1's
                     arch/x86/Kconfig cannot select PREEMPT_RT, so this is
                     a COMPILE-ONLY view: Kconfig stays non-RT, nothing is
                     linked.
"""

import os
import re
import shutil
import subprocess

OBJS = ("net/core/dev.o", "net/core/skbuff.o")
RT_ARGS = ["KCFLAGS=-DCONFIG_PREEMPT_RT"]


class ToolError(Exception):
    pass


def run(cmd, cwd=None, env=None, logf=None, shell=False):
    """Run cmd; return (rc, combined output).  Output also goes to logf."""
    p = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       errors="replace")
    if logf:
        with open(logf, "a") as f:
            f.write(f"$ {cmd if shell else ' '.join(cmd)}\n{p.stdout}\n"
                    f"[exit {p.returncode}]\n")
    return p.returncode, p.stdout


def first_lines(lines, n=3):
    uniq = list(dict.fromkeys(line.strip() for line in lines))
    return " | ".join(uniq[:n])


def obj_state(kb, obj):
    p = os.path.join(kb, obj)
    return os.stat(p).st_mtime_ns if os.path.exists(p) else None


def config_value(kb, name):
    """CONFIG_<name>'s value in kb's .config ('y', 'm', a string) or None."""
    with open(os.path.join(kb, ".config")) as f:
        for line in f:
            m = re.match(rf"CONFIG_{name}=(.*)$", line.rstrip("\n"))
            if m:
                return m.group(1)
    return None


def kbuild_setup_rt(tree, kb, kb_rt, env, logf):
    """The forced-RT view: the same .config, every kernel C file (the
    generated bounds.h/asm-offsets.h too) compiled with -DCONFIG_PREEMPT_RT."""
    if os.path.isfile(os.path.join(kb_rt, ".config")):
        return
    os.makedirs(kb_rt, exist_ok=True)
    shutil.copy(os.path.join(kb, ".config"), os.path.join(kb_rt, ".config"))
    rc, out = run(["make", "-C", tree, f"O={kb_rt}", "-s"] + env["MAKEARGS"]
                  + RT_ARGS + ["olddefconfig"], logf=logf)
    if rc:
        raise ToolError(f"kbuild: olddefconfig failed in {kb_rt} "
                        f"(see {logf})")


def kbuild_setup(tree, kb, env, logf, enable=("RPS",), disable=(),
                 want=(("RPS", "y"),)):
    """x86_64_defconfig, the options in enable set and those in disable
    unset, olddefconfig; each (name, value) of want must hold afterwards
    (value None: unset).  An existing .config is kept only if want holds
    in it (an O= tree reused from another tree may have another's)."""
    if os.path.isfile(os.path.join(kb, ".config")):
        if all(config_value(kb, n) == v for n, v in want):
            return
        os.unlink(os.path.join(kb, ".config"))
    os.makedirs(kb, exist_ok=True)
    mk = ["make", "-C", tree, f"O={kb}", "-s"] + env["MAKEARGS"]
    rc, out = run(mk + ["x86_64_defconfig"], logf=logf)
    if rc:
        raise ToolError(f"kbuild: x86_64_defconfig failed in {tree}: "
                        f"{first_lines(out.splitlines(), 2)} (see {logf})")
    args = [a for n in enable for a in ("--enable", n)] + \
        [a for n in disable for a in ("--disable", n)]
    rc, out = run([os.path.join(tree, "scripts/config"), "--file",
                   os.path.join(kb, ".config")] + args, logf=logf)
    rc2, out = run(mk + ["olddefconfig"], logf=logf)
    if rc or rc2:
        raise ToolError(f"kbuild: setting {' '.join(args)} failed "
                        f"(see {logf})")
    for name, value in want:
        got = config_value(kb, name)
        if got != value:
            os.unlink(os.path.join(kb, ".config"))
            raise ToolError(f"kbuild: CONFIG_{name}="
                            f"{value or '(unset)'} did not stick in .config")


def kbuild(tree, kb, env, logf, jobs, extra=(), strict=True, objs=OBJS):
    """Build the objects; return {obj: (status, detail)}.  All in one
    make (-k); if that fails, the objects are removed and the same make
    runs once more, so that a failure is pinned on the object that has
    it: a failed compile leaves the previous build's .o in place, so its
    presence after the first make proves nothing, after the second it
    does (the objects that build are ccache's hits then)."""
    before = {o: obj_state(kb, o) for o in objs}
    mk = ["make", "-C", tree, f"O={kb}", f"-j{jobs}", "-k"] + \
        env["MAKEARGS"] + list(extra)
    rc, out = run(mk + list(objs), logf=logf)
    if rc:
        for o in objs:
            if os.path.exists(os.path.join(kb, o)):
                os.unlink(os.path.join(kb, o))
        rc, again = run(mk + list(objs), logf=logf)
        out += "\n" + again
    lines = out.splitlines()
    res = {}
    for o in objs:
        src = o[:-2] + ".c"
        errs = [line for line in lines if re.search(
            re.escape(src) + r":\d+:\d+: error:", line)]
        warns = sorted({line for line in lines if re.search(
            re.escape(src) + r":\d+:\d+: warning:", line)})
        now = obj_state(kb, o)
        if now is None:
            res[o] = ("FAIL", first_lines(errs) or
                      first_lines([line for line in lines if "rror" in line])
                      or f"make exited {rc}")
        elif now != before[o]:
            res[o] = ("ok" if not warns else f"ok, {len(warns)} warning(s)",
                      first_lines(warns))
        else:
            res[o] = ("ok (unchanged)", "")
    if rc and all(st != "FAIL" for st, _ in res.values()):
        raise ToolError(f"kbuild of {' '.join(objs)} failed although every "
                        f"one was built (see {logf})")
    srcs = "|".join(re.escape(o[:-2]) for o in objs)
    if all(st == "FAIL" for st, _ in res.values()) and not re.search(
            rf"({srcs})\.c:\d+:\d+: error:", out):
        # Nothing pins it on the objects' files: the prepare stage failed.
        if strict:
            raise ToolError(f"kbuild failed before reaching "
                            f"{'/'.join(objs)} (see {logf})")
        for o in objs:
            res[o] = ("FAIL (prepare)", res[o][1])
    return res
