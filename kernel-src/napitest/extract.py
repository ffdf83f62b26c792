# SPDX-License-Identifier: GPL-2.0
"""Extract the definitions named in the manifest from a kernel tree.

universal-ctags locates each definition (start and end line); this script
adds what ctags does not do: the declaration lines before a function's name,
macro continuation lines, and the preprocessor conditionals that enclose a
definition, so that `#ifdef CONFIG_...` blocks stay as they are and the same
extraction builds under several configurations.

Output (under --out only; the tree is opened read-only):
  extracted/defs.h        definitions from headers, the macros and types of
                          the .c files, an extern declaration of every
                          extracted variable and a prototype of every
                          extracted function, then header functions
  extracted/<path>.c      the functions and variables of each .c file, in
                          source order
  extracted/all.c         includes the above: the "kernel" translation unit;
                          also extracted_sites[], each function's file:line,
                          and the globals' snapshot (the tables); with
                          EXTRACTED_TABLES_ONLY defined, the tables alone
  extracted/present.h     EXTRACTED_HAVE_<name> for every definition found,
                          EXTRACTED_LINUX_VERSION_CODE (its Makefile's)
  extracted/extract.d     make-style dependencies (for the build system)

The functions and variables of the .c files get external linkage (their
`static` and `inline` keywords are dropped, in place, so line numbers stay
right): the build compiles each extracted .c file (and all.c's tables) as a
translation unit of its own once per kernel configuration and links them into
every test binary, and a test calls a static function of dev.c through its
prototype in defs.h.  A change in dev.c then recompiles dev.c's translation
unit (and the tables, if its lines moved), not every suite; the hunk matrix
compiles all.c as one.

Every emitted line is preceded by a #line directive naming the original
file and line of the tree, so compiler diagnostics, assertion failures and
gcov name e.g. net/core/dev.c:6633 of the tree under test.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from napitest import Error, depfile
from napitest.manifest import parse_manifest

PROG = "extract"

# ctags sees through the kernel's definition macros with these.
CTAGS_MACROS = [
    "DEFINE_PER_CPU(t,n)=t n",
    "DEFINE_PER_CPU_ALIGNED(t,n)=t n",
    "DEFINE_PER_CPU_SHARED_ALIGNED(t,n)=t n",
    "DEFINE_STATIC_KEY_FALSE(n)=struct static_key_false n",
    "DEFINE_STATIC_KEY_TRUE(n)=struct static_key_true n",
    "DECLARE_PER_CPU(t,n)=extern t n",
    "LIST_HEAD(n)=struct list_head n",
    "DEFINE_MUTEX(n)=struct mutex n",
    "__latent_entropy=",
    "__cacheline_aligned=",
    "__cacheline_aligned_in_smp=",
    "____cacheline_aligned_in_smp=",
    "__read_mostly=",
    "__init=",
    "__cold=",
    "__always_inline=inline",
    "noinline=",
]

CTAGS_KIND = {"function": ("function",), "variable": ("variable",),
              "macro": ("macro",), "struct": ("struct",),
              "union": ("union",), "enum": ("enum",),
              "typedef": ("typedef",)}


# Dropped from the declaration of a .c file's function or variable (see
# Definition.text): static would hide it from the test translation units,
# and a plain C99 inline definition would emit no symbol.
LINKAGE_RE = re.compile(r"\b(static|inline|__inline__|__inline|"
                        r"__always_inline)\b[ \t]*")


# Per process, by file name and content: a caller that extracts many
# variants of one tree (hunk-matrix/) scans and tags each file version once.
SCANNED = {}
TAGGED = {}


MAKEFILE_VERSION_RE = re.compile(
    r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)[ \t]*=[ \t]*(.*?)[ \t]*$",
    re.M)


def kernel_version(tree):
    """(VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION) of the tree's top-level
    Makefile: the first assignment of each, as kbuild reads them."""
    path = os.path.join(tree, "Makefile")
    try:
        with open(path, errors="replace") as f:
            text = f.read(4096)
    except OSError as e:
        raise Error(f"cannot read {path}: {e.strerror}")
    vals = {}
    for m in MAKEFILE_VERSION_RE.finditer(text):
        vals.setdefault(m.group(1), m.group(2))
    try:
        v = (int(vals["VERSION"]), int(vals.get("PATCHLEVEL", "0")),
             int(vals.get("SUBLEVEL", "0") or "0"))
    except (KeyError, ValueError):
        raise Error(f"{path} has no numeric VERSION/PATCHLEVEL/SUBLEVEL: "
                    "not a kernel tree")
    return v + (vals.get("EXTRAVERSION", ""),)


def ctags_command(rel):
    # --sort=no: ctags sorts through sh -c "sort -u", two processes a
    # file; run_ctags() sorts the lines as that did (C locale).
    cmd = ["ctags", "--output-format=json", "--fields=+neKZ",
           "--kinds-C=+px", "--language-force=C", "--sort=no", "-f", "-"]
    for m in CTAGS_MACROS:
        cmd += ["-D", m]
    return cmd + [rel]


def ctags_identity():
    """The ctags program by path, size and mtime: an upgrade of the
    package is another program, whose tags are not reused."""
    path = shutil.which("ctags")
    if not path:
        return "none"
    st = os.stat(path)
    return f"{os.path.realpath(path)} {st.st_size} {st.st_mtime_ns}"


def run_ctags(tree, rel):
    cmd = ctags_command(rel)
    try:
        out = subprocess.run(cmd, cwd=tree, check=True, text=True,
                             capture_output=True).stdout
    except FileNotFoundError:
        raise Error("universal-ctags is not installed "
                    "(apt-get install universal-ctags)")
    except subprocess.CalledProcessError as e:
        raise Error(f"ctags failed on {tree}/{rel}: {e.stderr.strip()}")
    tags = []
    # sort -u's order in the C locale (the first of two tags of one name
    # is the one locate() takes), whatever the caller's locale
    for line in sorted(set(out.splitlines())):
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") == "tag":
            tags.append(t)
    return tags


class Source:
    """One file of the tree: its lines and its conditional structure."""

    DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")

    def __init__(self, tree, rel):
        self.rel, self.path = rel, os.path.join(tree, rel)
        with open(self.path, "rb") as f:
            data = f.read()
        self.digest = hashlib.sha256(data).hexdigest()
        text = data.decode(errors="surrogateescape")
        self.key = (rel, hash(text))
        if self.key in SCANNED:
            self.lines, self.stack = SCANNED[self.key]
            return
        self.lines = text.split("\n")
        self._scan_conditionals()
        SCANNED[self.key] = (self.lines, self.stack)

    def line(self, n):
        return self.lines[n - 1]

    def _logical_end(self, n):
        """Last physical line of the (backslash-continued) line n."""
        while n < len(self.lines) and self.line(n).rstrip().endswith("\\"):
            n += 1
        return n

    def _scan_conditionals(self):
        """stack[n] = enclosing conditional groups of line n, each a list of
        (first, last) line ranges of its directives up to the active branch."""
        self.stack = [None] * (len(self.lines) + 2)
        groups, in_comment, n = [], False, 1
        snapshot = []		# shared by the lines between two directives
        while n <= len(self.lines):
            text = self.line(n)
            m = None if in_comment else self.DIRECTIVE.match(text)
            end = self._logical_end(n) if m else n
            for k in range(n, end + 1):
                self.stack[k] = snapshot
            if m:
                d = m.group(1)
                if d in ("if", "ifdef", "ifndef"):
                    groups.append([(n, end)])
                elif d in ("elif", "else"):
                    if groups:
                        groups[-1].append((n, end))
                elif groups:
                    groups.pop()
                snapshot = [list(g) for g in groups]
                n = end + 1
                continue
            in_comment = self._comment_state(text, in_comment)
            n += 1

    @staticmethod
    def _comment_state(text, in_comment):
        if "/" not in text and "*" not in text:
            return in_comment
        text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
        i = 0
        while i < len(text):
            if in_comment:
                j = text.find("*/", i)
                if j < 0:
                    return True
                in_comment, i = False, j + 2
            else:
                j = text.find("/*", i)
                k = text.find("//", i)
                if k >= 0 and (j < 0 or k < j):
                    return False
                if j < 0:
                    return False
                in_comment, i = True, j + 2
        return in_comment


class Definition:
    def __init__(self, src, entry, first, last, kind, name_line=None):
        self.src, self.entry = src, entry
        self.first, self.last, self.kind = first, last, kind
        self.name_line = name_line or first

    @property
    def linked(self):
        """A function or variable of a .c file: given external linkage."""
        return (self.kind in ("function", "variable")
                and not self.src.rel.endswith(".h"))

    def text(self, n):
        """Line n of the definition as emitted: for a linked definition the
        storage-class and inline keywords before its name are dropped."""
        s = self.src.line(n)
        if not self.linked or n > self.name_line:
            return s
        if n == self.name_line:
            m = re.search(r"\b%s\b" % re.escape(self.name), s)
            cut = m.start() if m else len(s)
            return LINKAGE_RE.sub("", s[:cut]) + s[cut:]
        return LINKAGE_RE.sub("", s)

    @property
    def name(self):
        return self.entry.name


def decl_start(src, line):
    """Walk back from the line holding a definition's name over the lines
    that belong to its declaration (return type, attributes)."""
    n = line
    while n > 1:
        prev = src.line(n - 1).rstrip()
        s = prev.strip()
        if (not s or s.startswith("#") or s.endswith((";", "}", "{", "*/",
                                                     ":", "\\"))
                or s.startswith("//")):
            break
        n -= 1
    return n


def statement_end(src, line):
    """First line at or after `line` that ends the declaration (';' at
    brace depth 0)."""
    depth = 0
    for n in range(line, len(src.lines) + 1):
        for ch in src.line(n):
            if ch in "{(":
                depth += 1
            elif ch in "})":
                depth -= 1
            elif ch == ";" and depth <= 0:
                return n
    return line


def locate(src, tags, entry):
    """Return the Definitions of entry (one per conditional variant, e.g.
    the RT and !RT versions of a function), or [] if the tree lacks it."""
    kind = entry.kind
    if kind == "enum-of":
        ens = [t for t in tags if t["name"] == entry.name
               and t["kind"] == "enumerator"]
        if not ens:
            return []
        scope = ens[0].get("scope", "")
        cands = [t for t in tags if t["kind"] == "enum"
                 and t["name"] == scope.split("::")[-1]]
        kind = "enum"
    else:
        cands = [t for t in tags if t["name"] == entry.name
                 and t["kind"] in CTAGS_KIND[kind]]
    found = []
    for t in cands:
        line, end = t["line"], t.get("end", t["line"])
        if kind == "macro":
            first, last = line, src._logical_end(line)
        elif kind == "function":
            first, last = decl_start(src, line), end
        elif kind in ("struct", "union", "enum"):
            first = decl_start(src, line)
            last = end if ";" in src.line(end) else statement_end(src, end)
        else:
            first = decl_start(src, line)
            last = max(end, statement_end(src, line))
        found.append(Definition(src, entry, first, last, kind, line))
    return found


def line_directive(src, n, in_defs=False):
    # The .c files' lines copied into defs.h (in_defs) carry no #line: a
    # line added above them in the tree would change defs.h and so
    # recompile every suite, while the definitions (the .c extraction) keep
    # theirs.  The marker separates the declarations (hunk-matrix/ splits
    # the extraction into blocks there).
    if in_defs and not src.rel.endswith(".h"):
        return f"/* from {src.rel} */\n"
    return f'#line {n} "{src.path}"\n'


def emit_lines(src, first, last, in_defs=False):
    return line_directive(src, first, in_defs) + "".join(
        src.line(k) + "\n" for k in range(first, last + 1))


def emit_def(defn, in_defs=False):
    return line_directive(defn.src, defn.first, in_defs) + "".join(
        defn.text(k) + "\n" for k in range(defn.first, defn.last + 1))


def wrap(defn, body, in_defs=False):
    """Surround body with the conditionals enclosing the definition."""
    src, groups = defn.src, defn.src.stack[defn.first] or []
    head = "".join(emit_lines(src, a, b, in_defs)
                   for g in groups for (a, b) in g)
    tail = "#endif\n" * len(groups)
    return head + body + tail


def prototype(defn, in_defs=True):
    """The declaration of a function definition, ended with ';'."""
    src, text = defn.src, []
    for n in range(defn.first, defn.last + 1):
        s = defn.text(n)
        # The body starts at the first '{' after the parameter list's ')':
        # on a line of its own (kernel style), or on the signature's last
        # line (one-line helpers such as "static inline void f(void) { }").
        brace = s.find("{", s.rfind(")") + 1) if ")" in s else s.find("{")
        if s.strip().startswith("{") or (")" in s and brace >= 0):
            if not s.strip().startswith("{"):
                text.append(s[:brace])
            break
        text.append(s)
    sig = "\n".join(text).rstrip()
    # Function-like macros in the signature (e.g. __releases(x)) are fine;
    # attributes that only make sense on a definition are not.
    sig = re.sub(r"\b__(init|cold|latent_entropy)\b", "", sig)
    return line_directive(src, defn.first, in_defs) + sig + ";\n"


def extern_decl(defn, in_defs=True):
    """The extern declaration of a linked variable definition: the
    DEFINE_* macros become their DECLARE_* counterparts, otherwise the
    initializer is cut and the declaration made extern."""
    text = "\n".join(defn.text(n) for n in range(defn.first, defn.last + 1))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"\bDEFINE_(PER_CPU\w*|STATIC_KEY_\w+)\b", text)
    t = re.search(r"\b(LIST_HEAD|DEFINE_MUTEX)\(\s*(\w+)\s*\)", text)
    if t and not m:
        # A definition macro with its initializer inside (LIST_HEAD(),
        # DEFINE_MUTEX()): the extern declaration of its type.
        kind = "list_head" if t.group(1) == "LIST_HEAD" else "mutex"
        decl = "extern struct %s %s;" % (kind, t.group(2))
    elif m:
        # The macro's arguments, without an initializer (DEFINE_PER_CPU(...)
        # = { ... }, v6.11's softnet_data).
        depth, end = 0, len(text)
        for i in range(m.end(), len(text)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        decl = text[:end] + ";"
        decl = decl.replace(m.group(0), "DECLARE_" + m.group(1), 1)
    else:
        depth, cut = 0, None
        for i, ch in enumerate(text):
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch in "=;" and depth == 0:
                cut = i
                break
        decl = "extern " + text[:cut].rstrip() + ";"
    return line_directive(defn.src, defn.first, in_defs) + decl.strip() + "\n"


def read_only(defn):
    """The variable itself is const (e.g. `const char * const names[]`):
    its boot value cannot change, and restoring it would write read-only
    memory."""
    text = " ".join(defn.src.line(n)
                    for n in range(defn.first, defn.name_line + 1))
    m = re.search(r"\b%s\b" % re.escape(defn.name), text)
    before = text[:m.start()].split() if m else []
    if before and before[-1] == "const":
        return True
    return "const" in before and not any("*" in t for t in before)


def globals_snapshot(defs):
    """extracted_save_globals()/extracted_restore_globals(): put every
    extracted variable back to its boot value between tests (per-CPU
    variables: their template, which the simulator copies to each CPU)."""
    save, restore, decl = [], [], []
    for d in defs:
        if d.kind != "variable" or read_only(d):
            continue
        v = d.name
        decl.append(wrap(d, f"static unsigned char __saved_{v}[sizeof({v})];\n"))
        save.append(wrap(d, f"\tmemcpy(__saved_{v}, &{v}, sizeof({v}));\n"))
        restore.append(wrap(d, f"\tmemcpy(&{v}, __saved_{v}, sizeof({v}));\n"))
    return ("\n#include <string.h>\n" + "".join(decl) +
            "void extracted_save_globals(void)\n{\n" + "".join(save) +
            "}\n\nvoid extracted_restore_globals(void)\n{\n" +
            "".join(restore) + "}\n")


class TagCache:
    """ctags' tags of each file by content, on disk (extract --cache): a
    file whose content was tagged before, at any path, is not tagged
    again.  The key is the file's name in the tree, its SHA-256, the
    command and the ctags program (ctags_identity()); only the entries the
    last two extractions used are kept (an edit, then its revert)."""

    def __init__(self, cdir):
        self.dir, self.used = cdir, set()
        self.ident = ctags_identity()

    def path(self, src):
        h = hashlib.sha256("\0".join(ctags_command(src.rel) + [
            self.ident, src.digest]).encode(errors="surrogateescape"))
        return os.path.join(self.dir, f"ctags-{h.hexdigest()[:32]}.json")

    def tags(self, tree, src):
        p = self.path(src)
        self.used.add(os.path.basename(p))
        try:
            with open(p) as f:
                return json.load(f)
        except (OSError, ValueError):
            pass
        tags = run_ctags(tree, src.rel)
        os.makedirs(self.dir, exist_ok=True)
        with open(p + ".tmp", "w") as f:
            json.dump(tags, f)
        os.replace(p + ".tmp", p)
        return tags

    def prune(self, keep=()):
        for f in os.listdir(self.dir) if os.path.isdir(self.dir) else ():
            if (f.startswith("ctags-") and f not in self.used and
                    f not in keep):
                os.unlink(os.path.join(self.dir, f))


def sites_table(funcs):
    """extracted_sites[]: every extracted function by name, with the tree's
    file and line of its name, for a message that names a function's own
    line (unit/support: napitest_site()).  __FILE__ and __LINE__ under the
    definition's #line, as the code itself names its lines, and each entry
    inside the conditionals of its definition: the variant compiled."""
    body = ["\nconst struct extracted_site extracted_sites[] = {\n"]
    for d in funcs:
        body.append(wrap(d, f'#line {d.name_line} "{d.src.path}"\n'
                            f'\t{{ "{d.name}", __FILE__, __LINE__ }},\n'))
    return "".join(body) + "\t{ 0 }\n};\n"


def extract(tree, manifest, tag_cache=None):
    if not os.path.isdir(tree):
        raise Error(f"kernel tree '{tree}' does not exist")
    if not (os.path.isfile(os.path.join(tree, "Makefile"))
            and os.path.isdir(os.path.join(tree, "include", "linux"))):
        raise Error(f"'{tree}' is not a kernel tree "
                    "(no top-level Makefile or include/linux)")
    files = parse_manifest(manifest)
    defs, missing, sources, members = [], [], [], set()
    for mf in files:
        rel, entries = mf
        path = os.path.join(tree, rel)
        if mf.optional and not os.path.exists(path):
            continue
        if not os.path.isfile(path):
            raise Error(f"{rel} is missing from kernel tree '{tree}' "
                        f"(named in {manifest})")
        if not os.access(path, os.R_OK):
            raise Error(f"{path} is not readable")
        src = Source(tree, rel)
        sources.append(src)
        if src.key not in TAGGED:
            TAGGED[src.key] = (tag_cache.tags(tree, src) if tag_cache
                               else run_ctags(tree, rel))
        tags = TAGGED[src.key]
        seen = set()
        for e in entries:
            if e.kind == "member":
                # Not emitted (its struct is): only EXTRACTED_HAVE_S_M.
                sname, _, mname = e.name.partition(".")
                if any(t["kind"] == "member" and t["name"] == mname and
                       t.get("scope") == sname for t in tags):
                    members.add(e.name)
                elif not e.optional:
                    missing.append(f"member '{e.name}' not found in {rel} "
                                   f"of kernel tree '{tree}' "
                                   f"(manifest line {e.lineno})")
                continue
            found = locate(src, tags, e)
            if not found and not e.optional:
                missing.append(f"{e.kind} '{e.name}' not found in {rel} "
                               f"of kernel tree '{tree}' "
                               f"(manifest line {e.lineno})")
            for d in found:
                if (d.first, d.last) not in seen:
                    seen.add((d.first, d.last))
                    defs.append(d)
    if missing:
        raise Error("\n  ".join(["the manifest names definitions the tree "
                                 "lacks:"] + missing))
    return sources, defs, members


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w", errors="surrogateescape") as f:
        f.write(text)
    os.replace(tmp, path)


PRESENT_HAVE = re.compile(r"^#define EXTRACTED_HAVE_(\w+) ([01])$", re.M)
PRESENT_TREE = re.compile(r'^#define EXTRACTED_TREE "(.*)"$', re.M)


def present_macro(name):
    """The EXTRACTED_HAVE_<macro> name of a manifest entry."""
    return name.replace(".", "_")


def read_present(path):
    """present.h's answers, {manifest name with "." as "_": bool}: the one
    reader of what generate() writes there (kunit/run asks it what a tree
    has, through napitest.kunit_run)."""
    with open(path) as f:
        return {m.group(1): m.group(2) == "1"
                for m in PRESENT_HAVE.finditer(f.read())}


def present_tree(path):
    """The tree path present.h names (EXTRACTED_TREE: what the #line
    directives of the extraction name too); None if it names none.  The
    one reader of it (the hunk matrix's path normalisation)."""
    with open(path) as f:
        m = PRESENT_TREE.search(f.read())
    return m.group(1) if m else None


def outputs(manifests):
    """The files generate() writes under its --out for these manifests
    (merged, as for a seed tree), relative to --out: the build's list of
    the extraction's outputs."""
    rels = []
    for m in manifests:
        for mf in parse_manifest(m):
            p = os.path.join("extracted", mf[0])
            if mf[0].endswith(".c") and p not in rels:
                rels.append(p)
    return ["extracted/all.c", "extracted/defs.h",
            "extracted/present.h"] + rels


# The modules of this package generate() runs: part of its key.
KEY_MODULES = ("__init__.py", "extract.py", "manifest.py", "depfile.py")
KEY_VERSION = "napitest-extract-key 3"


def input_key(tree, manifest, out, dep_target):
    """(key, inputs): the key is a SHA-256 over everything generate()
    reads or writes into its outputs, by content: the tree's path (the
    #line directives name it), --out and the depfile's target, the
    extractor's code, the ctags program, the manifest, the tree's Makefile
    (its version) and every file the manifest names (an optional one
    absent: said so).  The same tree content at another path behind the
    same --tree (the build's link) has the same key.  inputs is {path as
    the depfile names it: SHA-256 of its content, None if absent} of the
    manifest, the Makefile and the manifest's files: what
    napitest.content_stamp compares the tree with."""
    h = hashlib.sha256()
    inputs = {}

    def add(*parts):
        for p in parts:
            h.update(p if isinstance(p, bytes) else
                     p.encode(errors="surrogateescape"))
            h.update(b"\0")

    def content(path):
        """The file's SHA-256, recorded in inputs (the key takes the
        digest: each byte is hashed once)."""
        with open(path, "rb") as f:
            inputs[path] = hashlib.sha256(f.read()).hexdigest()
        return inputs[path]

    here = os.path.dirname(os.path.abspath(__file__))
    add(KEY_VERSION, tree, out, dep_target or "", ctags_identity())
    for m in KEY_MODULES:
        with open(os.path.join(here, m), "rb") as f:
            add(m, f.read())
    add("manifest", content(os.path.abspath(manifest)), "Makefile",
        content(os.path.join(tree, "Makefile")))
    for mf in parse_manifest(manifest):
        path = os.path.join(tree, mf[0])
        if os.path.isfile(path):
            add(mf[0], content(path))
        else:
            inputs[path] = None
            add(mf[0], "(absent)")
    return h.hexdigest(), inputs


def output_digests(out, manifest):
    """{path relative to out: SHA-256} of the extraction's outputs."""
    d = {}
    for rel in outputs([manifest]) + ["extracted/extract.d"]:
        with open(os.path.join(out, rel), "rb") as f:
            d[rel] = hashlib.sha256(f.read()).hexdigest()
    return d


def last_extraction(cache):
    """What the last extraction with this cache recorded (extract.key)."""
    try:
        with open(os.path.join(cache, "extract.key")) as f:
            last = json.load(f)
        return last if isinstance(last, dict) else {}
    except (OSError, ValueError):
        return {}


def reuse(last, key, out, manifest):
    """True if the last extraction into out had this key and its outputs
    are still what it wrote."""
    try:
        return (last.get("key") == key and
                last.get("outputs") == output_digests(out, manifest))
    except OSError:
        return False


def generate(tree, manifest, out, dep_target=None, cache=None):
    """Extract the manifest's definitions from tree into out/extracted/;
    extract.d names every file read, for dep_target (default: all.c).
    With cache (a directory of the build's): nothing is done when the
    inputs' content (input_key()) and the outputs are those of the last
    extraction, and ctags runs once per file content (TagCache)."""
    key, inputs, last = None, {}, {}
    if cache:
        try:
            key, inputs = input_key(tree, manifest, out, dep_target)
        except (OSError, Error):
            key = None  # extract() says what is wrong
        last = last_extraction(cache)
        if key and reuse(last, key, out, manifest):
            return
        try:
            os.unlink(os.path.join(cache, "extract.key"))
        except OSError:
            pass
    tags = TagCache(cache) if cache else None
    _generate(tree, manifest, out, dep_target, tags)
    if tags:
        tags.prune(set(last.get("tags", [])))
    if key:
        os.makedirs(cache, exist_ok=True)
        tmp = os.path.join(cache, "extract.key.tmp")
        with open(tmp, "w") as f:
            json.dump({"key": key, "tags": sorted(tags.used),
                       "outputs": output_digests(out, manifest),
                       "inputs": inputs}, f)
        os.replace(tmp, os.path.join(cache, "extract.key"))


def _generate(tree, manifest, out, dep_target, tag_cache):
    sources, defs, members = extract(tree, manifest, tag_cache)
    gen = os.path.join(out, "extracted")
    banner = ("/* Generated by kernel-src/extract.py from {} of {}.\n"
              " * Do not edit: edit the tree or the manifest. */\n")
    by_src = {}
    for d in defs:
        by_src.setdefault(d.src.rel, []).append(d)
    for lst in by_src.values():
        lst.sort(key=lambda d: d.first)

    headers = [s for s in sources if s.rel.endswith(".h")]
    cfiles = [s for s in sources if not s.rel.endswith(".h")]
    funcs = [d for d in defs if d.kind == "function"]

    h = [banner.format("headers", tree), "#ifndef EXTRACTED_DEFS_H\n",
         "#define EXTRACTED_DEFS_H\n"]
    for s in headers + cfiles:
        for d in by_src.get(s.rel, []):
            if d.kind != "function" and not d.linked:
                h.append(wrap(d, emit_def(d, True), True))
    h.append("\n/* An extracted function's name and where the tree defines it "
             "(all.c). */\nstruct extracted_site {\n\tconst char *name;\n"
             "\tconst char *file;\n\tint line;\n};\n"
             "extern const struct extracted_site extracted_sites[];\n")
    h.append("\n/* Every extracted variable and function of the .c files. */\n")
    for d in defs:
        if d.linked and d.kind == "variable":
            h.append(wrap(d, extern_decl(d), True))
    for d in funcs:
        h.append(wrap(d, prototype(d), True))
    for s in headers:
        for d in by_src.get(s.rel, []):
            if d.kind == "function":
                h.append(wrap(d, emit_def(d, True), True))
    h.append("#endif /* EXTRACTED_DEFS_H */\n")
    write_if_changed(os.path.join(gen, "defs.h"), "".join(h))

    # With EXTRACTED_TABLES_ONLY, all.c is the tables alone: the build
    # compiles each .c file as a translation unit of its own
    # (CMakeLists.txt, napitest_kernel_object()), and these tables too.
    allc = [banner.format("all files", tree),
            "#include <kernel_prelude.h>\n#ifndef EXTRACTED_TABLES_ONLY\n"]
    for s in cfiles:
        body = [banner.format(s.rel, tree)]
        for d in by_src.get(s.rel, []):
            if d.linked:
                body.append(wrap(d, emit_def(d)))
        write_if_changed(os.path.join(gen, s.rel), "".join(body))
        allc.append(f'#include "extracted/{s.rel}"\n')
    # An optional .c file the tree lacks: an empty extraction, so that the
    # outputs are the same set for every tree (the build lists them).
    have = {s.rel for s in cfiles}
    for mf in parse_manifest(manifest):
        if mf.optional and mf[0].endswith(".c") and mf[0] not in have:
            write_if_changed(os.path.join(gen, mf[0]),
                             banner.format(mf[0], tree) +
                             "/* Not in this tree (a file? entry). */\n")
    allc.append("#endif /* EXTRACTED_TABLES_ONLY */\n")
    allc.append(globals_snapshot(defs))
    allc.append(sites_table(funcs))
    write_if_changed(os.path.join(gen, "all.c"), "".join(allc))

    present = [banner.format("manifest", tree),
               "#ifndef EXTRACTED_PRESENT_H\n#define EXTRACTED_PRESENT_H\n",
               f'#define EXTRACTED_TREE "{tree}"\n']
    # The tree's LINUX_VERSION_CODE (include/generated/uapi/linux/
    # version.h), for an expectation that changed upstream after 6.1.
    v = kernel_version(tree)
    present.append("#define EXTRACTED_LINUX_VERSION_CODE "
                   f"{(v[0] << 16) + (v[1] << 8) + min(v[2], 255)}\n"
                   "#define KERNEL_VERSION(a, b, c) "
                   "(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))\n")
    found = {d.name for d in defs} | members
    for rel, entries in parse_manifest(manifest):
        for e in entries:
            have = 1 if e.name in found else 0
            macro = present_macro(e.name)
            present.append(f"#define EXTRACTED_HAVE_{macro} {have}\n")
    present.append("#endif\n")
    write_if_changed(os.path.join(gen, "present.h"), "".join(present))

    target = dep_target or os.path.join(gen, "all.c")
    write_if_changed(os.path.join(gen, "extract.d"), depfile.text(
        target, [s.path for s in sources] +
        [os.path.join(tree, "Makefile"), os.path.abspath(manifest)]))


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--tree", help="kernel tree (read only)")
    ap.add_argument("--manifest", required=True, action="append",
                    help="the manifest (several with --list-outputs)")
    ap.add_argument("--out", help="build directory")
    ap.add_argument("--dep-target", help="the target extract.d names "
                    "(default: OUT/extracted/all.c)")
    ap.add_argument("--cache", help="a directory of the build's: skip an "
                    "extraction whose inputs' content did not change, tag "
                    "each file content once")
    ap.add_argument("--list-outputs", action="store_true",
                    help="print the files the extraction writes, relative "
                    "to OUT, and exit")
    a = ap.parse_args()
    try:
        if a.list_outputs:
            print(";".join(outputs(a.manifest)))
            return 0
    except Error as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    if not a.tree or not a.out or len(a.manifest) != 1:
        ap.error("--tree, --out and one --manifest are required")
    a.manifest = a.manifest[0]
    tree = os.path.abspath(a.tree)
    out = os.path.abspath(a.out)
    if out == tree or out.startswith(tree + os.sep):
        print(f"{PROG}: error: output directory {out} is inside the kernel "
              f"tree {tree}; the tree is never written to", file=sys.stderr)
        return 1
    try:
        generate(tree, a.manifest, out, a.dep_target,
                 a.cache and os.path.abspath(a.cache))
    except Error as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
