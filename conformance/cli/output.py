"""Output of the command line that cannot fail on what the input held: streams that
escape lone surrogates, JSON without NaN, and output folders checked before a run."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any


def tolerant_streams() -> None:
    r"""Lone surrogates (from JSON `\ud800` escapes) print as `\ud800`, which JSON reads
    back as the same string, instead of raising UnicodeEncodeError mid-output."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def dump_json(value: Any, **options: Any) -> str:
    """json.dumps that refuses NaN and Infinity (not JSON) with a ValueError."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError as exc:
        raise ValueError(f"cannot write the result as JSON: {exc}") from None


def folder_problem(path: Path) -> str | None:
    """Why `path` cannot be an output folder (checked before a run, not after it)."""
    for existing in (path, *path.parents):
        if existing.exists():
            if not existing.is_dir():
                return f"--out {path}: {existing} exists and is not a folder"
            return None
    return None
