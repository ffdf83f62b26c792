# SPDX-License-Identifier: GPL-2.0
"""tools/run-suite.c's result cache: a pass is reused only while its key
(the binary, its inputs, its environment) is unchanged, and says so; a
failure, a changed input or a missing input list runs the test again.

run-suite is compiled here from the checkout's source, and runs small
shell scripts as its "suites", so each part of the key is changed alone.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "run-suite.c")
REUSED = "run-suite: reused (cached):"


@pytest.fixture(scope="module")
def harness():
    d = tempfile.mkdtemp(prefix="run-suite-test.")
    exe = os.path.join(d, "run-suite")
    subprocess.run(["gcc", "-O2", "-o", exe, SRC], check=True)
    yield exe
    shutil.rmtree(d)


@pytest.fixture
def work(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a").write_text("1\n")
    (tmp_path / "dep").write_text("x\n")
    (tmp_path / "list").write_text(f"{tmp_path / 'dep'}\n")
    script = tmp_path / "suite"
    # Counts its runs in a file outside every input: a reuse leaves it.
    script.write_text(f"#!/bin/sh\necho run >>{tmp_path / 'runs'}\n"
                      f"echo out; exit ${{SUITE_EXIT:-0}}\n")
    script.chmod(0o755)
    return tmp_path


def run(harness, w, extra_env=None, name="t"):
    env = dict(os.environ)
    env.pop("NAPITEST_NO_CACHE", None)
    env.update(extra_env or {})
    r = subprocess.run([harness, str(w / "build"), name,
                        "--input", str(w / "in"),
                        "--input-list", str(w / "list"),
                        "--", str(w / "suite")],
                       capture_output=True, text=True, env=env)
    runs = (w / "runs").read_text().count("run") \
        if (w / "runs").exists() else 0
    return r.returncode, r.stdout, runs


def touch_later(path, text):
    """Rewrite a file so that its mtime surely moves on."""
    time.sleep(0.01)
    path.write_text(text)


def change_key(w, change, binary):
    """Change one part of a run's key, as the tests of both modes name it;
    the environment to run with."""
    if change == "input":
        touch_later(w / "in" / "a", "2\n")
    elif change == "new-input":
        (w / "in" / "b").write_text("new\n")
    elif change == "listed":
        touch_later(w / "dep", "y\n")
    elif change == "binary":
        touch_later(binary, binary.read_text() + "\n")
    elif change == "env":
        return {"NAPITEST_SEED": "7"}
    elif change == "no-cache":
        return {"NAPITEST_NO_CACHE": "1"}
    else:
        raise ValueError(change)
    return {}


def test_a_pass_is_reused_and_says_so(harness, work):
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 1) and REUSED not in out and "out" in out
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 1)
    assert out.startswith(REUSED) and "out" in out


@pytest.mark.parametrize("change", ["input", "new-input", "listed", "binary",
                                    "env", "no-cache"])
def test_any_change_of_the_key_runs_again(harness, work, change):
    run(harness, work)
    env = change_key(work, change, work / "suite")
    rc, out, runs = run(harness, work, env)
    assert (rc, runs) == (0, 2) and REUSED not in out


def test_the_make_checks_run_is_not_in_the_key(harness, work):
    """NAPITEST_CHECK_RUN names each make check (kbuild-check's kept
    failures): a pass of another run is reused."""
    run(harness, work, {"NAPITEST_CHECK_RUN": "run-1"})
    rc, out, runs = run(harness, work, {"NAPITEST_CHECK_RUN": "run-2"})
    assert (rc, runs) == (0, 1) and out.startswith(REUSED)


def test_a_failure_is_never_reused(harness, work):
    rc, _, runs = run(harness, work, {"SUITE_EXIT": "1"})
    assert (rc, runs) == (1, 1)
    rc, out, runs = run(harness, work, {"SUITE_EXIT": "1"})
    assert (rc, runs) == (1, 2) and REUSED not in out


def test_a_missing_input_list_is_never_reused(harness, work):
    (work / "list").unlink()
    run(harness, work)
    rc, out, runs = run(harness, work)
    assert (rc, runs) == (0, 2) and REUSED not in out


def test_the_record_names_the_binary_it_ran_by_content(harness, work):
    """The record's key holds the binary's SHA-256, remembered by its stat
    identity (results/digests/): a link to a binary hashed before reads
    the digest; a rewritten binary is hashed again, never the old one."""
    import hashlib
    import json

    def recorded(name):
        with open(work / "build" / "results" / "runs" / f"{name}.json") as f:
            return json.load(f)["key"]["binary"]

    def digest():
        return hashlib.sha256((work / "suite").read_bytes()).hexdigest()

    os.symlink(work / "suite", work / "link")
    no_cache = {"NAPITEST_NO_CACHE": "1"}
    run(harness, work, no_cache, name="a")
    assert recorded("a") == digest()
    memo = list((work / "build" / "results" / "digests").iterdir())
    assert len(memo) == 1 and memo[0].read_text().endswith(
        f" {digest()}\n")
    subprocess.run([harness, str(work / "build"), "b", "--",
                    str(work / "link")], env=dict(os.environ, **no_cache),
                   capture_output=True, check=True)
    assert recorded("b") == digest()
    assert len(list((work / "build" / "results" / "digests").iterdir())) == 1
    # The same size, another content: stat identity still tells.
    old = digest()
    touch_later(work / "suite", (work / "suite").read_text().replace(
        "echo out", "echo OUT"))
    run(harness, work, no_cache, name="a")
    assert recorded("a") == digest() != old


# --check: a whole make check (the Makefile's CHECK_CACHED), kept under
# one key over its inputs and replayed by --replay-only, which never runs
# the command.
CHECK_REUSED = "make check: reused (cached):"


@pytest.fixture
def checkwork(work):
    (work / "bin").mkdir()
    exe = work / "bin" / "suite-a"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    (work / ".git-maybe").mkdir()
    return work


def check(harness, w, replay_only=False, extra_env=None, key="k1",
          extra=()):
    env = dict(os.environ)
    env.pop("NAPITEST_NO_CACHE", None)
    env.update(extra_env or {})
    args = [harness, str(w / "build"), "make-check", "--check",
            "--key", key, "--input", str(w / "in"),
            "--input-list", str(w / "list"),
            "--input-exec", str(w / "bin"),
            "--never-if", str(w / ".git-maybe" / ".git")]
    if replay_only:
        args.append("--replay-only")
    r = subprocess.run(args + list(extra) + ["--", str(w / "suite")],
                       capture_output=True, text=True, env=env)
    runs = (w / "runs").read_text().count("run") \
        if (w / "runs").exists() else 0
    return r.returncode, r.stdout, runs


def test_check_replays_a_passing_run_and_says_from_when(harness, checkwork):
    w = checkwork
    assert check(harness, w, replay_only=True) == (3, "", 0)
    rc, out, runs = check(harness, w)
    assert (rc, runs) == (0, 1) and out == "out\n"
    rc, out, runs = check(harness, w, replay_only=True)
    assert (rc, runs) == (0, 1)
    first, rest = out.split("\n", 1)
    assert first.startswith(CHECK_REUSED)
    assert re.search(r"exited 0 when run at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                     first)
    assert rest == "out\n"
    # Not a suite: no record for make results.
    assert not list((w / "build" / "results" / "runs").glob("*.json"))


@pytest.mark.parametrize("change", ["input", "new-input", "listed",
                                    "binary", "new-binary", "key", "env",
                                    "git", "no-cache", "command"])
def test_check_any_change_of_the_key_is_not_replayed(harness, checkwork,
                                                     change):
    w = checkwork
    check(harness, w)
    env, key = {}, "k1"
    if change == "new-binary":
        (w / "bin" / "suite-b").write_text("#!/bin/sh\n")
        (w / "bin" / "suite-b").chmod(0o755)
    elif change == "key":
        key = "k2"
    elif change == "git":
        (w / ".git-maybe" / ".git").mkdir()
    elif change == "command":
        touch_later(w / "suite", (w / "suite").read_text() + "\n")
    else:
        env = change_key(w, change, w / "bin" / "suite-a")
    rc, out, runs = check(harness, w, replay_only=True, extra_env=env,
                          key=key)
    assert (rc, out, runs) == (3, "", 1)


def written_after(path, text, since):
    """Write path until its ctime is past since (a ctime may be taken from
    the coarse clock, and truncated to the file system's granularity)."""
    for _ in range(3000):
        path.write_text(text)
        if os.stat(path).st_ctime_ns > since:
            return
        time.sleep(0.001)
    raise AssertionError(f"{path}: ctime never passed {since}")


@pytest.mark.parametrize("what", ["listed", "input"])
def test_check_an_input_written_during_the_build_is_not_kept(
        harness, checkwork, what):
    """--since: the build began, then the user saved a file the key
    covers, before the key was taken.  The run tests what was built
    before; kept, its output would be replayed for the file as saved."""
    w = checkwork
    since = time.time_ns()
    written_after(w / ("dep" if what == "listed" else "in/a"), "2\n", since)
    rc, out, runs = check(harness, w, extra=["--since", str(since)])
    assert (rc, runs) == (0, 1)
    assert out.endswith(" was written after this run's build began: its "
                        "result is not kept (the next run builds and runs "
                        "again)\n")
    assert check(harness, w, replay_only=True) == (3, "", 1)


def test_check_a_tree_file_named_through_a_link_in_the_build_is_not_kept(
        harness, checkwork):
    """make check KSRC=: the extraction's depfile names the tree through
    BUILD/<id>/tree, a link to the user's tree, under the --exclude'd
    build directory; the file is the tree's, not the build's."""
    w = checkwork
    (w / "tree").mkdir()
    (w / "tree" / "smp.c").write_text("1\n")
    (w / "built").mkdir()
    os.symlink(w / "tree", w / "built" / "tree")
    (w / "list").write_text(f"{w / 'built' / 'tree' / 'smp.c'}\n")
    since = time.time_ns()
    written_after(w / "tree" / "smp.c", "2\n", since)
    rc, out, runs = check(harness, w, extra=["--since", str(since),
                                             "--exclude", str(w / "built")])
    assert (rc, runs) == (0, 1)
    assert f"run-suite: {w / 'built' / 'tree' / 'smp.c'} was written" in out
    assert check(harness, w, replay_only=True,
                 extra=["--exclude", str(w / "built")]) == (3, "", 1)


def test_check_the_builds_own_files_written_during_it_are_kept(
        harness, checkwork):
    """What the build itself writes (under an --exclude PATH: the build
    directories) and inputs written before it began do not stop a keep."""
    w = checkwork
    (w / "built").mkdir()
    (w / "list").write_text(f"{w / 'dep'}\n{w / 'built' / 'obj'}\n")
    since = time.time_ns()
    written_after(w / "built" / "obj", "o\n", since)
    rc, out, runs = check(harness, w, extra=["--since", str(since),
                                             "--exclude", str(w / "built")])
    assert (rc, out, runs) == (0, "out\n", 1)
    assert check(harness, w, replay_only=True,
                 extra=["--exclude", str(w / "built")])[0] == 0


def test_check_a_failure_is_never_replayed(harness, checkwork):
    w = checkwork
    rc, _, runs = check(harness, w, extra_env={"SUITE_EXIT": "1"})
    assert (rc, runs) == (1, 1)
    assert check(harness, w, replay_only=True) == (3, "", 1)
    # A pass after it is kept; a failure after that forgets it.
    check(harness, w)
    assert check(harness, w, replay_only=True)[0] == 0
    check(harness, w, extra_env={"SUITE_EXIT": "1", "NAPITEST_NO_CACHE": "1"})
    assert check(harness, w, replay_only=True) == (3, "", 3)


def plain_make_env():
    """The environment of a make check typed by hand: none of the calling
    make's options or variables (under make check SANITIZE=1, CTest runs
    this test with MAKEFLAGS carrying SANITIZE=1)."""
    env = dict(os.environ)
    for var in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES",
                "SANITIZE", "COVERAGE", "KSRC", "TREE", "LABEL"):
        env.pop(var, None)
    return env


