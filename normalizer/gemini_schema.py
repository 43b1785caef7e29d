"""JSON Schema (as MCP tools declare it) -> the OpenAPI 3.0 subset that Gemini function
declarations accept in `parameters`.

Google documents `parameters` as "a select subset of an OpenAPI 3.0 schema object"
(https://ai.google.dev/api/caching#Schema): type, format, title, description, nullable,
enum (strings), items, min/maxItems, properties, required, min/maxProperties,
min/maxLength, pattern, example, anyOf, propertyOrdering, default, minimum, maximum.
Everything else is converted where a faithful equivalent exists and dropped otherwise;
every step is reported as a Change (lossless when the meaning is kept).
Peers do the same: LiteLLM `build_vertex_schema`, langchain-google `_function_utils.py`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.model import Change
from normalizer.ref_targets import hoisted, names_one_def

ALLOWED = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "items", "minItems",
    "maxItems", "properties", "required", "minProperties", "maxProperties", "minLength",
    "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default", "minimum",
    "maximum",
})
# Bounded inlining of recursive $refs: past this depth a reference becomes a plain object.
MAX_REF_DEPTH = 3
PASS = "gemini_schema"


def convert(
    schema: Mapping[str, Any], where: str = "schema"
) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """Convert one tool's parameter schema; returns the new schema and the changes made."""
    changes: list[Change] = []
    # Definitions are looked up by name: a pointer anywhere else (zod's `#/properties/a`
    # for a schema used twice, a place inside a def) is first given one.
    given = schema
    schema, moved = hoisted(schema, outside=_not_by_name)
    defs = {**(schema.get("definitions") or {}), **(schema.get("$defs") or {})}
    if moved and "$defs" not in given:  # made here only to be read: not a keyword dropped
        schema = {k: v for k, v in schema.items() if k != "$defs"}
    out = _node(copy.deepcopy(dict(schema)), defs, where, changes, depth=0)
    if moved:  # the changes name each reference as the caller wrote it
        shown = {repr("#/$defs/" + name): repr(ref) for ref, name in moved.items()}
        changes = [replace(c, what=_shown(c.what, shown)) for c in changes]
    return out, tuple(changes)


def _not_by_name(ref: Any) -> bool:
    """A local pointer that is not to one definition by name."""
    return isinstance(ref, str) and ref.startswith("#/") and not names_one_def(ref) \
        and not (ref.startswith("#/definitions/") and ref.count("/") == 2)


def _shown(what: str, shown: Mapping[str, str]) -> str:
    for new, old in shown.items():
        what = what.replace(new, old)
    return what


def _change(changes: list[Change], code: str, what: str, where: str, lossless: bool) -> None:
    changes.append(Change(pass_name=PASS, code=code, what=what, where=where, lossless=lossless))


def _node(node: Any, defs: Mapping[str, Any], where: str, changes: list[Change],
          depth: int) -> Any:
    if not isinstance(node, dict):
        return node
    node = _resolve_ref(node, defs, where, changes, depth)
    node = _flatten_combinators(node, where, changes)
    node = _null_union(node, where, changes)
    node = _type_list(node, where, changes)
    node = _const_and_enum(node, where, changes)
    node = _drop_unsupported(node, where, changes)
    return _children(node, defs, where, changes, depth)


def _resolve_ref(node: dict[str, Any], defs: Mapping[str, Any], where: str,
                 changes: list[Change], depth: int) -> dict[str, Any]:
    ref = node.get("$ref")
    if not isinstance(ref, str):
        return node
    name = ref.rsplit("/", 1)[-1]
    rest = {k: v for k, v in node.items() if k != "$ref"}
    if name not in defs:
        _change(changes, "schema-drop-unresolved-ref",
                f"dropped $ref {ref!r} (no such definition)", where, lossless=False)
        return {"type": "object", **rest}
    if depth >= MAX_REF_DEPTH:
        _change(changes, "schema-cut-recursive-ref",
                f"recursive $ref {ref!r} cut to a plain object after {MAX_REF_DEPTH} levels",
                where, lossless=False)
        return {"type": "object", **rest}
    _change(changes, "schema-inline-ref", f"inlined $ref {ref!r}", where, lossless=True)
    target = copy.deepcopy(dict(defs[name]))
    resolved = _resolve_ref(target, defs, where, changes, depth + 1)
    return {**resolved, **rest, "__ref_depth": depth + 1}


