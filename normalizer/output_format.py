"""The structured-output option (plain text, JSON, or JSON matching a schema) carried from
one protocol to another, as `normalizer.options.convert` carries the other options.

Where each protocol keeps it (the vendors' API references):
- OpenAI Chat: `response_format` {"type": "text" | "json_object" | "json_schema",
  "json_schema": {"name", "description", "schema", "strict"}}; `name` is required.
- OpenAI Responses: `text.format`, the same with the json_schema fields beside `type`.
- Anthropic: `output_config.format` {"type": "json_schema", "schema"} (the GA field; the
  beta's top-level `output_format` is read too). No JSON mode without a schema, no name,
  description or strict flag: the output always matches the schema.
- Gemini: `generationConfig.responseMimeType` "application/json" (JSON) or "text/plain",
  with `responseJsonSchema` (JSON Schema; google-genai's GenerateContentConfig: "an
  alternative to response_schema that accepts JSON Schema ... response_mime_type is
  required") or the older `responseSchema` (read, never written). Decoding is constrained
  to the schema: there is no strict flag either.

Every field that does not reach the target is reported: lossless where the target keeps
what it meant (a name is a label; a strict flag where the target always constrains), lossy
otherwise (a description the model read; JSON mode where the target has none).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from normalizer.model import Change
from normalizer.strict_mode import is_closed

Path = tuple[str, ...]
Kind = Literal["text", "json", "schema"]
_GEN = "generationConfig"
_MIME = {"text": "text/plain", "json": "application/json", "schema": "application/json"}
# A name for Chat's and Responses' json_schema, which must have one, where the source gave
# none (Anthropic and Gemini name no schema). Ours, not a vendor's.
DEFAULT_NAME: Final = "response"

# Where each protocol keeps the option: every path `leftovers` must count as read.
PATHS: Final[dict[str, tuple[Path, ...]]] = {
    "openai_chat": (("response_format",),),
    "openai_responses": (("text", "format"),),
    "anthropic": (("output_config", "format"), ("output_format",)),
    "gemini": ((_GEN, "responseMimeType"), (_GEN, "responseJsonSchema"),
               (_GEN, "responseSchema")),
}


# Where each protocol keeps a json_schema format's own fields (name, schema, strict, ...):
# Chat one level below `response_format`; Anthropic in the format itself, the GA field
# first. Gemini keeps its schema beside the MIME type, with no fields of its own.
_SCHEMA_FIELDS: Final[dict[str, tuple[Path, ...]]] = {
    "openai_chat": (("response_format", "json_schema"),),
    "openai_responses": (("text", "format"),),
    "anthropic": PATHS["anthropic"],
}


def schema_fields(options: Mapping[str, Any], protocol: str
                  ) -> tuple[Path, Mapping[str, Any]] | None:
    """Where `options` (or a whole body) of `protocol` keeps the fields of a json_schema
    output format (the mapping holding `schema`, and `name` and `strict` where the
    protocol has them), and those fields; None where the request asks for no json_schema
    format (or for Gemini, whose schema has no such fields)."""
    for path in _SCHEMA_FIELDS.get(protocol, ()):
        typed: Any = options
        for key in path[:1] if protocol == "openai_chat" else path:
            typed = typed.get(key) if isinstance(typed, Mapping) else None
        if not isinstance(typed, Mapping) or typed.get("type") != "json_schema":
            continue
        fields = typed.get(path[-1]) if protocol == "openai_chat" else typed
        if isinstance(fields, Mapping):
            return path, fields
    return None


@dataclass(frozen=True, slots=True)
class OutputFormat:
    """The option in neutral form. `schema` is None for text and JSON mode (and for a Chat
    json_schema that gave none); `name`, `description` and `strict` as the source said;
    `constrained`: the source vendor constrains the reply to the schema with no flag for
    it (Anthropic, Gemini)."""

    kind: Kind
    schema: Any = None
    name: str | None = None
    description: str | None = None
    strict: bool | None = None
    constrained: bool = False


def convert_output_format(options: Mapping[str, Any], source: str, target: str
                          ) -> tuple[list[tuple[Path, Any]], list[Change]]:
    """The option of `options` (written for `source`) as (path, value) pairs for `target`,
    and a change for everything on the way: each field dropped or added, or the whole
    option where the target has no counterpart or the source's value is not one this
    module reads."""
    found = _read(options, source)
    if found is None:
        return [], []
    where = ".".join(PATHS[source][0])
    if isinstance(found, str):
        return [], [_change("drop-option", f"dropped request option {where!r}: {found}",
                            where, False)]
    return _write(found, target, where)


def _read(options: Mapping[str, Any], protocol: str) -> OutputFormat | str | None:
    """The neutral option; None where the request has none; a reason where the value is
    not one the vendor documents."""
    if protocol == "gemini":
        return _read_gemini(options.get(_GEN))
    if protocol == "anthropic":
        config = options.get("output_config")
        value = config.get("format") if isinstance(config, Mapping) else None
        value = value if value is not None else options.get("output_format")
        if value is None:
            return None
        if not isinstance(value, Mapping) or value.get("type") != "json_schema":
            return "not a json_schema output format"
        return OutputFormat("schema", value.get("schema"), constrained=True)
    if protocol == "openai_responses":
        text = options.get("text")
        value = text.get("format") if isinstance(text, Mapping) else None
        fields = value
    else:
        value = options.get("response_format")
        fields = value.get("json_schema") if isinstance(value, Mapping) else None
    if value is None:
        return None
    kind = value.get("type") if isinstance(value, Mapping) else None
    if kind in ("text", "json_object"):
        return OutputFormat("text" if kind == "text" else "json")
    if kind != "json_schema" or not isinstance(fields, Mapping):
        return f"type {kind!r} is not one of text, json_object, json_schema"
    strict = fields.get("strict")
    return OutputFormat("schema", fields.get("schema"), _text(fields.get("name")),
                        _text(fields.get("description")),
                        strict if isinstance(strict, bool) else None)


def _read_gemini(config: Any) -> OutputFormat | str | None:
    if not isinstance(config, Mapping):
        return None
    mime = config.get("responseMimeType")
    schema = config.get("responseJsonSchema", config.get("responseSchema"))
    if mime is None and schema is None:
        return None
    if mime == "text/plain" and schema is None:
        return OutputFormat("text")
    if mime != "application/json":
        return f"response MIME type {mime!r} has no counterpart"
    return (OutputFormat("schema", schema, constrained=True) if schema is not None
            else OutputFormat("json"))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _write(found: OutputFormat, target: str, where: str
           ) -> tuple[list[tuple[Path, Any]], list[Change]]:
    if target == "gemini":
        return _write_gemini(found, where)
    if target == "anthropic":
        return _write_anthropic(found, where)
    changes: list[Change] = []
    if found.kind != "schema":
        value: dict[str, Any] = {"type": "text" if found.kind == "text" else "json_object"}
    else:
        fields = _openai_schema_fields(found, where, changes)
        value = ({"type": "json_schema", **fields} if target == "openai_responses"
                 else {"type": "json_schema", "json_schema": fields})
    return [(PATHS[target][0], value)], changes


def _openai_schema_fields(found: OutputFormat, where: str,
                          changes: list[Change]) -> dict[str, Any]:
    """Chat's json_schema object (Responses' format fields): a name where there was none,
    and strict where the source's decoding was constrained and strict mode takes the schema."""
    fields: dict[str, Any] = {"name": found.name or DEFAULT_NAME}
    if found.name is None:
        changes.append(_change("add-output-format-name",
                               f"named the response schema {DEFAULT_NAME!r}: the target's "
                               "json_schema needs a name and the source gave none", where,
                               True))
    if found.description is not None:
        fields["description"] = found.description
    if found.schema is not None:
        fields["schema"] = found.schema
    strict = found.strict
    if found.constrained:
        if is_closed(found.schema):
            strict = True
        else:
            changes.append(_change("unconstrain-output-format",
                                   "sent the response schema without strict: the source "
                                   "constrained the reply to it, and strict mode refuses "
                                   "a schema that is not closed; the reply is no longer "
                                   "guaranteed to match", where, False))
    if strict is not None:
        fields["strict"] = strict
    return fields