def test_make_check_keys_what_its_tests_and_build_depend_on(tmp_path):
    """The Makefile's CHECK_CACHED gives run-suite --check every part of
    the key (README, "A warm make check with nothing changed runs
    nothing"), the same for the replay and the kept run."""
    root = os.path.dirname(os.path.dirname(HERE))
    build = tmp_path / "b"
    t0 = time.time_ns()
    out = subprocess.run(["make", "-C", root, "-n", "check",
                          f"BUILD={build}"], capture_output=True,
                         text=True, check=True, env=plain_make_env()).stdout
    cmds = re.findall(r"napitest-run-suite' .*? -- \S+ --no-print-directory "
                      r"check-run", out)
    assert len(cmds) == 2 and "--replay-only" in cmds[0]
    bd = f"{build}/patched"
    for cmd in cmds:
        for part in [f"--input '{root}'", f"--exclude '{build}'",
                     f"--input-exec '{bd}'",
                     f"--input '{bd}/build.ninja'",
                     f"--input '{bd}/CMakeCache.txt'",
                     f"--input '{bd}/CTestTestfile.cmake'",
                     f"--input '{bd}/build-failed'",
                     f"--input '{bd}/.configured-",
                     f"--input-list '{bd}/results/check-inputs.txt'",
                     '"$@"', "--key 'check|"]:
            assert part in cmd, part
    # The kept run's: when make check began, before the parse and the
    # configure step read anything (CHECK_SINCE, taken at the parse).
    since = re.search(r"--since '(\d+)'", cmds[1])
    assert since and "--since" not in cmds[0]
    assert t0 <= int(since.group(1)) <= time.time_ns()
    # CHECK_INPUTS: ninja's dependency log, the extraction's depfiles, the
    # series' files in the tree and its Makefile.
    for part in ["-t deps |", "-m napitest.check_inputs",
                 "--build-dir '" + bd, "kernel-src/patches/"]:
        assert part in out, part


