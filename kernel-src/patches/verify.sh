#!/bin/bash
# verify.sh - check that the backlog-NAPI backport series applies exactly.
#
# Usage: verify.sh [-k KEEPDIR] /path/to/pristine/linux-6.1-tree
#
# The tree must be a pristine Debian linux-source-6.1 6.1.192-3 tree (the
# full tarball, or the unpacked subset net/core + kernel/softirq.c +
# arch/x86/Kconfig (rt-base 0002) +
# include/ + Makefile).  It is never modified: the files the patches touch
# are copied into a temporary directory and everything is applied there.
#
#   1. rt-base/series            on the pristine copy         -> "base"
#   2. series (buildable order)  one by one on base           -> "patched"
#   3. series.as-posted          one by one on base           -> "as-posted"
#   4. the final states of 2 and 3 must be identical
#   5. each seed-*/series        on a copy of "patched", separately
#
# Every patch is applied with
#   patch -p1 --fuzz=0 --no-backup-if-mismatch
# and the check fails, naming the patch and the file, if patch(1) fails or
# reports fuzz, an offset, a reversed/previously applied patch or garbage.
# A seed directory whose patch touches a file that is absent from the given
# tree (e.g. init/Kconfig in the source subset) is reported as SKIPPED.
#
# With -k KEEPDIR the resulting trees (base, patched, as-posted, seed-*)
# are left in KEEPDIR (which must not exist) instead of being deleted.
#
# Only bash and POSIX tools (cp, mkdir, sed, grep, diff, mktemp) + patch(1).

set -u

keep=
if [ "${1:-}" = "-k" ]; then
	keep=${2:?"-k needs a directory"}
	shift 2
fi
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 [-k KEEPDIR] /path/to/pristine/linux-6.1-tree" >&2
	exit 2
fi

PDIR=$(cd "$(dirname "$0")" && pwd)
TREE=$(cd "$1" && pwd)

if [ -n "$keep" ]; then
	if [ -e "$keep" ]; then
		echo "verify: $keep already exists" >&2
		exit 2
	fi
	mkdir -p "$keep" || exit 2
	WORK=$(cd "$keep" && pwd)
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/verify-backlog-napi.XXXXXX") || exit 2
	trap 'rm -rf "$WORK"' EXIT
fi

nfail=0
nskip=0
nok=0

# Files touched by a patch file (from its "+++ b/..." lines).
patch_files() {
	sed -n 's#^+++ b/\([^	 ]*\).*#\1#p' "$1"
}

# Files touched by every patch listed in a series file.
series_files() {
	local dir=$1 p
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		patch_files "$dir/$p"
	done < "$dir/series"
}

# copy_files SRC DST FILE... : copy the listed files (those that exist).
copy_files() {
	local src=$1 dst=$2 f
	shift 2
	for f in "$@"; do
		[ -e "$src/$f" ] || continue
		mkdir -p "$dst/$(dirname "$f")" || return 1
		cp -p "$src/$f" "$dst/$f" || return 1
	done
}

# apply_one TREEDIR PATCHFILE LABEL
apply_one() {
	local dir=$1 pf=$2 label=$3 out rc bad files
	files=$(patch_files "$pf" | tr '\n' ' ')
	out=$(cd "$dir" && patch -p1 --fuzz=0 --no-backup-if-mismatch -f \
		< "$pf" 2>&1)
	rc=$?
	bad=$(printf '%s\n' "$out" | grep -E -i \
		'FAILED|fuzz|offset|succeeded at|Reversed|previously applied|garbage|malformed|can.t find file|No such file|missing header|Only garbage' )
	if [ $rc -ne 0 ] || [ -n "$bad" ]; then
		echo "FAIL  [$label] $(basename "$pf")"
		echo "      files: $files"
		printf '%s\n' "$out" | grep -E -i \
			'patching file|Hunk|FAILED|fuzz|offset|succeeded|Reversed|previously|garbage|malformed|can.t find|No such' |
			sed 's/^/      | /'
		nfail=$((nfail + 1))
		return 1
	fi
	echo "ok    [$label] $(basename "$pf")  ($files)"
	nok=$((nok + 1))
	return 0
}

