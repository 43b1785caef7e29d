"""A Chat message's participant `name` outside OpenAI's pattern (rule message-name-invalid):
refused by OpenAI and Azure OpenAI at the field's path; normalize replaces each character
outside the pattern with "_", and drops a name with nothing left, reporting each."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize_request

TEXT = ("Invalid 'messages[1].name': string does not match pattern. Expected a string that "
        "matches the pattern '^[a-zA-Z0-9_-]+$'.")


def _body(*names: str | None) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "Debate."}]
    for k, name in enumerate(names):
        messages.append({"role": "user" if k % 2 == 0 else "assistant",
                         "content": f"turn {k}", **({"name": name} if name else {})})
    return {"model": "gpt-4.1-mini", "messages": messages}


def test_openai_and_azure_refuse_a_name_with_a_space_at_its_path() -> None:
    for provider in ("openai", "azure_openai"):
        (found,) = check(_body("Jane Doe"), provider)
        assert (found.rule, found.location, found.message) == (
            "message-name-invalid", "messages[1].name", TEXT)
        assert found.error["param"] == "messages[1].name"
    assert check(_body("Jane_Doe", "weather-agent"), "openai") == ()
    assert check(_body("Jane Doe"), "groq") == ()  # no refusal observed: not checked


def test_a_tool_message_name_is_the_functions_not_a_participant() -> None:
    body = {"model": "gpt-4.1-mini", "messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get weather", "content": "18C"}],
        "tools": [{"type": "function", "function": {"name": "get_weather",
                                                    "parameters": {"type": "object"}}}]}
    assert [v.rule for v in check(body, "openai") if v.rule == "message-name-invalid"] == []


def test_normalize_replaces_what_the_pattern_refuses_and_reports_it() -> None:
    fixed = normalize_request(_body("Jane Doe", "Pro_Agent", "???"), "openai_chat", "openai")
    names = [m.get("name") for m in fixed.body["messages"]]
    assert names == [None, "Jane_Doe", "Pro_Agent", None]
    assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
        ("sanitize-participant-name", "messages[1]", False),
        ("sanitize-participant-name", "messages[3]", False)]
    assert "'Jane Doe'" in fixed.changes[0].what and "dropped" in fixed.changes[1].what
    assert check(fixed.body, "openai") == ()
    assert normalize_request(fixed.body, "openai_chat", "openai").changes == ()
