"""Tools pass: keyword values JSON Schema draft 2020-12's meta-schema refuses, in a tool's
parameters schema."""

from __future__ import annotations

from normalizer.meta_schema import Respelled, invalid_keywords, respell
from normalizer.model import Change
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import Path, fix_at_paths, fix_rule_schemas, schema_where
from normalizer.profiles import Profile
from normalizer.schema_walk import dotted

RULE = "schema-keyword-invalid"


def respell_invalid_keywords(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes keyword values the 2020-12 meta-schema refuses in a tool's parameters (rule
    schema-keyword-invalid, normalizer.meta_schema): an older draft's spelling becomes
    2020-12's, meaning the same (lossless: a boolean exclusiveMinimum beside minimum, a
    property's `required: true`, a tuple's `items` list, a type name in capitals or from
    another language); a value that says nothing 2020-12 can say is dropped and the change
    names it (lossy: a negative maxLength, an unknown type name).

    Rejected by: Anthropic "tools.17.custom.input_schema: JSON schema is invalid. It must
    match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). ..."
    (anthropics/claude-code#86664; for a boolean exclusiveMinimum, Dokploy/mcp#74); OpenAI
    "Invalid schema for function 'query-graphql': 'any' is not valid under any of the given
    schemas." (blurrah/mcp-graphql#14), whose validator takes a tuple's `items` list
    (params.dialect draft-7: such a list is kept, its entries made schemas).

    Before: {"ttl": {"type": "integer", "exclusiveMinimum": true, "minimum": 0}}
    After:  {"ttl": {"type": "integer", "exclusiveMinimum": 0}}
    """
    dialect = str(profile.param(RULE, "dialect") or "2020-12")  # draft-7: OpenAI's validator
    return fix_rule_schemas(draft, profile, RULE, fix_at_paths(
        lambda schema: invalid_keywords(schema, dialect=dialect),
        lambda schema, places: respell(schema, places, dialect=dialect), _said))


def _said(tool: str, place: Path, done: Respelled) -> Change:
    return Change("respell_invalid_keywords",
                  "respell-schema-keyword" if done.lossless else "drop-schema-keyword",
                  f"tool {tool!r}: at {dotted(place[:-1])}, {done.how} (the target's JSON "
                  "Schema check refuses the value)", schema_where(tool, place), done.lossless)
