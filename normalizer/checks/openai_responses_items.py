"""Detectors for Responses `input` item ids and strict function schemas."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Detector, Finding
from normalizer.checks.openai_responses_walk import items
from normalizer.checks.strict_schema import strict_schema_findings
from normalizer.profiles import Rule


def _unissued_ids(kind: str, prefix: str, doc: str) -> Detector:
    """A detector of `kind` items whose `id` params.pattern (default `prefix`) does not find."""
    def detect(body: Mapping[str, Any], rule: Rule, model: str | None) -> Iterator[Finding]:
        pattern = re.compile(str(rule.params.get("pattern") or prefix))
        for i, item, found, _ in items(body):
            item_id = item.get("id") if found == kind else None
            if isinstance(item_id, str) and not pattern.search(item_id):
                yield Finding(location=f"input[{i}].id", fields={"index": i, "id": item_id})

    detect.__doc__ = doc
    return detect


reasoning_item_id_invalid = _unissued_ids(
    "reasoning", "^rs", "A reasoning item whose `id` does not match params.pattern (default "
    "`^rs`): an id a client made up (`reasoning_15`, `item_…`) instead of one the vendor "
    "issued.")
call_item_id_invalid = _unissued_ids(
    "function_call", "^fc", "A function_call item whose `id` does not match params.pattern "
    "(default `^fc`): the call id written in its place (`call_…`), or a gateway's own id "
    "(`item_…`).")


_CHECKED = {"calls": ("function_call", "custom_tool_call"),
            "results": ("function_call_output", "custom_tool_call_output")}


def call_id_too_long(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """`tool-call-id-too-long`: a call's or an output's `call_id` (per params.check, default
    both) longer than params.max_length. OpenAI checks the field, whichever item holds it."""
    limit = int(rule.params["max_length"])
    kinds = {k for part in (rule.params.get("check") or ("calls", "results"))
             for k in _CHECKED.get(str(part), ())}
    for i, _, kind, found in items(body):
        if found is not None and len(found) > limit and kind in kinds:
            path = f"input[{i}].call_id"
            yield Finding(location=path, fields={"index": i, "id": found, "param": path,
                                                 "length": len(found), "max_length": limit})


def item_id_too_long(body: Mapping[str, Any], rule: Rule,
                     model: str | None) -> Iterator[Finding]:
    """`item-id-too-long`: an input item whose `id` is longer than params.max_length."""
    limit = int(rule.params["max_length"])
    for i, item, _, _ in items(body):
        found = item.get("id")
        if isinstance(found, str) and len(found) > limit:
            path = f"input[{i}].id"
            yield Finding(location=path, fields={"index": i, "id": found, "param": path,
                                                 "length": len(found), "max_length": limit})


def item_field_null(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """`item-field-null`: an input item of a type params.fields names, one of whose listed
    fields is present and null (Codex replays a reasoning item's `content: null`)."""
    fields = rule.params.get("fields") or {}
    for i, item, _, _ in items(body):
        named = fields.get(item.get("type"))
        for name in named or ():
            if name in item and item[name] is None:
                path = f"input[{i}].{name}"
                yield Finding(location=path, fields={"index": i, "field": name, "param": path})


def strict_tool_schema(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """Function tools declared `strict: true` whose parameters schema is not closed."""
    tools = body.get("tools")
    if not isinstance(tools, list):
        return
    for k, decl in enumerate(tools):
        if not isinstance(decl, Mapping) or decl.get("strict") is not True \
                or decl.get("type", "function") != "function":
            continue
        yield from strict_schema_findings(decl.get("parameters"), str(decl.get("name", "")),
                                          f"tools[{k}].parameters", rule, k)
