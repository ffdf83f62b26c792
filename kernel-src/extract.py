#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""extract --tree TREE --manifest MANIFEST --out DIR: the extractor
(napitest/extract.py) as a command."""

import sys

from napitest.extract import main

if __name__ == "__main__":
    sys.exit(main())
