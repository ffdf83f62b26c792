# SPDX-License-Identifier: GPL-2.0
"""The tools' own records in JSON (kbuild-check's slots and stamps, the
extraction's content stamp, kunit/sync-copy's record of a copy): read
back as None when absent or unreadable, written whole or not at all."""

import json
import os


def read(path):
    """The file's data, or None if it is absent or not JSON."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_dict(path):
    """The file's data if it is an object, else {}."""
    d = read(path)
    return d if isinstance(d, dict) else {}


def write(path, data):
    """Write path atomically: a reader sees the old file or the new."""
    tmp = f"{path}.{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    os.replace(tmp, path)