def _write_anthropic(found: OutputFormat, where: str
                     ) -> tuple[list[tuple[Path, Any]], list[Change]]:
    if found.kind == "text":
        return [], [_change("drop-option", f"dropped request option {where!r} (text): "
                            "text is what the target replies by default", where, True)]
    if found.kind == "json" or found.schema is None:
        return [], [_change("drop-option", f"dropped request option {where!r} (JSON without "
                            "a schema): the target has no JSON mode without one; the reply "
                            "is not constrained to JSON", where, False)]
    return ([(PATHS["anthropic"][0], {"type": "json_schema", "schema": found.schema})],
            _unsent_fields(found, where, "anthropic"))


def _write_gemini(found: OutputFormat, where: str
                  ) -> tuple[list[tuple[Path, Any]], list[Change]]:
    pairs: list[tuple[Path, Any]] = [((_GEN, "responseMimeType"), _MIME[found.kind])]
    if found.schema is not None:
        pairs.append(((_GEN, "responseJsonSchema"), found.schema))
    return pairs, _unsent_fields(found, where, "gemini")


def _unsent_fields(found: OutputFormat, where: str, target: str) -> list[Change]:
    """Changes for the name, description and strict flag a target with no such fields
    does not get: the decoding there is always constrained to the schema."""
    changes: list[Change] = []
    if found.name is not None:
        changes.append(_change("drop-output-format-field",
                               f"dropped the response schema's name {found.name!r}: "
                               f"{target} names no output schema", where, True))
    if found.description is not None:
        changes.append(_change("drop-output-format-field",
                               "dropped the response schema's description: "
                               f"{target} has no field for it; the model no longer reads it",
                               where, False))
    if found.strict is not None:
        changes.append(_change("drop-output-format-field",
                               f"dropped strict={str(found.strict).lower()} from the response "
                               f"schema: {target} always constrains the reply to it", where,
                               True))
    return changes


def _change(code: str, what: str, where: str, lossless: bool) -> Change:
    return Change("convert_options", code, what, where, lossless)
