"""Detectors for the tools an Anthropic request declares: their names (pattern, length,
duplicates) and their input schemas (the root's type and unions, keyword values the JSON
Schema 2020-12 meta-schema refuses, top-level property names). Custom tools only: a server
tool (web_search, ...) carries a `type` and a fixed name and no schema of the caller's."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.ids import Constraint
from normalizer.meta_schema import invalid_keywords
from normalizer.profiles import Rule
from normalizer.property_keys import refused_keys
from normalizer.root_union import top_level


def tool_name_invalid(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
    """Declared custom tools only: the vendor's text names `tools.N.custom.name`; a bad
    name in a tool_use block has no known text of its own."""
    pattern = str(rule.params.get("pattern", r"^[a-zA-Z0-9_-]{1,128}$"))
    for k, name in _custom_tool_names(body):
        if not re.search(pattern, name):
            yield Finding(f"tools[{k}].name", {"tool": k, "name": name, "pattern": pattern})


def tool_name_too_long(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """`tool-name-too-long` for declared custom tools (the vendor's text names
    `tools.N.custom.name`), longer than params.max_length."""
    most = int(rule.params["max_length"])
    for k, name in _custom_tool_names(body):
        if len(name) > most:
            yield Finding(f"tools[{k}].name", {"tool": k, "name": name, "max_length": most,
                                               "length": len(name)})


def _custom_tool_names(body: Mapping[str, Any]) -> Iterator[tuple[int, str]]:
    """The index and name of each declared custom tool; server tools (web_search, ...)
    carry a `type` and a fixed name."""
    tools = body.get("tools")
    for k, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, Mapping) and tool.get("type") in (None, "custom") \
                and isinstance(tool.get("name"), str):
            yield k, tool["name"]


def input_schema_without_type(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """A declared custom tool whose `input_schema` has no `type` (rule
    tool-parameters-not-object): the vendor's text names `tools.N.custom.input_schema.type`.
    Another type at the root is not checked (its text was not seen in an answer)."""
    for k, name, schema in _input_schemas(body):
        if "type" not in schema:
            yield Finding(f"tools[{k}].input_schema.type", {"tool": k, "name": name})


def input_schema_top_level_union(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """A declared custom tool whose `input_schema`, typed (one without type is refused for
    that first), has one of params.keywords at its root (rule
    tool-parameters-top-level-union)."""
    keywords = [str(k) for k in rule.params.get("keywords", ())]
    for k, name, schema in _input_schemas(body):
        if "type" in schema and top_level(schema, keywords):
            yield Finding(f"tools[{k}].input_schema", {"tool": k, "name": name})


def input_schema_invalid_keyword(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """Every keyword of a declared custom tool's `input_schema` whose value the JSON Schema
    2020-12 meta-schema refuses (rule schema-keyword-invalid, normalizer.meta_schema): the
    vendor's text names the tool's input_schema only, not the keyword."""
    for k, name, schema in _input_schemas(body):
        for place in invalid_keywords(schema):
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in place)
            yield Finding(f"tools[{k}].input_schema{where}",
                          {"tool": k, "name": name, "keyword": place[-1]})


def input_schema_property_key(body: Mapping[str, Any], rule: Rule,
                              model: str | None) -> Iterator[Finding]:
    """Every name under a declared custom tool's top-level `properties` that params.pattern
    refuses (rule tool-property-key-invalid, normalizer.property_keys): the vendor's text
    names the tool's properties and the pattern, not the name."""
    pattern = rule.params.get("pattern")
    if not isinstance(pattern, str):
        return
    accepts = Constraint(pattern=pattern).acceptor()
    for k, name, schema in _input_schemas(body):
        for key in refused_keys(schema, accepts):
            yield Finding(f"tools[{k}].input_schema.properties",
                          {"tool": k, "name": name, "key": key, "pattern": pattern})


def _input_schemas(body: Mapping[str, Any]) -> Iterator[tuple[int, Any, Mapping[str, Any]]]:
    """(index, name, input_schema) of every declared custom tool that sends a schema."""
    tools = body.get("tools")
    for k, tool in enumerate(tools if isinstance(tools, list) else []):
        if isinstance(tool, Mapping) and tool.get("type") in (None, "custom") and \
                isinstance(tool.get("input_schema"), Mapping):
            yield k, tool.get("name"), tool["input_schema"]


def duplicate_tool_name(body: Mapping[str, Any], rule: Rule,
                        model: str | None) -> Iterator[Finding]:
    """The first tool (custom or server) whose name an earlier tool already has; the
    vendor's text names no index."""
    tools = body.get("tools")
    seen: set[str] = set()
    for k, tool in enumerate(tools if isinstance(tools, list) else []):
        name = tool.get("name") if isinstance(tool, Mapping) else None
        if isinstance(name, str) and name in seen:
            yield Finding(f"tools[{k}].name", {"tool": k, "name": name})
            return
        if isinstance(name, str):
            seen.add(name)
