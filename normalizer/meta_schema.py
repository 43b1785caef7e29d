"""Keyword values JSON Schema draft 2020-12's meta-schema refuses, and a 2020-12 spelling.

Older drafts wrote some constraints otherwise, and generators still do: draft 4's boolean
`exclusiveMinimum` beside `minimum` (Dokploy/mcp#74: `{"type": "integer",
"exclusiveMinimum": true, "minimum": 0}` from an OpenAPI conversion), draft 3's
`required: true` on a property, draft 4-7's tuple `items` list; and some write type names
no draft has (`"any"`: OpenAI named it refusing tools Anthropic refused as invalid in
blurrah/mcp-graphql#14, where the schema itself is not shown). Anthropic checks each tool's
input_schema against the 2020-12 meta-schema and refuses the whole request for one such
value ("JSON schema is invalid. It must match JSON Schema draft 2020-12").

What is checked is the meta-schema's demand on each keyword's value where the keyword
sits in a schema (its type; counts not negative; a list of schemas not empty), from the
2020-12 core, applicator, validation, meta-data and content vocabularies. Formats (`$ref`
as a URI reference, `pattern` as a regex) are annotations there, not checked; so are the
anchors' name patterns. A keyword the meta-schema does not know is not checked: 2020-12
allows any.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from normalizer.property_schemas import TYPE_NAMES
from normalizer.schema_walk import Path, node_at, replaced, schema_nodes
from normalizer.tuple_items import respelled as respelled_items


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _count(value: Any) -> bool:
    """A non-negative integer; 2.0 is one (JSON Schema's integer is a number without a
    fraction)."""
    return _number(value) and value >= 0 and float(value).is_integer()


def _schema(value: Any) -> bool:
    return isinstance(value, Mapping | bool)


def _schemas_by_name(value: Any) -> bool:
    return isinstance(value, Mapping) and all(map(_schema, value.values()))


def _schema_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(map(_schema, value))


def _strings(value: Any) -> bool:
    """The meta-schema's stringArray: strings, each once (empty allowed)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and \
        len(set(value)) == len(value)


def _type(value: Any) -> bool:
    """One of the seven type names, or a non-empty list of them, each once (lower-case:
    the meta-schema's enum is case-sensitive)."""
    if isinstance(value, str):
        return value in TYPE_NAMES
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, str) and v in TYPE_NAMES for v in value) and len(set(value)) == len(value)


def _list(value: Any) -> bool:
    return isinstance(value, list)


def _bool(value: Any) -> bool:
    return isinstance(value, bool)


def _string(value: Any) -> bool:
    return isinstance(value, str)


# The keywords whose value is one schema, schemas by name, and a list of schemas.
_ONE = ("items", "contains", "additionalProperties", "propertyNames", "if", "then", "else",
        "not", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
_BY_NAME = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")


def _as_schema(value: Any) -> Any:
    """`value` where it is a schema; a bare type name as the schema of that type (what its
    writer meant: `{"x": "number"}`, anthropics/anthropic-sdk-java#241); anything else as
    `{}` (any value)."""
    if _schema(value):
        return value
    return {"type": value} if value in TYPE_NAMES else {}


# What the meta-schema demands of each keyword it knows, by keyword (the value any JSON
# value for const, default and the rest it leaves open).
DEMANDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "type": (_type, "one of the seven type names, or a list of them"),
    "required": (_strings, "a list of property names, each once"),
    "enum": (_list, "a list"),
    "examples": (_list, "a list"),
    "multipleOf": (lambda v: _number(v) and v > 0, "a number above 0"),
    **{k: (_number, "a number") for k in ("maximum", "minimum", "exclusiveMaximum",
                                           "exclusiveMinimum")},
    **{k: (_count, "a non-negative integer") for k in (
        "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains",
        "maxProperties", "minProperties")},
    **{k: (_bool, "a boolean") for k in ("uniqueItems", "deprecated", "readOnly",
                                         "writeOnly")},
    **{k: (_string, "a string") for k in (
        "title", "description", "pattern", "format", "$ref", "$id", "$schema", "$anchor",
        "$dynamicRef", "$dynamicAnchor", "$comment", "contentEncoding",
        "contentMediaType")},
    **{k: (_schema, "a schema (an object or a boolean)") for k in _ONE},
    **{k: (_schemas_by_name, "an object of schemas") for k in _BY_NAME},
    **{k: (_schema_list, "a non-empty list of schemas") for k in _LISTS},
    "dependentRequired": (lambda v: isinstance(v, Mapping) and all(map(_strings, v.values())),
                          "an object of property-name lists"),
}


def _type_any_case(value: Any) -> bool:
    if isinstance(value, str):
        return value.lower() in TYPE_NAMES
    return isinstance(value, list) and bool(value) and all(map(_type_any_case, value))


