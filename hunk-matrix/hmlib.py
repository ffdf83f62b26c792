# SPDX-License-Identifier: GPL-2.0
"""The hunk matrix's shared workers under the name its scripts import
(import hmlib as H): napitest.hmlib (kernel-src/napitest/hmlib.py), the
same module object, so that what one sets (H.TRACE, H.SCRATCH) the
other reads."""

import sys

import napitest.hmlib

sys.modules[__name__] = napitest.hmlib
