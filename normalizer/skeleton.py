"""The JSON skeleton of a request's history, per protocol: which fields must be arrays,
objects or strings where the detectors walk. A body off its skeleton is rejected by the
vendor's schema validation before any history rule, so `check()` refuses it as unreadable
(WireFormatError) rather than reading it as clean.

Lenient on purpose: only types the vendors' request schemas state are checked (a field
left out is fine unless its container needs it, `null` is accepted where SDKs send it), so
a valid body is never refused; shapes a profile rule words (tool arguments that are not an
object: `tool-arguments-not-object`) are left to that rule. The emulator builds its
stricter request schemas (required `model`, `max_tokens`) from the same pieces
(conformance/emulator/shape.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Scalar:
    """A leaf of one of `types`."""

    types: tuple[type, ...]
    name: str  # as OpenAI words it: "a string", "an integer", ...


@dataclass(frozen=True, slots=True)
class Arr:
    """An array whose every item is `item`."""

    item: Spec
    name: str = "an array"


@dataclass(frozen=True, slots=True)
class Obj:
    """An object with `required` keys; the keys in `fields` are checked where present."""

    required: tuple[str, ...] = ()
    fields: Mapping[str, Spec] = field(default_factory=dict)
    name: str = "an object"


@dataclass(frozen=True, slots=True)
class OneOf:
    """Any one of `options`."""

    options: tuple[Spec, ...]
    name: str


@dataclass(frozen=True, slots=True)
class ByType:
    """An object checked by the spec its `type` field names in `cases`, else by `default`
    (one array holding items of several kinds, each with its own fields' types)."""

    cases: Mapping[str, Obj]
    default: Obj
    name: str = "an object"

    def pick(self, value: Any) -> Obj:
        """The spec for `value`: its type's, else the default."""
        kind = value.get("type") if isinstance(value, Mapping) else None
        return self.cases.get(kind, self.default) if isinstance(kind, str) else self.default


Spec = Scalar | Arr | Obj | OneOf | ByType


@dataclass(frozen=True, slots=True)
class Problem:
    """Where a body leaves its skeleton, and how."""

    kind: str  # "missing" | "type"
    path: str
    expected: str = ""
    got: str = ""

    def text(self) -> str:
        """The problem in OpenAI's words ("expected an array, got a string")."""
        if self.kind == "missing":
            return "required field is missing"
        return f"expected {self.expected}, got {self.got}"


STR = Scalar((str,), "a string")
INT = Scalar((int,), "an integer")
BOOL = Scalar((bool,), "a boolean")
NULL = Scalar((type(None),), "null")
ANY_OBJ = Obj()


def _maybe(spec: Spec) -> OneOf:
    return OneOf((spec, NULL), f"{spec.name} or null")


_TYPED = Obj(("type",), {"type": STR, "text": STR})
_CHAT_CALL = Obj((), {"id": STR, "type": STR,
                      "function": Obj((), {"name": STR, "arguments": STR})})
# huggingface_hub's client sends every field of its message and part types, unset ones as
# null (`name: null`, an image_url part's `text: null`); the HF router answered 200
# (pydantic-ai's recorded tests/models/cassettes/test_huggingface bodies).
# A part without a type is on the skeleton: OpenAI answers it as a rule of its own
# (content-part-type-missing), "Missing required parameter: 'messages[1].content[0].type'."
_CHAT_PART = ByType({"text": _TYPED}, Obj((), {"type": STR, "text": _maybe(STR)}))
CHAT_MESSAGE = Obj(("role",), {
    "role": STR, "content": OneOf((STR, Arr(_CHAT_PART), NULL), "a string or an array of parts"),
    "tool_calls": _maybe(Arr(_CHAT_CALL)), "tool_call_id": _maybe(STR), "name": _maybe(STR)})
_RESPONSES_CONTENT = OneOf((STR, Arr(_TYPED)), "a string or an array of content parts")
# Items are checked by their type, as the SDK's `ResponseInputItemParam` types them; any other
# item (and a role item without `type`) by a spec as loose as the loosest item type:
# `tool_search_call` has `call_id: Optional[str]` and `arguments: object`, `mcp_call` has
# `output: Optional[str]`, `computer_call_output` an object, `shell_call_output` an array of
# untyped objects, `item_reference` an optional `type`, and several `id` and `name` are
# optional (a recorded mcp_call replay and a tool_search_call replay were refused here
# before: tests/data/real_requests).
_RESPONSES_ITEM = ByType({
    "function_call": Obj((), {"type": STR, "id": STR, "call_id": STR, "name": STR,
                              "arguments": STR}),
    "function_call_output": Obj((), {"type": STR, "id": _maybe(STR), "call_id": _maybe(STR),
                                     "output": _RESPONSES_CONTENT}),
    # The SDK's ResponseReasoningItemParam: `content` and `encrypted_content` optional, and
    # Codex replays them as null (Wei-Shaw/sub2api#4237, 2026-07), which OpenAI takes.
    "reasoning": Obj((), {"type": STR, "id": _maybe(STR), "summary": Arr(_TYPED),
                          "content": _maybe(Arr(_TYPED)), "encrypted_content": _maybe(STR)}),
}, Obj((), {
    "type": _maybe(STR), "role": STR, "id": _maybe(STR), "call_id": _maybe(STR),
    "name": _maybe(STR),  # `arguments` is not checked: tool_search_call's is any value
    "content": _RESPONSES_CONTENT,
    # The one object output in the SDK's types is computer_call_output's screenshot, whose
    # `type` is required.
    "output": _maybe(OneOf((STR, Arr(ANY_OBJ), Obj(("type",), {"type": STR})),
                           "a string, an array of content parts or a typed object")),
    "summary": Arr(_TYPED)}))
# Server tool results (web_fetch_tool_result, bash_code_execution_tool_result, advisor
# results) carry an object as content; recorded requests replaying them were accepted
# (evidence/anthropic/*-accepted-sonnet-*.yaml).
_ANTHROPIC_BLOCK = Obj(("type",), {
    "type": STR, "text": STR, "id": STR, "name": STR, "tool_use_id": STR,
    "content": OneOf((STR, Arr(_TYPED), ANY_OBJ), "a string, an array of blocks or an object"),
    "thinking": STR, "signature": STR, "data": STR, "is_error": BOOL})
ANTHROPIC_CONTENT = OneOf((STR, Arr(_ANTHROPIC_BLOCK)), "a string or an array of blocks")
_GEMINI_CALL = Obj((), {"name": STR, "id": STR})
_GEMINI_RESPONSE = Obj((), {"name": STR, "response": ANY_OBJ, "id": STR})
_GEMINI_PART = Obj((), {
    "text": STR, "thought": BOOL, "thoughtSignature": STR, "thought_signature": STR,
    "functionCall": _GEMINI_CALL, "function_call": _GEMINI_CALL,
    "functionResponse": _GEMINI_RESPONSE, "function_response": _GEMINI_RESPONSE,
    "inlineData": ANY_OBJ, "inline_data": ANY_OBJ, "fileData": ANY_OBJ})
GEMINI_CONTENT = Obj((), {"role": STR, "parts": Arr(_GEMINI_PART)})
# Google's JSON mapping takes a single object for a repeated field: recorded requests with
# `tools` and `systemInstruction.parts` as one object were accepted (evidence/gemini).
_GEMINI_SYSTEM = Obj((), {"role": STR, "parts": OneOf((Arr(_GEMINI_PART), _GEMINI_PART),
                                                      "an array of parts or one part")})
_GEMINI_TOOLS = OneOf((Arr(ANY_OBJ), ANY_OBJ), "an array of tools or one tool")

HISTORY: dict[str, Obj] = {
    "openai_chat": Obj((), {"messages": Arr(CHAT_MESSAGE), "tools": _maybe(Arr(ANY_OBJ))}),
    "openai_responses": Obj((), {
        "input": OneOf((STR, Arr(_RESPONSES_ITEM)), "a string or an array of items"),
        "instructions": _maybe(STR), "tools": _maybe(Arr(ANY_OBJ))}),
    "anthropic": Obj((), {
        "messages": Arr(Obj(("role", "content"), {"role": STR, "content": ANTHROPIC_CONTENT})),
        "system": OneOf((STR, Arr(_TYPED)), "a string or an array of text blocks"),
        "tools": Arr(ANY_OBJ)}),
    "gemini": Obj((), {
        "contents": Arr(GEMINI_CONTENT), "systemInstruction": _GEMINI_SYSTEM,
        "system_instruction": _GEMINI_SYSTEM, "tools": _GEMINI_TOOLS}),
}


def first_problem(body: Any, spec: Spec) -> Problem | None:
    """The first place where `body` does not fit `spec`, or None."""
    if _fits(body, spec):  # the common case, without building a path per element
        return None
    return _walk(body, spec, "")


def _fits(value: Any, spec: Spec) -> bool:
    """Whether `value` fits `spec` (what `_walk` finds no problem in), without paths."""
    if isinstance(spec, OneOf):
        return any(_fits(value, option) for option in spec.options)
    if isinstance(spec, Arr):
        item = spec.item
        return isinstance(value, list | tuple) and all(_fits(v, item) for v in value)
    if isinstance(spec, Obj):
        return _fits_object(value, spec)
    if isinstance(spec, ByType):
        return _fits_object(value, spec.pick(value))
    return _matches(value, spec)


def _fits_object(value: Any, spec: Obj) -> bool:
    # dict first: the abc check of Mapping is the slow path, and bodies are dicts
    if not (type(value) is dict or isinstance(value, Mapping)):
        return False
    if any(name not in value for name in spec.required):
        return False
    return all(_fits(value[name], sub) for name, sub in spec.fields.items() if name in value)


def _walk(value: Any, spec: Spec, path: str) -> Problem | None:
    if isinstance(spec, ByType):
        spec = spec.pick(value)
    if isinstance(spec, OneOf):
        found = [_walk(value, option, path) for option in spec.options]
        if any(problem is None for problem in found):
            return None
        # One option of the value's own JSON kind (an array where a string or an array is
        # taken): the problem is inside it, and its place is said ("input[1].content:
        # expected ..., got null", not "input: expected ..., got an array").
        kinds = [p for o, p in zip(spec.options, found, strict=True) if _kind_matches(value, o)]
        if len(kinds) == 1 and kinds[0] is not None and kinds[0].path != (path or "body"):
            return kinds[0]
        return Problem("type", path or "body", spec.name, json_kind(value))
    if not _matches(value, spec):
        return Problem("type", path or "body", spec.name, json_kind(value))
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


def _kind_matches(value: Any, spec: Spec) -> bool:
    """Whether `value` is of the JSON kind `spec` takes at its top (not what is inside)."""
    if isinstance(spec, ByType):
        return isinstance(value, Mapping)
    if isinstance(spec, OneOf):
        return any(_kind_matches(value, option) for option in spec.options)
    return _matches(value, spec)


def _matches(value: Any, spec: Spec) -> bool:
    if isinstance(spec, Arr):
        return isinstance(value, list | tuple)
    if isinstance(spec, Obj):
        return isinstance(value, Mapping)
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
