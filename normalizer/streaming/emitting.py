"""Shared pieces of the `emit` functions, which turn an assistant message back into the
events a vendor would stream for it (emulators serve them; tests feed them)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from normalizer.model import ToolCall

# Cuts one string into the fragments the stream carries (text deltas, argument pieces).
Splitter: TypeAlias = Callable[[str], Sequence[str]]


def whole(text: str) -> Sequence[str]:
    """The default split: the text in one piece."""
    return [text]


def arguments_text(call: ToolCall) -> str:
    """The argument string a vendor streams: a raw str verbatim, a JsonMap compact JSON."""
    if isinstance(call.arguments, str):
        return call.arguments
    return json.dumps(call.arguments.thaw(), ensure_ascii=False, separators=(",", ":"))


def round_robin(streams: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Interleave event lists: first of each, then second of each, … (parallel calls)."""
    out: list[dict[str, Any]] = []
    for step in range(max((len(s) for s in streams), default=0)):
        out += [s[step] for s in streams if step < len(s)]
    return out
