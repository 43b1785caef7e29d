"""A tool_choice that forces a call while thinking is on (rule tool-choice-with-thinking):
refused by Anthropic with extended thinking, by DeepSeek V4 (which thinks unless told not
to), DashScope and Moonshot; each read the vendor's way, and repaired to auto with thinking
kept and a lossy change."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check, normalize_request
from normalizer.options import forced_tool_choice, thinking_on_by_rule

WEATHER_CHAT = {"type": "function", "function": {
    "name": "get_weather", "parameters": {"type": "object", "properties": {}}}}
WEATHER_ANTHROPIC = {"name": "get_weather", "input_schema": {"type": "object"}}
NAMED_CHAT = {"type": "function", "function": {"name": "get_weather"}}


def _anthropic(thinking: Any, choice: Any, model: str = "claude-sonnet-4-5") -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "max_tokens": 2048,
                            "messages": [{"role": "user", "content": "Weather in Paris?"}],
                            "tools": [WEATHER_ANTHROPIC], "tool_choice": choice}
    if thinking is not None:
        body["thinking"] = thinking
    return body


def _chat(model: str, choice: Any, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Weather in Paris?"}],
            "tools": [WEATHER_CHAT], "tool_choice": choice, **options}


ENABLED = {"type": "enabled", "budget_tokens": 1024}


def test_the_forced_forms_of_both_wires() -> None:
    assert [forced_tool_choice(c) for c in ("required", "auto", "none", None)] == [
        "required", None, None, None]
    assert forced_tool_choice({"type": "any"}) == "required"
    assert forced_tool_choice({"type": "tool", "name": "f"}) == "named"
    assert forced_tool_choice(NAMED_CHAT) == "named"
    assert forced_tool_choice({"type": "auto", "disable_parallel_tool_use": True}) is None


def test_thinking_is_read_from_the_field_the_rule_names_else_from_the_model() -> None:
    deepseek = {"default_on_model": "^deepseek-(v4|reasoner)"}
    assert thinking_on_by_rule({}, deepseek, "deepseek-v4-flash")
    assert not thinking_on_by_rule({"thinking": {"type": "disabled"}}, deepseek,
                                   "deepseek-v4-flash")
    assert thinking_on_by_rule({"thinking": {"type": "enabled"}}, deepseek, "deepseek-chat")
    assert not thinking_on_by_rule({}, deepseek, "deepseek-chat")
    assert not thinking_on_by_rule({}, deepseek, None)
    dashscope = {"field": "enable_thinking", "on": [True], "off": [False]}
    assert thinking_on_by_rule({"enable_thinking": True}, dashscope, "qwen3.5-plus")
    assert not thinking_on_by_rule({"enable_thinking": False}, dashscope, "qwen3.5-plus")
    assert not thinking_on_by_rule({}, dashscope, "qwen3.5-plus")


@pytest.mark.parametrize("choice", [{"type": "any"}, {"type": "tool", "name": "get_weather"}])
def test_anthropic_refuses_a_forced_choice_with_extended_thinking(choice: Any) -> None:
    (found,) = check(_anthropic(ENABLED, choice), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "tool-choice-with-thinking", "tool_choice",
        "Thinking may not be enabled when tool_choice forces tool use.")


def test_anthropic_takes_the_forced_choice_without_extended_thinking() -> None:
    # adaptive + any: recorded accepted (claude-opus-4-6, evidence/anthropic/adaptive-…);
    # Sonnet 4.5 takes no adaptive thinking at all (thinking-adaptive-unsupported).
    for thinking in (None, {"type": "disabled"}, {"type": "adaptive"}):
        body = _anthropic(thinking, {"type": "any"}, model="claude-opus-4-6")
        assert check(body, "anthropic") == (), thinking
    for choice in ({"type": "auto"}, {"type": "none"}):
        assert check(_anthropic(ENABLED, choice), "anthropic") == ()


def test_deepseek_v4_refuses_forcing_unless_thinking_is_turned_off() -> None:
    for choice in ("required", NAMED_CHAT):
        (found,) = check(_chat("deepseek-v4-flash", choice), "deepseek", on="2026-11-27")
        assert (found.rule, found.message) == ("tool-choice-with-thinking",
                                               "Thinking mode does not support this tool_choice")
        assert check(_chat("deepseek-v4-flash", choice, thinking={"type": "disabled"}),
                     "deepseek") == ()
    assert check(_chat("deepseek-chat", "required"), "deepseek") == ()
    assert check(_chat("deepseek-v4-flash", "auto"), "deepseek") == ()


def test_deepseek_said_it_in_the_reasoners_name_before_2026_05_30() -> None:
    (found,) = check(_chat("deepseek-reasoner", "required"), "deepseek", on="2025-07-01")
    assert found.message == "deepseek-reasoner does not support this tool_choice"


def test_dashscope_and_moonshot_read_their_own_switches() -> None:
    on = _chat("qwen3.5-plus", "required", enable_thinking=True)
    assert [v.rule for v in check(on, "dashscope")] == ["tool-choice-with-thinking"]
    assert check(_chat("qwen3.5-plus", "required", enable_thinking=False), "dashscope") == ()
    assert [v.rule for v in check(_chat("kimi-k2.6", "required"), "moonshot")] == [
        "tool-choice-with-thinking"]
    # Moonshot calls a named choice "specified" (can1357/oh-my-pi#1077)
    assert [v.message for v in check(_chat("kimi-k2.6", NAMED_CHAT), "moonshot")] == [
        "tool_choice 'specified' is incompatible with thinking enabled"]
    assert check(_chat("kimi-k2.6", NAMED_CHAT, thinking={"type": "disabled"}),
                 "moonshot") == ()
    assert check(_chat("kimi-k2-0905-preview", "required"), "moonshot") == ()


def test_openai_is_not_touched() -> None:
    body = _chat("gpt-5", "required", reasoning_effort="low")
    assert check(body, "openai") == ()
    assert normalize_request(body, "openai_chat", "openai").changes == ()


def test_anthropic_repair_keeps_thinking_and_the_other_choice_fields() -> None:
    body = _anthropic(ENABLED, {"type": "tool", "name": "get_weather",
                                "disable_parallel_tool_use": True})
    fixed = normalize_request(body, "anthropic", "anthropic")
    assert fixed.body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert fixed.body["thinking"] == ENABLED
    (change,) = fixed.changes
    assert (change.code, change.where, change.lossless) == ("unforce-tool-choice",
                                                             "tool_choice", False)
    assert "'get_weather'" in change.what
    assert check(fixed.body, "anthropic") == ()


def test_deepseek_repair_is_auto_and_a_second_pass_changes_nothing() -> None:
    fixed = normalize_request(_chat("deepseek-v4-pro", NAMED_CHAT), "openai_chat", "deepseek")
    assert fixed.body["tool_choice"] == "auto"
    assert [c.code for c in fixed.changes] == ["unforce-tool-choice"]
    assert check(fixed.body, "deepseek") == ()
    assert normalize_request(fixed.body, "openai_chat", "deepseek").changes == ()


def test_turning_thinking_off_leaves_the_forced_choice_alone() -> None:
    body = _chat("deepseek-v4-pro", "required", thinking={"type": "disabled"})
    assert normalize_request(body, "openai_chat", "deepseek").changes == ()
