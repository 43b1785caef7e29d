"""Tools pass: a `type` beside a `$ref` in a tool's parameters schema."""

from __future__ import annotations

from normalizer.model import Change
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import (
    fix_at_paths,
    fix_rule_schemas,
    schema_where,
)
from normalizer.profiles import Profile
from normalizer.ref_siblings import inlined, type_beside_ref
from normalizer.schema_walk import dotted

RULE = "schema-type-beside-ref"


def inline_typed_refs(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a subschema of a tool's parameters with `type` beside a `$ref` (rule
    schema-type-beside-ref): the schema the reference names (in the tool's own `$defs`) is
    copied in its place, the node's own keywords beside it. Lossless where the node and
    the target agree on every keyword both give (the change says where they did not: the
    node's is kept); a reference to another document is left for the check to name.

    Rejected by: Moonshot "tools.function.parameters is not a valid moonshot flavored json
    schema, details: <At path '$defs.__schema20': when using $ref, type should be defined
    in the referenced schema instead of the parent schema>" (farion1231/cc-switch#6614).

    Before: {"id": {"type": "string", "format": "uuid", "$ref": "#/$defs/__schema2"}}
    After:  {"id": {"type": "string", "minLength": 1, "format": "uuid"}}
            (with $defs.__schema2 = {"type": "string", "minLength": 1})
    """
    return fix_rule_schemas(draft, profile, RULE, fix_at_paths(type_beside_ref, inlined, _inlined))


def _inlined(tool: str, path: tuple[str | int, ...], exact: bool) -> Change:
    what = (f"tool {tool!r}: copied the schema the $ref at {dotted(path)} names in its "
            "place (the target refuses a type beside a $ref)")
    if not exact:
        what += ("; the node and the referenced schema gave a keyword differently, and the "
                 "node's was kept, so the schema admits more than it did")
    return Change("inline_typed_refs", "inline-typed-ref", what,
                  schema_where(tool, path), exact)
