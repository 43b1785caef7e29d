"""Options pass: OpenAI's `strict` flag on a json_schema response format whose schema strict
mode refuses (rule strict-response-schema).

As for strict functions (passes/strict_tools.py), the flag goes and the schema stays:
closing the schema instead would make the reply's optional fields required, a change to
what the caller asked for.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, JsonMap, thaw
from normalizer.output_format import schema_fields
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.strict_mode import open_objects


def drop_strict_from_open_response_schema(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a json_schema response format declared `strict: true` whose schema is not
    closed (rule strict-response-schema): `strict` is removed, the schema kept.

    Rejected by: OpenAI "Invalid schema for response_format 'default': In context=(),
    'additionalProperties' is required to be supplied and to be false."
    (dottxt-ai/outlines#844; Responses: mavam/pi-web-providers#14).

    Before: response_format {type: json_schema, json_schema: {name: skill, strict: true,
            schema: {type: object, properties: {name: …}}}}
    After:  the same without strict
    Lossy: the reply is no longer guaranteed to match the schema.
    """
    if not profile.enforces("strict-response-schema"):
        return draft, ()
    located = schema_fields(draft.options, profile.protocol)
    if located is None or located[1].get("strict") is not True:
        return draft, ()
    path, fields = located
    found = next(open_objects(fields.get("schema")), None)
    if found is None:
        return draft, ()
    options = thaw(draft.options)
    held = schema_fields(options, profile.protocol)
    assert held is not None and isinstance(held[1], dict)  # thawed: the same fields, a dict
    del held[1]["strict"]
    where = ".".join(found.path) or "the top level"
    change = Change("drop_strict_from_open_response_schema", "drop-response-format-strict",
                    f"removed strict from response schema {str(fields.get('name', ''))!r}: "
                    f"it is not closed at {where} ({found.why}); the schema is kept as written",
                    ".".join((*path, "strict")), lossless=False)
    return replace(draft, options=JsonMap(options)), (change,)

