# SPDX-License-Identifier: GPL-2.0
"""The framework's tooling, one module per format, each parsed once.

  extract    the extractor: the manifest's definitions from a kernel
             tree; the reader of present.h (read_present(),
             present_tree(): kunit/run, tools/build-report, the hunk
             matrix) and of a tree's Makefile version (kernel_version():
             tree-info, resolve-tree, kbuild-check, verify-series)
  manifest   kernel-src/manifest (and the seed trees' manifests)
  series     kernel-src/patches/*/series files
  patches    a patch's files and hunks (the hunk matrix, hunks) and
             applying it with no fuzz (prepare-tree, series-check, the
             hunk matrix, verify-series, tools/series-prefixes,
             tools/bisect-demo)
  kbuild     the tree's own kbuild in a scratch O= (series-check,
             kbuild-check)
  testresults    CTest's JUnit XML (tools/verdict, cases)
  cases      each case of a make check, its status per configuration and
             first reason in the tree's terms, and two runs compared
             invariant by invariant (tools/verdict,
             hunk-matrix/verdicts.py); the case lists of the suites'
             sources (tools/check-invariant-map)
  cmocka_output  cmocka's output, with or without arrival times
                 (tools/results, cases, the hunk matrix)
  run_record     a suite run's record (tools/run-suite, tools/results)
  kunit_run      kunit/run's questions: what the tree has (the
                 extractor's present.h, its Kconfig), kunit.py's output,
                 and kunit/run's own "raw KTAP:" line (tools/differential,
                 kunit/headline, kunit/smp) and "copy: ... build: ..."
                 line (bench/loop)
  explore_output the explorer's figures and verdict lines
                 (tools/determinism-check, bench/explore)
  matrix_tsv     build/hunk-matrix/matrix.tsv (the hunk matrix, its
                 verdicts, tools/determinism-check)
  expected_failures  unit/expected-failures-base.txt
                 (tools/expected-failures)
  depfile        make-style depfiles (the extractor's extract.d)
  jsonfile       the tools' own JSON records (kbuild-check,
                 content_stamp, sync_copy)
  content_stamp  the extraction's content stamp (CMakeLists.txt)
  check_inputs   make check's list of the files outside the repository
                 it depends on (the Makefile)
  splats     a kernel console log's splats, known or not (kunit/splats,
             kunit/headline), and kunit/splats' summary line (kunit/smp)
  headline   build/kunit-smp/headline.tsv and the two Summary claims it
             decides (kunit/headline, make verdicts)
  ktap, junit    KTAP and JUnit XML writers (tools/results); ktap also
                 reads a KUnit console's results (kunit/run: whether
                 KUnit started and finished, its summary; kunit/smp)
  markdown   table cells and rows as the reports write them (the hunk
             matrix)
  compiler   a failed build's first error (tools/build-report, the hunk
             matrix)
  verdict_cache  the hunk matrix's verdicts kept by their inputs (trees,
             repository, tools, environment; HM_NO_CACHE=1 reads none)
  hunks      each hunk of the series located in a tree by content
             (tools/hunks, tools/verdict, the hunk matrix)
  hmlib      the hunk matrix's workers: a variant's tree, its build
             (CMake + ninja) and suite runs, the dead-code check's
             objects (hunk-matrix/matrix.py, mutants.py, verdicts.py,
             through hunk-matrix/hmlib.py)
  invariants docs/invariants.md, hunk-matrix/guards.tsv and
             unit/series-prefixes.txt: the catalogue and its tables

The commands, whose code is here so that tools/tests imports it as it
is (each script is a few lines that call main()):

  series_check   kernel-src/series-check
  verify_series  kernel-src/verify-series
  series_prefixes  tools/series-prefixes (its walk and table; the
                 script keeps argument parsing and the scratch tree)
  kbuild_check   kernel-src/kbuild-check
  verdict        tools/verdict
  kunit_headline kunit/headline
  sync_copy      kunit/sync-copy

Importable from every script directory without path tricks: the scripts
of kernel-src/ sit next to it, and tools/, hunk-matrix/, coverage/ and
kunit/ each hold a symlink `napitest` to it (Python puts a script's own
directory first on its path); the shell scripts run python3 -m
napitest.<module> from kernel-src/ or kunit/.  Tests: tools/tests (CTest
label tooling), which pytest runs with tools/ on its path.
"""


class Error(Exception):
    """Bad input: the message names the file and line or the tree."""
