"""A tool_choice that contradicts the request: forcing an undeclared tool (Anthropic, vLLM)
or set with no tools at all (OpenAI, vLLM); each detected with the vendor's text and repaired
with a reported change."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize_request
from normalizer.model import History, JsonMap, ToolSpec, thaw
from normalizer.passes import Draft, Policy
from normalizer.passes.options import drop_unknown_tool_choice
from normalizer.profiles import load_profile

WEATHER_CHAT = {"type": "function", "function": {
    "name": "get_weather", "parameters": {"type": "object", "properties": {}}}}
WEATHER_ANTHROPIC = {"name": "get_weather", "input_schema": {"type": "object"}}


def _chat(choice: Any, tools: list[Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m", "messages": [{"role": "user", "content": "hi"}],
                            "tool_choice": choice}
    if tools is not None:
        body["tools"] = tools
    return body


def _anthropic(name: str) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 16,
            "messages": [{"role": "user", "content": "hi"}], "tools": [WEATHER_ANTHROPIC],
            "tool_choice": {"type": "tool", "name": name}}


def test_anthropic_names_the_undeclared_tool_in_its_words() -> None:
    (found,) = check(_anthropic("none"), "anthropic")
    assert (found.rule, found.message) == ("tool-choice-unknown-tool",
                                           "Tool 'none' not found in provided tools")
    assert check(_anthropic("get_weather"), "anthropic") == ()


def test_vllm_refuses_a_named_choice_that_matches_no_tool() -> None:
    named = {"type": "function", "function": {"name": "lookup"}}
    assert [v.rule for v in check(_chat(named, [WEATHER_CHAT]), "vllm")] == [
        "tool-choice-unknown-tool"]
    assert check(_chat({"type": "function", "function": {"name": "get_weather"}},
                       [WEATHER_CHAT]), "vllm") == ()


def test_openai_refuses_any_tool_choice_without_tools() -> None:
    for choice in ("auto", "none", "required"):
        assert [v.rule for v in check(_chat(choice), "openai")] == ["tool-choice-without-tools"]
    assert check(_chat("auto", [WEATHER_CHAT]), "openai") == ()


def test_the_undeclared_choice_is_removed_and_reported() -> None:
    fixed = normalize_request(_anthropic("none"), "anthropic", "anthropic")
    assert [(c.code, c.lossless) for c in fixed.changes] == [("drop-unknown-tool-choice", False)]
    assert "tool_choice" not in fixed.body and check(fixed.body, "anthropic") == ()


def test_a_renamed_tool_keeps_its_choice_under_the_new_name() -> None:
    draft = Draft(History(), (ToolSpec("get_weather_1"),),
                  JsonMap({"tool_choice": {"type": "tool", "name": "get.weather"}}),
                  name_map=JsonMap({"get_weather_1": "get.weather"}))
    fixed, changes = drop_unknown_tool_choice(draft, load_profile("anthropic"), Policy())
    assert thaw(fixed.options) == {"tool_choice": {"type": "tool", "name": "get_weather_1"}}
    assert [(c.code, c.lossless) for c in changes] == [("rename-tool-choice", True)]