# Draft 7 as OpenAI's validator is read to apply it (it takes boolean schemas, so draft 6,
# 7 or 2019-09): a non-empty list of schemas as `items` (a tuple) is taken, prefixItems and
# the dynamic references are not keywords; and a type name in capitals (google-genai's
# OBJECT) is not judged, not having been seen refused (tests/test_passes_root_schema.py).
DRAFT_7: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{k: v for k, v in DEMANDS.items()
       if k not in ("prefixItems", "$dynamicRef", "$dynamicAnchor")},
    "type": (_type_any_case, DEMANDS["type"][1]),
    "items": (lambda v: _schema(v) or _schema_list(v), "a schema or a non-empty list of schemas")}
DIALECTS = {"2020-12": DEMANDS, "draft-7": DRAFT_7}


def invalid_keywords(schema: Any, *, dialect: str = "2020-12") -> Iterator[Path]:
    """The place (the subschema's path, then the keyword) of every keyword of a subschema
    of `schema` (plain JSON) whose value the meta-schema of `dialect` (DIALECTS) refuses,
    in document order."""
    demands = DIALECTS[dialect]
    for node, path in schema_nodes(schema):
        for key, value in node.items():
            demand = demands.get(key)
            if demand is not None and not demand[0](value):
                yield (*path, key)


@dataclass(frozen=True, slots=True)
class Respelled:
    """What was done to one keyword: `how` says it, `lossless` whether the schema still
    says the same (a draft's other spelling) or something was given up (a value dropped)."""

    how: str
    lossless: bool


def respell(schema: Any, places: list[Path], *,
            dialect: str = "2020-12") -> tuple[Any, list[Respelled | None]]:
    """A copy of `schema` with the keyword at each of `places` (from `invalid_keywords`,
    with the same `dialect`) made valid, and per place what was done (None where the
    keyword is gone or valid by then: a draft 4 bound read with its sibling). The deepest
    first, so that the paths above stay good."""
    demands = DIALECTS[dialect]
    done: dict[Path, Respelled | None] = {}
    for place in sorted(places, key=len, reverse=True):
        path, key = place[:-1], str(place[-1])
        node = node_at(schema, path)
        if key not in node or demands[key][0](node[key]):
            done[place] = None
        elif key == "required" and isinstance(node[key], bool) and len(path) >= 2 and \
                path[-2] == "properties":
            schema, done[place] = _required_flag(schema, path)
        else:
            new, done[place] = _respelled(node, key, tuple_items=dialect == "draft-7")
            schema = replaced(schema, path, _in_order(node, new))
    return schema, [done[place] for place in places]


