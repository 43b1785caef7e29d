"""A `type` beside an `anyOf` in a tool's parameters schema, moved into the branches.

`{"type": "array", "anyOf": [{"items": ...}, {"type": "null"}]}` is valid JSON Schema (the
type holds as well as one of the branches) and the way many tools write a nullable or
"one of these shapes" field; Moonshot's schema validator wants the type inside each branch
("when using anyOf, type should be defined in anyOf items instead of the parent schema").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.schema_walk import Path, names_type, node_at, replaced, schema_nodes

# An object parent's keywords that describe the object each branch must also be: a branch
# given the type alone would name `required` fields it has no `properties` for, which the
# same validator refuses (llm-for-zotero#420, felinics/twilight#28).
_OBJECT_BUNDLE = ("properties", "required", "additionalProperties")


def type_beside_anyof(schema: Any) -> Iterator[Path]:
    """The path of every subschema of `schema` (plain JSON) with both `type` and an `anyOf`
    list, in document order (parents first); `()` is the root."""
    for node, path in schema_nodes(schema):
        if "type" in node and isinstance(node.get("anyOf"), list):
            yield path


def distributed(schema: Any, paths: list[Path]) -> tuple[Any, list[bool]]:
    """A copy of `schema` with the `type` at each of `paths` (from `type_beside_anyof`, not
    the root) moved into the anyOf branches that have none or the same one; for an object
    type the object's properties, required and additionalProperties go with it. A branch
    with a type of its own, a `$ref` or an `anyOf` keeps what it has (the type cannot go
    beside those either): the schema then admits that branch where the type had excluded
    it. Children are done before their parents, so that the paths stay valid. Returns the
    copy and, per path in the order given, whether it admits exactly what it did."""
    exact: dict[Path, bool] = {}
    for path in sorted(paths, key=len, reverse=True):
        node = node_at(schema, path)
        new, exact[path] = _distributed_node(node)
        schema = replaced(schema, path, new)
    return schema, [exact[p] for p in paths]


def _distributed_node(node: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    kind = node["type"]
    moved = ("type", *_OBJECT_BUNDLE) if names_type(kind, "object") else ("type",)
    bundle = {k: node[k] for k in moved if k in node}
    branches: list[Any] = []
    exact = True
    for branch in node["anyOf"]:
        if not isinstance(branch, Mapping) or "$ref" in branch or "anyOf" in branch or \
                branch.get("type", kind) != kind:
            branches.append(branch)
            exact = False
            continue
        merged = _with_bundle(branch, bundle)
        exact = exact and _keeps_both(branch, bundle)
        branches.append(merged)
    rest = {k: v for k, v in node.items() if k not in moved}
    return {**rest, "anyOf": branches}, exact


def _keeps_both(branch: Mapping[str, Any], bundle: Mapping[str, Any]) -> bool:
    """Whether merging kept every form: no property or additionalProperties that the branch
    and the parent both give, differently (the branch's is kept)."""
    mine, theirs = branch.get("properties"), bundle.get("properties")
    if isinstance(mine, Mapping) and isinstance(theirs, Mapping) and any(
            name in theirs and theirs[name] != form for name, form in mine.items()):
        return False
    return not ("additionalProperties" in branch and "additionalProperties" in bundle
                and branch["additionalProperties"] != bundle["additionalProperties"])


def _with_bundle(branch: Mapping[str, Any], bundle: Mapping[str, Any]) -> dict[str, Any]:
    """`branch` that is also what `bundle` (the parent's type and object keywords) says:
    properties merged (the branch's own form of a property kept), required joined."""
    out = {**bundle, **branch}
    if "properties" in bundle and isinstance(branch.get("properties"), Mapping):
        out["properties"] = {**bundle["properties"], **branch["properties"]}
    if isinstance(bundle.get("required"), list) and isinstance(branch.get("required"), list):
        out["required"] = list(dict.fromkeys([*bundle["required"], *branch["required"]]))
    return out
