"""The structured-output option across protocols (normalizer/output_format.py) and OpenAI's
strict mode on a response schema (rule strict-response-schema, passes/strict_output.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import sdk_calls as calls

from conformance.emulator import serve
from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text
from normalizer.options import convert
from normalizer.profiles import Profile

# dottxt-ai/outlines#844: a pydantic model (SkillInto) sent as a strict response schema;
# OpenAI answered "Invalid schema for response_format 'default': In context=(),
# 'additionalProperties' is required to be supplied and to be false."
SKILL = {"type": "object",
         "properties": {"skillName": {"type": "string"}, "skillDesc": {"type": "string"},
                        "category": {"type": "string", "enum": ["Sports", "Music", "Other"]}},
         "required": ["skillName", "skillDesc", "category"]}
CLOSED = {**SKILL, "additionalProperties": False}
MESSAGES = [{"role": "user", "content": "Create a skill template for juggling."}]


def chat_body(schema: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "messages": MESSAGES,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "default", "schema": schema, **fields}}}


def codes(changes: Any) -> list[tuple[str, bool]]:
    return [(c.code, c.lossless) for c in changes]


def test_a_chat_schema_reaches_every_protocol_and_each_field_left_behind_is_said() -> None:
    options = {"response_format": {"type": "json_schema", "json_schema": {
        "name": "skill", "description": "One skill.", "strict": True, "schema": CLOSED}}}
    responses, said = convert(options, "openai_chat", "openai_responses")
    assert responses == {"text": {"format": {"type": "json_schema", "name": "skill",
                                             "description": "One skill.", "schema": CLOSED,
                                             "strict": True}}}
    assert said == ()
    anthropic, said = convert(options, "openai_chat", "anthropic")
    assert anthropic == {"output_config": {"format": {"type": "json_schema", "schema": CLOSED}}}
    # The name is a label and Anthropic always constrains; the description the model read.
    assert codes(said) == [("drop-output-format-field", True),
                           ("drop-output-format-field", False),
                           ("drop-output-format-field", True)]
    gemini, said = convert(options, "openai_chat", "gemini")
    assert gemini == {"generationConfig": {"responseMimeType": "application/json",
                                           "responseJsonSchema": CLOSED}}
    assert len(said) == 3 and all(c.where == "response_format" for c in said)


def test_chat_and_responses_give_each_other_back_what_they_were_given() -> None:
    chat = {"response_format": {"type": "json_schema", "json_schema": {
        "name": "skill", "strict": False, "schema": SKILL}}}
    responses, said = convert(chat, "openai_chat", "openai_responses")
    back, again = convert(responses, "openai_responses", "openai_chat")
    assert back == chat and said == again == ()


@pytest.mark.parametrize(("source", "options"), [
    ("anthropic", {"output_config": {"format": {"type": "json_schema", "schema": CLOSED}}}),
    ("anthropic", {"output_format": {"type": "json_schema", "schema": CLOSED}}),  # the beta's
    ("gemini", {"generationConfig": {"responseMimeType": "application/json",
                                     "responseJsonSchema": CLOSED}}),
])
def test_a_constrained_closed_schema_reaches_openai_strict(source: str,
                                                           options: dict[str, Any]) -> None:
    out, said = convert(options, source, "openai_chat")
    assert out["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "response", "schema": CLOSED, "strict": True}}
    assert codes(said) == [("add-output-format-name", True)]


def test_a_constrained_open_schema_reaches_openai_without_strict_and_the_loss_is_said() -> None:
    body = {"model": "claude-haiku-4-5", "max_tokens": 200, "messages": MESSAGES,
            "output_config": {"format": {"type": "json_schema", "schema": SKILL}}}
    for provider in ("openai", "openai_responses", "azure_openai"):
        out = normalize_request(body, "anthropic", provider)
        assert check(out.body, provider) == (), provider
        crossed = [c for c in out.changes if c.pass_name == "convert_options"]
        assert codes(crossed) == [("add-output-format-name", True),
                                  ("unconstrain-output-format", False)], provider


def test_json_mode_crosses_where_the_target_has_one_and_is_dropped_said_where_not() -> None:
    options = {"text": {"format": {"type": "json_object"}}}
    assert convert(options, "openai_responses", "openai_chat") == (
        {"response_format": {"type": "json_object"}}, ())
    assert convert(options, "openai_responses", "gemini") == (
        {"generationConfig": {"responseMimeType": "application/json"}}, ())
    out, said = convert(options, "openai_responses", "anthropic")
    assert out == {} and codes(said) == [("drop-option", False)]
    mime_only = {"generationConfig": {"responseMimeType": "application/json"}}
    assert convert(mime_only, "gemini", "openai_chat")[0] == {
        "response_format": {"type": "json_object"}}


def test_plain_text_is_kept_or_left_to_the_default_said() -> None:
    options = {"response_format": {"type": "text"}}
    assert convert(options, "openai_chat", "gemini")[0] == {
        "generationConfig": {"responseMimeType": "text/plain"}}
    out, said = convert(options, "openai_chat", "anthropic")
    assert out == {} and codes(said) == [("drop-option", True)]


@pytest.mark.parametrize(("source", "options"), [
    ("gemini", {"generationConfig": {"responseMimeType": "text/x.enum",
                                     "responseSchema": {"type": "STRING", "enum": ["a"]}}}),
    ("openai_chat", {"response_format": {"type": "grammar"}}),
    ("anthropic", {"output_config": {"format": {"type": "xml"}}}),
])
def test_a_format_with_no_counterpart_is_dropped_and_said(source: str,
                                                          options: dict[str, Any]) -> None:
    out, said = convert(options, source, "openai_responses")
    assert "text" not in out
    assert codes(said) == [("drop-option", False)]


def test_the_fields_beside_the_format_go_where_they_have_a_counterpart() -> None:
    # Responses keeps verbosity in `text` beside the format, Chat at the top level.
    out, said = convert({"text": {"format": {"type": "text"}, "verbosity": "low"}},
                        "openai_responses", "openai_chat")
    assert out == {"verbosity": "low", "response_format": {"type": "text"}} and said == ()
    back, said = convert(out, "openai_chat", "openai_responses")
    assert back == {"text": {"verbosity": "low", "format": {"type": "text"}}} and said == ()
    out, said = convert({"text": {"verbosity": "low"}}, "openai_responses", "anthropic")
    assert out == {} and [c.where for c in said] == ["text.verbosity"]
    # Anthropic's effort beside the format is a thinking setting (tests/test_thinking_options).
    out, said = convert({"output_config": {"effort": "low"}}, "anthropic", "openai_chat")
    assert out == {"reasoning_effort": "low"} and said == ()


def test_a_strict_open_response_schema_is_refused_with_openais_words() -> None:
    body = chat_body(SKILL, strict=True)
    found = check(body, "openai")
    assert [v.message for v in found] == [
        "Invalid schema for response_format 'default': In context=(), 'additionalProperties' "
        "is required to be supplied and to be false."]
    # vercel/ai#6484: an optional property under an array's items.
    nested = chat_body({"type": "object", "additionalProperties": False,
                        "required": ["organizations"],
                        "properties": {"organizations": {"type": "array", "items": {
                            "type": "object", "additionalProperties": False,
                            "required": ["name"],
                            "properties": {"name": {"type": "string"},
                                           "roles": {"type": "array",
                                                     "items": {"type": "string"}}}}}}},
                       strict=True)
    nested["response_format"]["json_schema"]["name"] = "response"
    assert [v.message for v in check(nested, "openai")] == [
        "Invalid schema for response_format 'response': In context=('properties', "
        "'organizations', 'items'), 'required' is required to be supplied and to be an array "
        "including every key in properties. Missing 'roles'."]
    assert check(chat_body(CLOSED, strict=True), "openai") == ()
    assert check(chat_body(SKILL), "openai") == ()  # not strict: best effort, taken
    assert check(body, "groq") == ()  # no such rule


def test_the_repair_drops_strict_keeps_the_schema_and_says_so() -> None:
    for provider in ("openai", "azure_openai"):
        out = normalize_request(chat_body(SKILL, strict=True), "openai_chat", provider)
        assert out.body["response_format"] == {"type": "json_schema", "json_schema": {
            "name": "default", "schema": SKILL}}
        assert codes(out.changes) == [("drop-response-format-strict", False)]
        assert "at the top level" in out.changes[0].what
        assert check(out.body, provider) == ()
    closed = chat_body(CLOSED, strict=True)
    assert normalize_request(closed, "openai_chat", "openai").body == closed


def test_the_responses_wire_is_checked_and_repaired_at_text_format() -> None:
    # mavam/pi-web-providers#14: the Codex search schema, nested objects left open.
    schema = {"type": "object", "properties": {"sources": {"type": "array", "items": {
        "type": "object", "properties": {"title": {"type": "string"}, "url": {"type": "string"}},
        "required": ["title", "url"]}}}, "required": ["sources"]}
    body = {"model": "gpt-5", "input": "Search the web for juggling.",
            "text": {"format": {"type": "json_schema", "name": "codex_output_schema",
                                "strict": True, "schema": schema}}}
    found = check(body, "openai_responses")
    assert (found[0].rule, found[0].location) == ("strict-response-schema", "text.format.schema")
    assert found[0].message.startswith("Invalid schema for response_format "
                                       "'codex_output_schema': In context=(), ")
    out = normalize_request(body, "openai_responses", "openai_responses")
    assert "strict" not in out.body["text"]["format"]
    assert out.body["text"]["format"]["schema"] == schema
    assert check(out.body, "openai_responses") == ()


def test_each_official_sdk_carries_the_converted_format_to_the_wire() -> None:
    # The converted option is sent through openai, anthropic and google-genai to a loopback
    # emulator whose checker keeps the body it was sent: the fields each SDK puts on the
    # wire are the ones the vendor reads (google-genai takes the REST spelling in its
    # config and writes it back in generationConfig).
    seen: list[Mapping[str, Any]] = []

    def keep(body: Mapping[str, Any], profile: Profile, model: str | None = None) -> tuple[()]:
        seen.append(body)
        return ()

    source = chat_body(CLOSED, strict=True)
    where = {"openai_responses": ("text", "format", "schema"),
             "anthropic": ("output_config", "format", "schema"),
             "gemini": ("generationConfig", "responseJsonSchema")}
    with serve(list(where), checker=keep) as emu:
        for provider, path in where.items():
            body = normalize_request(source, "openai_chat", provider).body
            sdk = calls.client(emu.protocol(provider), emu.sdk_base_url(provider))
            calls.send(emu.protocol(provider), sdk, body, model="gemini-2.5-flash")
            sent: Any = seen[-1]
            for key in path:
                sent = sent[key]
            assert sent == CLOSED, provider
    assert seen[-1]["generationConfig"]["responseMimeType"] == "application/json"


def anthropic_body(schema: dict[str, Any], field: str = "output_config") -> dict[str, Any]:
    fmt = {"type": "json_schema", "schema": schema}
    return {"model": "claude-sonnet-4-5-20250929", "max_tokens": 200, "messages": MESSAGES,
            field: {"format": fmt} if field == "output_config" else fmt}


# ax-llm/ax#458: a free-form JSON field inside closed output objects.
IMAGES = {"type": "object", "additionalProperties": False, "required": ["imageDescriptions"],
          "properties": {"imageDescriptions": {"type": "array", "items": {
              "type": "object", "additionalProperties": False,
              "required": ["description"],
              "properties": {"description": {"type": "string"},
                             "userRequestAnswer": {"type": "object"}}}}}}


def test_anthropic_refuses_an_open_object_in_its_words_under_either_field() -> None:
    found = check(anthropic_body(IMAGES, "output_format"), "anthropic")
    assert [(v.rule, v.message) for v in found] == [(
        "output-schema-open-object",
        "output_format.schema: For 'object' type, 'additionalProperties' must be explicitly "
        "set to false")]
    assert found[0].location == ("output_format.schema.properties.imageDescriptions.items."
                                 "properties.userRequestAnswer")
    explicit = {**SKILL, "additionalProperties": True}
    assert [v.message for v in check(anthropic_body(explicit), "anthropic")] == [
        "output_config.format.schema: For 'object' type, 'additionalProperties: true' is not "
        "supported. Please set 'additionalProperties' to false"]
    assert check(anthropic_body(CLOSED), "anthropic") == ()
    # Not Anthropic's field there: OpenAI knows no output_config at all.
    assert [(v.rule, v.location) for v in check(anthropic_body(SKILL), "openai")] == [
        ("unknown-request-field", "output_config")]


def test_each_open_object_is_closed_and_what_that_took_is_said() -> None:
    out = normalize_request(anthropic_body(IMAGES, "output_format"), "anthropic", "anthropic")
    closed = out.body["output_format"]["schema"]
    answer = closed["properties"]["imageDescriptions"]["items"]["properties"]["userRequestAnswer"]
    assert answer == {"type": "object", "additionalProperties": False}
    assert codes(out.changes) == [("close-output-schema-object", False)]  # it can hold nothing now
    assert check(out.body, "anthropic") == ()
    assert normalize_request(out.body, "anthropic", "anthropic").changes == ()
    declared = normalize_request(anthropic_body(SKILL), "anthropic", "anthropic")
    assert declared.body["output_config"]["format"]["schema"] == CLOSED
    assert codes(declared.changes) == [("close-output-schema-object", True)]
    explicit = normalize_request(anthropic_body({**SKILL, "additionalProperties": True}),
                                 "anthropic", "anthropic")
    assert codes(explicit.changes) == [("close-output-schema-object", False)]
    assert normalize_request(anthropic_body(CLOSED), "anthropic", "anthropic").changes == ()


def test_an_open_chat_schema_reaches_anthropic_closed() -> None:
    out = normalize_request(chat_body(SKILL), "openai_chat", "anthropic")
    assert out.body["output_config"] == {"format": {"type": "json_schema", "schema": CLOSED}}
    assert check(out.body, "anthropic") == ()
    assert [c.code for c in out.changes if c.pass_name != "normalize_request"] == [
        "drop-output-format-field", "close-output-schema-object"]


def test_deepseek_refuses_json_schema_and_gets_json_mode_with_the_schema_said() -> None:
    # llm-exe/llm-exe#662 (deepseek-v4-pro, deepseek-chat): "This response_format type is
    # unavailable now"; DeepSeek's Chat API takes text and json_object only.
    body = {**chat_body(SKILL), "model": "deepseek-v4-pro",
            "messages": [{"role": "system", "content": "You write skill templates."},
                         *MESSAGES]}
    assert [(v.rule, v.message, v.status) for v in check(body, "deepseek")] == [
        ("response-format-type-unsupported", "This response_format type is unavailable now",
         400)]
    out = normalize_request(body, "openai_chat", "deepseek")
    assert out.body["response_format"] == {"type": "json_object"}
    system = out.body["messages"][1]
    assert system["role"] == "system" and system["content"].startswith(
        "Respond in JSON matching this JSON Schema: {\"type\":\"object\"")
    assert [m["content"] for m in out.body["messages"][::2]] == [
        "You write skill templates.", MESSAGES[0]["content"]]
    assert codes(out.changes) == [("json-schema-as-json-mode", False)]
    assert check(out.body, "deepseek") == ()  # the word json is in the added message
    assert normalize_request(out.body, "openai_chat", "deepseek").changes == ()
    assert check(body, "openai") == ()  # others take json_schema
    json_mode = {**body, "response_format": {"type": "json_object"}}  # taken: left as it is
    assert [c.code for c in normalize_request(json_mode, "openai_chat", "deepseek").changes
            ] == ["add-json-instruction"]  # but no message says json (response-format-json-word)


def test_gemini_refuses_json_schema_keywords_in_response_schema_and_gets_them_moved() -> None:
    # QuantumNous/new-api#1037: zodResponseFormat's schema sent as responseSchema.
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", **CLOSED}
    body = {"contents": [{"role": "user", "parts": [{"text": "Describe juggling."}]}],
            "generationConfig": {"responseMimeType": "application/json",
                                 "responseSchema": schema}}
    assert [v.message for v in check(body, "gemini")] == [
        "Invalid JSON payload received. Unknown name \"$schema\" at "
        "'generation_config.response_schema': Cannot find field.",
        "Invalid JSON payload received. Unknown name \"additionalProperties\" at "
        "'generation_config.response_schema': Cannot find field."]
    out = normalize_request(body, "gemini", "gemini")
    assert out.body["generationConfig"] == {"responseMimeType": "application/json",
                                            "responseJsonSchema": schema}
    assert codes(out.changes) == [("move-response-schema", True)]
    assert check(out.body, "gemini") == ()
    # A property named like a keyword is a property, not a keyword: nothing to move.
    named = {"type": "object", "properties": {"not": {"type": "string"}}}
    plain = {**body, "generationConfig": {"responseMimeType": "application/json",
                                          "responseSchema": named}}
    assert check(plain, "gemini") == ()
    assert normalize_request(plain, "gemini", "gemini").changes == ()


def test_openai_models_older_than_structured_outputs_get_json_mode_only_when_named() -> None:
    # web-infra-dev/midscene#259 (chatgpt-4o-latest); OpenAI's guide: json_schema from
    # gpt-4o-mini and gpt-4o-2024-08-06 on.
    for model in ("gpt-3.5-turbo", "gpt-4-turbo", "gpt-4-0613", "chatgpt-4o-latest"):
        body = {**chat_body(CLOSED, strict=True), "model": model}
        assert [v.rule for v in check(body, "openai")] == ["response-format-type-unsupported"]
        out = normalize_request(body, "openai_chat", "openai")
        assert out.body["response_format"] == {"type": "json_object"}, model
        assert check(out.body, "openai") == ()
    for model in ("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-5", "gpt-4o-2024-08-06"):
        body = {**chat_body(CLOSED, strict=True), "model": model}
        assert check(body, "openai") == (), model
        assert normalize_request(body, "openai_chat", "openai").changes == ()
    # normalize without a model leaves a model-scoped repair undone, as sampling does.
    options = {"response_format": chat_body(CLOSED)["response_format"]}
    out = normalize(History((Message("user", (Text("Go."),)),)), "openai", options=options)
    assert out.changes == ()