def test_make_check_key_names_the_tree_the_run_configured(tmp_path):
    """The key's --never-if and kbuild-deps lists are read when the recipe
    runs: the first run at a new tree path writes its configure stamp after
    make parsed the Makefile, and a key from the parse named no tree
    ("--never-if /"), so that run was never kept and the next one ran
    everything again."""
    root = os.path.dirname(os.path.dirname(HERE))
    build = tmp_path / "b"
    out = subprocess.run(["make", "-C", root, "-n", "check",
                          f"BUILD={build}"], capture_output=True,
                         text=True, check=True, env=plain_make_env()).stdout
    m = re.search(r"(set -- --never-if /;.*?done);", out, re.S)
    assert m, out
    stamp = re.search(r"cut -d' ' -f1 '([^']+/\.configured-[0-9a-f]+)'",
                      m.group(1)).group(1)
    show = m.group(1) + '; printf "%s\\n" "$@"'

    def args():
        return subprocess.run(["sh", "-c", show], capture_output=True,
                              text=True, check=True).stdout.split("\n")[:-1]
    # No stamp yet (nothing configured): never kept.
    assert args() == ["--never-if", "/"]
    # Configured (as the configure step does before the recipe runs): the
    # tree's .git, and each kbuild-deps list that exists by then.
    os.makedirs(os.path.dirname(stamp))
    with open(stamp, "w") as f:
        f.write("/some/tree /a/seed\n")
    os.makedirs(build / "patched" / "results")
    (build / "patched" / "results" / "kbuild-deps-rps.txt").write_text("")
    assert args() == ["--never-if", "/some/tree/.git", "--input-list",
                      f"{build}/patched/results/kbuild-deps-rps.txt"]


