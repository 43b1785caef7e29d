"""Options pass: an Anthropic output schema with objects left open (rule
output-schema-open-object)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, thaw
from normalizer.output_format import schema_fields
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.strict_mode import unclosed_objects


def close_output_schema_objects(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes an output schema whose objects do not set additionalProperties to false (rule
    output-schema-open-object): each such object gets `additionalProperties: false`, one
    change each.

    Rejected by: Anthropic "output_format.schema: For 'object' type, 'additionalProperties'
    must be explicitly set to false" (ax-llm/ax#458). OpenAI's non-strict json_schema and
    Gemini take such a schema, so a format converted from them arrives open.

    Before: output_config.format.schema {type: object, properties: {name: …}}
    After:  {type: object, properties: {name: …}, additionalProperties: false}
    Lossless for an object that declares its properties and says nothing of others: the
    reply still holds every property declared, and only those. Lossy where the object
    allowed more (additionalProperties true or a schema) or declares no property at all
    (a free-form object, which can then hold nothing): the change says which.
    Dropping the format instead would lose the whole schema; this keeps all but that.
    """
    if not profile.enforces("output-schema-open-object"):
        return draft, ()
    found = schema_fields(draft.options, profile.protocol)
    if found is None or next(unclosed_objects(found[1].get("schema")), None) is None:
        return draft, ()
    options = thaw(draft.options)
    held = schema_fields(options, profile.protocol)
    assert held is not None  # thawed: the same place holds the same format, as dicts
    field, fields = held
    changes = [_close(node, ".".join((*field, "schema", *path)))
               for path, node in list(unclosed_objects(fields.get("schema")))]
    return replace(draft, options=JsonMap(options)), tuple(changes)


def _close(node: Any, where: str) -> Change:
    """Close `node` (a thawed dict) and say what that took from it."""
    had, before = "additionalProperties" in node, node.get("additionalProperties")
    declared = isinstance(node.get("properties"), Mapping) and bool(node["properties"])
    node["additionalProperties"] = False
    if had:
        what = (f"set additionalProperties false (was {before!r}): the reply may no longer "
                "hold keys the object does not declare")
        lossless = False
    elif not declared:
        what = ("set additionalProperties false on an object that declares no property: "
                "it can now only be empty")
        lossless = False
    else:
        what = "set additionalProperties false: the object's declared properties are all kept"
        lossless = True
    return Change("close_output_schema_objects", "close-output-schema-object", what, where,
                  lossless)
