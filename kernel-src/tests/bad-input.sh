#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bad-input.sh CASE KSRC WORKDIR: feed the framework one kind of bad input
# and check that it answers with one clear message and a non-zero exit (or,
# for a read-only KSRC and a corrupt cache entry, that it copes correctly).
set -uo pipefail
case_name=$1
ksrc=$2
work=$3/$case_name
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
ks=$top/kernel-src

rm -rf "$work"
mkdir -p "$work"

fail() { echo "FAIL ($case_name): $*" >&2; exit 1; }

# expect_error REGEX CMD...: CMD exits non-zero and says REGEX on stderr.
expect_error() {
	local re=$1 rc
	shift
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc -ne 0 ] || fail "'$*' exited 0"
	grep -qE "$re" "$work/err" || { cat "$work/err" >&2; fail "message does not match /$re/"; }
	[ "$(grep -c 'error' "$work/err")" -ge 1 ] || fail "no error line"
	echo "ok: $(grep -m1 error "$work/err")"
}

# small_tree DIR: a copy of the files the manifest reads (plain files, so
# changing them cannot touch the cache).
small_tree() {
	local f
	mkdir -p "$1/include/linux"
	cp "$ksrc/Makefile" "$1/"
	while read -r f; do
		mkdir -p "$1/$(dirname "$f")"
		cp "$ksrc/$f" "$1/$f"
	done < <(cd "$ks" && python3 -m napitest.manifest files "$ks/manifest")
}

# small_cache DIR: a cache whose unpacked linux-source entry holds only the
# files the manifest reads (with a valid stamp), and the real package linked
# in; enough for prepare-tree, and quick to copy.
small_cache() {
	local real src entry
	src=$("$ks/prepare-tree" vanilla 2>/dev/null) || fail "cannot prepare vanilla"
	real=$(dirname "$(dirname "$src")")
	mkdir -p "$1/src" "$1/trees" "$1/debs"
	ln -s "$real"/debs/*.deb "$1/debs/"
	entry="$1/src/$(basename "$src")"
	ksrc=$src small_tree "$entry"
	cp "$src/.napitest-stamp" "$entry/"
	while read -r _ f; do
		mkdir -p "$entry/$(dirname "$f")"
		cp "$src/$f" "$entry/$f"
	done < "$src/.napitest-stamp"
	(cd "$entry" && sha256sum --quiet -c .napitest-stamp) || fail "small cache stamp"
}

case $case_name in
ksrc-missing)
	expect_error "KSRC '$work/nope' does not exist" "$ks/resolve-tree" "$work/nope" ;;
ksrc-not-a-tree)
	mkdir -p "$work/empty"
	expect_error "is not a kernel tree" "$ks/resolve-tree" "$work/empty" ;;
ksrc-no-dev-c)
	small_tree "$work/t"
	rm "$work/t/net/core/dev.c"
	expect_error "lacks net/core/dev.c" "$ks/resolve-tree" "$work/t" ;;
ksrc-unsupported-version)
	small_tree "$work/t"
	sed -i 's/^VERSION = .*/VERSION = 5/; s/^PATCHLEVEL = .*/PATCHLEVEL = 15/' "$work/t/Makefile"
	expect_error "is Linux 5\.15\.[0-9]+; napi-backport-test supports Linux 6\.1 to 6\.12\.$" \
		"$ks/resolve-tree" "$work/t"
	[ "$(wc -l <"$work/err")" -eq 1 ] || fail "more than one line: $(cat "$work/err")" ;;
manifest-definition-missing)
	small_tree "$work/t"
	sed -i 's/\bprocess_backlog\b/renamed_backlog/g' "$work/t/net/core/dev.c"
	expect_error "function 'process_backlog' not found in net/core/dev.c of kernel tree '$work/t'" \
		python3 "$ks/extract.py" --tree "$work/t" --manifest "$ks/manifest" --out "$work/gen"
	[ ! -e "$work/gen/extracted/all.c" ] || fail "half-written output left behind" ;;