def test_make_check_configures_again_after_an_input_saved_during_it(
        tmp_path):
    """The configure step's stamp is a make target, newer than its inputs
    once written: a patch saved while make check prepared the tree would
    be taken as prepared by every later run.  Such a run dates the stamp
    at the epoch; an input older than the run leaves it alone."""
    root = os.path.dirname(os.path.dirname(HERE))
    out = subprocess.run(["make", "-C", root, "-n", "check",
                          f"BUILD={tmp_path / 'b'}"], capture_output=True,
                         text=True, check=True, env=plain_make_env()).stdout
    m = re.search(r"for f in ([^;]*); do\s*\\?\s*c=\$\(stat -c %\.9Z.*?done",
                  out, re.S)
    assert m, out
    stamp = re.search(r"touch -d @0 (\S+);", m.group(0)).group(1)
    os.makedirs(os.path.dirname(stamp))
    with open(stamp, "w") as f:
        f.write("/a/tree\n")
    mtime = os.stat(stamp).st_mtime_ns

    def run_loop(files):
        loop = m.group(0).replace(m.group(1), files, 1)
        return subprocess.run(["sh", "-c", loop], cwd=root,
                              capture_output=True, text=True, check=True)
    assert run_loop(m.group(1)).stderr == ""
    assert os.stat(stamp).st_mtime_ns == mtime
    saved = tmp_path / "0001-a.patch"
    saved.write_text("patch\n")
    r = run_loop(f"{m.group(1)} {saved}")
    assert os.stat(stamp).st_mtime_ns == 0
    assert f"configure: {saved} was written during this run" in r.stderr
    # An input removed during the run counts as written.
    os.utime(stamp, ns=(mtime, mtime))
    gone = tmp_path / "0002-b.patch"
    r = run_loop(f"{m.group(1)} {gone}")
    assert os.stat(stamp).st_mtime_ns == 0
    assert f"configure: {gone} was written during this run" in r.stderr


