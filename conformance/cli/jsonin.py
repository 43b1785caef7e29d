"""JSON input of the command line, read so that a bad file is a one-line error (ValueError
naming the file), never a traceback: not JSON, NaN/Infinity (not JSON numbers, though
Python's json accepts them), nesting too deep for the code that walks it."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# Request bodies nest a dozen levels (tool schemas a few more); the normalizer walks
# values recursively, so input is held well below Python's recursion limit.
MAX_DEPTH = 200


def read_text(name: str) -> str:
    """The text of file `name`, or standard input for '-'."""
    label = "standard input" if name == "-" else name
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{label}: not UTF-8 text: {exc.reason} at byte {exc.start}") from exc
    except OSError as exc:
        raise ValueError(f"{label}: cannot read: {exc.strerror or exc}") from exc


def load_json(text: str, label: str) -> Any:
    """Parsed JSON; ValueError `label:line:col: ...` for anything a strict reader refuses."""
    try:
        value = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{label}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from exc
    except RecursionError:
        raise ValueError(f"{label}: nested deeper than {MAX_DEPTH} levels") from None
    except _NotANumber as exc:
        raise ValueError(f"{label}: {exc.args[0]} is not a JSON number") from None
    if depth(value) > MAX_DEPTH:
        raise ValueError(f"{label}: nested deeper than {MAX_DEPTH} levels")
    return value


class _NotANumber(Exception):
    pass


def _not_a_number(word: str) -> Any:
    raise _NotANumber(word)


def depth(value: Any) -> int:
    """How deep lists and objects nest in `value` (iterative: any depth is measured)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in
                        (item.values() if isinstance(item, dict) else item))
    return deepest
