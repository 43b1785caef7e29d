"""OpenAI strict mode: a function declared with `strict: true`, and a response format
(json_schema) with `strict: true`, must have a closed schema.

The requirement itself is walked in normalizer/strict_mode (shared with the repair); this
module turns each object that breaks it into a finding, top first, with the vendor's
`context` (the path of schema keys to the object, as a Python tuple) and its texts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.output_format import schema_fields
from normalizer.profiles import Rule
from normalizer.strict_mode import open_objects


def strict_schema_findings(schema: Any, name: str, location: str, rule: Rule,
                           index: int) -> Iterator[Finding]:
    """One finding per object of `schema` that strict mode rejects; the requirement text
    (vendor-verbatim, from `params.texts`) names which requirement and which key."""
    texts: Mapping[str, str] = rule.params.get("texts") or {}
    for found in open_objects(schema):
        path = found.path
        if found.requirement == "additional_properties":
            problem = texts.get("additional_properties", "additionalProperties")
        else:
            problem = texts.get("required", "required {key}").format(key=found.key)
        yield Finding(location=f"{location}.{'.'.join(path)}" if path else location,
                      fields={"index": index, "name": name, "context": repr(path),
                              "requirement": problem})


def chat_strict_response_schema(body: Mapping[str, Any], rule: Rule,
                                model: str | None) -> Iterator[Finding]:
    """Chat: `response_format` json_schema with `strict: true` whose schema is not closed
    (OpenAI: "Invalid schema for response_format 'default': In context=(), ...")."""
    return _strict_response(body, "openai_chat", rule)


def responses_strict_response_schema(body: Mapping[str, Any], rule: Rule,
                                     model: str | None) -> Iterator[Finding]:
    """Responses: `text.format` json_schema with `strict: true` whose schema is not closed
    (the same text, param text.format.schema)."""
    return _strict_response(body, "openai_responses", rule)


def _strict_response(body: Mapping[str, Any], protocol: str, rule: Rule) -> Iterator[Finding]:
    found = schema_fields(body, protocol) if isinstance(body, Mapping) else None
    if found is not None and found[1].get("strict") is True:
        path, fields = found
        yield from strict_schema_findings(fields.get("schema"), str(fields.get("name", "")),
                                          ".".join((*path, "schema")), rule, 0)
