"""Vertex's streamed function-call arguments: a call's `args` object built from its
`partialArgs` pieces (Vertex `PartialArg`: `jsonPath`, one of `stringValue`, `numberValue`,
`boolValue`, `nullValue`, and `willContinue`).

Each piece sets the value at its JSON path (RFC 9535, e.g. `$.recipe.ingredients[0].name`);
a string piece whose path's last piece said `willContinue` is appended to that string
instead ("Whether this is not the last part of the same json_path. If true, another
PartialArg message for the current json_path is expected to follow": js-genai
`types.PartialArg`). Objects and arrays are made as the paths name them, keys in the order
they first appear.

Source of the shapes: vercel/ai's recorded Vertex chunks (tests/data/real_streams/gemini/
vertex-*.yaml) and the PartialArg reference (Google Cloud AIPlatform V1 `PartialArg`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# One segment of a path after its `$`.
_SEGMENT = re.compile(r"\.([^\W\d][\w-]*)"  # .name
                      r"|\[(\d+)\]"  # [0]
                      r"|\['((?:[^'\\]|\\.)*)'\]"  # ['name']
                      r'|\["((?:[^"\\]|\\.)*)"\]')  # ["name"]
_VALUES = ("stringValue", "numberValue", "boolValue", "nullValue")


def path_segments(path: str) -> list[str | int] | None:
    """The member names and array indexes of a JSON path (`$` then `.name`, `['name']` or
    `[n]` segments); None for a path not of that form."""
    if not path.startswith("$"):
        return None
    segments: list[str | int] = []
    at = 1
    while at < len(path):
        found = _SEGMENT.match(path, at)
        if found is None:
            return None
        name, index, single, double = found.groups()
        if index is not None:
            segments.append(int(index))
        else:
            quoted = single if single is not None else double
            segments.append(name if quoted is None else re.sub(r"\\(.)", r"\1", quoted))
        at = found.end()
    return segments


class PartialArgs:
    """The arguments of one streamed call so far (`value`)."""

    def __init__(self, start: Mapping[str, Any] | None = None) -> None:
        self.value: dict[str, Any] = dict(start or {})
        self._continues: set[str] = set()  # paths whose string goes on in the next piece

    def add(self, piece: Mapping[str, Any]) -> str | None:
        """Take one PartialArg; what was wrong with it, if anything (it is then left out)."""
        path = piece.get("jsonPath")
        segments = path_segments(path) if isinstance(path, str) else None
        if not isinstance(path, str) or not segments:
            return f"partialArgs piece with jsonPath {path!r}: not a path into the arguments"
        kinds = [k for k in _VALUES if k in piece]
        if len(kinds) > 1:
            return f"partialArgs piece at {path} has {' and '.join(kinds)}: expected one value"
        value = None if not kinds or kinds[0] == "nullValue" else piece[kinds[0]]
        if isinstance(value, str) and path in self._continues:
            current = _get(self.value, segments)
            value = (current if isinstance(current, str) else "") + value
        problem = _set(self.value, segments, value)
        if problem is not None:
            return f"partialArgs piece at {path}: {problem}"
        if piece.get("willContinue"):
            self._continues.add(path)
        else:
            self._continues.discard(path)
        return None


def _get(root: Any, segments: list[str | int]) -> Any:
    for segment in segments:
        if isinstance(segment, int):
            if not isinstance(root, list) or segment >= len(root):
                return None
        elif not isinstance(root, dict) or segment not in root:
            return None
        root = root[segment]
    return root


def _set(root: dict[str, Any], segments: list[str | int], value: Any) -> str | None:
    """Set `value` at `segments` under `root`, making the objects and arrays on the way;
    what stands in the way, if something does (a string where an object was named)."""
    node: Any = root
    for segment, after in zip(segments, [*segments[1:], None], strict=True):
        if isinstance(segment, int) != isinstance(node, list):
            kind = "an array" if isinstance(node, list) else "an object"
            return f"{segment!r} named inside {kind}"
        if isinstance(segment, int):
            node.extend([None] * (segment + 1 - len(node)))
        if after is None:
            node[segment] = value
            return None
        child = node[segment] if isinstance(segment, int) else node.get(segment)
        if child is None:
            child = [] if isinstance(after, int) else {}
            node[segment] = child
        elif not isinstance(child, dict | list):
            return f"{after!r} named inside a {type(child).__name__}"
        node = child
    return None