def _in_order(node: Mapping[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """`new` with its keywords in `node`'s order (a respelled keyword keeps its place; the
    order of a body is part of what a prompt cache keys on), any new one after them."""
    out = {k: new[k] for k in node if k in new}
    out.update((k, v) for k, v in new.items() if k not in out)
    return out


def _required_flag(schema: Any, path: Path) -> tuple[Any, Respelled]:
    """Draft 3's `required: true|false` on a property: the name goes into the parent's
    `required` list (true), the flag away (either)."""
    name, parent_at = str(path[-1]), path[:-2]
    node = dict(node_at(schema, path))
    flag = node.pop("required")
    schema = replaced(schema, path, node)
    if not flag:
        return schema, Respelled("dropped required: false (draft 3: the property is "
                                 "optional, as it is without it)", True)
    parent = dict(node_at(schema, parent_at))
    names = parent.get("required")
    if isinstance(names, list):  # its own faults, if any, are reported for it
        parent["required"] = names if name in names else [*names, name]
    else:
        parent["required"] = [name]
    lost = "" if names is None or isinstance(names, list) else \
        f"; the parent's required was {_json(names)}, not a list"
    return replaced(schema, parent_at, parent), Respelled(
        f"moved required: true into the parent's required list as {name!r} (draft 3's "
        f"spelling){lost}", not lost)


Done = tuple[dict[str, Any], Respelled]


def _respelled(node: Mapping[str, Any], key: str, tuple_items: bool = False) -> Done:
    """`node` with `key`'s value made valid: the first respelling that knows the value's
    form (an older draft's, a bare type name, a count as text), else without the keyword.
    With `tuple_items` a tuple's list stays one, its entries made schemas."""
    new = dict(node)
    value = new.pop(key)
    if key == "type":
        return _typed(new, value)
    if key == "items" and isinstance(value, list) and tuple_items:
        if not value:
            return new, Respelled("dropped the empty items list (no element constrained)",
                                  True)
        new["items"] = [_as_schema(entry) for entry in value]
        return new, Respelled(f"wrote items' entries that are not schemas as schemas "
                              f"({_json(value)} -> {_json(new['items'])})",
                              all(_schema(e) or e in TYPE_NAMES for e in value))
    if key == "items" and isinstance(value, list):
        return _prefixed(respelled_items(node) or new)
    for respell_as in (_bound, _required_names, _subschemas, _count):
        done = respell_as(node, new, key, value)
        if done is not None:
            return done
    return new, Respelled(f"dropped {key}: {_json(value)} (must be {DEMANDS[key][1]})",
                          False)


def _bound(node: Mapping[str, Any], new: dict[str, Any], key: str, value: Any) -> Done | None:
    """Draft 4's boolean exclusiveMinimum/exclusiveMaximum, which qualified its sibling."""
    if key not in ("exclusiveMinimum", "exclusiveMaximum") or not isinstance(value, bool):
        return None
    bound = "minimum" if key == "exclusiveMinimum" else "maximum"
    if value and _number(node.get(bound)):
        new[key] = new.pop(bound)
        return new, Respelled(f"wrote {key}: true beside {bound} as {key}: "
                              f"{new[key]!r} (draft 4's spelling)", True)
    return new, Respelled(f"dropped {key}: {_json(value)} (draft 4: it qualifies "
                          f"{bound}, {'absent' if value else 'inclusive'} here)", True)


def _required_names(node: Mapping[str, Any], new: dict[str, Any], key: str,
                    value: Any) -> Done | None:
    """A `required` list with a name twice or an entry that is not a name."""
    if key != "required" or not isinstance(value, list):
        return None
    names = list(dict.fromkeys(v for v in value if isinstance(v, str)))
    if names:
        new[key] = names
    return new, Respelled(f"kept each property name of required once (it had "
                          f"{_json(value)})", all(isinstance(v, str) for v in value))


def _subschemas(node: Mapping[str, Any], new: dict[str, Any], key: str,
                value: Any) -> Done | None:
    """A keyword holding schemas, with entries that are not schemas (`{"x": "number"}`)."""
    if key in _BY_NAME and isinstance(value, Mapping):
        entries: list[Any] = list(value.values())
        new[key] = {name: _as_schema(sub) for name, sub in value.items()}
    elif key in _LISTS and isinstance(value, list) and value:
        entries = value
        new[key] = [_as_schema(sub) for sub in value]
    elif key in _ONE and value in TYPE_NAMES:
        entries = [value]
        new[key] = {"type": value}
    else:
        return None
    return new, Respelled(f"wrote {key}'s entries that are not schemas as schemas "
                          f"({_json(value)} -> {_json(new[key])})",
                          all(_schema(e) or e in TYPE_NAMES for e in entries))


def _count(node: Mapping[str, Any], new: dict[str, Any], key: str, value: Any) -> Done | None:
    """A count written as a string of digits."""
    if DEMANDS[key][1] != "a non-negative integer" or not isinstance(value, str) or \
            not value.isdigit():
        return None
    new[key] = int(value)
    return new, Respelled(f"wrote {key}: {value!r} as the number {int(value)}", True)


def _prefixed(node: dict[str, Any]) -> Done:
    """A tuple's list moved to `prefixItems`: an empty one says nothing (left out), an entry
    that is not a schema becomes `{}` (anything at that place; lossy)."""
    prefix = node.get("prefixItems")
    if not prefix:
        node.pop("prefixItems", None)
        return node, Respelled("dropped the empty items list (draft 7: no element "
                               "constrained)", True)
    if all(map(_schema, prefix)):
        return node, Respelled("wrote the tuple's items list as prefixItems (draft 7's "
                               "spelling)", True)
    node["prefixItems"] = [p if _schema(p) else {} for p in prefix]
    return node, Respelled("wrote the tuple's items list as prefixItems, each entry that "
                           "is not a schema as {}", False)


# Type names of other languages and drafts, with the JSON Schema name meaning the same
# (TypeScript's `unknown`, written by moonrepo/moon's MCP server: any value).
_ALIASES = {"any": None, "unknown": None, "int": "integer", "bool": "boolean", "float": "number",
            "double": "number", "str": "string", "dict": "object", "list": "array"}


def _typed(node: dict[str, Any], value: Any) -> Done:
    """A `type` the meta-schema refuses: names in another case lower-cased, the aliases
    above read as their JSON Schema name (`any`: no type at all), other values left out."""
    names = value if isinstance(value, list) else [value]
    kept: list[str] = []
    unknown: list[Any] = []
    anything = False
    for name in names:
        low = name.lower() if isinstance(name, str) else None
        if low in TYPE_NAMES:
            kept.append(low)
        elif low in _ALIASES:
            alias = _ALIASES[low]
            anything = anything or alias is None
            if alias is not None:
                kept.append(alias)
        else:
            unknown.append(name)
    kept = list(dict.fromkeys(kept))
    if anything or not kept:
        how = "dropped type (any value)" if anything and not unknown else \
            f"dropped type: {_json(value)}"
        return node, Respelled(how, not unknown)
    node["type"] = kept[0] if len(kept) == 1 and not isinstance(value, list) else kept
    return node, Respelled(f"wrote type: {_json(value)} as {_json(node['type'])}",
                           not unknown)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
