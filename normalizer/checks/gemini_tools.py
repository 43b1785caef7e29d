"""Gemini detectors for the tools a request declares: its function declarations (names,
count, parameter schemas, as the vendor names their proto paths) and the function-calling
config that needs them. Fields are read in both spellings (normalizer/checks/gemini.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.array_items import bare_arrays
from normalizer.check import Finding
from normalizer.checks.gemini_walk import get
from normalizer.empty_enum import empty_enum_values
from normalizer.gemini_keywords import unsupported_keywords
from normalizer.profiles import Rule
from normalizer.schema_walk import names_type, schema_nodes


def _declaration_lists(body: Mapping[str, Any]) -> Iterator[tuple[int, list[Any]]]:
    """(index, functionDeclarations list) of every `tools` entry that has one."""
    tools = body.get("tools")
    for t, tool in enumerate(tools if isinstance(tools, list) else []):
        decls = get(tool, "functionDeclarations", "function_declarations") \
            if isinstance(tool, Mapping) else None
        if isinstance(decls, list):
            yield t, decls


def _declarations(body: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(proto path, declaration) of every function declaration, as the vendor names it."""
    for t, decls in _declaration_lists(body):
        for d, decl in enumerate(decls):
            if isinstance(decl, Mapping):
                yield f"tools[{t}].function_declarations[{d}]", decl


def tool_name_invalid(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-name-invalid`: a tool name (declared or called) not matching params.pattern /
    params.max_length."""
    pattern = str(rule.params.get("pattern", r"^[a-zA-Z_][a-zA-Z0-9_.\-]{0,63}$"))
    for where, decl in _declarations(body):
        name = decl.get("name")
        if isinstance(name, str) and not re.search(pattern, name):
            yield Finding(f"{where}.name", {"field": f"{where}.name", "name": name})


def duplicate_tool_name(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """The first function declaration (across all `tools` entries) whose name an earlier one
    already has."""
    seen: set[str] = set()
    for where, decl in _declarations(body):
        name = decl.get("name")
        if isinstance(name, str) and name in seen:
            yield Finding(f"{where}.name", {"field": f"{where}.name", "name": name})
            return
        if isinstance(name, str):
            seen.add(name)


def too_many_tools(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """A `tools` entry with more function declarations than params.max_items: the error
    names one entry's list, so each entry is counted alone."""
    limit = int(rule.params["max_items"])
    for t, decls in _declaration_lists(body):
        if len(decls) > limit:
            yield Finding(f"tools[{t}].function_declarations",
                          {"index": t, "length": len(decls), "max_items": limit})


def calling_config_without_declarations(body: Mapping[str, Any], rule: Rule,
                                        model: str | None) -> Iterator[Finding]:
    """`tool-choice-without-tools` on Gemini's wire: a toolConfig.functionCallingConfig (any
    mode, or empty) while no tool declares a function (no tools, or built-in ones only:
    googleSearch, urlContext, codeExecution). A toolConfig that holds only other settings
    (retrievalConfig) is not one; nor is a request that names a cache, whose declarations
    the cache holds (it is cached-content-with-prompt-fields)."""
    if not isinstance(body, Mapping) or get(body, "cachedContent", "cached_content"):
        return
    config = get(body, "toolConfig", "tool_config")
    calling = get(config, "functionCallingConfig", "function_calling_config") \
        if isinstance(config, Mapping) else None
    if calling is None or any(decls for _, decls in _declaration_lists(body)):
        return
    mode = calling.get("mode") if isinstance(calling, Mapping) else None
    yield Finding("tool_config.function_calling_config", {"mode": mode})


def array_schema_missing_items(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """An array schema without `items` in a function declaration's `parameters`, one
    finding per array, named by its proto path (`properties[tags].items` as the vendor
    writes it; how it writes a path through any_of was not seen)."""
    for where, decl in _declarations(body):
        for path in bare_arrays(decl.get("parameters")):
            field = f"{where}.parameters{_proto_path(path)}"
            yield Finding(f"{field}.items", {"field": f"{field}.items"})


def enum_empty_value(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """An empty string among the enum values in a function declaration's `parameters`, one
    finding per value, named by its proto path and index as the vendor writes it
    (`properties[kind].enum[0]`; through anyOf, `any_of[0].enum[0]`)."""
    for where, decl in _declarations(body):
        for path, k in empty_enum_values(decl.get("parameters")):
            field = f"{where}.parameters{_proto_path(path)}.enum[{k}]"
            yield Finding(field, {"field": field})


def enum_type_not_string(body: Mapping[str, Any], rule: Rule,
                         model: str | None) -> Iterator[Finding]:
    """An enum of strings in a function declaration's `parameters` on a schema typed other
    than string (INTEGER, BOOLEAN, ...), one finding per enum, named by its proto path as
    the vendor writes it (`properties[accountability].enum`). Not judged: an enum without a
    type (reported refused in the same words, not seen in an answer; the schema conversion
    types it string anyway) and values that are not strings (google-genai refuses them
    before sending; Gemini's JSON parser answers them in words of its own, not modelled)."""
    for where, decl in _declarations(body):
        for node, path in schema_nodes(decl.get("parameters")):
            values, kind = node.get("enum"), node.get("type")
            if isinstance(values, list) and values and \
                    all(isinstance(v, str) for v in values) and \
                    isinstance(kind, str) and not names_type(kind, "string"):
                field = f"{where}.parameters{_proto_path(path)}.enum"
                yield Finding(field, {"field": field, "type": kind})


def _proto_path(path: tuple[str | int, ...]) -> str:
    out, steps = "", list(path)
    while steps:
        step = steps.pop(0)
        if step in ("properties", "$defs", "definitions") and steps:
            out += f".{step}[{steps.pop(0)}]"
        elif isinstance(step, int):
            out += f"[{step}]"
        else:
            out += f".{'any_of' if step == 'anyOf' else step}"
    return out


def tool_schema_unsupported(body: Mapping[str, Any], rule: Rule,
                            model: str | None) -> Iterator[Finding]:
    """`tool-schema-unsupported`: a tool parameter schema with keywords the vendor rejects."""
    banned = frozenset(str(k) for k in rule.params.get("unsupported", ()))
    for where, decl in _declarations(body):
        # Only `parameters` is the OpenAPI subset; `parametersJsonSchema` takes JSON Schema.
        parameters = decl.get("parameters")
        for keyword, field in unsupported_keywords(parameters, f"{where}.parameters", banned):
            yield Finding(field, {"name": keyword, "field": field})
