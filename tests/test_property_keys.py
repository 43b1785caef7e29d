"""rename_property_keys (rule tool-property-key-invalid): Anthropic refuses a tool whose
top-level property names fall outside '^[a-zA-Z0-9_.-]{1,64}$' ("tools.4.custom.
input_schema.properties: Property keys should match pattern ...", can1357/oh-my-pi#9730 for
arktype's `cwd?`; beautyfree/appstore-connect-mcp#2 for `filter[bundleId]`). normalize
renames them in the schema, `required` and the history's calls, and keeps the map back per
tool. Sent through the anthropic SDK to the emulator."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls

from normalizer import (
    History,
    Message,
    Text,
    ToolCall,
    ToolSpec,
    check,
    normalize,
    normalize_request,
)
from normalizer.model import thaw

WORDS = ("tools.1.custom.input_schema.properties: Property keys should match pattern "
         "'^[a-zA-Z0-9_.-]{1,64}$'")
BASH = {"name": "_bash", "description": "Run a command.",
        "input_schema": {"type": "object",
                         "properties": {"command": {"type": "string"},
                                        "cwd?": {"type": "string"},
                                        "timeout?": {"type": "number"}},
                         "required": ["command", "cwd?"]}}
READ = {"name": "read_file", "description": "Read a file.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}


def _body() -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64, "tools": [READ, BASH], "messages": [
        {"role": "user", "content": "List the files in /tmp."},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "_bash",
                                           "input": {"command": "ls", "cwd?": "/tmp"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                      "content": "a.txt"}]}]}


def test_refused_names_are_found_and_renamed_with_a_map_back(emu: Any) -> None:
    body = _body()
    found = check(body, "anthropic")
    assert [(v.rule, v.location, v.message) for v in found] == [
        ("tool-property-key-invalid", "tools[1].input_schema.properties", WORDS)] * 2
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    assert calls.refused("anthropic", sdk, body) == calls.SdkError(400, WORDS)
    fixed = normalize_request(body, "anthropic", "anthropic")
    schema = fixed.body["tools"][1]["input_schema"]
    assert list(schema["properties"]) == ["command", "cwd_", "timeout_"]
    assert schema["required"] == ["command", "cwd_"]
    assert fixed.body["messages"][1]["content"][0]["input"] == {"command": "ls", "cwd_": "/tmp"}
    assert fixed.key_map.thaw() == {"_bash": {"cwd_": "cwd?", "timeout_": "timeout?"}}
    assert {(c.code, c.where, c.lossless) for c in fixed.changes} == {
        ("rename-property-key", "tools._bash.properties.cwd_", True),
        ("rename-property-key", "tools._bash.properties.timeout_", True),
        ("rename-property-key", "messages[1].parts[0]", True)}
    assert check(fixed.body, "anthropic") == ()
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed.body))
    assert body == _body()  # the caller's body as it was


def test_names_that_collide_once_cleaned_stay_distinct() -> None:
    tools = [ToolSpec("list_apps", "List apps.", {"type": "object", "properties": {
        "filter[id]": {"type": "string"}, "filter_id_": {"type": "integer"},
        "a b": {"type": "string"}, "ok.name": {"type": "string"}}})]
    history = History((Message("user", (Text("List my apps."),)),))
    out = normalize(history, "anthropic", tools=tools)
    names = list(thaw(out.tools[0].input_schema)["properties"])
    assert names[1:] == ["filter_id_", "a_b", "ok.name"] and names[0] not in names[1:]
    assert thaw(out.key_map)["list_apps"] == {names[0]: "filter[id]", "a_b": "a b"}
    assert check(out.render(), "anthropic") == ()


def test_a_renamed_tool_keys_its_map_by_the_name_sent() -> None:
    tools = [ToolSpec("github.search/issues", "Search.", {"type": "object", "properties": {
        "q?": {"type": "string"}}})]
    history = History((Message("user", (Text("Find open bugs."),)),
                       Message("assistant", (ToolCall("github.search/issues", {"q?": "bug"},
                                                      "toolu_01"),))))
    out = normalize(history, "anthropic", tools=tools)
    sent = out.tools[0].name
    assert out.name_map.thaw() == {sent: "github.search/issues"}
    assert out.key_map.thaw() == {sent: {"q_": "q?"}}
    (call,) = out.history.messages[1].tool_calls
    assert call.arguments == {"q_": "bug"}


def test_other_vendors_keep_the_names() -> None:
    for provider in ("openai", "gemini", "mistral", "openai_responses"):
        fixed = normalize_request(_body(), "anthropic", provider)
        assert "rename-property-key" not in {c.code for c in fixed.changes}, provider
        assert fixed.key_map.thaw() == {}
