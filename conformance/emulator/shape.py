"""The request skeleton each protocol needs before its rules can be checked: required fields
and JSON types, the part a vendor's schema validation rejects before any history rule.
The pieces are normalizer.skeleton's (which check() applies to the history alone).

Only the skeleton the detectors walk is checked (top-level fields, messages, their roles,
content and tool-call structure); everything else is left to `check()` and the profile.
"""

from __future__ import annotations

from typing import Any

from normalizer.skeleton import (
    ANY_OBJ,
    BOOL,
    INT,
    NULL,
    STR,
    Arr,
    Obj,
    OneOf,
    Problem,
    json_kind,
)
from normalizer.skeleton import first_problem as _first_problem

_CALL = Obj(("function",), {"id": STR, "type": STR,
                            "function": Obj(("name",), {"name": STR, "arguments": STR})})
_CHAT_MESSAGE = Obj(("role",), {
    "role": STR,
    "content": OneOf((STR, Arr(ANY_OBJ), NULL), "one of a string or array of objects"),
    "tool_calls": Arr(_CALL), "tool_call_id": STR, "name": STR,
})
_BLOCKS = OneOf((STR, Arr(Obj(("type",), {"type": STR}))), "a string or an array of blocks")

SCHEMAS: dict[str, Obj] = {
    "openai_chat": Obj(("model", "messages"), {
        "model": STR, "messages": Arr(_CHAT_MESSAGE), "tools": Arr(ANY_OBJ), "stream": BOOL}),
    "openai_responses": Obj(("model",), {
        "model": STR, "input": OneOf((STR, Arr(ANY_OBJ)), "one of a string or array"),
        "instructions": OneOf((STR, NULL), "a string"), "tools": Arr(ANY_OBJ),
        "stream": BOOL}),
    "anthropic": Obj(("model", "max_tokens", "messages"), {
        "model": STR, "max_tokens": INT,
        "messages": Arr(Obj(("role", "content"), {"role": STR, "content": _BLOCKS})),
        "system": _BLOCKS, "tools": Arr(ANY_OBJ), "stream": BOOL}),
    "gemini": Obj(("contents",), {
        "contents": Arr(Obj((), {"role": STR, "parts": Arr(ANY_OBJ)})),
        "systemInstruction": ANY_OBJ, "tools": Arr(ANY_OBJ), "generationConfig": ANY_OBJ}),
}


def first_problem(body: Any, protocol: str) -> Problem | None:
    """The first place where `body` does not have the protocol's skeleton, or None."""
    return _first_problem(body, SCHEMAS[protocol])


def depth(value: Any, limit: int) -> int:
    """Nesting depth of a parsed JSON value, counted without recursion (deep input must not
    overflow the stack), stopping once it passes `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if not isinstance(item, (dict, list)):
            continue
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, level + 1) for child in children)
    return deepest


__all__ = ["SCHEMAS", "Problem", "depth", "first_problem", "json_kind"]
