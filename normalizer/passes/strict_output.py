"""Options pass: OpenAI's `strict` flag on a json_schema response format whose schema strict
mode refuses (rule strict-response-schema).

As for strict functions (passes/strict_tools.py), the flag goes and the schema stays:
closing the schema instead would make the reply's optional fields required, a change to
what the caller asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.strict_mode import open_objects

# Where each protocol keeps the json_schema fields (`strict`, `schema`, `name`).
_FIELDS: dict[str, tuple[str, ...]] = {"openai_chat": ("response_format", "json_schema"),
                                       "openai_responses": ("text", "format")}


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
    path = _FIELDS.get(profile.protocol)
    if path is None or not profile.enforces("strict-response-schema"):
        return draft, ()
    fields = _at(draft.options, path)
    if fields is None or fields.get("strict") is not True:
        return draft, ()
    found = next(open_objects(fields.get("schema")), None)
    if found is None:
        return draft, ()
    options = thaw(draft.options)
    held = _at(options, path)
    assert isinstance(held, dict)  # thawed: the same path holds a dict now
    del held["strict"]
    where = ".".join(found.path) or "the top level"
    why = ("additionalProperties is not false" if found.requirement == "additional_properties"
           else f"property {found.key!r} is not in required")
    change = Change("drop_strict_from_open_response_schema", "drop-response-format-strict",
                    f"removed strict from response schema {str(fields.get('name', ''))!r}: "
                    f"it is not closed at {where} ({why}); the schema is kept as written",
                    ".".join((*path, "strict")), lossless=False)
    return replace(draft, options=JsonMap(options)), (change,)


def _at(options: Mapping[str, Any], path: tuple[str, ...]) -> Mapping[str, Any] | None:
    value: Any = options
    for key in path:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value if isinstance(value, Mapping) else None