def test_make_i_check_is_neither_kept_nor_replayed(tmp_path):
    """Under make -i a failing check-run exits 0: such a run must not be
    kept as a pass (nor answered from the cache), or the next plain make
    check would replay it."""
    root = os.path.dirname(os.path.dirname(HERE))
    out = subprocess.run(["make", "-C", root, "-n", "-i", "check",
                          f"BUILD={tmp_path / 'b'}"], capture_output=True,
                         text=True, check=True, env=plain_make_env()).stdout
    assert "--no-print-directory check-run" in out
    assert not re.search(r"if \[ -x '[^']+napitest-run-suite' \]", out)


def test_configure_takes_the_interpreter_make_resolved(tmp_path):
    """CMake is given the interpreter make resolved (build/.python), not
    left to search PATH (through a version manager's shim, most of a
    configure); a build dir whose cache names another one is configured
    again, and so is one whose build/.python make wrote again since the
    stamp (its interpreter was gone): the stamp depends on that file."""
    root = os.path.dirname(os.path.dirname(HERE))
    build = tmp_path / "b"
    build.mkdir()
    (build / ".python").write_text(sys.executable + "\n")
    out = subprocess.run(["make", "-C", root, "-n", "configure",
                          f"BUILD={build}"], capture_output=True,
                         text=True, check=True, env=plain_make_env()).stdout
    assert f"-DPython3_EXECUTABLE='{sys.executable}'" in out, out
    assert f'grep -qxF "NAPITEST_PYTHON3:INTERNAL={sys.executable}"' \
        in out, out
    stamp = re.search(r"echo \"\$trees\" >(\S+/\.configured-[0-9a-f]+);",
                      out).group(1)

    def up_to_date():
        return subprocess.run(["make", "-C", root, "-q", stamp,
                               f"BUILD={build}"], capture_output=True,
                              env=plain_make_env()).returncode == 0
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    with open(stamp, "w") as f:
        f.write(root + "\n")  # a tree that is there (it has a Makefile)
    old = os.stat(stamp).st_mtime - 10
    os.utime(build / ".python", (old, old))
    assert up_to_date()
    os.utime(build / ".python", (old + 20, old + 20))
    assert not up_to_date()
