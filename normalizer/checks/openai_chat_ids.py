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
    call_name,
    calls,
    declared_tools,
    param,
    result_ids,
    roles,
    text_or_none,
)
from normalizer.model import slot_maker
from normalizer.profiles import Rule

Body = Mapping[str, Any]
# (value, kind, index, position): where a checked id or name sits; its location text is
# made only for a finding (there may be 100,000 sites and a handful of findings)
Site = tuple[str | None, str, int, int]

# Finding without its generated __init__: Mistral refuses nearly every id another vendor
# made, one finding each (85,000 in a 100,000-message body).
_finding = slot_maker(Finding)


def _id_sites(body: Body, check: tuple[str, ...]) -> Iterator[Site]:
    want_calls, want_results = "calls" in check, "results" in check
    rids, table = result_ids(body), calls(body)
    position = table.rows.columns[1]
    for i, kind in enumerate(roles(body)):
        if kind == "assistant" and want_calls:
            for k in range(table.at[i], table.at[i + 1]):
                yield table.ids[k], "call", i, position[k]
        elif kind == "tool" and want_results:
            yield rids[i], "result", i, 0


def _name_sites(body: Body, check: tuple[str, ...]) -> Iterator[Site]:
    if "called" in check:
        kinds = roles(body)
        for i, j, call in calls(body).rows:
            if kinds[i] == "assistant":
                yield call_name(call), "called", i, j
    if "declared" in check:
        for k, decl in declared_tools(body):
            yield text_or_none(decl.get("function"), "name"), "declared", k, 0


def _where(kind: str, index: int, position: int) -> tuple[str, dict[str, Any]]:
    """A site's path (as the vendor names it) and the fields locating it (a new dict, which
    the caller completes)."""
    if kind == "call":
        return f"messages[{index}].tool_calls[{position}].id", {"index": index, "call": position}
    if kind == "result":
        return f"messages[{index}].tool_call_id", {"index": index}
    if kind == "called":
        return (f"messages[{index}].tool_calls[{position}].function.name",
                {"index": index, "call": position})
    return f"tools[{index}].function.name", {"index": index}


def _checked(rule: Rule, default: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(param(rule.params, "check", default))


def _too_long(sites: Iterator[Site], max_length: int) -> Iterator[Finding]:
    for value, kind, index, position in sites:
        if value is not None and len(value) > max_length:
            path, fields = _where(kind, index, position)
            fields.update(id=value, name=value, param=path, length=len(value),
                          max_length=max_length)
            yield _finding(path, fields)


def _mismatch(sites: Iterator[Site], pattern: str) -> Iterator[Finding]:
    search = re.compile(pattern).search
    for value, kind, index, position in sites:
        if value is not None and search(value) is None:
            path, fields = _where(kind, index, position)
            fields.update(id=value, name=value, param=path, pattern=pattern)
            yield _finding(path, fields)


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
    for value, kind, index, position in _id_sites(body, _checked(rule, ("results",))):
        if value is None:
            path, where = _where(kind, index, position)
            yield Finding(location=path, fields={**where, "param": path})


def tool_name_invalid(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Names not matching params.pattern (and, when given, longer than params.max_length:
    for vendors whose single message covers both)."""
    pattern = str(rule.params["pattern"])
    max_length = rule.params.get("max_length")
    compiled = re.compile(pattern)
    for value, kind, index, position in _name_sites(body, _checked(rule, ("called", "declared"))):
        if value is None:
            continue
        too_long = max_length is not None and len(value) > int(max_length)
        if too_long or not compiled.search(value):
            path, where = _where(kind, index, position)
            yield Finding(location=path,
                          fields={**where, "name": value, "param": path, "pattern": pattern,
                                  "max_length": max_length, "length": len(value)})


def tool_name_reserved(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-name-reserved`: a name (per params.check, default declared) among
    params.names, the names the vendor keeps for its own tools."""
    reserved = frozenset(str(n) for n in rule.params.get("names") or ())
    for value, kind, index, position in _name_sites(body, _checked(rule, ("declared",))):
        if value in reserved:
            path, where = _where(kind, index, position)
            yield Finding(location=path, fields={**where, "name": value, "param": path})


def tool_name_too_long(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`tool-name-too-long`: a tool name (declared or called) longer than params.max_length."""
    yield from _too_long(_name_sites(body, _checked(rule, ("called", "declared"))),
                         int(rule.params["max_length"]))
