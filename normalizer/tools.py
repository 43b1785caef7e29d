"""MCP tool definitions <-> each protocol's tool declaration, and vendor tool calls back to
a neutral `{name, arguments, call_id}`.

Gemini accepts only a subset of JSON Schema in function declarations; `gemini_schema`
converts to it and lists every conversion as a Change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from normalizer.errors import ArgumentsJSONError, UnknownProtocolError, WireFormatError
from normalizer.model import Change, JsonMap, ToolSpec, thaw
from normalizer.protocols import PROTOCOLS
from normalizer.skeleton import json_kind
from normalizer.tool_spec import NO_ARGUMENTS

Decls = list[dict[str, Any]]


def declare(tools: Sequence[ToolSpec], protocol: str, *,
            subset: bool = True) -> tuple[Decls, tuple[Change, ...]]:
    """Tool specs -> the `tools` value of a request body in `protocol`, plus the schema
    conversions made on the way. Only Gemini converts: with `subset` (the default) its
    schemas are cut down to the subset Gemini accepts (`gemini_schema`); `subset=False`
    keeps them as given, which is what the faithful `render` does (normalize converts
    instead, in its convert_tool_schemas pass, and reports each conversion)."""
    if protocol == "openai_chat":
        return [_openai_chat_decl(t) for t in tools], ()
    if protocol == "openai_responses":
        return [_responses_decl(t) for t in tools], ()
    if protocol == "anthropic":
        return [_anthropic_decl(t) for t in tools], ()
    if protocol == "gemini":
        return _gemini_decls(tools, subset)
    raise UnknownProtocolError(protocol, PROTOCOLS)


def _openai_chat_decl(tool: ToolSpec) -> dict[str, Any]:
    function = {"name": tool.name, "description": tool.description,
                "parameters": thaw(tool.input_schema), **_strict(tool)}
    return {"type": "function", "function": function}


def _responses_decl(tool: ToolSpec) -> dict[str, Any]:
    return {"type": "function", "name": tool.name, "description": tool.description,
            "parameters": thaw(tool.input_schema), **_strict(tool)}


def _strict(tool: ToolSpec) -> dict[str, bool]:
    """The `strict` flag, only where the request stated it (absent stays absent)."""
    return {} if tool.strict is None else {"strict": tool.strict}


def _anthropic_decl(tool: ToolSpec) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description,
            "input_schema": thaw(tool.input_schema), **_strict(tool)}


def _gemini_decls(tools: Sequence[ToolSpec], subset: bool) -> tuple[Decls, tuple[Change, ...]]:
    if not tools:
        return [], ()
    decls: list[dict[str, Any]] = []
    changes: list[Change] = []
    for tool in tools:
        schema, schema_changes = thaw(tool.input_schema), ()
        if subset:
            schema, schema_changes = gemini_schema(schema, where=f"tools.{tool.name}")
        decls.append({"name": tool.name, "description": tool.description, "parameters": schema})
        changes.extend(schema_changes)
    return [{"functionDeclarations": decls}], tuple(changes)


def gemini_schema(
    schema: Mapping[str, Any], where: str = "schema"
) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """JSON Schema -> the OpenAPI subset Gemini function declarations accept."""
    from normalizer.gemini_schema import convert  # kept apart: it is the largest conversion

    return convert(schema, where=where)


def parse_declarations(tools: Sequence[Mapping[str, Any]], protocol: str) -> tuple[ToolSpec, ...]:
    """The `tools` value of a request body -> tool specs (the inverse of `declare`)."""
    specs: list[ToolSpec] = []
    for i, decl in enumerate(tools):
        where = f"tools[{i}]"
        if protocol == "openai_chat":
            fn = _require(decl, "function", where)
            specs.append(_spec(fn, "parameters", f"{where}.function", strict=True))
        elif protocol == "openai_responses":
            specs.append(_spec(decl, "parameters", where, strict=True))
        elif protocol == "anthropic":
            specs.append(_spec(decl, "input_schema", where, strict=True))
        elif protocol == "gemini":  # the REST API takes the snake_case spelling too
            if not isinstance(decl, Mapping):
                raise WireFormatError(where, f"expected an object, got {json_kind(decl)}")
            functions = decl.get("functionDeclarations") or decl.get("function_declarations")
            if functions and not isinstance(functions, list):
                raise WireFormatError(f"{where}.functionDeclarations",
                                      f"expected an array, got {json_kind(functions)}")
            for j, fn in enumerate(functions or ()):
                specs.append(_spec(fn, "parameters", f"{where}.functionDeclarations[{j}]"))
        else:
            raise UnknownProtocolError(protocol, PROTOCOLS)
    return tuple(specs)


def _require(obj: Mapping[str, Any], key: str, where: str) -> Any:
    if not isinstance(obj, Mapping) or key not in obj:
        raise WireFormatError(where, f"expected an object with {key!r}")
    return obj[key]


def _spec(decl: Mapping[str, Any], schema_key: str, where: str, *,
          strict: bool = False) -> ToolSpec:
    """One declaration -> a ToolSpec; with `strict`, the protocol has a strict flag and a
    boolean `strict` is kept (anything else is not the flag)."""
    name = _require(decl, "name", where)
    if not isinstance(name, str):
        raise WireFormatError(f"{where}.name", f"expected a string, got {json_kind(name)}")
    # Absent (or null) is a tool without arguments; anything else is kept as given, `{}`
    # too: the vendor may read it otherwise (DeepSeek refuses it), and a repair says so.
    schema = decl.get(schema_key)
    if schema is None:
        schema = NO_ARGUMENTS
    if not isinstance(schema, Mapping):
        raise WireFormatError(f"{where}.{schema_key}",
                              f"expected a JSON Schema object, got {json_kind(schema)}")
    flag = decl.get("strict") if strict else None
    return ToolSpec(name=name, description=str(decl.get("description") or ""),
                    input_schema=schema, strict=flag if isinstance(flag, bool) else None)


@dataclass(frozen=True, slots=True)
class ParsedCall:
    """A vendor tool call in neutral form: name, arguments and call id."""

    name: str
    arguments: JsonMap
    call_id: str | None


def parse_arguments(raw: str | Mapping[str, Any] | None, where: str = "arguments") -> JsonMap:
    """OpenAI-style JSON-string arguments -> JsonMap. Invalid JSON, or JSON that is not an
    object, raises ArgumentsJSONError carrying the raw text."""
    if raw is None or raw == "":
        return JsonMap()
    if type(raw) is not str and isinstance(raw, Mapping):  # str first: the ABC test is slow
        return JsonMap(raw)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ArgumentsJSONError(raw, f"{exc.msg} at line {exc.lineno} column {exc.colno}",
                                 where) from exc
    if not isinstance(value, dict):
        raise ArgumentsJSONError(raw, f"expected a JSON object, got {type(value).__name__}", where)
    return JsonMap(value)


def parse_call(call: Mapping[str, Any], protocol: str) -> ParsedCall:
    """One vendor tool call (as found in a response or request) -> name, arguments, call id."""
    if protocol == "openai_chat":
        fn = _require(call, "function", "tool_call")
        return ParsedCall(str(_require(fn, "name", "tool_call.function")),
                          parse_arguments(fn.get("arguments"), "tool_call.function.arguments"),
                          call.get("id"))
    if protocol == "openai_responses":
        return ParsedCall(str(_require(call, "name", "function_call")),
                          parse_arguments(call.get("arguments"), "function_call.arguments"),
                          call.get("call_id"))
    if protocol == "anthropic":
        return ParsedCall(str(_require(call, "name", "tool_use")),
                          parse_arguments(call.get("input") or {}, "tool_use.input"),
                          call.get("id"))
    if protocol == "gemini":
        fn = call.get("functionCall", call)
        return ParsedCall(str(_require(fn, "name", "functionCall")),
                          parse_arguments(fn.get("args") or {}, "functionCall.args"),
                          fn.get("id"))
    raise UnknownProtocolError(protocol, PROTOCOLS)