def _flatten_combinators(
    node: dict[str, Any], where: str, changes: list[Change]
) -> dict[str, Any]:
    if "oneOf" in node:
        node = {**{k: v for k, v in node.items() if k != "oneOf"}, "anyOf": node["oneOf"]}
        _change(changes, "schema-oneof-to-anyof", "oneOf turned into anyOf (exclusivity lost)",
                where, lossless=False)
    all_of = node.get("allOf")
    if isinstance(all_of, list):
        merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
        for part in all_of:
            if isinstance(part, dict):
                props = {**merged.get("properties", {}), **part.get("properties", {})}
                required = [*merged.get("required", []), *part.get("required", [])]
                merged = {**part, **merged}
                if props:
                    merged["properties"] = props
                if required:
                    merged["required"] = list(dict.fromkeys(required))
        _change(changes, "schema-merge-allof", "allOf merged into one schema", where,
                lossless=len(all_of) <= 1)
        node = merged
    return node


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "null"


def _null_union(node: dict[str, Any], where: str, changes: list[Change]) -> dict[str, Any]:
    options = node.get("anyOf")
    if not isinstance(options, list) or not any(_is_null(o) for o in options):
        return node
    rest = [o for o in options if not _is_null(o)]
    base = {k: v for k, v in node.items() if k != "anyOf"}
    base["nullable"] = True
    _change(changes, "schema-anyof-null-to-nullable", "anyOf with null turned into nullable",
            where, lossless=True)
    if len(rest) == 1 and isinstance(rest[0], dict):
        return {**rest[0], **base}
    return {**base, "anyOf": rest}


def _type_list(node: dict[str, Any], where: str, changes: list[Change]) -> dict[str, Any]:
    kind = node.get("type")
    if not isinstance(kind, list):
        return node
    kinds = [k for k in kind if k != "null"]
    out = {k: v for k, v in node.items() if k != "type"}
    if "null" in kind:
        out["nullable"] = True
    if len(kinds) == 1:
        out["type"] = kinds[0]
        _change(changes, "schema-type-list", f"type {kind} written as a single type", where,
                lossless=True)
    else:
        out["anyOf"] = [{"type": k} for k in kinds]
        _change(changes, "schema-type-list", f"type {kind} written as anyOf", where, lossless=True)
    return out


def _const_and_enum(node: dict[str, Any], where: str, changes: list[Change]) -> dict[str, Any]:
    if "const" in node:
        node = {**{k: v for k, v in node.items() if k != "const"}, "enum": [node["const"]]}
        _change(changes, "schema-const-to-enum", "const turned into a one-value enum", where,
                lossless=True)
    enum = node.get("enum")
    if isinstance(enum, list) and not all(isinstance(v, str) for v in enum):
        strings = [v if isinstance(v, str) else json.dumps(v) for v in enum]
        node = {**node, "enum": strings, "type": "string"}
        _change(changes, "schema-enum-to-strings",
                "non-string enum values written as strings (type string; the caller must "
                "convert the model's answer back)", where, lossless=False)
    if isinstance(node.get("enum"), list) and "type" not in node:
        node = {**node, "type": "string"}
        _change(changes, "schema-enum-type", "type string added to an untyped enum", where,
                lossless=True)
    elif isinstance(node.get("enum"), list) and isinstance(node.get("type"), str) and \
            node["type"].lower() != "string":
        # Gemini takes an enum on a string only ("...enum: only allowed for STRING type").
        kind = node["type"]
        node = {**node, "type": "STRING" if kind.isupper() else "string"}  # in its case
        _change(changes, "schema-enum-type", f"type {kind} of an enum of strings written as "
                "string (the caller must convert the model's answer back)", where,
                lossless=False)
    return node


def _drop_unsupported(node: dict[str, Any], where: str, changes: list[Change]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ALLOWED or key == "__ref_depth":
            out[key] = value
            continue
        lossless = key in {"$schema", "$id", "$comment", "$defs", "definitions", "examples"}
        _change(changes, f"schema-drop-{key.lstrip('$').lower()}",
                f"dropped unsupported keyword {key!r}", where, lossless=lossless)
        if key == "examples" and isinstance(value, list) and value and "example" not in node:
            out["example"] = value[0]
    return out


def _children(node: dict[str, Any], defs: Mapping[str, Any], where: str, changes: list[Change],
              depth: int) -> dict[str, Any]:
    depth = node.pop("__ref_depth", depth)
    if isinstance(node.get("properties"), dict):
        node["properties"] = {name: _node(sub, defs, f"{where}.properties.{name}", changes, depth)
                              for name, sub in node["properties"].items()}
    if isinstance(node.get("items"), dict):
        node["items"] = _node(node["items"], defs, f"{where}.items", changes, depth)
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [_node(sub, defs, f"{where}.anyOf[{i}]", changes, depth)
                         for i, sub in enumerate(node["anyOf"])]
    return node