# apply_series TREEDIR PATCHDIR SERIESFILE LABEL
apply_series() {
	local dir=$1 pdir=$2 series=$3 label=$4 p
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		if [ ! -f "$pdir/$p" ]; then
			echo "FAIL  [$label] $p: listed in $series but missing"
			nfail=$((nfail + 1))
			return 1
		fi
		apply_one "$dir" "$pdir/$p" "$label" || return 1
	done < "$series"
	return 0
}

# Every file any series or seed touches.
mapfile -t all_files < <( { series_files "$PDIR/rt-base"; series_files "$PDIR";
	while read -r p; do patch_files "$PDIR/$p"; done < "$PDIR/series.as-posted"
	for d in "$PDIR"/seed-*/; do series_files "${d%/}"; done; } | sort -u)

echo "verify: tree    $TREE"
echo "verify: patches $PDIR"
echo "verify: work    $WORK"
if [ -f "$TREE/Makefile" ]; then
	v=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$TREE/Makefile" | tr '\n' '.')
	echo "verify: kernel  ${v%.} (expected 6.1.192, Debian linux-source-6.1 6.1.192-3)"
fi

# The rt-base and the 15-patch series need all their files.
for f in $( { series_files "$PDIR/rt-base"; series_files "$PDIR";
	while read -r p; do patch_files "$PDIR/$p"; done < "$PDIR/series.as-posted"; } | sort -u); do
	if [ ! -f "$TREE/$f" ]; then
		echo "FAIL  $f is not in $TREE (needed by rt-base/series)"
		exit 1
	fi
done

# 1. base = pristine + rt-base
mkdir -p "$WORK/base" || exit 2
copy_files "$TREE" "$WORK/base" "${all_files[@]}" || exit 2
echo "== rt-base/series"
apply_series "$WORK/base" "$PDIR/rt-base" "$PDIR/rt-base/series" rt-base || {
	echo "verify: FAILED in rt-base ($nfail failure(s))"; exit 1; }

# 2./3. both orders
series_ok=0
asposted_ok=0
for s in series series.as-posted; do
	[ "$s" = series ] && d=$WORK/patched || d=$WORK/as-posted
	cp -pR "$WORK/base" "$d" || exit 2
	echo "== $s"
	if apply_series "$d" "$PDIR" "$PDIR/$s" "$s"; then
		[ "$s" = series ] && series_ok=1 || asposted_ok=1
	fi
done

# 4. same final state
if [ $series_ok -eq 1 ] && [ $asposted_ok -eq 1 ]; then
	if diff -r "$WORK/patched" "$WORK/as-posted" > /dev/null; then
		echo "ok    final trees of series and series.as-posted are identical"
	else
		echo "FAIL  final trees of series and series.as-posted differ:"
		diff -r "$WORK/patched" "$WORK/as-posted" | sed 's/^/      | /' | head -40
		nfail=$((nfail + 1))
	fi
else
	echo "SKIP  final-state comparison (a series did not apply completely)"
fi
if [ $series_ok -ne 1 ]; then
	echo "SKIP  seed directories (series did not apply completely)"
	echo "verify: $nok patch application(s) ok, $nfail failure(s)"
	echo "verify: FAILED"
	exit 1
fi

# 5. seeds, each separately on top of the final "series" state
for sd in "$PDIR"/seed-*/; do
	sd=${sd%/}
	name=$(basename "$sd")
	echo "== $name/series (on top of series)"
	missing=
	for f in $(series_files "$sd"); do
		[ -f "$TREE/$f" ] || missing="$missing $f"
	done
	if [ -n "$missing" ]; then
		echo "SKIP  [$name] not present in the given tree:$missing"
		echo "      (source subset?) run verify.sh on the full 6.1.192 tree to check it"
		nskip=$((nskip + 1))
		continue
	fi
	cp -pR "$WORK/patched" "$WORK/$name" || exit 2
	apply_series "$WORK/$name" "$sd" "$sd/series" "$name"
done

echo "verify: $nok patch application(s) ok, $nfail failure(s), $nskip seed dir(s) skipped"
[ -n "$keep" ] && echo "verify: results kept in $WORK"
[ $nfail -eq 0 ] || { echo "verify: FAILED"; exit 1; }
echo "verify: PASSED"
exit 0
