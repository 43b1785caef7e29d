"""JSON mode without the word "json" in the messages (rule response-format-json-word), and a
response format type the target does not take (rule response-format-type-unsupported)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from normalizer.model import Change, JsonMap, Message, Text, ToolResult, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "response-format-json-word"
INSTRUCTION = "Respond in JSON."
TYPE_RULE = "response-format-type-unsupported"
SCHEMA_INSTRUCTION = "Respond in JSON matching this JSON Schema: {schema}"


def json_schema_as_json_mode(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a Chat response_format whose type the target refuses (rule
    response-format-type-unsupported, params.types). A json_schema format where JSON mode
    is taken becomes JSON mode, and its schema goes to the model as a system message after
    the leading system messages ("Respond in JSON matching this JSON Schema: {...}"),
    which also holds the word JSON mode needs; any other refused type is left out.

    Rejected by: DeepSeek "This response_format type is unavailable now" for json_schema
    (llm-exe/llm-exe#662; DeepSeek's Chat API takes text and json_object); OpenAI "Invalid
    parameter: 'response_format' of type 'json_schema' is not supported with this model. …"
    for models older than Structured Outputs (web-infra-dev/midscene#259). A rule scoped
    by `models` is applied only where `policy.model` is known and named by it.

    Before: response_format {type: json_schema, json_schema: {name: skill, schema: S}}
    After:  response_format {type: json_object}; [system "Respond in JSON matching this
            JSON Schema: S", user "…"]
    Lossy: the reply is asked for, no longer constrained to, the schema.
    """
    rule = profile.rule(TYPE_RULE)
    value = draft.options.get("response_format")
    if rule is None or not rule.enforced or profile.protocol != "openai_chat" \
            or not isinstance(value, Mapping) \
            or not rule.applies_to(policy.model, when_unknown=False):
        return draft, ()
    refused = [str(t) for t in rule.params.get("types") or ()]
    kind = value.get("type")
    if kind not in refused:
        return draft, ()
    options = thaw(draft.options)
    fields = value.get("json_schema")
    if kind != "json_schema" or "json_object" in refused or not isinstance(fields, Mapping):
        del options["response_format"]
        return replace(draft, options=JsonMap(options)), (Change(
            "json_schema_as_json_mode", "drop-response-format",
            f"left out response_format of type {kind!r}: the target does not take it; the "
            "reply is not constrained", "response_format", lossless=False),)
    options["response_format"] = {"type": "json_object"}
    schema = fields.get("schema")
    text = (SCHEMA_INSTRUCTION.format(schema=json.dumps(thaw(schema), ensure_ascii=False,
                                                        separators=(",", ":")))
            if schema is not None else INSTRUCTION)
    fixed, at = _with_system_text(replace(draft, options=JsonMap(options)), text)
    change = Change("json_schema_as_json_mode", "json-schema-as-json-mode",
                    f"sent response schema {str(fields.get('name', ''))!r} as JSON mode with "
                    f"the schema in a system message at messages[{at}]: the target does not "
                    "take json_schema; the reply is asked for, not constrained to, the schema",
                    "response_format", lossless=False)
    return fixed, (change,)


def mention_json_for_json_mode(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes JSON mode requested while no message says "json" (rule
    response-format-json-word): OpenAI, DeepSeek and DashScope refuse it. Where Responses
    `instructions` hold the word but no input message does, the instructions become an
    input system message (lossless: the same text, where the vendor looks). Otherwise a
    system message "Respond in JSON." goes right after the leading system messages: an
    instruction the request already implies, added (nothing is lost; the change says it).

    Rejected by: OpenAI "'messages' must contain the word 'json' in some form, to use
    'response_format' of type 'json_object'." (meta-llama/PurpleLlama#94); DeepSeek
    "Prompt must contain the word 'json' …" (Canner/WrenAI#1581).

    Before: [system "Summarise.", user "…"], response_format {type: json_object}
    After:  [system "Summarise.", system "Respond in JSON.", user "…"]
    """
    if not profile.enforces(RULE) or not _json_mode(draft.options, profile.protocol):
        return draft, ()
    messages = draft.history.messages
    counted = [m for m in messages if not _instructions(m, profile.protocol)]
    results = profile.protocol == "openai_chat"  # a Chat tool message is a message too
    if any(_says_json(m, results) for m in counted):
        return draft, ()
    if len(counted) < len(messages) and _says_json(messages[0], False):
        moved = replace(messages[0], extras=messages[0].extras.without("instructions"))
        change = Change("mention_json_for_json_mode", "instructions-as-input-message",
                        "moved the instructions into an input system message: JSON mode "
                        "needs the word 'json' in the input messages, and only the "
                        "instructions held it", "messages[0]", lossless=True)
        return _with(draft, (moved, *messages[1:])), (change,)
    fixed, at = _with_system_text(draft, INSTRUCTION)
    change = Change("mention_json_for_json_mode", "add-json-instruction",
                    f"added a system message {INSTRUCTION!r}: JSON mode needs the word "
                    "'json' in the messages, and none held it", f"messages[{at}]",
                    lossless=True)
    return fixed, (change,)


def _json_mode(options: Mapping[str, Any], protocol: str) -> bool:
    if protocol == "openai_responses":
        text = options.get("text")
        found = text.get("format") if isinstance(text, Mapping) else None
    else:
        found = options.get("response_format")
    return isinstance(found, Mapping) and found.get("type") == "json_object"


def _instructions(message: Message, protocol: str) -> bool:
    """A Responses `instructions` message, which the vendor does not search."""
    return protocol == "openai_responses" and message.extras.get("instructions") is True


def _says_json(message: Message, results: bool) -> bool:
    """Whether the message's text (and, with `results`, its tool results' text) holds the
    word, as the vendors' checks read the wire (json_mode.py in normalizer/checks)."""
    return any((isinstance(p, Text) or (results and isinstance(p, ToolResult)))
               and "json" in p.text.casefold() for p in message.parts)


def _with_system_text(draft: Draft, text: str) -> tuple[Draft, int]:
    """`draft` with a system message of `text` right after its leading system messages,
    and where it went."""
    messages = draft.history.messages
    at = next((k for k, m in enumerate(messages) if m.role != "system"), len(messages))
    added = Message("system", (Text(text),))
    return _with(draft, (*messages[:at], added, *messages[at:])), at


def _with(draft: Draft, messages: tuple[Message, ...]) -> Draft:
    return replace(draft, history=replace(draft.history, messages=messages))
