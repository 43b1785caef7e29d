"""Tools pass: a `type` beside an `anyOf` in a tool's parameters schema."""

from __future__ import annotations

from typing import Any

from normalizer.anyof_type import distributed, type_beside_anyof
from normalizer.model import Change, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import fix_rule_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.root_union import flattened
from normalizer.schema_walk import dotted

RULE = "schema-type-beside-anyof"


def move_type_into_anyof(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a subschema of a tool's parameters with `type` beside `anyOf` (rule
    schema-type-beside-anyof): the type (for an object, with its properties, required and
    additionalProperties) moves into the branches (`normalizer.anyof_type.distributed`).
    Lossless where every branch could take it; a branch with a type of its own, a `$ref`
    or an anyOf keeps what it has (and a branch's own form of a property wins over the
    parent's), and the change says the schema now admits more. At the
    root the type must stay object (a root without it is refused too), so a root anyOf,
    typed or not, is merged into one object instead (`normalizer.root_union.flattened`,
    lossy, what was given up named).

    Rejected by: Moonshot "Invalid request: tools.function.parameters is not a valid
    moonshot flavored json schema, details: <At path 'properties.tasks_attributes.items':
    when using anyOf, type should be defined in anyOf items instead of the parent
    schema>" (openclaw/openclaw#113130).

    Before: {"options": {"type": "array", "anyOf": [{"items": {"type": "string"}},
                                                    {"type": "null"}]}}
    After:  {"options": {"anyOf": [{"type": "array", "items": {"type": "string"}},
                                   {"type": "null"}]}}
    """
    def move(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        if not isinstance(schema, dict):
            return schema, []
        paths = [p for p in type_beside_anyof(schema) if p]
        fixed, exact = distributed(schema, paths)
        made = [_moved(tool.name, path, same) for path, same in zip(paths, exact, strict=True)]
        root = flattened(fixed, ("anyOf",))
        if root is not None:
            fixed, report = root
            made.append(Change("move_type_into_anyof", "flatten-top-level-union",
                               report.said(tool.name, "the target wants the root typed "
                                           "object and no type beside an anyOf"),
                               f"tools.{tool.name}", False))
        return fixed, made

    return fix_rule_schemas(draft, profile, RULE, move)


def _moved(tool: str, path: tuple[str | int, ...], exact: bool) -> Change:
    where = dotted(path)
    what = (f"tool {tool!r}: moved the type beside the anyOf at {where} into its branches "
            "(the target wants it there)")
    if not exact:
        what += ("; not exactly: a branch with a type, $ref or anyOf of its own kept it, or "
                 "kept its own form of a property or additionalProperties the parent gave "
                 "too, so the schema now admits more than it did")
    return Change("move_type_into_anyof", "move-type-into-anyof", what,
                  schema_where(tool, path), exact)
