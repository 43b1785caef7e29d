"""The request skeleton each protocol needs before its rules can be checked: required fields
and JSON types, the part a vendor's schema validation rejects before any history rule.

Only the skeleton the detectors walk is checked (top-level fields, messages, their roles,
content and tool-call structure); everything else is left to `check()` and the profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Scalar:
    types: tuple[type, ...]
    name: str  # as OpenAI words it: "a string", "an integer", ...


@dataclass(frozen=True, slots=True)
class Arr:
    item: Spec
    name: str = "an array"


@dataclass(frozen=True, slots=True)
class Obj:
    required: tuple[str, ...] = ()
    fields: Mapping[str, Spec] = field(default_factory=dict)
    name: str = "an object"


@dataclass(frozen=True, slots=True)
class OneOf:
    options: tuple[Spec, ...]
    name: str


Spec = Scalar | Arr | Obj | OneOf


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str  # "missing" | "type"
    path: str
    expected: str = ""
    got: str = ""


STR = Scalar((str,), "a string")
INT = Scalar((int,), "an integer")
BOOL = Scalar((bool,), "a boolean")
NULL = Scalar((type(None),), "null")
ANY_OBJ = Obj()

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
    return _walk(body, SCHEMAS[protocol], "")


def _walk(value: Any, spec: Spec, path: str) -> Problem | None:
    if isinstance(spec, OneOf):
        if any(_walk(value, option, path) is None for option in spec.options):
            return None
        return Problem("type", path, spec.name, json_kind(value))
    if not _matches(value, spec):
        return Problem("type", path, spec.name, json_kind(value))
    if isinstance(spec, Arr):
        return _first(_walk(item, spec.item, f"{path}[{i}]") for i, item in enumerate(value))
    if isinstance(spec, Obj):
        return _walk_object(value, spec, path)
    return None


def _walk_object(value: Mapping[str, Any], spec: Obj, path: str) -> Problem | None:
    prefix = f"{path}." if path else ""
    for name in spec.required:
        if name not in value:
            return Problem("missing", prefix + name)
    return _first(_walk(value[name], sub, prefix + name)
                  for name, sub in spec.fields.items() if name in value)


def _matches(value: Any, spec: Spec) -> bool:
    if isinstance(spec, Arr):
        return isinstance(value, list)
    if isinstance(spec, Obj):
        return isinstance(value, dict)
    assert isinstance(spec, Scalar)
    if isinstance(value, bool) and bool not in spec.types:
        return False  # JSON true is not an integer
    return isinstance(value, spec.types)


def _first(problems: Any) -> Problem | None:
    return next((p for p in problems if p is not None), None)


def json_kind(value: Any) -> str:
    """How OpenAI names a JSON value's type in its messages ("an integer", "an array")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Sequence):
        return "an array"
    return "an object"


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
