"""Detectors for tool-call ids and tool names in an OpenAI Chat body.

Limits and patterns come from the rule's params; `params.check` says which places a vendor
validates (`calls`: messages[i].tool_calls[j]; `results`: tool messages' tool_call_id;
`declared`: tools[k].function.name), in body order: messages first, then tools.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import (
    call_id,
    call_name,
    declared_tools,
    indexed,
    param,
    result_id,
    role,
    text_or_none,
    tool_calls,
)
from normalizer.profiles import Rule

Body = Mapping[str, Any]
# (location, param path as the vendor names it, value, fields locating it)
Site = tuple[str, str, str | None, dict[str, Any]]


def _id_sites(body: Body, check: tuple[str, ...]) -> Iterator[Site]:
    for i, msg in indexed(body):
        if role(msg) == "assistant" and "calls" in check:
            for j, call in tool_calls(msg):
                path = f"messages[{i}].tool_calls[{j}].id"
                yield path, path, call_id(call), {"index": i, "call": j}
        elif role(msg) == "tool" and "results" in check:
            path = f"messages[{i}].tool_call_id"
            yield path, path, result_id(msg), {"index": i}


def _name_sites(body: Body, check: tuple[str, ...]) -> Iterator[Site]:
    if "called" in check:
        for i, msg in indexed(body):
            if role(msg) != "assistant":
                continue
            for j, call in tool_calls(msg):
                path = f"messages[{i}].tool_calls[{j}].function.name"
                yield path, path, call_name(call), {"index": i, "call": j}
    if "declared" in check:
        for k, decl in declared_tools(body):
            path = f"tools[{k}].function.name"
            yield path, path, text_or_none(decl.get("function"), "name"), {"index": k}


def _checked(rule: Rule, default: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(param(rule.params, "check", default))


def _too_long(sites: Iterator[Site], max_length: int) -> Iterator[Finding]:
    for location, path, value, where in sites:
        if value is not None and len(value) > max_length:
            yield Finding(location=location,
                          fields={**where, "id": value, "name": value, "param": path,
                                  "length": len(value), "max_length": max_length})


def _mismatch(sites: Iterator[Site], pattern: str) -> Iterator[Finding]:
    compiled = re.compile(pattern)
    for location, path, value, where in sites:
        if value is not None and not compiled.search(value):
            yield Finding(location=location,
                          fields={**where, "id": value, "name": value, "param": path,
                                  "pattern": pattern})


def tool_call_id_too_long(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-call-id-too-long`: a tool call id longer than params.max_length."""
    yield from _too_long(_id_sites(body, _checked(rule, ("calls",))),
                         int(rule.params["max_length"]))


def tool_call_id_pattern(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-call-id-pattern`: a tool call id that does not match params.pattern."""
    yield from _mismatch(_id_sites(body, _checked(rule, ("calls", "results"))),
                         str(rule.params["pattern"]))


def tool_call_id_missing(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A call or tool message (per params.check, default results) with no string id."""
    for location, path, value, where in _id_sites(body, _checked(rule, ("results",))):
        if value is None:
            yield Finding(location=location, fields={**where, "param": path})


def tool_name_invalid(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Names not matching params.pattern (and, when given, longer than params.max_length:
    for vendors whose single message covers both)."""
    pattern = str(rule.params["pattern"])
    max_length = rule.params.get("max_length")
    compiled = re.compile(pattern)
    for location, path, value, where in _name_sites(body, _checked(rule, ("called", "declared"))):
        if value is None:
            continue
        too_long = max_length is not None and len(value) > int(max_length)
        if too_long or not compiled.search(value):
            yield Finding(location=location,
                          fields={**where, "name": value, "param": path, "pattern": pattern,
                                  "max_length": max_length, "length": len(value)})


def tool_name_too_long(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-name-too-long`: a tool name (declared or called) longer than params.max_length."""
    yield from _too_long(_name_sites(body, _checked(rule, ("called", "declared"))),
                         int(rule.params["max_length"]))