ksrc-read-only)
	# The whole pipeline on a read-only tree: extraction, build, one suite.
	small_tree "$work/t"
	before=$(cd "$work/t" && find . -type f -exec sha256sum {} + | sort | sha256sum)
	chmod -R a-w "$work/t"
	tree=$("$ks/resolve-tree" "$work/t") || fail "resolve-tree refused a read-only tree"
	python3 "$ks/extract.py" --tree "$tree" --manifest "$ks/manifest" --out "$work/gen" ||
		fail "extraction failed on a read-only tree"
	grep -q "#line [0-9]* \"$work/t/net/core/dev.c\"" "$work/gen/extracted/net/core/dev.c" ||
		fail "no #line naming the tree's dev.c"
	after=$(cd "$work/t" && find . -type f -exec sha256sum {} + | sort | sha256sum)
	chmod -R u+w "$work/t"
	[ "$before" = "$after" ] || fail "the tree changed"
	[ -z "$(find "$work/t" -newer "$work/gen/extracted/all.c" -print -quit)" ] ||
		fail "something was written in the tree"
	echo "ok: read-only tree extracted, checksum unchanged" ;;
no-apt-get-no-ksrc)
	expect_error "KSRC=/path/to/linux" env NAPITEST_CACHE="$work/cache" \
		APT_GET="$work/no-such-apt-get" "$ks/prepare-tree" patched ;;
corrupt-cache-entry)
	# A cache entry damaged after it was published must be detected by its
	# stamp and rebuilt, not used.
	case $ksrc in */napi-backport-test/*) ;;
	*) echo "ok: KSRC is not a prepared tree; nothing to check"; exit 0 ;;
	esac
	small_cache "$work/cache"
	fresh=$(NAPITEST_CACHE="$work/cache" "$ks/prepare-tree" patched 2>"$work/err") ||
		{ cat "$work/err" >&2; fail "cannot prepare patched"; }
	case $fresh in "$work/cache/trees/"*) ;; *) fail "no tree entry: $fresh" ;; esac
	cp "$fresh/net/core/dev.c" "$work/dev.c.good"
	echo "garbage" >"$fresh/net/core/dev.c"
	NAPITEST_CACHE="$work/cache" "$ks/prepare-tree" patched >"$work/out" 2>"$work/err" ||
		{ cat "$work/err" >&2; fail "prepare-tree failed"; }
	grep -q "incomplete or corrupt; rebuilding" "$work/err" || fail "corruption not reported"
	cmp -s "$(cat "$work/out")/net/core/dev.c" "$work/dev.c.good" ||
		fail "rebuilt entry differs from a fresh one"
	echo "ok: corrupt patched entry detected and rebuilt" ;;
patch-does-not-apply)
	# A series whose patch does not apply names the patch and leaves no tree.
	small_cache "$work/cache"
	mkdir -p "$work/ks/patches"
	cp -r "$ks/prepare-tree" "$ks/trees.conf" "$ks/napitest" "$work/ks/"
	printf 'bad.patch\n' >"$work/ks/patches/series"
	cat >"$work/ks/patches/bad.patch" <<'PATCH'
--- a/net/core/dev.c
+++ b/net/core/dev.c
@@ -1,3 +1,3 @@
-this line is not in dev.c
+nor is this one
 neither is this
PATCH
	expect_error "patch bad.patch does not apply cleanly to the patched tree" \
		env NAPITEST_CACHE="$work/cache" "$work/ks/prepare-tree" patched
	grep -q "patching file net/core/dev.c" "$work/err" || fail "the file is not named"
	grep -q "Hunk #1 FAILED" "$work/err" || fail "the hunk is not named"
	[ -z "$(ls -A "$work/cache/trees")" ] || fail "something was left in the cache's trees/" ;;
series-entry-without-file|patch-not-in-series)
	# The series file and the directory must agree.
	small_cache "$work/cache"
	mkdir -p "$work/ks/patches"
	cp -r "$ks/prepare-tree" "$ks/trees.conf" "$ks/napitest" "$work/ks/"
	if [ "$case_name" = series-entry-without-file ]; then
		printf '0001-missing.patch\n' >"$work/ks/patches/series"
		re="series:1 lists '0001-missing.patch', but there is no such file"
	else
		: >"$work/ks/patches/series"
		: >"$work/ks/patches/0001-stray.patch"
		re="0001-stray.patch is not listed in any series file"
	fi
	expect_error "$re" env NAPITEST_CACHE="$work/cache" "$work/ks/prepare-tree" patched ;;
*)
	fail "unknown case" ;;
esac
